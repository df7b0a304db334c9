package kiro

import (
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
)

// DefaultTimeout is Kiro's timeout for a hooks-file hook that sets none; AgentDefaultTimeout is
// kiro-cli's for an agent-config hook (timeout_ms 30000).
const (
	DefaultTimeout      = 60 * time.Second
	AgentDefaultTimeout = 30 * time.Second
)

// Agent is Kiro's descriptor (the Kiro IDE and kiro-cli): its hooks files and its agent
// configurations, from the documentation (DocsVersion), not proven inside Kiro.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Kiro",
	Binary: "kiro-cli",
	Dir:    ".kiro",
	// Kiro runs every hooks file of the workspace's and the user's hooks folders, and the hooks
	// of the agent configuration that is running.
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".kiro/hooks/*.json", Format: dialect.FormatKiroHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".kiro/agents/*.json", Format: dialect.FormatKiroAgent},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks/*.json", Format: dialect.FormatKiroHooks},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "agents/*.json", Format: dialect.FormatKiroAgent},
	},
	// The folders themselves: the Kiro IDE also runs .kiro.hook files from them, which agenthooks
	// does not read.
	Loads: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".kiro/hooks"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".kiro/agents"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "agents"},
	},
	Dialect:          DialectFor,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         toSpoken,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   KiroTool,
	GuardView:        GuardView,
	// The documentation's commands (./scripts/guard.sh) are relative to the workspace.
	HookCwd: true,
	// Kiro runs the hooks of its own files, cannot ask a person from a hook, and its
	// documentation names no way to run a hook's rewritten input that agenthooks could check.
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: dialect.GuardByExit2},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "shell", Payload: shellPayload},
	Install: dialect.Install{
		File:         "hooks/agenthooks.json",
		ProjectFile:  ".kiro/hooks/agenthooks.json",
		ShellMatcher: "shell|execute_bash", // Matcher([]string{"shell"}), a constant: no initialisation
		Events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "PreTaskExec",
			"PostTaskExec", "PostFileCreate", "PostFileSave", "PostFileDelete"},
		RunArgs:     "run --agent kiro",
		EditEvent:   "PreToolUse",
		EditMatcher: "write|fs_write",
		// Kiro's payload is Claude Code's with cwd and session_id; it honours exit 2 alone.
		GuardFormat: true,
		Timeout:     DefaultTimeout,
		Own:         hooksFile,
		Note: "note: the file is agenthooks' own: uninstall deletes it; the Kiro IDE 1.x and kiro-cli 3.x read it, kiro-cli 2.x reads only its agent configurations' hooks, which agenthooks does not edit; " +
			"Kiro's hooks follow its documentation, agenthooks cannot run Kiro to prove them",
	},
	Trust:          "runs a workspace's .kiro/hooks files with the user's ~/.kiro/hooks without asking (the documentation names no trust prompt); an agent configuration's hooks only while that agent runs",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
}

// detect: Kiro's payload is Claude Code's shape with Kiro's tool names (shell, execute_bash,
// fs_write, @server/tool), or with an agent-config event no other agent names in
// hook_event_name (agentSpawn, userPromptSubmit). The payload names one of Kiro's events and
// carries none of the fields others add (Codex's turn_id, Qwen Code's timestamp, Cursor's and
// Auggie's workspace_roots): Gemini CLI and Qwen Code name tools glob and web_fetch too. A hooks
// file's UserPromptSubmit, SessionStart or Stop payload is Claude Code's to the letter: a guard
// on it needs --format kiro.
func detect(p dialect.Probe) bool {
	if p.TurnID != nil || p.Timestamp != nil || p.WorkspaceRoots || !isEvent(p.HookEvent) {
		return false
	}
	return IsTool(p.Tool) || p.HookEvent == "agentSpawn" || p.HookEvent == "userPromptSubmit"
}

// hooksFile is the hooks file install keeps to itself, in Kiro's hooks file schema: a named
// command hook per entry, one to a line.
func hooksFile(prog, _ string, entries []dialect.InstallEntry) []byte {
	type action struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type hook struct {
		Name    string `json:"name"`
		Trigger string `json:"trigger"`
		Matcher string `json:"matcher,omitempty"`
		Action  action `json:"action"`
		Timeout int    `json:"timeout"`
	}
	lines := make([]string, 0, len(entries))
	for _, en := range entries {
		name := "agenthooks " + en.Args
		if en.Matcher != "" {
			name += " (" + en.Matcher + ")"
		}
		b, _ := dialect.Marshal(hook{Name: name, Trigger: en.Event, Matcher: en.Matcher,
			Action: action{Type: "command", Command: en.Command(prog)}, Timeout: int(DefaultTimeout / time.Second)})
		lines = append(lines, string(b))
	}
	return []byte("{\n  \"version\": " + strconv.Quote(FileVersion) + ",\n  \"hooks\": [\n    " + strings.Join(lines, ",\n    ") + "\n  ]\n}\n")
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"hook_event_name": "PreToolUse", "cwd": cwd, "session_id": "agenthooks-doctor",
		"tool_name": "shell", "tool_input": map[string]any{"command": c}}
}
