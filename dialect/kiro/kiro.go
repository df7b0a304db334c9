package kiro

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "kiro"

// DocsVersion names the documentation this package follows.
const DocsVersion = "kiro.dev/docs/cli/v3/hooks (CLI 3.x, IDE 1.x hooks files), kiro.dev/docs/cli/hooks and the agent configuration reference (agent-config hooks), read 2026-11-24"

// Events are the triggers of a Kiro hooks file, in the documentation's order.
var Events = []string{"SessionStart", "Stop", "PreToolUse", "PostToolUse", "PreTaskExec", "PostTaskExec",
	"UserPromptSubmit", "PostFileCreate", "PostFileSave", "PostFileDelete", "Manual"}

// AgentEvents are the events of the hooks in a kiro-cli agent configuration, each with the
// trigger Kiro's migration (kiro-cli agent migrate) turns it into.
var AgentEvents = [][2]string{{"agentSpawn", "SessionStart"}, {"userPromptSubmit", "UserPromptSubmit"},
	{"preToolUse", "PreToolUse"}, {"postToolUse", "PostToolUse"}, {"stop", "Stop"}}

// event is one Kiro trigger: its spec, its namesake in Claude Code, whether exit status 2 blocks
// it, and whether stdout of a successful run is added to the context.
type event struct {
	dialect.Spec
	claude  string
	block   bool
	context bool
	trigger string // the hooks-file trigger an agent-config event migrates to, when it is its own
}

var eventsValue dialect.Lazy[map[string]*event]

// events is the trigger table, built on first use, by trigger and by agent-config event.
func events() map[string]*event {
	return eventsValue.Get(func() map[string]*event {
		spec := func(name string, kind dialect.Kind, gates bool) dialect.Spec {
			return dialect.Spec{Dialect: Name, Name: name, Kind: kind, Gates: gates}
		}
		tool := func(s dialect.Spec) dialect.Spec {
			s.Target, s.MatchField = dialect.FieldName, "tool_name"
			return s
		}
		list := []event{
			{Spec: spec("SessionStart", dialect.SessionStart, false), claude: "SessionStart", context: true},
			{Spec: spec("Stop", dialect.Stop, false), claude: "Stop"},
			{Spec: tool(spec("PreToolUse", dialect.PreTool, true)), claude: "PreToolUse", block: true},
			{Spec: tool(spec("PostToolUse", dialect.PostTool, false)), claude: "PostToolUse"},
			{Spec: spec("PreTaskExec", "", true), block: true},
			{Spec: spec("PostTaskExec", "", false)},
			{Spec: spec("UserPromptSubmit", dialect.PromptSubmit, true), claude: "UserPromptSubmit", block: true, context: true},
			// The file triggers' matchers are regular expressions over the file's path, a field
			// the documentation does not name: agenthooks runs them for every file.
			{Spec: spec("PostFileCreate", "", false)},
			{Spec: spec("PostFileSave", "", false)},
			{Spec: spec("PostFileDelete", "", false)},
			{Spec: spec("Manual", "", false)},
		}
		m := make(map[string]*event, len(list)+len(AgentEvents))
		for i := range list {
			m[list[i].Name] = &list[i]
		}
		for _, a := range AgentEvents {
			m[a[0]] = m[a[1]]
		}
		// kiro-cli's agent-config hooks block on exit 2 on preToolUse alone (kiro.dev/docs/cli/hooks,
		// "Hook output"): its userPromptSubmit adds stdout to the context and cannot block, unlike
		// the hooks file's UserPromptSubmit it migrates to.
		m["userPromptSubmit"] = &event{Spec: spec("userPromptSubmit", dialect.PromptSubmit, false), claude: "UserPromptSubmit",
			context: true, trigger: "UserPromptSubmit"}
		return m
	})
}

// isEvent reports whether events' table has name, from the lists it is built from: detect asks
// it of every payload, which need not build the table.
func isEvent(name string) bool {
	for _, a := range AgentEvents {
		if a[0] == name {
			return true
		}
	}
	return slices.Contains(Events, name)
}

// Trigger is the hooks-file trigger of a trigger or an agent-config event (preToolUse is
// PreToolUse, agentSpawn SessionStart); "" for neither.
func Trigger(name string) string {
	if e, ok := events()[name]; ok {
		if e.trigger != "" {
			return e.trigger
		}
		return e.Name
	}
	return ""
}

// ClaudeEvent names the Claude Code event whose hooks run for a Kiro trigger, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}

