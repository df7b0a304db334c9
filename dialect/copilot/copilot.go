package copilot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Dialect is Copilot CLI's hooks dialect for the engine. Copilot can ask a person (in a -p run
// it denies an ask, "unable to ask user for confirmation"), so an ask is written as an ask.
var Dialect dialect.Dialect = impl{}

type impl struct{}

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	e, ok := events()[name]
	if !ok {
		return nil, false
	}
	return &e.Spec, true
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Copilot hook as Copilot CLI 1.0.102 does: JSON on stdout
// with exit status 0 decides; on preToolUse exit status 2 denies (the model is told only the
// exit code) and any other non-zero exit denies as an errored hook; elsewhere a non-zero exit is
// a failed hook.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[s.Name]
	if !ok {
		out.Failed, out.Errors = true, []string{"Copilot CLI has no event " + s.Name}
		return out
	}
	if exitCode != 0 {
		msg := strings.TrimSpace(string(stderr))
		if e.style == stylePermission {
			// Copilot denies the call; the model reads "hook exited with code 2" or "(hook errored)".
			reason := fmt.Sprintf("hook exited with code %d", exitCode)
			if msg != "" {
				reason += ": " + firstLine(msg)
			}
			out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
			out.Answered = true
			if exitCode != 2 {
				out.Notes = append(out.Notes, "Copilot denies the call when a preToolUse hook errors (exit status other than 0 and 2)")
			}
			return out
		}
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("hook exited with status %d%s", exitCode, map[bool]string{true: ": " + firstLine(msg)}[msg != ""]))
		return out
	}
	body := bytes.TrimSpace(stdout)
	if len(body) == 0 || body[0] != '{' {
		if len(body) > 0 {
			out.Notes = append(out.Notes, "stdout is not JSON; Copilot ignores it")
		}
		return out
	}
	if cut > 0 {
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut))
		return out
	}
	v, err := dialect.DecodeJSON(body)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		out.Failed = true
		out.Errors = append(out.Errors, "stdout starts like a JSON object but is not one")
		return out
	}
	a, errs := answerFrom(e, obj)
	if len(errs) > 0 {
		out.Failed, out.Errors = true, errs
		return out
	}
	out.Answer, out.Answered = a, true
	return out
}

func answerFrom(e *event, obj map[string]any) (decide.Answer, []string) {
	var a decide.Answer
	var errs []string
	str := func(m map[string]any, k string) string {
		v, ok := m[k]
		if !ok || v == nil {
			return ""
		}
		s, isStr := v.(string)
		if !isStr {
			errs = append(errs, k+" must be a string")
		}
		return s
	}
	object := func(k string) json.RawMessage {
		v, ok := obj[k]
		if !ok || v == nil {
			return nil
		}
		m, isObj := v.(map[string]any)
		if !isObj {
			errs = append(errs, k+" must be an object")
			return nil
		}
		b, _ := dialect.Marshal(m)
		return b
	}
	if e.context {
		a.AdditionalContext = str(obj, "additionalContext")
	}
	switch e.style {
	case stylePermission:
		reason := str(obj, "permissionDecisionReason")
		switch p := str(obj, "permissionDecision"); p {
		case "deny":
			reason = dialect.FirstText(reason, "No reason provided") // what Copilot tells the model
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, reason, reason
		case "ask":
			a.Permission, a.UserMessage = decide.Ask, reason
		case "allow":
			a.Permission = decide.Allow
		case "":
		default:
			errs = append(errs, fmt.Sprintf("permissionDecision %q is not one of allow, deny, ask", p))
		}
		if u := object("modifiedArgs"); u != nil {
			a.UpdatedInput = u
		} else if u := object("updatedInput"); u != nil {
			a.UpdatedInput = u
		}
	case styleRequest:
		switch b := str(obj, "behavior"); b {
		case "allow", "deny":
			a.Permission = decide.Permission(b)
			a.UserMessage, a.AgentMessage = str(obj, "message"), str(obj, "message")
		case "":
		default:
			errs = append(errs, fmt.Sprintf("behavior %q is not allow or deny", b))
		}
	case stylePrompt:
		if d := str(obj, "decision"); d == "block" || d == "deny" {
			r := str(obj, "reason")
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, r, r
		}
	case styleContinue:
		switch d := str(obj, "decision"); d {
		case "block":
			a.Followup = dialect.FirstText(str(obj, "reason"), "keep working")
		case "", "allow":
		default:
			errs = append(errs, fmt.Sprintf("decision %q is not block or allow", d))
		}
	}
	return a, errs
}

// Encode writes a merged decision in the form Copilot CLI honours: JSON on stdout with exit
// status 0. A deny on preToolUse is permissionDecision "deny" with its reason, which Copilot
// tells the model; a stop request (continue:false, which Copilot ignores) on a gating event
// becomes that deny.
func (impl) Encode(s *dialect.Spec, d decide.Decision) dialect.Reply {
	e, ok := events()[s.Name]
	if !ok {
		return dialect.Reply{}
	}
	out := map[string]any{}
	reason := dialect.FirstText(d.AgentMessage, d.UserMessage)
	perm := d.Permission
	if perm == decide.Defer {
		perm = decide.Ask
	}
	if d.Halt && s.Gates && perm != decide.Deny {
		perm, reason = decide.Deny, dialect.FirstText(d.StopReason, reason, "stopped by agenthooks")
	}
	switch e.style {
	case stylePermission:
		switch perm {
		case decide.Deny:
			out["permissionDecision"], out["permissionDecisionReason"] = "deny", dialect.FirstText(reason, "blocked by agenthooks")
		case decide.Ask:
			out["permissionDecision"] = "ask"
			if r := dialect.FirstText(d.UserMessage, d.AgentMessage); r != "" {
				out["permissionDecisionReason"] = r
			}
		case decide.Allow:
			out["permissionDecision"] = "allow"
			if d.UpdatedInput != nil {
				out["modifiedArgs"] = d.UpdatedInput
			}
		}
	case styleRequest:
		switch perm {
		case decide.Allow:
			out["behavior"] = "allow"
		case decide.Deny:
			out["behavior"], out["message"] = "deny", dialect.FirstText(reason, "blocked by agenthooks")
		}
	case stylePrompt:
		if perm == decide.Deny {
			out["decision"], out["reason"] = "block", dialect.FirstText(reason, "blocked by agenthooks")
		}
	case styleContinue:
		if d.Followup != "" {
			out["decision"], out["reason"] = "block", d.Followup
		}
	}
	if d.AdditionalContext != "" && e.context {
		out["additionalContext"] = d.AdditionalContext
	}
	if len(out) == 0 {
		return dialect.Reply{}
	}
	b, _ := dialect.Marshal(out)
	return dialect.Reply{Stdout: append(b, '\n')}
}

// Messages returns what the user and the model see: a deny's reason reaches the model as the
// tool's result ("Denied by preToolUse hook: <reason>") and the user; an ask's, the user.
func (impl) Messages(s *dialect.Spec, d decide.Decision) (string, string) {
	switch {
	case d.Permission == decide.Deny:
		return dialect.FirstText(d.UserMessage, d.AgentMessage), dialect.FirstText(d.AgentMessage, d.UserMessage)
	case d.Permission == decide.Ask || d.Permission == decide.Defer:
		return dialect.FirstText(d.UserMessage, d.AgentMessage), ""
	case d.Halt && s.Gates:
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
