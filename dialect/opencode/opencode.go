package opencode

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Name is the dialect's name.
const Name dialect.Name = "opencode"

// Version is the OpenCode release whose plugin API this package follows.
const Version = "1.18.33"

// The events the plugin passes to agenthooks, OpenCode's own plugin hook names.
const (
	// BeforeTool is tool.execute.before: OpenCode calls it before every tool runs, with the
	// tool's name, session and call ids, and the tool's arguments, which a hook may change in
	// place; a throw stops the call and its message is the tool's result the model reads.
	BeforeTool = "tool.execute.before"
	// AfterTool is tool.execute.after: after a tool ran, with its title and output, which a hook
	// may add to.
	AfterTool = "tool.execute.after"
	// ChatMessage is chat.message: OpenCode calls it with a person's prompt (its text and file
	// parts) before the prompt is saved or sent; a throw stops the prompt, and nothing of it
	// reaches the model.
	ChatMessage = "chat.message"
	// SessionCreated is the bus event session.created, which the plugin's event hook receives
	// when a session starts (a subagent's too); OpenCode does not wait for the hook.
	SessionCreated = "session.created"
	// SessionIdle is the bus event session.idle: the session's loop has finished its turn.
	// OpenCode does not wait for the hook.
	SessionIdle = "session.idle"
)

// Events are the events the plugin passes on, in the order it lists them.
var Events = []string{BeforeTool, AfterTool, ChatMessage, SessionCreated, SessionIdle}

var eventsValue dialect.Lazy[map[string]*dialect.Spec]

func events() map[string]*dialect.Spec {
	return eventsValue.Get(func() map[string]*dialect.Spec {
		return map[string]*dialect.Spec{
			BeforeTool: {Dialect: Name, Name: BeforeTool, Kind: dialect.PreTool, Gates: true, Target: dialect.FieldName, MatchField: "tool"},
			AfterTool:  {Dialect: Name, Name: AfterTool, Kind: dialect.PostTool, Target: dialect.FieldName, MatchField: "tool"},
			// chat.message gates: the plugin throws, which OpenCode 1.18.33 honours by dropping
			// the prompt before it is saved or sent.
			ChatMessage: {Dialect: Name, Name: ChatMessage, Kind: dialect.PromptSubmit, Gates: true},
			// The bus events: the plugin's event hook is called without being awaited, so
			// nothing a hook answers there can change what OpenCode does.
			SessionCreated: {Dialect: Name, Name: SessionCreated, Kind: dialect.SessionStart},
			SessionIdle:    {Dialect: Name, Name: SessionIdle, Kind: dialect.Stop},
		}
	})
}