// Dialect is Kiro's hooks dialect, where an ask (which a Kiro hook cannot make) becomes a deny.
var Dialect dialect.Dialect = impl{askAs: dialect.AskAsDeny}

// DialectFor is Kiro's dialect with askAs for an ask.
func DialectFor(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

// Lookup finds a trigger by its name or by its agent-config event's (preToolUse, agentSpawn):
// payloads of the agent-config hooks name their event in camelCase.
func (impl) Lookup(name string) (*dialect.Spec, bool) {
	e, ok := events()[name]
	if !ok {
		return nil, false
	}
	return &e.Spec, true
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Kiro command hook as the documentation says Kiro does:
// exit status 0 is success, and stdout is added to the context on SessionStart and
// UserPromptSubmit (elsewhere it is kept, not shown); exit status 2 on PreToolUse,
// UserPromptSubmit or PreTaskExec blocks, with stderr as the reason the model reads; any other
// status is a failure that Kiro shows as a warning, and the action goes on. stdout never decides.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[s.Name]
	if !ok {
		out.Failed, out.Errors = true, []string{"Kiro has no hook trigger " + s.Name}
		return out
	}
	msg := strings.TrimSpace(string(stderr))
	switch {
	case exitCode == 0:
		out.Answered = true
		text := strings.TrimSpace(string(stdout))
		switch {
		case text == "":
		case e.context && cut > 0:
			out.Notes = append(out.Notes, fmt.Sprintf("stdout is larger than the output cap (%d bytes cut); the context added is cut", cut))
			out.Answer.AdditionalContext = text
		case e.context:
			out.Answer.AdditionalContext = text
		default:
			out.Notes = append(out.Notes, "stdout decides nothing on "+e.Name+"; Kiro keeps it without showing it")
		}
	case exitCode == 2 && e.block:
		reason := dialect.FirstText(msg, "blocked by a hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
	default:
		out.Failed = true
		line := fmt.Sprintf("hook exited with status %d", exitCode)
		if msg != "" {
			line += ": " + firstLine(msg)
		}
		out.Errors = append(out.Errors, line+" (Kiro shows a warning and goes on)")
		if exitCode == 2 {
			out.Notes = append(out.Notes, "exit status 2 blocks only PreToolUse, a hooks file's UserPromptSubmit and PreTaskExec; on "+e.Name+" Kiro warns")
		}
	}
	return out
}

// Encode writes a merged decision in the form Kiro honours: on a trigger that can block, a deny
// (an ask, which Kiro cannot show from a hook, becomes askAs; a stop request denies) is exit
// status 2 with the reason on stderr; context on SessionStart and UserPromptSubmit is stdout
// with exit status 0; anything else is silence.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	e, ok := events()[s.Name]
	if !ok {
		return dialect.Reply{}
	}
	var r dialect.Reply
	if e.block {
		reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
		perm, reason, warning := dialect.ResolveAsk("Kiro", d.askAs, dec.Permission, reason)
		if dec.Halt && perm != decide.Deny {
			perm, reason = decide.Deny, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
		}
		if perm == decide.Deny {
			return dialect.Reply{ExitCode: 2, Stderr: []byte(dialect.FirstText(reason, "blocked by agenthooks") + "\n")}
		}
		if warning != "" {
			r.Stderr = []byte(warning + "\n")
		}
	}
	if e.context && strings.TrimSpace(dec.AdditionalContext) != "" {
		r.Stdout = []byte(dec.AdditionalContext + "\n")
	}
	return r
}

// Messages returns what the user and the model see: a block's reason, which Kiro gives the
// model and shows in the session.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	r := d.Encode(s, dec)
	if r.ExitCode != 2 {
		return "", ""
	}
	msg := strings.TrimSpace(string(r.Stderr))
	return msg, msg
}

// loses: Kiro reads a hook's exit status, stderr on a block and stdout as context on two
// triggers, so a system message, rewritten input, context elsewhere and a stop request where
// nothing can be blocked do not reach it.
func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d)
	e, ok := events()[ev.Name]
	if d.AdditionalContext != "" && (!ok || !e.context) {
		out = append(out, "additional context")
	}
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	if d.Halt && (!ok || !e.block) {
		out = append(out, "a stop request")
	}
	return out
}

// toolKind is the trigger's kind, narrowed by a tool as Claude Code's is by the tool's Claude
// Code name.
func toolKind(event, tool string) dialect.Kind {
	e, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" && e.Target == dialect.FieldName {
		return claude.ToolKind(e.claude, ClaudeTool(tool))
	}
	return e.Kind
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
