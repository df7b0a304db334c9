package cursor

import (
	"encoding/json"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Agent is Cursor's descriptor.
var Agent = dialect.Agent{
	Name:       dialect.Cursor,
	Title:      "Cursor",
	Binary:     "cursor-agent",
	Dir:        ".cursor",
	ManagedDir: ManagedDir,
	ManagedEnv: "AGENTHOOKS_ENTERPRISE_DIR",
	Files: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "hooks.json", Format: dialect.FormatHooks},
		{Scope: dialect.ScopeTeam, Root: dialect.RootTeam, Path: "team_*/hooks/hooks.json", Format: dialect.FormatHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".cursor/hooks.json", Format: dialect.FormatHooks},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks.json", Format: dialect.FormatHooks},
	},
	Dialect:         func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind:        toolKind,
	PayloadDefaults: payloadDefaults,
	PreToolSiblings: true,
	Answer:          dialect.Answer{CanAsk: true, Loses: loses, Guard: guardReply, RewriteInRun: rewriteInRun},
	Shell:           dialect.Shell{Event: "beforeShellExecution", Payload: shellPayload},
	Install: dialect.Install{
		File: "hooks.json",
		Events: []string{"preToolUse", "postToolUse", "postToolUseFailure", "beforeSubmitPrompt", "stop",
			"subagentStart", "subagentStop", "sessionStart", "sessionEnd", "preCompact"},
		RunArgs:     "run --agent cursor --from claude",
		EditEvent:   "preToolUse",
		EditMatcher: "Write|Delete",
		FailClosed:  true,
	},
	Trust:          "runs a project's .cursor/hooks.json in a workspace it opens; enterprise hooks.json comes first",
	DefaultTimeout: 30 * time.Second,
	Detect:         detect,
	// Claude Code's settings files, .claude/settings.local.json, .claude/settings.json and
	// ~/.claude/settings.json (not its managed ones), below Cursor's own in priority; Cursor maps
	// their events (PreToolUse to preToolUse, ...) and tool names (Bash to Shell, Edit to Write)
	// and sends them its own payload (cursor.com/docs/reference/third-party-hooks, read
	// 2026-11-24). agenthooks' entries there step aside for Cursor's own (engine.Repeat).
	Reads: []dialect.Shared{{Agent: dialect.Claude, Scopes: []dialect.Scope{dialect.ScopeLocal, dialect.ScopeProject, dialect.ScopeUser},
		Setting: "Third-party skills (Cursor Settings, Rules, Skills, Subagents)"}},
}

// detect: Cursor's payloads name the workspace roots, and its events are camelCase
// (beforeShellExecution, preToolUse); beforeShellExecution's command is at the top level, and
// preToolUse calls the shell tool Shell.
func detect(p dialect.Probe) bool {
	return p.WorkspaceRoots || p.CommandOnly || p.Tool == "Shell" || p.HookEvent != "" && p.HookEvent[0] >= 'a' && p.HookEvent[0] <= 'z'
}

// ManagedDir returns the platform folder of Cursor's enterprise hooks.json.
func ManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/Cursor"
	case "windows":
		return `C:\ProgramData\Cursor`
	}
	return "/etc/cursor"
}

// guardReply is Cursor's JSON: a prompt's continue, a read's permission (reads know no ask),
// a tool call's permission with the reason for the user and the model.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	out := map[string]any{"permission": string(perm)}
	switch {
	case kind == dialect.PromptSubmit:
		out = map[string]any{"continue": perm == decide.Allow}
		if perm != decide.Allow {
			out["user_message"] = "agenthooks: " + reason
		}
	case kind == dialect.BeforeRead && perm != decide.Allow:
		out["permission"], out["user_message"] = "deny", "agenthooks: "+reason
	case perm != decide.Allow:
		out["user_message"] = "agenthooks: " + reason
		out["agent_message"] = "agenthooks " + map[decide.Permission]string{decide.Deny: "blocked", decide.Ask: "asks the user about"}[perm] + " this command: " + reason
	}
	b, _ := dialect.Marshal(out)
	return dialect.Reply{Stdout: append(b, '\n')}
}

// rewriteInRun is preToolUse's allow with updated_input, as agenthooks run reads it from a
// hook in Cursor's format; Cursor's own shell event, beforeShellExecution, cannot rewrite.
func rewriteInRun(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"permission": "allow", "updated_input": input,
		"user_message": "agenthooks: " + reason, "agent_message": "agenthooks: " + reason})
	return dialect.Reply{Stdout: append(b, '\n')}
}

// loses names what of d Cursor's answer to ev cannot carry: updated input outside preToolUse,
// a follow-up outside the stop events, a system message, continue:false where the event does
// not gate, context outside postToolUse and sessionStart.
func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, "preToolUse")
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	if d.Halt && !ev.Gates {
		out = append(out, "continue: false")
	}
	if d.AdditionalContext != "" && ev.Name != "postToolUse" && ev.Name != "sessionStart" {
		out = append(out, "additional context")
	}
	return out
}

// payloadDefaults are the fields Cursor sends on every event (workspaceOpen has no conversation).
func payloadDefaults(event string, workspaces []string) []dialect.Field {
	ws, _ := json.Marshal(workspaces)
	name, _ := json.Marshal(event)
	out := []dialect.Field{{Key: "hook_event_name", JSON: string(name)}, {Key: "cursor_version", JSON: `""`},
		{Key: "workspace_roots", JSON: string(ws)}, {Key: "user_email", JSON: "null"}}
	if event != "workspaceOpen" {
		out = append(out, dialect.Field{Key: "conversation_id", JSON: `""`}, dialect.Field{Key: "generation_id", JSON: `""`},
			dialect.Field{Key: "model", JSON: `""`}, dialect.Field{Key: "transcript_path", JSON: "null"})
	}
	return out
}

// toolKind is the event's kind: Cursor's matchers do not narrow it.
func toolKind(event, tool string) dialect.Kind {
	e, ok := Lookup(event)
	if !ok || tool != "" {
		return ""
	}
	return e.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"conversation_id": "agenthooks-doctor", "generation_id": "1", "hook_event_name": "beforeShellExecution",
		"command": c, "cwd": cwd, "workspace_roots": []string{cwd}}
}
