package copilot

import (
	"github.com/agenthooks/agenthooks/dialect"
)

// Name is the dialect's name.
const Name dialect.Name = "copilot"

// Version is the Copilot CLI release whose behaviour this package follows.
const Version = "1.0.102"

// Events are the hook events a Copilot CLI hooks file can name (camelCase). Copilot's SDK has
// three more that only in-process callbacks receive (userPromptTransformed, postResult,
// prePRDescription).
var Events = []string{"sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse",
	"postToolUseFailure", "agentStop", "subagentStart", "subagentStop", "errorOccurred", "preCompact",
	"permissionRequest", "notification", "preMcpToolCall"}

// style says how an event takes a decision in Copilot CLI.
type style int

const (
	styleNone       style = iota // no decision: an observation
	stylePermission              // preToolUse: permissionDecision allow/deny/ask
	styleRequest                 // permissionRequest: behavior allow/deny
	stylePrompt                  // userPromptSubmitted: decision block
	styleContinue                // agentStop, subagentStop: decision "block" keeps the agent working
)

// event is one Copilot event: its spec, its Claude Code namesake and what Copilot honours.
type event struct {
	dialect.Spec
	claude  string // the Claude Code event whose hooks run for it, or ""
	style   style
	context bool // additionalContext reaches the model
}

var eventsValue dialect.Lazy[map[string]*event]

func events() map[string]*event {
	return eventsValue.Get(func() map[string]*event {
		tool := func(name string, kind dialect.Kind, gates bool) dialect.Spec {
			return dialect.Spec{Dialect: Name, Name: name, Kind: kind, Gates: gates, Target: dialect.FieldName, MatchField: "toolName"}
		}
		plain := func(name string, kind dialect.Kind, gates bool) dialect.Spec {
			s := dialect.Spec{Dialect: Name, Name: name, Kind: kind, Gates: gates}
			if kind == dialect.Stop || kind == dialect.SubagentStop {
				s.Loop = true
			}
			return s
		}
		list := []event{
			{Spec: plain("sessionStart", dialect.SessionStart, false), claude: "SessionStart", context: true},
			{Spec: plain("sessionEnd", dialect.SessionEnd, false), claude: "SessionEnd"},
			{Spec: plain("userPromptSubmitted", dialect.PromptSubmit, true), claude: "UserPromptSubmit", style: stylePrompt, context: true},
			{Spec: tool("preToolUse", dialect.PreTool, true), claude: "PreToolUse", style: stylePermission, context: true},
			{Spec: tool("postToolUse", dialect.PostTool, false), claude: "PostToolUse", context: true},
			{Spec: tool("postToolUseFailure", dialect.PostToolFailure, false), claude: "PostToolUseFailure", context: true},
			{Spec: plain("agentStop", dialect.Stop, false), claude: "Stop", style: styleContinue},
			{Spec: plain("subagentStart", dialect.SubagentStart, false), claude: "SubagentStart", context: true},
			{Spec: plain("subagentStop", dialect.SubagentStop, false), claude: "SubagentStop", style: styleContinue},
			{Spec: plain("errorOccurred", "", false)},
			{Spec: plain("preCompact", dialect.PreCompact, false), claude: "PreCompact"},
			{Spec: tool("permissionRequest", "", true), claude: "PermissionRequest", style: styleRequest},
			{Spec: plain("notification", "", false), claude: "Notification"},
			{Spec: tool("preMcpToolCall", "", false)},
		}
		m := make(map[string]*event, len(list))
		for i := range list {
			m[list[i].Name] = &list[i]
		}
		return m
	})
}

// claudeNames maps Claude Code's (and VS Code's) PascalCase event names, which Copilot also
// accepts in a hooks file, to Copilot's own.
var claudeNamesValue dialect.Lazy[map[string]string]

func claudeNames() map[string]string {
	return claudeNamesValue.Get(func() map[string]string {
		m := map[string]string{}
		for name, e := range events() {
			if e.claude != "" {
				m[e.claude] = name
			}
		}
		return m
	})
}

// ClaudeEvent names the Claude Code event whose hooks run for a Copilot event, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}

// FromClaudeEvent names the Copilot event that a PascalCase (Claude Code) name in a hooks file
// stands for, or "".
func FromClaudeEvent(name string) string { return claudeNames()[name] }
