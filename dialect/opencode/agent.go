package opencode

import (
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is OpenCode's descriptor. Its "hooks file" is the plugin agenthooks writes: OpenCode has
// no hook commands of its own.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "OpenCode",
	Binary: "opencode",
	// OpenCode's user folder is $XDG_CONFIG_HOME/opencode, ~/.config/opencode by default; a
	// project's is .opencode (Install.ProjectFile).
	Dir: ".config/opencode",
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/" + PluginFile, Format: dialect.FormatOpenCodePlugin},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: PluginFile, Format: dialect.FormatOpenCodePlugin},
	},
	// Every folder OpenCode loads plugins and custom tools from at start, in the project's
	// .opencode and in ~/.config/opencode (its loader's {plugin,plugins}/*.{js,ts} and
	// {tool,tools}/*.{js,ts}): a file put there runs inside OpenCode, unguarded.
	Loads: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/plugin"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/plugins"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/tool"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/tools"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugin"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "tool"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "tools"},
	},
	Dialect:          Dialect,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         ToClaude,
	SpokenEvent:      claudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   OpenCodeTool,
	GuardView:        GuardView,
	HookCwd:          true, // the plugin runs agenthooks in the project's folder
	// The plugin is OpenCode's only hook: it runs the entries of its own settings. A rewrite of
	// the tool's arguments ({"decision":"allow","args":...}) replaces, in place, the very object
	// OpenCode 1.18.33 then runs the tool with; its bash tool applies OpenCode's permission rules
	// after the plugin, to the rewritten command, so the confined rewrite reads them first
	// against the original (OwnRules).
	OwnRules: ownRules,
	Answer:   dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply, Rewrite: rewriteReply},
	Shell:    dialect.Shell{Event: BeforeTool, Tool: "bash", Payload: shellPayload},
	Install: dialect.Install{
		File:         PluginFile,
		ProjectFile:  ".opencode/" + PluginFile,
		ShellMatcher: "bash",
		Events:       []string{BeforeTool, AfterTool},
		RunArgs:      "run --agent opencode",
		EditEvent:    BeforeTool,
		EditMatcher:  "edit|write|multiedit|apply_patch|patch",
		FailClosed:   true,
		Timeout:      DefaultTimeout,
		Own:          Plugin,
		Note: "note: the plugin is agenthooks' own file (uninstall deletes it); OpenCode loads it at start, so restart OpenCode. " +
			"It blocks every tool call when agenthooks cannot be run (fail closed)",
		ProjectNote: "note: OpenCode loads a project's .opencode plugins without asking",
	},
	Trust:          "loads a project's .opencode plugins without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
	Proven: []dialect.Proof{{Event: BeforeTool, Can: dialect.CapBlock, Test: "TestOpenCodeShellGuard"},
		{Event: BeforeTool, Can: dialect.CapRewrite, Test: "TestOpenCodeConfine"}},
}

// detect: the plugin names its event with OpenCode's dotted hook names, which no other agent
// uses.
func detect(p dialect.Probe) bool {
	_, ok := events()[p.HookEvent]
	return ok
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on tool.execute.before:
// a deny is {"decision":"deny"} with the reason, which the plugin throws and the model reads;
// anything else is silence.
func guardReply(_ dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	msg := "Blocked by agenthooks: " + reason
	d := Dialect(dialect.AskAsDeny)
	spec, _ := d.Lookup(BeforeTool)
	return d.Encode(spec, decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg})
}

// rewriteReply is an allow that runs the tool with input instead: "args", which the plugin puts
// in place of the tool's arguments.
func rewriteReply(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"decision": "allow", "reason": reason, "args": input})
	return dialect.Reply{Stdout: append(b, '\n')}
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, BeforeTool)
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	if ev.Gates && d.AdditionalContext != "" {
		out = append(out, "additional context before the tool runs")
	}
	return out
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's namesake is by the tool's
// Claude Code name.
func toolKind(event, tool string) dialect.Kind {
	s, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" {
		return claude.ToolKind(claudeEvent(event), ClaudeTool(tool))
	}
	return s.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"hook_event_name": BeforeTool, "tool": "bash", "sessionID": "agenthooks-doctor", "callID": "agenthooks-doctor",
		"args": map[string]any{"command": c, "description": "agenthooks doctor's canary"}, "cwd": cwd}
}
