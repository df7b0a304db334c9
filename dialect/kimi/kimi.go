package kimi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "kimi"

// Version is the Kimi Code release whose documentation and hook runner this package follows.
const Version = "2.1.0"

// Events are Kimi Code's hook events (its hooks page's event reference). Only PreToolUse,
// UserPromptSubmit and Stop can block; the others fire and their answers are ignored.
var Events = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionResult",
	"UserPromptSubmit", "UserPromptQueued", "Stop", "StopFailure", "Interrupt", "TurnStarted", "SessionStart",
	"SessionEnd", "SessionHeartbeat", "SubagentStart", "SubagentStop", "TaskStarted", "PreCompact", "PostCompact",
	"Notification"}

// gates reports whether a Kimi Code event's answer can block what it precedes.
func gates(event string) bool {
	return event == "PreToolUse" || event == "UserPromptSubmit" || event == "Stop"
}

var eventsValue dialect.Lazy[map[string]*dialect.Spec]

// events is the table: an event Claude Code has too takes its kind and matcher from Claude
// Code's; what blocks is Kimi Code's own.
func events() map[string]*dialect.Spec {
	return eventsValue.Get(func() map[string]*dialect.Spec {
		m := make(map[string]*dialect.Spec, len(Events))
		for _, name := range Events {
			s := dialect.Spec{Dialect: Name, Name: name}
			if c, ok := claude.Lookup(name); ok {
				s.Kind, s.Target, s.MatchField, s.MatchConst = c.Kind, c.Target, c.MatchField, c.MatchConst
			}
			switch name {
			case "UserPromptSubmit":
				s.Target, s.MatchField = dialect.FieldText, "prompt" // the matcher is tried on the prompt
			case "Stop":
				s.Target, s.MatchField = dialect.NoTarget, ""
			}
			s.Gates = gates(name)
			m[name] = &s
		}
		return m
	})
}

// Dialect returns Kimi Code's hooks dialect; askAs is what an ask becomes, as Kimi Code reads
// no ask from a hook.
func Dialect(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := events()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Kimi Code hook as its runner does (runner.ts,
// resultFromExitCode): exit status 2 blocks, with stderr, trimmed, as the reason; on exit 0,
// stdout that is a JSON object with hookSpecificOutput.permissionDecision "deny" blocks, with
// permissionDecisionReason as the reason and message (top level, else in hookSpecificOutput) as
// what is shown; any other JSON allows. Plain text on exit 0 becomes context on
// UserPromptSubmit. Any other exit status is a failure that lets the operation go on (Kimi Code
// fails open unless the hook is fail_mode "closed", which the engine's failClosed stands for).
// A block on an event that cannot block is ignored, as Kimi Code ignores it.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	if _, ok := events()[s.Name]; !ok {
		out.Failed, out.Errors = true, []string{"Kimi Code has no event " + s.Name}
		return out
	}
	block := func(reason string) {
		if !s.Gates {
			out.Notes = append(out.Notes, "a block on "+s.Name+" is ignored: Kimi Code blocks only PreToolUse, UserPromptSubmit and Stop")
			return
		}
		reason = dialect.FirstText(reason, "blocked by hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
	}
	switch {
	case exitCode == 2:
		block(strings.TrimSpace(string(stderr)))
		return out
	case exitCode != 0:
		e := fmt.Sprintf("hook exited with status %d", exitCode)
		if msg := strings.TrimSpace(string(stderr)); msg != "" {
			e += ": " + msg
		}
		out.Failed, out.Errors = true, []string{e + " (Kimi Code lets the operation go on)"}
		return out
	}
	text := strings.TrimSpace(string(stdout))
	if text == "" {
		return out
	}
	if cut > 0 {
		out.Failed, out.Errors = true, []string{fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut)}
		return out
	}
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		obj, ok := v.(map[string]any)
		if !ok {
			out.Notes = append(out.Notes, "stdout is JSON but not an object; Kimi Code ignores it")
			return out
		}
		h, _ := obj["hookSpecificOutput"].(map[string]any)
		msg := dialect.FirstText(str(obj, "message"), str(h, "message"))
		if d, _ := h["permissionDecision"].(string); d == "deny" {
			reason := str(h, "permissionDecisionReason")
			block(dialect.FirstText(reason, msg))
			if out.Answered && msg != "" {
				out.Answer.UserMessage = msg
			}
			return out
		}
		if _, has := h["updatedInput"]; has {
			out.Notes = append(out.Notes, "updatedInput is ignored: Kimi Code does not rewrite a tool's input")
		}
		if msg != "" && s.Name == "UserPromptSubmit" {
			out.Answer.AdditionalContext, out.Answered = msg, true
		}
		return out
	}
	if s.Name == "UserPromptSubmit" {
		out.Answer.AdditionalContext, out.Answered = text, true
	}
	return out
}

func str(m map[string]any, k string) string {
	switch v := m[k].(type) {
	case string:
		return v
	case float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

// Encode writes a merged decision in the form Kimi Code honours: a deny on an event that can
// block is exit 0 with hookSpecificOutput.permissionDecision "deny" and its reason (which Kimi
// Code writes back into the model's context); an ask, which Kimi Code cannot show, becomes
// askAs; context on UserPromptSubmit is plain text on stdout. Anything else is silence.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	if _, ok := events()[s.Name]; !ok {
		return dialect.Reply{}
	}
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
	perm, reason, warning := dialect.ResolveAsk("Kimi Code", d.askAs, dec.Permission, reason)
	var r dialect.Reply
	if warning != "" {
		r.Stderr = []byte("agenthooks: " + warning + "\n")
	}
	if dec.Halt && perm != decide.Deny {
		perm, reason = decide.Deny, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
	}
	switch {
	case perm == decide.Deny && s.Gates:
		b, _ := dialect.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": s.Name,
			"permissionDecision": "deny", "permissionDecisionReason": dialect.FirstText(reason, "blocked by agenthooks")}})
		r.Stdout = append(b, '\n')
	case s.Name == "UserPromptSubmit" && strings.TrimSpace(dec.AdditionalContext) != "":
		r.Stdout = []byte(dec.AdditionalContext + "\n")
	}
	return r
}

// Messages returns what the user and the model see: a deny's reason reaches both.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	perm, reason, _ := dialect.ResolveAsk("Kimi Code", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
	if perm == decide.Deny && s.Gates {
		return reason, reason
	}
	return "", ""
}

func claudeLookup(event string) (*claude.Event, bool) { return claude.Lookup(event) }
