package droid

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "droid"

// Version is the Factory Droid release whose bundled code this package follows.
const Version = "0.215.0"

// AbortExitCode is the exit status with which a PreToolUse hook aborts Droid's whole run.
const AbortExitCode = 3

// Events are Droid's hook events, Claude Code's names (its hooks schema's enum).
var Events = []string{"PreToolUse", "PostToolUse", "Notification", "UserPromptSubmit", "Stop", "SubagentStop",
	"PreCompact", "SessionStart", "SessionEnd"}

var eventsValue dialect.Lazy[map[string]*dialect.Spec]

func events() map[string]*dialect.Spec {
	return eventsValue.Get(func() map[string]*dialect.Spec {
		m := make(map[string]*dialect.Spec, len(Events))
		for _, name := range Events {
			s := dialect.Spec{Dialect: Name, Name: name}
			if c, ok := claude.Lookup(name); ok {
				s.Kind, s.Gates, s.Loop, s.Target, s.MatchField, s.MatchConst = c.Kind, c.Gates, c.Loop, c.Target, c.MatchField, c.MatchConst
			}
			m[name] = &s
		}
		return m
	})
}

// Dialect returns Droid's hooks dialect; askAs is what an ask becomes, as a hook's "ask" is no
// decision in Droid (its own permission flow decides).
func Dialect(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := events()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Droid hook. On PreToolUse it follows Droid 0.215.0's tool
// runner: continue:false stops the run; exit status 3 aborts it (stderr the reason); a
// permissionDecision decides (allow runs without Droid's prompt, with updatedInput merged into
// the tool's input; deny blocks with its reason, else "Tool execution denied by hook"; ask is no
// decision); then exit status 2 blocks with stderr (else "Tool execution blocked by hook"); any
// other status lets the tool run. Stdout is JSON only when it starts with "{". Other events are
// read as Claude Code reads them, whose answer Droid's runner takes field by field.
func (d impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	if _, ok := events()[s.Name]; !ok {
		out.Failed, out.Errors = true, []string{"Factory Droid has no event " + s.Name}
		return out
	}
	if s.Name != "PreToolUse" {
		return claude.Dialect.Interpret(s, exitCode, stdout, stderr, cut)
	}
	msg := strings.TrimSpace(string(stderr))
	var obj map[string]any
	if body := bytes.TrimSpace(stdout); len(body) > 0 && body[0] == '{' {
		if cut > 0 {
			out.Failed, out.Errors = true, []string{fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut)}
			return out
		}
		v, err := dialect.DecodeJSON(body)
		if m, ok := v.(map[string]any); err == nil && ok {
			obj = m
		} else {
			out.Notes = append(out.Notes, "stdout starts like a JSON object but is not one; Droid ignores it")
		}
	}
	if c, ok := obj["continue"].(bool); ok && !c {
		reason := dialect.FirstText(str(obj, "stopReason"), "Hook requested to stop execution")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason, Halt: true, StopReason: reason}
		out.Answered = true
		return out
	}
	if exitCode == AbortExitCode {
		reason := dialect.FirstText(msg, "Agent aborted by PreToolUse hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason, Halt: true, StopReason: reason}
		out.Answered = true
		return out
	}
	h, _ := obj["hookSpecificOutput"].(map[string]any)
	switch str(h, "permissionDecision") {
	case "allow":
		out.Answer.Permission = decide.Allow
		if u, ok := h["updatedInput"].(map[string]any); ok {
			out.Answer.UpdatedInput, _ = dialect.Marshal(u)
		}
		out.Answered = true
		return out
	case "deny":
		reason := dialect.FirstText(str(h, "permissionDecisionReason"), "Tool execution denied by hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
		return out
	}
	if exitCode == 2 {
		reason := dialect.FirstText(msg, "Tool execution blocked by hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
		return out
	}
	if u, ok := h["updatedInput"].(map[string]any); ok {
		out.Answer.UpdatedInput, _ = dialect.Marshal(u)
		out.Answered = true
	}
	if exitCode != 0 {
		out.Failed = true
		e := fmt.Sprintf("hook exited with status %d", exitCode)
		if msg != "" {
			e += ": " + msg
		}
		out.Errors = append(out.Errors, e+" (Droid runs the tool)")
		out.Answered = false
	}
	return out
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// Encode writes a merged decision in the form Droid honours. On PreToolUse: JSON on stdout with
// exit status 0, hookSpecificOutput's permissionDecision deny with its reason (which the model
// reads), allow with updatedInput for a rewrite, continue:false for a halt; an ask, which a hook
// cannot make Droid show, becomes askAs. Other events are written as for Claude Code.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	if _, ok := events()[s.Name]; !ok {
		return dialect.Reply{}
	}
	if s.Name != "PreToolUse" {
		return claude.Dialect.Encode(s, dec)
	}
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
	perm, reason, warning := dialect.ResolveAsk("Factory Droid", d.askAs, dec.Permission, reason)
	hso := map[string]any{"hookEventName": "PreToolUse"}
	out := map[string]any{}
	switch perm {
	case decide.Deny:
		hso["permissionDecision"], hso["permissionDecisionReason"] = "deny", dialect.FirstText(reason, "blocked by agenthooks")
	case decide.Allow:
		hso["permissionDecision"] = "allow"
		if dec.UpdatedInput != nil {
			hso["updatedInput"] = dec.UpdatedInput
		}
	}
	if dec.Halt {
		out["continue"], out["stopReason"] = false, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
	}
	if len(hso) > 1 {
		out["hookSpecificOutput"] = hso
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

// Messages returns what the user and the model see: a deny's reason reaches both.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	if s.Name != "PreToolUse" {
		return claude.Dialect.Messages(s, dec)
	}
	perm, reason, _ := dialect.ResolveAsk("Factory Droid", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
	switch {
	case perm == decide.Deny:
		return reason, reason
	case dec.Halt:
		return dec.StopReason, dec.StopReason
	}
	return "", ""
}
