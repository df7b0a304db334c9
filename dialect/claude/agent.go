package claude

import (
	"encoding/json"
	"os"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Agent is Claude Code's descriptor.
var Agent = dialect.Agent{
	Name:       dialect.Claude,
	Title:      "Claude Code",
	Binary:     "claude",
	Dir:        ".claude",
	HomeEnv:    "CLAUDE_CONFIG_DIR", // 2.1.328: the user settings are $CLAUDE_CONFIG_DIR/settings.json
	ManagedDir: ManagedDir,
	ManagedEnv: "AGENTHOOKS_CLAUDE_MANAGED_DIR",
	Files: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "managed-settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "managed-settings.d/*.json", Format: dialect.FormatSettings},
		// A team bundle written in Claude Code's format (agenthooks sync) is the team layer.
		{Scope: dialect.ScopeTeam, Root: dialect.RootTeam, Path: "team_*/hooks/settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeLocal, Root: dialect.RootWorkspace, Path: ".claude/settings.local.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".claude/settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "settings.json", Format: dialect.FormatSettings},
	},
	// Installed plugins (~/.claude/plugins: their hooks/hooks.json, MCP servers and scripts run
	// once a plugin is enabled), which agenthooks does not read.
	// CLAUDE_CONFIG_DIR moves ~/.claude, its settings.json and plugins with it; agenthooks reads
	// hooks from ~/.claude, and protects both places.
	Loads: []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "CLAUDE_CONFIG_DIR", Path: "plugins"}},
	Configs:      []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "CLAUDE_CONFIG_DIR", Path: "settings.json"}},
	Dialect:      func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind:     ToolKind,
	HookSwitches: true,
	HookCwd:      true,
	Answer:       dialect.Answer{CanAsk: true, Loses: Loses, Guard: guardReply, Rewrite: Rewrite},
	Shell:        dialect.Shell{Event: "PreToolUse", Tool: "Bash", Payload: shellPayload, GitBashOnWindows: true},
	OwnRules:     ownRules,
	Install: dialect.Install{
		File:         "settings.json",
		ShellMatcher: "Bash",
		Events: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
			"SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact"},
		RunArgs:     "run --agent claude --from cursor",
		EditEvent:   "PreToolUse",
		EditMatcher: "Write|Edit|MultiEdit|NotebookEdit",
	},
	Doctor: dialect.Doctor{SessionEnv: sessionEnv, OffVars: []dialect.OffVar{ // 2.1.328
		{Env: "CLAUDE_CODE_SIMPLE", Does: "what --bare sets: no hooks from settings or plugins"},
		{Env: "CLAUDE_CODE_SAFE_MODE", Does: "what --safe-mode sets: no hooks but an organization's"}}},
	Trust:          "runs a project's .claude/settings.json after the user trusts the folder; managed settings can allow managed hooks only or switch hooks off",
	DefaultTimeout: 600 * time.Second,
	EventTimeout:   eventTimeout,
	Proven: []dialect.Proof{
		{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestClaudeShellGuard"},
		{Event: "PreToolUse", Can: dialect.CapRewrite, Test: "TestClaudeConfine"},
		{Event: "UserPromptSubmit", Can: dialect.CapBlock, Test: "TestClaudePromptAndReadGuards"},
	},
}

// Loses names what of d Claude Code's answer to ev cannot carry: updated input outside
// PreToolUse and PermissionRequest, a follow-up outside the stop events.
func Loses(ev *dialect.Spec, d decide.Decision) []string {
	return dialect.Loses(ev, d, "PreToolUse", "PermissionRequest")
}

// guardReply: a prompt is blocked by UserPromptSubmit's decision "block"; on a tool call a deny
// is exit 2 with the reason on stderr, an ask PreToolUse's JSON.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	switch {
	case kind == dialect.PromptSubmit && perm != decide.Allow:
		return jsonReply(map[string]string{"decision": "block", "reason": "agenthooks: " + reason})
	case kind == dialect.PromptSubmit:
		return dialect.Reply{}
	case perm == decide.Ask:
		return jsonReply(map[string]any{"hookSpecificOutput": map[string]string{
			"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "agenthooks: " + reason}})
	}
	return dialect.GuardByExit2(kind, perm, reason)
}

// Rewrite is PreToolUse's allow with updatedInput, which Claude Code (and Codex) run.
func Rewrite(input map[string]any, reason string) dialect.Reply {
	return jsonReply(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "allow",
		"permissionDecisionReason": "agenthooks: " + reason, "updatedInput": input}})
}

func jsonReply(v any) dialect.Reply {
	b, _ := dialect.Marshal(v)
	return dialect.Reply{Stdout: append(b, '\n')}
}

// ManagedDir returns the folder of Claude Code's managed settings on a platform.
func ManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}

// sessionEnv reads the "env" of a Claude Code settings file: the variables it sets for its
// sessions, and so for its hooks.
func sessionEnv(file string) map[string]string {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var s struct {
		Env map[string]any `json:"env"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range s.Env {
		if str, ok := v.(string); ok {
			out[k] = str
		}
	}
	return out
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"session_id": "agenthooks-doctor", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": c}, "cwd": cwd, "permission_mode": "default"}
}

// eventTimeout is Claude Code's timeout for the events whose hooks it gives less than 600 s: a
// UserPromptSubmit hook 30 s, and SessionEnd's hooks 1.5 s together (its default budget, which
// CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS or an entry's timeout of up to 60 s raises), as the
// project's survey of the agents' hook dialects gives them for Claude Code 2.1.x. Both are in
// the 2.1.328 binary: the UserPromptSubmit hooks run with timeoutMs 30000 beside the 600000
// default, and SessionEnd's budget is SESSION_END_HOOK_TIMEOUT_MS_DEFAULT.
func eventTimeout(event string) time.Duration {
	switch event {
	case "UserPromptSubmit":
		return 30 * time.Second
	case "SessionEnd":
		return 1500 * time.Millisecond
	}
	return 0
}