// Dialect returns the plugin's dialect; askAs is what an ask becomes, as a plugin cannot make
// OpenCode ask a person.
func Dialect(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := events()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of agenthooks as the generated plugin reads it (plugin.go's
// answer function). On tool.execute.before: exit status 2 blocks, stderr the reason (else
// "blocked by agenthooks"); exit status 0 with nothing on stdout lets the call run; exit status 0
// with a JSON object decides by its "decision" (deny blocks with "reason"; allow runs, with
// "args" replacing the tool's arguments when given); anything else (another exit status, a
// signal, stdout that is not a JSON object, an unknown decision) blocks, as the plugin fails
// closed; chat.message reads the same way (a deny drops the prompt). On tool.execute.after
// nothing blocks: "context" is added to the tool's output the model reads, and a failure changes
// nothing. On session.created and session.idle nothing an answer says is read: OpenCode does not
// wait for the plugin's event hook.
func (d impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	if _, ok := events()[s.Name]; !ok {
		out.Failed, out.Errors = true, []string{"OpenCode's plugin has no event " + s.Name}
		return out
	}
	deny := func(reason string) dialect.Outcome {
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
		return out
	}
	msg := strings.TrimSpace(string(stderr))
	body := bytes.TrimSpace(stdout)
	failure := ""
	var obj map[string]any
	switch {
	case exitCode == 2 && s.Gates:
		return deny(dialect.FirstText(msg, "blocked by agenthooks"))
	case exitCode != 0:
		failure = fmt.Sprintf("agenthooks exited with status %d", exitCode)
		if msg != "" {
			failure += ": " + msg
		}
	case len(body) == 0:
		return out
	case cut > 0:
		failure = fmt.Sprintf("agenthooks' answer is larger than the output cap (%d bytes cut)", cut)
	default:
		v, err := dialect.DecodeJSON(body)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			failure = "agenthooks' answer is not a JSON object"
			break
		}
		obj = m
	}
	if failure != "" {
		if !s.Gates {
			out.Failed, out.Errors = true, []string{failure + " (the tool has run; the plugin changes nothing)"}
			return out
		}
		r := deny("Blocked by agenthooks (the OpenCode plugin fails closed): " + failure)
		r.Failed, r.Errors = true, []string{failure}
		return r
	}
	if !s.Gates {
		if c, ok := obj["context"].(string); ok && c != "" && s.Name == AfterTool {
			out.Answer.AdditionalContext, out.Answered = c, true
		}
		return out
	}
	reason, _ := obj["reason"].(string)
	switch obj["decision"] {
	case "deny":
		return deny(dialect.FirstText(reason, "blocked by agenthooks"))
	case "allow", nil:
		if a, ok := obj["args"].(map[string]any); ok {
			out.Answer.UpdatedInput, _ = dialect.Marshal(a)
			out.Answer.Permission, out.Answered = decide.Allow, true
		} else if obj["decision"] == "allow" {
			out.Answer.Permission, out.Answered = decide.Allow, true
		}
		return out
	}
	r := deny(fmt.Sprintf("Blocked by agenthooks (the OpenCode plugin fails closed): unknown decision %v", obj["decision"]))
	r.Failed, r.Errors = true, []string{fmt.Sprintf("unknown decision %v", obj["decision"])}
	return r
}

// Encode writes a merged decision as the plugin honours it, JSON on stdout with exit status 0.
// On tool.execute.before: a deny is {"decision":"deny","reason":...}, which the plugin throws
// (the model reads the reason as the tool's result); an allow that rewrites the tool's input is
// {"decision":"allow","args":...}; an ask, which a plugin cannot make OpenCode show, becomes
// askAs; anything else is silence. On chat.message a deny is the same throw (the prompt is
// dropped); nothing else is written. On tool.execute.after: added context is {"context":...}.
// On the session events nothing is written.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	if _, ok := events()[s.Name]; !ok {
		return dialect.Reply{}
	}
	out := map[string]any{}
	var r dialect.Reply
	if s.Gates {
		perm, reason, warning := dialect.ResolveAsk("OpenCode", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
		if warning != "" {
			r.Stderr = []byte("agenthooks: " + warning + "\n")
		}
		switch {
		case perm == decide.Deny || dec.Halt:
			out["decision"], out["reason"] = "deny", dialect.FirstText(reason, dec.StopReason, "blocked by agenthooks")
		case perm == decide.Allow && dec.UpdatedInput != nil && s.Name == BeforeTool:
			out["decision"], out["args"] = "allow", dec.UpdatedInput
		}
	} else if c := dialect.FirstText(dec.AdditionalContext, dec.AgentMessage); c != "" && s.Name == AfterTool {
		out["context"] = c
	}
	if len(out) == 0 {
		return r
	}
	b, _ := dialect.Marshal(out)
	r.Stdout = append(b, '\n')
	return r
}

// Messages returns what the user and the model see: a deny's reason reaches both (OpenCode
// shows the thrown error and gives it to the model as the tool's result); context reaches the
// model.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	if !s.Gates {
		if s.Name != AfterTool {
			return "", "" // OpenCode does not wait for the plugin's session events
		}
		return "", dialect.FirstText(dec.AdditionalContext, dec.AgentMessage)
	}
	perm, reason, _ := dialect.ResolveAsk("OpenCode", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
	if perm == decide.Deny || dec.Halt {
		reason = dialect.FirstText(reason, dec.StopReason, "blocked by agenthooks")
		return reason, reason
	}
	return "", ""
}
