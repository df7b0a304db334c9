package auggie

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "auggie"

// Version is the Auggie release whose bundled code this package follows.
const Version = "0.36.0"

// Events are Auggie's hook events (its settings schema is strict: no other name is valid).
var Events = []string{"PreToolUse", "PostToolUse", "SessionStart", "SessionEnd", "Stop", "Notification", "PromptSubmit"}

// ClaudeEvent names the Claude Code event of an Auggie event, or "".
func ClaudeEvent(name string) string {
	switch name {
	case "PromptSubmit":
		return "UserPromptSubmit"
	case "PreToolUse", "PostToolUse", "SessionStart", "SessionEnd", "Stop", "Notification":
		return name
	}
	return ""
}

var eventsValue dialect.Lazy[map[string]*dialect.Spec]

func events() map[string]*dialect.Spec {
	return eventsValue.Get(func() map[string]*dialect.Spec {
		m := make(map[string]*dialect.Spec, len(Events))
		for _, name := range Events {
			s := dialect.Spec{Dialect: Name, Name: name}
			if c, ok := claude.Lookup(ClaudeEvent(name)); ok {
				s.Kind, s.Gates, s.Loop, s.Target, s.MatchField, s.MatchConst = c.Kind, c.Gates, c.Loop, c.Target, c.MatchField, c.MatchConst
			}
			if name != "PreToolUse" {
				s.Gates = false // only PreToolUse blocks in Auggie
			}
			if name == "PromptSubmit" {
				s.Kind = "" // fired and forgotten: Auggie neither waits for it nor reads its answer
			}
			m[name] = &s
		}
		return m
	})
}

// Dialect returns Auggie's hooks dialect; askAs is what an ask becomes (a hook's "ask" blocks
// nothing in Auggie).
func Dialect(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := events()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of an Auggie hook as Auggie 0.36.0's hook executor does: on
// PreToolUse, exit status 2 blocks with stderr (else "Hook blocked execution (no error message
// provided)"); on exit 0, stdout that is JSON passing Auggie's schema decides (continue:false
// blocks, hookSpecificOutput with hookEventName "PreToolUse" and permissionDecision deny blocks
// with its reason, allow runs with updatedInput), and anything else is plain output; any other
// exit status lets the tool run. On the other events nothing blocks; Stop's decision "block"
// keeps the agent working.
func (d impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	if _, ok := events()[s.Name]; !ok {
		out.Failed, out.Errors = true, []string{"Auggie has no event " + s.Name}
		return out
	}
	msg := strings.TrimSpace(string(stderr))
	if exitCode == 2 {
		reason := dialect.FirstText(msg, "Hook blocked execution (no error message provided)")
		switch s.Name {
		case "PreToolUse":
			out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
			out.Answered = true
		case "Stop":
			out.Answer, out.Answered = decide.Answer{Followup: reason}, true
		default:
			out.Notes = append(out.Notes, "exit status 2 blocks only on PreToolUse in Auggie")
		}
		return out
	}
	if exitCode != 0 {
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("hook exited with status %d (a non-blocking error in Auggie)", exitCode))
		return out
	}
	body := bytes.TrimSpace(stdout)
	if len(body) == 0 || body[0] != '{' {
		return out
	}
	if cut > 0 {
		out.Failed, out.Errors = true, []string{fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut)}
		return out
	}
	v, err := dialect.DecodeJSON(body)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		out.Notes = append(out.Notes, "stdout is not a JSON object; Auggie reads it as plain output")
		return out
	}
	a, valid := answerFrom(s.Name, obj)
	if !valid {
		out.Notes = append(out.Notes, "stdout does not pass Auggie's output schema; Auggie reads it as plain output")
		return out
	}
	out.Answer, out.Answered = a, true
	return out
}

