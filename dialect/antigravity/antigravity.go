package antigravity

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Dialect is Antigravity's hooks dialect. agy can ask a person (ask, and force_ask, which its
// Always-Allow cache cannot skip), so an ask is written as force_ask.
var Dialect dialect.Dialect = impl{}

type impl struct{}

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	e, ok := events()[canonical(name)]
	if !ok {
		return nil, false
	}
	return &e.Spec, true
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of an Antigravity hook as agy does: JSON on stdout. On
// PreToolUse, decision deny blocks (the reason reaches the model), ask and force_ask ask a
// person, allow and "" leave agy's own review in place; an answer agy cannot read (no JSON, no
// decision, an unknown one, a failed hook) fails closed: the call is denied. On Stop, decision
// continue keeps the agent working. Elsewhere nothing is read and a failure is only a failure.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[canonical(s.Name)]
	if !ok {
		out.Failed, out.Errors = true, []string{"Antigravity has no event " + s.Name}
		return out
	}
	failClosed := func(why string) dialect.Outcome {
		if e.style != styleDecision {
			return dialect.Outcome{Failed: true, Errors: []string{why}}
		}
		reason := "hook failed: " + why
		return dialect.Outcome{Answered: true, Answer: decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason},
			Notes: []string{"Antigravity fails closed: a PreToolUse answer it cannot read denies the call"}}
	}
	if exitCode != 0 {
		why := fmt.Sprintf("hook exited with status %d", exitCode)
		if msg := strings.TrimSpace(string(stderr)); msg != "" {
			why += ": " + firstLine(msg)
		}
		return failClosed(why)
	}
	body := bytes.TrimSpace(stdout)
	if e.style == styleNone {
		out.Answered = true
		return out
	}
	if cut > 0 {
		return failClosed(fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut))
	}
	if len(body) == 0 {
		if e.style == styleDecision {
			return failClosed("no decision on stdout")
		}
		out.Answered = true
		return out
	}
	v, err := dialect.DecodeJSON(body)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		return failClosed("stdout is not a JSON object")
	}
	decision, hasDecision := obj["decision"].(string)
	if _, present := obj["decision"]; present && !hasDecision {
		return failClosed("decision must be a string")
	}
	reason, _ := obj["reason"].(string)
	switch e.style {
	case styleDecision:
		switch decision {
		case "deny":
			reason = dialect.FirstText(reason, "denied by a hook")
			out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		case "ask", "force_ask":
			out.Answer = decide.Answer{Permission: decide.Ask, UserMessage: reason}
		case "allow":
			out.Answer = decide.Answer{Permission: decide.Allow}
			out.Notes = append(out.Notes, "agy's allow does not skip its own review of the call")
		case "":
			if !hasDecision {
				return failClosed("no decision in the answer")
			}
		default:
			return failClosed(fmt.Sprintf("decision %q is not one of allow, deny, ask, force_ask", decision))
		}
	case styleContinue:
		switch decision {
		case "continue":
			out.Answer.Followup = dialect.FirstText(reason, "keep working")
		case "":
		default:
			out.Failed, out.Errors = true, []string{fmt.Sprintf("decision %q is not continue", decision)}
			return out
		}
	}
	out.Answered = true
	return out
}

// Encode writes a merged decision in the form agy reads. PreToolUse always gets a decision, as
// agy fails closed on none: deny with its reason, force_ask for an ask (a plain ask would be
// skipped by agy's Always-Allow cache), allow, or "" for no opinion. A stop request on
// PreToolUse is a deny. Stop gets continue with a follow-up as its reason; the other events
// an empty object.
func (impl) Encode(s *dialect.Spec, d decide.Decision) dialect.Reply {
	e, ok := events()[canonical(s.Name)]
	if !ok {
		return dialect.Reply{}
	}
	out := map[string]any{}
	reason := dialect.FirstText(d.AgentMessage, d.UserMessage)
	switch e.style {
	case styleDecision:
		perm := d.Permission
		if d.Halt && perm != decide.Deny {
			perm, reason = decide.Deny, dialect.FirstText(d.StopReason, reason, "stopped by agenthooks")
		}
		switch perm {
		case decide.Deny:
			out["decision"], out["reason"] = "deny", dialect.FirstText(reason, "blocked by agenthooks")
		case decide.Ask, decide.Defer:
			out["decision"] = "force_ask"
			if r := dialect.FirstText(d.UserMessage, d.AgentMessage); r != "" {
				out["reason"] = r
			}
		case decide.Allow:
			out["decision"] = "allow"
		default:
			out["decision"] = ""
		}
	case styleContinue:
		if d.Followup != "" {
			out["decision"], out["reason"] = "continue", d.Followup
		}
	}
	b, _ := dialect.Marshal(out)
	return dialect.Reply{Stdout: append(b, '\n')}
}

// Messages returns what the user and the model see: a deny's reason reaches both, an ask's the
// person asked.
func (impl) Messages(s *dialect.Spec, d decide.Decision) (string, string) {
	e, ok := events()[canonical(s.Name)]
	if !ok || e.style != styleDecision {
		return "", ""
	}
	switch {
	case d.Permission == decide.Deny:
		return dialect.FirstText(d.UserMessage, d.AgentMessage), dialect.FirstText(d.AgentMessage, d.UserMessage)
	case d.Permission == decide.Ask || d.Permission == decide.Defer:
		return dialect.FirstText(d.UserMessage, d.AgentMessage), ""
	case d.Halt:
		return d.StopReason, d.StopReason
	}
	return "", ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
