package auggie

import (
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// DefaultTimeout is Auggie's timeout for a hook whose entry sets none.
const DefaultTimeout = 60 * time.Second

// Agent is Auggie's descriptor.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Auggie",
	Binary: "auggie",
	Dir:    ".augment",
	Files: []dialect.Location{
		{Scope: dialect.ScopeLocal, Root: dialect.RootWorkspace, Path: ".augment/settings.local.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".augment/settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "settings.json", Format: dialect.FormatSettings},
	},
	Settings:         dialect.Settings{TimeoutUnit: time.Millisecond, GroupFields: []string{"metadata"}, HandlerFields: []string{"args"}},
	Dialect:          Dialect,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         ToClaude,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   AuggieTool,
	GuardView:        GuardView,
	// Auggie runs the hooks of its own settings files; a PreToolUse allow's updatedInput replaces
	// the tool's input, which its toolPermissions rules then judge. No OwnRules (they are not
	// read, and Auggie cannot run here), so no confined rewrite (docs/agents/auggie.md).
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply, Rewrite: rewriteReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "launch-process", Payload: shellPayload},
	Install: dialect.Install{
		File:         "settings.json",
		ShellMatcher: "launch-process",
		Events:       []string{"PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd", "PromptSubmit"},
		RunArgs:      "run --agent auggie",
		EditEvent:    "PreToolUse",
		EditMatcher:  "save-file|str-replace-editor|remove-files|apply_patch",
		Timeout:      DefaultTimeout,
	},
	Trust:          "runs a workspace's .augment/settings.json hooks without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
}

// detect: Auggie's payload has workspace_roots, as Cursor's, but Claude Code's PascalCase event
// names (PromptSubmit its own).
func detect(p dialect.Probe) bool {
	return p.WorkspaceRoots && ClaudeEvent(p.HookEvent) != ""
}

// guardReply is a built-in guard's decision on PreToolUse: hookSpecificOutput's deny on exit 0,
// whose reason the model reads; an allow is silence. A prompt cannot be blocked by a hook in
// Auggie (it fires PromptSubmit without waiting for its answer), so a prompt guard's deny is an
// exit 2 that at most shows the reason.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	msg := "Blocked by agenthooks: " + reason
	if kind == dialect.PromptSubmit {
		return dialect.Reply{ExitCode: 2, Stderr: []byte(msg + "\n")}
	}
	d := Dialect(dialect.AskAsDeny)
	spec, _ := d.Lookup("PreToolUse")
	return d.Encode(spec, decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg})
}

// rewriteReply is an allow that runs the tool with input instead (updatedInput replaces the
// tool's input).
func rewriteReply(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
		"permissionDecision": "allow", "permissionDecisionReason": reason, "updatedInput": input}})
	return dialect.Reply{Stdout: append(b, '\n')}
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, "PreToolUse")
	if d.Permission == decide.Deny && ev.Name != "PreToolUse" {
		out = append(out, "a block (only PreToolUse blocks in Auggie)")
	}
	return out
}

func toolKind(event, tool string) dialect.Kind {
	s, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" && ClaudeEvent(event) != "" {
		return claude.ToolKind(ClaudeEvent(event), ClaudeTool(tool))
	}
	return s.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"hook_event_name": "PreToolUse", "conversation_id": "agenthooks-doctor", "workspace_roots": []any{cwd},
		"tool_name": "launch-process", "tool_input": map[string]any{"command": c, "wait": true}, "is_mcp_tool": false}
}