// answerFrom reads an answer that passes Auggie's schema; valid is false when it does not (a
// field of the wrong type, a hookSpecificOutput without a known hookEventName).
func answerFrom(event string, obj map[string]any) (decide.Answer, bool) {
	var a decide.Answer
	str := func(m map[string]any, k string) (string, bool) {
		v, has := m[k]
		if !has {
			return "", true
		}
		s, ok := v.(string)
		return s, ok
	}
	for _, k := range []string{"stopReason", "systemMessage", "additionalContext"} {
		if _, ok := str(obj, k); !ok {
			return a, false
		}
	}
	if c, has := obj["continue"]; has {
		b, ok := c.(bool)
		if !ok {
			return a, false
		}
		if !b && event == "PreToolUse" {
			r, _ := str(obj, "stopReason")
			r = dialect.FirstText(r, "Tool execution blocked by hook")
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, r, r
		}
	}
	a.SystemMessage, _ = str(obj, "systemMessage")
	a.AdditionalContext, _ = str(obj, "additionalContext")
	hv, has := obj["hookSpecificOutput"]
	if !has {
		return a, true
	}
	h, ok := hv.(map[string]any)
	if !ok {
		return a, false
	}
	name, _ := h["hookEventName"].(string)
	switch name {
	case "PreToolUse":
		decision, ok1 := str(h, "permissionDecision")
		reason, ok2 := str(h, "permissionDecisionReason")
		if !ok1 || !ok2 || decision != "" && decision != "allow" && decision != "deny" && decision != "ask" {
			return a, false
		}
		if event != "PreToolUse" {
			return a, true
		}
		switch decision {
		case "deny":
			reason = dialect.FirstText(reason, "Tool execution blocked by hook") // what Auggie tells the model
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, reason, reason
		case "allow":
			if a.Permission != decide.Deny {
				a.Permission = decide.Allow
			}
		}
		if u, has := h["updatedInput"]; has {
			m, ok := u.(map[string]any)
			if !ok {
				return a, false
			}
			a.UpdatedInput, _ = dialect.Marshal(m)
		}
	case "PostToolUse", "Stop":
		d, ok1 := str(h, "decision")
		r, ok2 := str(h, "reason")
		if !ok1 || !ok2 || d != "" && d != "block" {
			return a, false
		}
		if name == "Stop" && event == "Stop" && d == "block" {
			a.Followup = dialect.FirstText(r, "keep working")
		}
		if c, _ := str(h, "additionalContext"); c != "" {
			a.AdditionalContext = c
		}
	case "SessionStart":
		if c, _ := str(h, "additionalContext"); c != "" {
			a.AdditionalContext = c
		}
	case "SessionEnd", "Notification":
	default:
		return a, false
	}
	return a, true
}

// Encode writes a merged decision in a form Auggie's output schema accepts: on PreToolUse,
// hookSpecificOutput (with its hookEventName) permissionDecision deny and its reason, which the
// model reads, or allow with updatedInput; on Stop, decision "block" with the follow-up; added
// context where the event takes it. An ask becomes askAs.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	if _, ok := events()[s.Name]; !ok {
		return dialect.Reply{}
	}
	out := map[string]any{}
	var r dialect.Reply
	switch s.Name {
	case "PreToolUse":
		reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
		perm, reason, warning := dialect.ResolveAsk("Auggie", d.askAs, dec.Permission, reason)
		if warning != "" {
			r.Stderr = []byte("agenthooks: " + warning + "\n")
		}
		if dec.Halt && perm != decide.Deny {
			perm, reason = decide.Deny, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
		}
		switch perm {
		case decide.Deny:
			out["hookSpecificOutput"] = map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny",
				"permissionDecisionReason": dialect.FirstText(reason, "blocked by agenthooks")}
		case decide.Allow:
			h := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow"}
			if dec.UpdatedInput != nil {
				h["updatedInput"] = dec.UpdatedInput
			}
			out["hookSpecificOutput"] = h
		}
	case "Stop":
		if dec.Followup != "" {
			out["hookSpecificOutput"] = map[string]any{"hookEventName": "Stop", "decision": "block", "reason": dec.Followup}
		}
	}
	if dec.AdditionalContext != "" && (s.Name == "PostToolUse" || s.Name == "SessionStart" || s.Name == "PreToolUse") {
		out["additionalContext"] = dec.AdditionalContext
	}
	if dec.SystemMessage != "" {
		out["systemMessage"] = dec.SystemMessage
	}
	if len(out) == 0 {
		return r
	}
	b, _ := dialect.Marshal(out)
	r.Stdout = append(b, '\n')
	return r
}

// Messages returns what the user and the model see: a PreToolUse deny's reason reaches both.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	if s.Name != "PreToolUse" {
		return dec.SystemMessage, ""
	}
	perm, reason, _ := dialect.ResolveAsk("Auggie", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
	if perm == decide.Deny {
		return reason, reason
	}
	return "", ""
}
