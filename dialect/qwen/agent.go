package qwen

import (
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is Qwen Code's descriptor.
var Agent = dialect.Agent{
	Name:       Name,
	Title:      "Qwen Code",
	Short:      "Qwen",
	Binary:     "qwen",
	Dir:        ".qwen",
	HomeEnv:    "QWEN_HOME", // 0.24.4: Storage.getGlobalQwenDir, the user settings.json's folder
	ManagedDir: ManagedDir,
	Files: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "settings.json", Format: dialect.FormatSettings,
			Env: "QWEN_CODE_SYSTEM_SETTINGS_PATH"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".qwen/settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "settings.json", Format: dialect.FormatSettings},
	},
	// QWEN_HOME replaces ~/.qwen (Qwen Code 0.24.4's getGlobalQwenDir).
	Configs: []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "QWEN_HOME", Path: "settings.json"}},
	Settings: dialect.Settings{TimeoutUnit: time.Millisecond, GroupFields: []string{"sequential"},
		HandlerFields: []string{"name", "description"}},
	Dialect:          func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind:         toolKind,
	HookSwitches:     true, // disableAllHooks
	Speaks:           dialect.Claude,
	ToSpoken:         toSpoken,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   QwenTool,
	HookCwd:          true, // Qwen spawns a hook with cwd: the payload's cwd (hookRunner)
	// Qwen Code runs the hooks of its own settings files; a PreToolUse hook's rewritten input is
	// not applied in 0.24.4, so there is no Rewrite.
	Answer: dialect.Answer{CanAsk: true, RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "run_shell_command", Payload: shellPayload},
	Install: dialect.Install{
		File:         "settings.json",
		ShellMatcher: "run_shell_command|monitor", // monitor, a deferred tool, runs a shell command: PreToolUse as monitor in 0.24.4 (e2e TestQwenMonitorGuard)
		Events: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
			"SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact"},
		RunArgs:     "run --agent qwen",
		EditEvent:   "PreToolUse",
		EditMatcher: "write_file|edit|notebook_edit", // e2e TestQwenFileToolsGuard
		HandlerName: "agenthooks",
		Timeout:     DefaultTimeout,
		ProjectNote: "note: Qwen Code runs project hooks only in a trusted folder",
	},
	Doctor: dialect.Doctor{HooksFile: switchedOff, Switches: switches, OffVars: []dialect.OffVar{ // 0.24.4
		{Env: "QWEN_CODE_SIMPLE", Does: "what --bare sets: disableAllHooks"},
		{Env: "QWEN_CODE_SAFE_MODE", Does: "what --safe-mode sets: disableAllHooks"}}},
	Trust:          "runs a project's .qwen/settings.json only in a trusted folder, never with --bare or --safe-mode",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
	Proven: []dialect.Proof{
		{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestQwenShellGuard"},
		{Event: "UserPromptSubmit", Can: dialect.CapBlock, Test: "TestQwenPromptGuard"},
	},
}

// ManagedDir returns the platform folder of Qwen Code's system settings.json.
func ManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/QwenCode"
	case "windows":
		return `C:\ProgramData\qwen-code`
	}
	return "/etc/qwen-code"
}

// detect: Qwen Code sends Claude Code's event names and fields with Gemini CLI's tool names
// (run_shell_command) and a timestamp, which Claude Code's payloads do not carry; its tool and
// prompt events are named as no Gemini CLI event is.
func detect(p dialect.Probe) bool {
	// the payload's own fields first: the event table is built only for a payload they leave open
	if _, stamped := p.Timestamp.(string); p.TurnID != nil || !stamped && ClaudeTool(p.Tool) == p.Tool {
		return false
	}
	e, ok := events()[p.HookEvent]
	if !ok || e.claude == "" {
		return false
	}
	switch e.Kind {
	case dialect.PreTool, dialect.PostTool, dialect.PostToolFailure, dialect.PromptSubmit, dialect.Stop, dialect.SubagentStop:
	default:
		if p.HookEvent != "PermissionRequest" && p.HookEvent != "PostToolBatch" {
			return false
		}
	}
	return true
}

// toSpoken rewrites a Qwen Code payload as its Claude Code namesake's; an event with none keeps
// its payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on PreToolUse (or
// UserPromptSubmit for a prompt): JSON on stdout with exit status 0, a deny carrying both the
// top-level decision "block" and hookSpecificOutput's deny. An allow is silence: Qwen merges
// hooks' permissionDecision with the last one winning, so an allow written out could outvote
// another hook's deny.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm == decide.Allow || perm == decide.None {
		return dialect.Reply{}
	}
	event := "PreToolUse"
	if kind == dialect.PromptSubmit {
		event = "UserPromptSubmit"
	}
	spec, _ := Dialect.Lookup(event)
	d := decide.Decision{Permission: perm, UserMessage: reason, AgentMessage: reason}
	if perm == decide.Deny {
		d.UserMessage, d.AgentMessage = "Blocked by agenthooks: "+reason, "Blocked by agenthooks: "+reason
	}
	return Dialect.Encode(spec, d)
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	return dialect.Loses(ev, d, "PermissionRequest")
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's namesake event is by the
// tool's Claude Code name.
func toolKind(event, tool string) dialect.Kind {
	e, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" && e.claude != "" {
		return claude.ToolKind(e.claude, ClaudeTool(tool))
	}
	return e.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"session_id": "agenthooks-doctor", "hook_event_name": "PreToolUse", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": c}, "cwd": cwd, "permission_mode": "default",
		"timestamp": "2026-01-01T00:00:00.000Z", "tool_call_id": "agenthooks-doctor"}
}
