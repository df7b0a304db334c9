package crush

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Name is the dialect's name.
const Name dialect.Name = "crush"

// Version is the Crush source this package follows and the e2e suite runs: commit 37f36e9, after
// v0.90.0 (hook envelope version 1); npm's latest, 0.96.1, downloads its binary from GitHub when
// installed and so cannot be installed here.
const Version = "0.90.0+37f36e9"

// HaltExitCode is the exit status with which a Crush hook denies the call and ends the turn.
const HaltExitCode = 49

// Events are Crush's hook events: PreToolUse only. Crush also accepts the name in any case and
// in snake case (pre_tool_use) in its config; CanonicalEvent folds those.
var Events = []string{"PreToolUse"}

// CanonicalEvent returns Crush's name for an event as a crush.json may spell it (PreToolUse,
// pretooluse, PRE_TOOL_USE, pre_tool_use), or "" for an event Crush does not have.
func CanonicalEvent(name string) string {
	if strings.EqualFold(strings.ReplaceAll(name, "_", ""), "PreToolUse") {
		return "PreToolUse"
	}
	return ""
}

var eventsValue dialect.Lazy[map[string]*dialect.Spec]

func events() map[string]*dialect.Spec {
	return eventsValue.Get(func() map[string]*dialect.Spec {
		return map[string]*dialect.Spec{
			"PreToolUse": {Dialect: Name, Name: "PreToolUse", Kind: dialect.PreTool, Gates: true,
				Target: dialect.FieldName, MatchField: "tool_name"},
		}
	})
}

