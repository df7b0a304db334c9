package windsurf

import (
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// DefaultTimeout is the timeout agenthooks gives a Cascade hook: the documentation names none,
// and a hooks.json entry has no timeout field.
const DefaultTimeout = 30 * time.Second

// Agent is Windsurf's (and Devin Desktop's) descriptor: Cascade's hooks.json files, from the
// documentation (DocsVersion), not proven inside the editor.
var Agent = dialect.Agent{
	Name:       Name,
	Title:      "Windsurf",
	Binary:     "windsurf",
	Dir:        ".codeium/windsurf",
	ManagedDir: ManagedDir,
	ManagedEnv: "AGENTHOOKS_WINDSURF_SYSTEM_DIR",
	// Cascade merges the three files and runs every hook of an event, system, then user, then
	// workspace.
	Files: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "hooks.json", Format: dialect.FormatWindsurfHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".windsurf/hooks.json", Format: dialect.FormatWindsurfHooks},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks.json", Format: dialect.FormatWindsurfHooks},
	},
	Dialect:          DialectFor,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         toSpoken,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	GuardView:        GuardView,
	// The documentation's commands (python3 .windsurf/hooks/x.py) are relative to the workspace.
	HookCwd: true,
	// Cascade runs the hooks of its own files, cannot ask a person from a hook, and has no way to
	// run a hook's rewritten input.
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: dialect.GuardByExit2},
	Shell:  dialect.Shell{Event: "pre_run_command", Payload: shellPayload},
	Install: dialect.Install{
		File:        "hooks.json",
		ProjectFile: ".windsurf/hooks.json",
		Events: []string{"pre_read_code", "pre_write_code", "pre_run_command", "pre_mcp_tool_use", "pre_user_prompt",
			"post_read_code", "post_write_code", "post_run_command", "post_mcp_tool_use", "post_cascade_response"},
		RunArgs:   "run --agent windsurf",
		EditEvent: "pre_write_code",
		Note:      "note: Cascade's hooks follow Windsurf's documentation; agenthooks cannot run Windsurf to prove them",
	},
	Trust:          "runs a workspace's .windsurf/hooks.json with the user's and the system's, without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
}

// detect: Cascade's payload names its event in agent_action_name, which no other agent's
// payload has (the event table is built only for a payload that has it).
func detect(p dialect.Probe) bool {
	if p.ActionName == "" {
		return false
	}
	_, ok := events()[p.ActionName]
	return ok
}

// ManagedDir returns the folder of Cascade's system-level hooks.json on a platform.
func ManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/Windsurf"
	case "windows":
		return `C:\ProgramData\Windsurf`
	}
	return "/etc/windsurf"
}

// toSpoken rewrites a Cascade payload as its Claude Code namesake's; an event with none keeps
// its payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// toolKind is the event's kind: Cascade has an event per kind of action and no matchers.
func toolKind(event, _ string) dialect.Kind {
	if e, ok := events()[event]; ok {
		return e.Kind
	}
	return ""
}

// loses: Cascade reads nothing but the exit status and stderr of a pre-hook, so a decision's
// context, system message and rewritten input do not reach it.
func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d)
	if d.AdditionalContext != "" {
		out = append(out, "additional context")
	}
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	if d.Halt && !ev.Gates {
		out = append(out, "a stop request")
	}
	return out
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"agent_action_name": "pre_run_command", "trajectory_id": "agenthooks-doctor",
		"execution_id": "agenthooks-doctor", "timestamp": "2026-01-01T00:00:00Z",
		"tool_info": map[string]any{"command_line": c, "cwd": cwd}}
}
