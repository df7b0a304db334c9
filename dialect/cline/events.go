package cline

import (
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "cline"

// Version is the Cline CLI release whose bundled hooks code this package follows; SDKVersion is
// the @cline/core it ships, where that code lives (hooks/hook-file-hooks, subprocess-runner).
const (
	Version    = "3.0.65"
	SDKVersion = "0.0.86"
)

// Events are the hook files Cline knows, each named after its event (HookConfigFileName in
// @cline/core; Notification is the VS Code extension's only).
var Events = []string{"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError", "PreToolUse",
	"PostToolUse", "UserPromptSubmit", "PreCompact", "SessionShutdown", "Notification"}

// event is one Cline event: its spec, its namesake in Claude Code, whose hooks run for it and
// whose payload shape it is rewritten into, the SDK's name for it (the CLI's payload hookName),
// and its payload's own data field.
type event struct {
	dialect.Spec
	claude string // Claude Code's event, "" for none
	sdk    string // the CLI's hookName (tool_call, agent_start, ...), "" when the CLI never fires it
	data   string // the payload's field for the event's data (preToolUse, taskStart, ...)
	// answered: the Cline CLI 3.0.65 waits for the hook and reads its answer: PreToolUse and
	// PostToolUse only. It runs every other hook detached and reads nothing from it (the VS Code
	// extension also reads TaskStart's and UserPromptSubmit's; this table follows the CLI).
	answered bool
	// vscode: the VS Code extension waits for it and reads its answer, where the CLI does not
	// (TaskStart and UserPromptSubmit: a cancel there stops the task).
	vscode bool
}

var eventsValue dialect.Lazy[map[string]*event]

func events() map[string]*event {
	return eventsValue.Get(func() map[string]*event {
		spec := func(name string, kind dialect.Kind, gates bool) dialect.Spec {
			s := dialect.Spec{Dialect: Name, Name: name, Kind: kind, Gates: gates}
			if kind == dialect.PreTool || kind == dialect.PostTool {
				s.Target, s.MatchField = dialect.FieldName, "tool_name"
			}
			return s
		}
		list := []event{
			{Spec: spec("TaskStart", dialect.SessionStart, false), claude: "SessionStart", sdk: "agent_start", data: "taskStart", vscode: true},
			{Spec: spec("TaskResume", dialect.SessionStart, false), claude: "SessionStart", sdk: "agent_resume", data: "taskResume"},
			{Spec: spec("TaskCancel", "", false), sdk: "agent_abort", data: "taskCancel"},
			{Spec: spec("TaskComplete", dialect.Stop, false), claude: "Stop", sdk: "agent_end", data: "taskComplete"},
			{Spec: spec("TaskError", "", false), sdk: "agent_error"},
			{Spec: spec("PreToolUse", dialect.PreTool, true), claude: "PreToolUse", sdk: "tool_call", data: "preToolUse", answered: true},
			{Spec: spec("PostToolUse", dialect.PostTool, false), claude: "PostToolUse", sdk: "tool_result", data: "postToolUse", answered: true},
			{Spec: spec("UserPromptSubmit", dialect.PromptSubmit, false), claude: "UserPromptSubmit", sdk: "prompt_submit", data: "userPromptSubmit", vscode: true},
			{Spec: spec("PreCompact", dialect.PreCompact, false), claude: "PreCompact", data: "preCompact"},
			{Spec: spec("SessionShutdown", dialect.SessionEnd, false), claude: "SessionEnd", sdk: "session_shutdown"},
			{Spec: spec("Notification", "", false), claude: "Notification", data: "notification"},
		}
		m := make(map[string]*event, 2*len(list))
		for i := range list {
			m[list[i].Name] = &list[i]
		}
		return m
	})
}

var sdkNamesValue dialect.Lazy[map[string]string]

// EventOf names the Cline event of a payload's hookName: the event itself (the VS Code
// extension's "PreToolUse") or the CLI's SDK name ("tool_call"); "" for neither.
func EventOf(hookName string) string {
	if _, ok := events()[hookName]; ok {
		return hookName
	}
	return sdkNamesValue.Get(func() map[string]string {
		m := map[string]string{}
		for _, e := range events() {
			if e.sdk != "" {
				m[e.sdk] = e.Name
			}
		}
		return m
	})[hookName]
}

// ClaudeEvent names the Claude Code event whose hooks run for a Cline event, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's PreToolUse is by the tool's
// Claude Code name (run_commands is a before-shell call).
func toolKind(event, tool string) dialect.Kind {
	e, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" && e.claude != "" && (e.Kind == dialect.PreTool || e.Kind == dialect.PostTool) {
		return claude.ToolKind(e.claude, ClaudeTool(tool, nil))
	}
	return e.Kind
}
