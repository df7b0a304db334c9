package cursor

import (
	"time"

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
	Dialect: func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind: toolKind,
	Answer:   dialect.Answer{CanAsk: true},
	Shell:   dialect.Shell{Event: "beforeShellExecution", Payload: shellPayload},
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
