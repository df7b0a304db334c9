package windsurf

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Dialect is Cascade's hooks dialect, where an ask (which Cascade cannot show from a hook)
// becomes a deny.
var Dialect dialect.Dialect = impl{askAs: dialect.AskAsDeny}

// DialectFor is Cascade's dialect with askAs for an ask.
func DialectFor(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return Name }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	e, ok := events()[name]
	if !ok {
		return nil, false
	}
	return &e.Spec, true
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a finished run of a Cascade hook as the documentation says Cascade does: exit
// status 2 on a pre-hook blocks the action (stderr is the reason shown); 0 lets it run; any other
// status is a hook error that Cascade logs and lets the action run after; on a post-hook 2 is an
// error too. stdout never decides: Cascade only shows it (show_output).
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, _ int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[s.Name]
	if !ok {
		out.Failed, out.Errors = true, []string{"Cascade has no hook event " + s.Name}
		return out
	}
	msg := strings.TrimSpace(string(stderr))
	switch {
	case exitCode == 0:
		out.Answered = true
		if len(strings.TrimSpace(string(stdout))) > 0 {
			out.Notes = append(out.Notes, "stdout does not decide anything in Cascade; it is only shown (show_output)")
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
		out.Errors = append(out.Errors, line)
		if exitCode == 2 {
			out.Notes = append(out.Notes, "exit status 2 blocks only a pre_ hook; Cascade logs it on "+s.Name)
		}
	}
	return out
}

// Encode writes a merged decision in the one form Cascade honours: exit status 2 with the reason
// on stderr blocks a pre-hook's action; anything else is exit status 0 and silence. An ask, which
// Cascade cannot show, becomes the configured deny or allow; a stop request on a pre-hook blocks
// the action.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	e, ok := events()[s.Name]
	if !ok || !e.block {
		return dialect.Reply{}
	}
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
	perm, reason, warning := dialect.ResolveAsk("Cascade", d.askAs, dec.Permission, reason)
	if dec.Halt && perm != decide.Deny {
		perm, reason = decide.Deny, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
	}
	if perm != decide.Deny {
		if warning != "" {
			return dialect.Reply{Stderr: []byte(warning + "\n")}
		}
		return dialect.Reply{}
	}
	return dialect.Reply{ExitCode: 2, Stderr: []byte(dialect.FirstText(reason, "blocked by agenthooks") + "\n")}
}

// Messages returns what the user and the model see: a block's reason, which Cascade shows in
// its panel; the documentation does not say the model reads it, so both get it.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	r := d.Encode(s, dec)
	if r.ExitCode != 2 {
		return "", ""
	}
	msg := strings.TrimSpace(string(r.Stderr))
	return msg, msg
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
