package vscode

import (
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "vscode"

// Version is the VS Code release whose source and documentation this package follows.
const Version = "1.140"

// Events are the hook events VS Code's Local harness fires (hookTypes.ts, HOOKS_BY_TARGET for
// VS Code), in Claude Code's PascalCase.
var Events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact",
	"SubagentStart", "SubagentStop", "Stop"}

// style says how an event takes a decision in VS Code.
type style int

const (
	styleNone       style = iota // no decision: an observation (context at most)
	stylePermission              // PreToolUse: hookSpecificOutput.permissionDecision allow/deny/ask
	styleExit2                   // UserPromptSubmit: common output only; exit status 2 blocks the prompt
	styleBlock                   // PostToolUse: exit 2 or decision "block" stops what follows
	styleContinue                // Stop, SubagentStop: decision "block" keeps the agent working
)

// event is one VS Code event: its spec and what VS Code honours on it.
type event struct {
	dialect.Spec
	style   style
	context bool // hookSpecificOutput.additionalContext reaches the model
}

var eventsValue dialect.Lazy[map[string]*event]

// events is the table, built on first use, after VS Code's hooks reference (each event's input
// and output sections).
func events() map[string]*event {
	return eventsValue.Get(func() map[string]*event {
		list := []event{
			{Spec: spec("SessionStart", false), context: true},
			{Spec: spec("UserPromptSubmit", true), style: styleExit2},
			{Spec: spec("PreToolUse", true), style: stylePermission, context: true},
			{Spec: spec("PostToolUse", false), style: styleBlock, context: true},
			{Spec: spec("PreCompact", false)},
			{Spec: spec("SubagentStart", false), context: true},
			{Spec: spec("SubagentStop", false), style: styleContinue},
			{Spec: spec("Stop", false), style: styleContinue},
		}
		m := make(map[string]*event, len(list))
		for i := range list {
			m[list[i].Name] = &list[i]
		}
		return m
	})
}

// spec takes the kind and matcher target of the Claude Code event of the same name. VS Code
// parses a matcher and ignores it, so a matcher in a file VS Code reads selects nothing there;
// agenthooks keeps Claude Code's target so that a hook converted to another agent keeps its
// tool.
func spec(name string, gates bool) dialect.Spec {
	s := dialect.Spec{Dialect: Name, Name: name, Gates: gates}
	if c, ok := claude.Lookup(name); ok {
		s.Kind, s.Target, s.MatchField, s.MatchConst, s.Loop = c.Kind, c.Target, c.MatchField, c.MatchConst, c.Loop
	}
	return s
}

// ClaudeEvent names the Claude Code event whose hooks run for a VS Code event (its namesake), or
// "".
func ClaudeEvent(name string) string {
	if _, ok := events()[name]; ok {
		return name
	}
	return ""
}

var copilotNamesValue dialect.Lazy[map[string]string]

// copilotNames maps the camelCase event names of a Copilot CLI hooks file ("version": 1), which
// VS Code reads too, to VS Code's events (HOOKS_BY_TARGET for GitHub Copilot). Copilot's
// sessionEnd and errorOccurred are parsed by VS Code but its Local harness never fires them:
// they map to "".
func copilotNames() map[string]string {
	return copilotNamesValue.Get(func() map[string]string {
		return map[string]string{
			"sessionStart":        "SessionStart",
			"sessionEnd":          "",
			"userPromptSubmitted": "UserPromptSubmit",
			"preToolUse":          "PreToolUse",
			"postToolUse":         "PostToolUse",
			"agentStop":           "Stop",
			"subagentStop":        "SubagentStop",
			"errorOccurred":       "",
		}
	})
}

// FromCopilotEvent names the VS Code event that a camelCase event of a Copilot CLI hooks file
// fires as in VS Code; known is false for a name Copilot's format does not have.
func FromCopilotEvent(name string) (event string, known bool) {
	e, ok := copilotNames()[name]
	return e, ok
}
