package antigravity

import (
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is Antigravity CLI's descriptor: its hooks.json files, from the documentation
// (DocsVersion), not proven inside the agent.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Antigravity CLI",
	Short:  "Antigravity",
	Binary: "agy",
	Dir:    ".gemini/config",
	// agy merges every hooks.json it finds: the user's and a workspace's customization root
	// (.agents, also .agent, _agents and _agent).
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".agents/hooks.json", Format: dialect.FormatAntigravityHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".agent/hooks.json", Format: dialect.FormatAntigravityHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "_agents/hooks.json", Format: dialect.FormatAntigravityHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "_agent/hooks.json", Format: dialect.FormatAntigravityHooks},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks.json", Format: dialect.FormatAntigravityHooks},
	},
	Dialect:          func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         toSpoken,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   AgyTool,
	GuardView:        GuardView,
	// agy runs the hooks of its own files and can ask a person; it has no way to run a hook's
	// rewritten input.
	Answer: dialect.Answer{CanAsk: true, RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "run_command", Payload: shellPayload},
	Install: dialect.Install{
		File:         "hooks.json",
		ProjectFile:  ".agents/hooks.json",
		Group:        "agenthooks",
		ShellMatcher: "run_command",
		Events:       []string{"PreToolUse", "PostToolUse", "Stop"},
		RunArgs:      "run --agent antigravity",
		EditEvent:    "PreToolUse",
		EditMatcher:  "write_to_file|replace_file_content|multi_replace_file_content",
		Note:         "note: Antigravity's hooks follow its documentation; agenthooks cannot run agy to prove them",
	},
	Trust:          "runs a workspace's .agents/hooks.json with the user's, without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         func(p dialect.Probe) bool { return p.ToolCall },
}

// toSpoken rewrites an agy payload as its Claude Code namesake's; an event with none keeps its
// payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// guardReply is a built-in guard's decision as Encode writes it on PreToolUse: always a
// decision, as agy fails closed on none; an allow is "allow", which leaves agy's own review in
// place.
func guardReply(_ dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	spec, _ := Dialect.Lookup("PreToolUse")
	d := decide.Decision{Permission: perm, UserMessage: reason, AgentMessage: reason}
	if perm == decide.Deny {
		d.UserMessage, d.AgentMessage = "Blocked by agenthooks: "+reason, "Blocked by agenthooks: "+reason
	}
	return Dialect.Encode(spec, d)
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d)
	if d.AdditionalContext != "" {
		out = append(out, "additional context")
	}
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	return out
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's namesake event is by the
// tool's Claude Code name.
func toolKind(event, tool string) dialect.Kind {
	e, ok := events()[canonical(event)]
	if !ok {
		return ""
	}
	if tool != "" && e.claude != "" {
		return claude.ToolKind(e.claude, ClaudeTool(tool))
	}
	return e.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"conversationId": "agenthooks-doctor", "workspacePaths": []any{cwd}, "stepIdx": 0,
		"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": c, "Cwd": cwd}}}
}
