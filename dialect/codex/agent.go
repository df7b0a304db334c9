package codex

import (
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is Codex's descriptor.
var Agent = dialect.Agent{
	Name:    dialect.Codex,
	Title:   "Codex",
	Binary:  "codex",
	Dir:     ".codex",
	HomeEnv: "CODEX_HOME",
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".codex/hooks.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".codex/config.toml", Format: dialect.FormatCodexTOML},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "config.toml", Format: dialect.FormatCodexTOML},
	},
	// Configs: codex --profile NAME (0.169.0) layers $CODEX_HOME/NAME.config.toml over the
	// user's config.toml, so a new one can turn the hooks off ([features] hooks = false).
	Configs:  []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "*.config.toml"}},
	Dialect:  New,
	ToolKind: claude.ToolKind, // Claude Code's events and tools
	Speaks:   dialect.Claude,
	OwnRules: ownRules,
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: claude.Loses, Guard: dialect.GuardByExit2,
		Rewrite: claude.Rewrite}, // Codex 0.169 runs PreToolUse's updatedInput (e2e TestCodexConfine),
	Shell: dialect.Shell{Event: "PreToolUse", Tool: "Bash", Payload: shellPayload},
	Install: dialect.Install{
		File:         "hooks.json",
		ShellMatcher: "Bash",
		// Codex does not read Claude Code's or Cursor's files: the runner reads both.
		Events: []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStart",
			"SubagentStop", "SessionStart", "SessionEnd", "PreCompact"},
		RunArgs:     "run --agent codex",
		EditEvent:   "PreToolUse",
		EditMatcher: "apply_patch",
		Note:        "note: Codex skips hooks nobody has reviewed, silently: review them in codex (or pass codex exec --dangerously-bypass-hook-trust), and trust the project for project hooks",
	},
	Doctor:         dialect.Doctor{Switches: switches, Review: review},
	Trust:          "runs only hooks the user reviewed, and project hooks only in a trusted project",
	Unhooked:       "write_stdin: what the model types into a command still running (an interactive shell exec_command started) never reaches the guard", // 0.169: e2e TestCodexWriteStdinUnhooked
	DefaultTimeout: 600 * time.Second,
	Proven: []dialect.Proof{
		{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestCodexShellGuard"},
		{Event: "PreToolUse", Can: dialect.CapRewrite, Test: "TestCodexConfine"},
		{Event: "UserPromptSubmit", Can: dialect.CapBlock, Test: "TestCodexPromptGuard"},
	},
	Detect: func(p dialect.Probe) bool { return p.TurnID != nil }, // Claude Code's fields plus turn_id
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"session_id": "agenthooks-doctor", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": c}, "cwd": cwd, "model": "doctor", "turn_id": "1", "permission_mode": "default"}
}
