package gemini

import (
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is Gemini CLI's descriptor.
var Agent = dialect.Agent{
	Name:   dialect.Gemini,
	Title:  "Gemini CLI",
	Short:  "Gemini",
	Binary: "gemini",
	Dir:    ".gemini",
	// 0.61.0: GEMINI_CLI_HOME replaces the home folder Gemini CLI keeps its .gemini in
	HomeVars: []dialect.HomeVar{{Env: "GEMINI_CLI_HOME", Path: ".gemini"}},
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".gemini/settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "settings.json", Format: dialect.FormatSettings},
	},
	// Extensions (their hooks/hooks.json and MCP servers run at start): ~/.gemini/extensions, and
	// a workspace's .gemini/extensions, which earlier releases load too. agenthooks reads neither.
	Loads: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".gemini/extensions"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "extensions"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "GEMINI_CLI_HOME", Path: ".gemini/extensions"},
	},
	// GEMINI_CLI_HOME stands for the home folder (Gemini CLI 0.61.0's homedir()): its
	// .gemini/settings.json is the user's settings then.
	Configs: []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "GEMINI_CLI_HOME", Path: ".gemini/settings.json"}},
	Settings: dialect.Settings{TimeoutUnit: time.Millisecond, GroupFields: []string{"sequential"},
		HandlerFields: []string{"name", "description"}},
	Dialect:          New,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         toSpoken,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   GeminiTool,
	Answer:           dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: dialect.GuardByExit2, Rewrite: rewrite, RewriteInRun: rewriteInRun},
	Shell:            dialect.Shell{Event: "BeforeTool", Tool: "run_shell_command", Payload: shellPayload},
	OwnRules:         ownRules,
	Install: dialect.Install{
		File:         "settings.json",
		ShellMatcher: "run_shell_command",
		Events: []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart",
			"SessionEnd", "PreCompress"},
		RunArgs:     "run --agent gemini",
		EditEvent:   "BeforeTool",
		EditMatcher: "write_file|replace",
		HandlerName: "agenthooks",
		ProjectNote: "note: Gemini CLI runs project hooks only in a trusted folder",
	},
	Doctor:         dialect.Doctor{HooksFile: switchedOff, Switches: switches},
	Trust:          "runs a project's .gemini/settings.json only in a trusted folder",
	DefaultTimeout: 60 * time.Second,
	Proven: []dialect.Proof{
		{Event: "BeforeTool", Can: dialect.CapBlock, Test: "TestGeminiShellGuard"},
		{Event: "BeforeTool", Can: dialect.CapRewrite, Test: "TestGeminiConfine"},
		{Event: "BeforeAgent", Can: dialect.CapBlock, Test: "TestGeminiPromptGuard"},
	},
	Detect: detect,
}

// detect: Gemini's events (BeforeTool, BeforeAgent) and tool names (run_shell_command,
// read_file) are its own.
func detect(p dialect.Probe) bool {
	return p.HookEvent == "BeforeTool" || p.HookEvent == "AfterTool" || p.HookEvent == "BeforeAgent" || ClaudeTool(p.Tool) != p.Tool
}

// toSpoken rewrites a Gemini payload as its Claude Code namesake's; an event with none keeps
// its payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// rewrite is BeforeTool's hookSpecificOutput.tool_input, which Gemini CLI runs.
func rewrite(input map[string]any, _ string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "BeforeTool", "tool_input": input}})
	return dialect.Reply{Stdout: append(b, '\n')}
}

// rewriteInRun is rewrite with decision allow and the reason beside it, which agenthooks run
// reads (Gemini CLI itself was shown to run the rewrite with tool_input alone).
func rewriteInRun(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "BeforeTool", "tool_input": input},
		"decision": "allow", "reason": "agenthooks: " + reason})
	return dialect.Reply{Stdout: append(b, '\n')}
}

func loses(ev *dialect.Spec, d decide.Decision) []string { return dialect.Loses(ev, d, "BeforeTool") }

// toolKind is the event's kind, narrowed by a tool as Claude Code's namesake event is by the
// tool's Claude Code name.
func toolKind(event, tool string) dialect.Kind {
	if tool != "" {
		return claude.ToolKind(ClaudeEvent(event), ClaudeTool(tool))
	}
	if e, ok := events()[event]; ok {
		return e.Kind
	}
	return ""
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"session_id": "agenthooks-doctor", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": c}, "cwd": cwd, "timestamp": "2026-01-01T00:00:00Z"}
}