// Dialect returns Crush's hooks dialect; askAs is what an ask becomes, as Crush's hooks cannot
// ask (a hook's "ask" is no opinion, and in a non-interactive crush run nobody is asked).
func Dialect(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := events()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Crush hook as Crush's hooks.Runner does: exit status 2
// denies with stderr (else "blocked by hook") as the reason, 49 denies and ends the turn, any
// other non-zero status is a failed hook that Crush ignores; on exit 0, stdout is the answer,
// and stdout that is not a JSON object is no opinion.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	if _, ok := events()[s.Name]; !ok {
		out.Failed, out.Errors = true, []string{"Crush has no event " + s.Name}
		return out
	}
	msg := strings.TrimSpace(string(stderr))
	switch exitCode {
	case 0:
	case 2:
		reason := dialect.FirstText(msg, "blocked by hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
		return out
	case HaltExitCode:
		reason := dialect.FirstText(msg, "turn halted by hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason, Halt: true, StopReason: reason}
		out.Answered = true
		return out
	default:
		out.Failed = true
		e := fmt.Sprintf("hook exited with status %d", exitCode)
		if msg != "" {
			e += ": " + firstLine(msg)
		}
		out.Errors = append(out.Errors, e+" (Crush logs it and runs the tool)")
		return out
	}
	body := bytes.TrimSpace(stdout)
	if len(body) == 0 {
		return out
	}
	if body[0] != '{' {
		out.Notes = append(out.Notes, "stdout is not JSON; Crush ignores it")
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
		out.Errors = append(out.Errors, "stdout starts like a JSON object but is not one; Crush ignores it")
		return out
	}
	a, errs := answerFrom(obj)
	if len(errs) > 0 {
		out.Failed, out.Errors = true, append(errs, "Crush ignores the whole answer")
		return out
	}
	out.Answer, out.Answered = a, true
	return out
}

// answerFrom reads Crush's envelope or, when it has hookSpecificOutput, Claude Code's answer,
// as Crush's parseStdout does. A field of the wrong type makes Crush's decoder drop the whole
// answer, which is an error here.
func answerFrom(obj map[string]any) (decide.Answer, []string) {
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
	patch := func(v any) json.RawMessage {
		switch p := v.(type) {
		case nil:
			return nil
		case map[string]any:
			b, _ := dialect.Marshal(p)
			return b
		case string: // a stringified object, which Crush also takes
			if w, err := dialect.DecodeJSON([]byte(p)); err == nil {
				if m, ok := w.(map[string]any); ok {
					b, _ := dialect.Marshal(m)
					return b
				}
			}
			errs = append(errs, "updated_input must be an object")
		default:
			errs = append(errs, "updated_input must be an object")
		}
		return nil
	}
	decision := func(d, reason string) {
		switch strings.ToLower(d) {
		case "deny":
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, reason, reason
		case "allow":
			a.Permission = decide.Allow
		}
	}
	if hv, ok := obj["hookSpecificOutput"]; ok {
		h, isObj := hv.(map[string]any)
		if !isObj {
			return a, []string{"hookSpecificOutput must be an object"}
		}
		decision(str(h, "permissionDecision"), str(h, "permissionDecisionReason"))
		a.AdditionalContext = str(h, "additionalContext")
		if u, ok := h["updatedInput"]; ok {
			if m, isObj := u.(map[string]any); isObj || u == nil {
				if m != nil {
					a.UpdatedInput, _ = dialect.Marshal(m)
				}
			} else {
				errs = append(errs, "updatedInput must be an object")
			}
		}
		return a, errs
	}
	if v, ok := obj["version"]; ok && v != nil {
		if n, isNum := v.(json.Number); !isNum || strings.ContainsAny(string(n), ".eE") {
			errs = append(errs, "version must be an integer")
		}
	}
	reason := str(obj, "reason")
	decision(str(obj, "decision"), reason)
	if h, ok := obj["halt"]; ok && h != nil {
		b, isBool := h.(bool)
		if !isBool {
			errs = append(errs, "halt must be a boolean")
		}
		if b {
			a.Halt, a.StopReason = true, reason
			if a.Permission != decide.Deny {
				a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, reason, reason // Crush blocks the call and ends the turn
			}
		}
	}
	switch c := obj["context"].(type) {
	case nil:
	case string:
		a.AdditionalContext = c
	case []any:
		var parts []string
		for _, p := range c {
			s, isStr := p.(string)
			if !isStr {
				errs = append(errs, "context must be a string or an array of strings")
				break
			}
			if s != "" {
				parts = append(parts, s)
			}
		}
		a.AdditionalContext = strings.Join(parts, "\n")
	default:
		errs = append(errs, "context must be a string or an array of strings")
	}
	if u, ok := obj["updated_input"]; ok {
		a.UpdatedInput = patch(u)
	}
	return a, errs
}

// Encode writes a merged decision in the form Crush honours: JSON on stdout with exit status 0.
// A deny is decision "deny" with its reason, which Crush gives the model as "Tool call blocked
// by hook. Reason: ..."; a halt adds halt, which ends the turn; an allow is decision "allow"
// (it skips Crush's own permission prompt), with updated_input when the input is rewritten
// (Crush merges it key by key into the tool's input); added context is context, appended to
// what the model sees of the tool's result. An ask, which Crush cannot show, becomes askAs.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	if _, ok := events()[s.Name]; !ok {
		return dialect.Reply{}
	}
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
	perm, reason, warning := dialect.ResolveAsk("Crush", d.askAs, dec.Permission, reason)
	out := map[string]any{}
	if dec.Halt && perm != decide.Deny {
		perm, reason = decide.Deny, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
	}
	switch perm {
	case decide.Deny:
		out["decision"], out["reason"] = "deny", dialect.FirstText(reason, "blocked by agenthooks")
		if dec.Halt {
			out["halt"] = true
		}
	case decide.Allow:
		out["decision"] = "allow"
		if dec.UpdatedInput != nil {
			out["updated_input"] = dec.UpdatedInput
		}
	}
	if dec.AdditionalContext != "" && perm != decide.Deny {
		out["context"] = dec.AdditionalContext
	}
	var r dialect.Reply
	if warning != "" {
		r.Stderr = []byte("agenthooks: " + warning + "\n")
	}
	if len(out) == 0 {
		return r
	}
	b, _ := dialect.Marshal(out)
	r.Stdout = append(b, '\n')
	return r
}

// Messages returns what the user and the model see: a deny's reason reaches both (the tool's
// error result and the TUI's hook line).
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	perm, reason, _ := dialect.ResolveAsk("Crush", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
	switch {
	case perm == decide.Deny:
		return reason, reason
	case dec.Halt:
		return dec.StopReason, dec.StopReason
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
