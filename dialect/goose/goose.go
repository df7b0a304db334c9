package goose

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "goose"

// Version is the block/goose commit whose hook runner and plugin discovery this package follows.
const Version = "0825b57"

// Events are Goose's hook events (HookEvent in crates/goose/src/hooks/mod.rs). Only PreToolUse
// and Stop can block; the others fire and Goose ignores their answers.
var Events = []string{"PreToolUse", "PreToolUseResult", "PostToolUse", "PostToolUseFailure", "SessionStart",
	"SessionEnd", "UserPromptSubmit", "BeforeReadFile", "AfterFileEdit", "BeforeShellExecution",
	"AfterShellExecution", "Stop"}

// gates reports whether a Goose event's answer can block what it precedes: Goose runs
// emit_blocking only for PreToolUse and Stop.
func gates(event string) bool { return event == "PreToolUse" || event == "Stop" }

var eventsValue dialect.Lazy[map[string]*dialect.Spec]

// events is the table. An event Claude Code has too takes its kind from Claude Code's; Goose's
// matcher is always tried on the payload's matcher_context (the tool name on tool events, the
// prompt on UserPromptSubmit, a path or a command on its file and shell events).
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
				// Goose fires it but reads no answer (emit, not emit_blocking): it is not the
				// neutral prompt-submit kind, whose hooks and guard block a prompt.
				s.Kind, s.Target, s.MatchField = "", dialect.FieldText, "prompt"
			case "Stop", "SessionStart", "SessionEnd":
				s.Target, s.MatchField, s.MatchConst = dialect.NoTarget, "", ""
			}
			s.Gates = gates(name)
			m[name] = &s
		}
		return m
	})
}

// Dialect returns Goose's hooks dialect; askAs is what an ask becomes, as Goose reads no ask.
func Dialect(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := events()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Goose hook as classify_output does: exit status 2 denies
// with stderr, trimmed, as the reason; stdout that is a JSON object with "decision": "block"
// denies whatever the exit status, with its "reason"; exit 0 with empty stdout or "decision":
// "allow" allows; anything else (stray text, other JSON, invalid UTF-8, another exit status) is
// no decision, which Goose ignores unless the handler has on_failure "block" (the engine's
// failClosed). A deny on an event that cannot block is ignored, as Goose ignores it.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	if _, ok := events()[s.Name]; !ok {
		out.Failed, out.Errors = true, []string{"Goose has no event " + s.Name}
		return out
	}
	block := func(reason string) {
		if !s.Gates {
			out.Notes = append(out.Notes, "a block on "+s.Name+" is ignored: Goose blocks only PreToolUse and Stop")
			return
		}
		reason = dialect.FirstText(reason, "denied by plugin hook")
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
		out.Answered = true
	}
	fail := func(e string) {
		out.Failed, out.Errors = true, []string{e + " (Goose lets the operation go on unless the hook has on_failure \"block\")"}
	}
	if exitCode == 2 {
		block(strings.TrimSpace(string(stderr)))
		return out
	}
	if cut > 0 {
		fail(fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut))
		return out
	}
	if !utf8.Valid(stdout) {
		fail("the hook wrote invalid UTF-8 to stdout")
		return out
	}
	text := strings.TrimSpace(string(stdout))
	var resp struct {
		Decision *string `json:"decision"`
		Reason   *string `json:"reason"`
	}
	parsed := strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &resp) == nil
	decision := ""
	if parsed && resp.Decision != nil {
		decision = *resp.Decision
	}
	switch {
	case decision == "block":
		reason := ""
		if resp.Reason != nil {
			reason = *resp.Reason
		}
		block(reason)
	case exitCode == 0 && (text == "" || decision == "allow"):
	case exitCode == 0:
		fail("the hook exited 0 without an allow or block decision on stdout")
	default:
		e := fmt.Sprintf("the hook exited with status %d and no usable decision", exitCode)
		if msg := strings.TrimSpace(string(stderr)); msg != "" {
			e += ": " + msg
		}
		fail(e)
	}
	return out
}

// Encode writes a merged decision in the form Goose honours: a deny on PreToolUse or Stop is
// {"decision":"block","reason":...} on stdout with exit status 0; an ask, which Goose cannot
// show, becomes askAs. Everything else is silence, the one other answer Goose reads as an
// allow: any other text on stdout would be "no decision" to it.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	if _, ok := events()[s.Name]; !ok {
		return dialect.Reply{}
	}
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
	perm, reason, warning := dialect.ResolveAsk("Goose", d.askAs, dec.Permission, reason)
	var r dialect.Reply
	if warning != "" {
		r.Stderr = []byte("agenthooks: " + warning + "\n")
	}
	if dec.Halt && perm != decide.Deny {
		perm, reason = decide.Deny, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
	}
	if perm == decide.Deny && s.Gates {
		b, _ := dialect.Marshal(map[string]any{"decision": "block", "reason": dialect.FirstText(reason, "blocked by agenthooks")})
		r.Stdout = append(b, '\n')
	}
	return r
}

// Messages returns what the user and the model see: a deny's reason reaches both (Goose hands
// it to the model inside its own "denied by policy hook" sentence).
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	perm, reason, _ := dialect.ResolveAsk("Goose", d.askAs, dec.Permission, dialect.FirstText(dec.AgentMessage, dec.UserMessage))
	if perm == decide.Deny && s.Gates {
		return reason, reason
	}
	return "", ""
}
