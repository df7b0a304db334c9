package antigravity

import (
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// Name is the dialect's name.
const Name dialect.Name = "antigravity"

// DocsVersion names what this package follows: Antigravity's lifecycle hooks page
// (antigravity.google/docs/hooks) as quoted by projects that read it, and what they measured in
// agy 1.1.2 to 1.1.26 (the decisions, the named groups, failing closed); read 2026-11-24.
const DocsVersion = "antigravity.google/docs/hooks as quoted for agy 1.1.2-1.1.26, read 2026-11-24"

// Events are the events a hooks.json names. agy matches them without regard to case.
var Events = []string{"PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"}

// style says how an event takes a decision.
type style int

const (
	styleNone     style = iota // nothing is read: an observation
	styleDecision              // PreToolUse: decision allow, deny, ask, force_ask
	styleContinue              // Stop: decision continue re-enters the loop
)

// event is one Antigravity event: its spec, its Claude Code namesake and what agy reads.
type event struct {
	dialect.Spec
	claude string
	style  style
	// groups: the event takes matcher groups ({"matcher", "hooks": [...]}) in a hooks.json;
	// the others a flat list of handlers.
	groups bool
}

var (
	eventsOnce  sync.Once
	eventsTable map[string]*event
)

// events is the event table, built on first use (never at start: the guard links this package).
func events() map[string]*event {
	eventsOnce.Do(func() { eventsTable = buildEvents() })
	return eventsTable
}

func buildEvents() map[string]*event {
	tool := func(name string, kind dialect.Kind, gates bool) dialect.Spec {
		return dialect.Spec{Dialect: Name, Name: name, Kind: kind, Gates: gates, Target: dialect.FieldName, MatchField: "toolCall.name"}
	}
	list := []event{
		{Spec: tool("PreToolUse", dialect.PreTool, true), claude: "PreToolUse", style: styleDecision, groups: true},
		{Spec: tool("PostToolUse", dialect.PostTool, false), claude: "PostToolUse", groups: true},
		// Before and after every model call, not a user's prompt: no other agent has them.
		{Spec: dialect.Spec{Dialect: Name, Name: "PreInvocation"}},
		{Spec: dialect.Spec{Dialect: Name, Name: "PostInvocation"}},
		{Spec: dialect.Spec{Dialect: Name, Name: "Stop", Kind: dialect.Stop, Loop: true}, claude: "Stop", style: styleContinue},
		{Spec: dialect.Spec{Dialect: Name, Name: "SessionStart", Kind: dialect.SessionStart}, claude: "SessionStart"},
	}
	m := make(map[string]*event, len(list))
	for i := range list {
		m[list[i].Name] = &list[i]
	}
	return m
}

// canonical is the event's name as Events spells it, agy matching names without regard to
// case; "" for none.
func canonical(name string) string {
	for _, e := range Events {
		if strings.EqualFold(e, name) {
			return e
		}
	}
	return ""
}

// ClaudeEvent names the Claude Code event whose hooks run for an Antigravity event, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}
