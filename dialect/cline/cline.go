package cline

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// MaxContext is the most of a hook's context Cline passes on (MAX_HOOK_CONTEXT_SIZE); it cuts
// the rest.
const MaxContext = 50000

// ControlPrefix starts a stdout line that carries the hook's answer among other output: Cline
// reads the last such line, else the whole of stdout.
const ControlPrefix = "HOOK_CONTROL\t"

// StopReason is what Cline says when a hook cancels the run without a message.
const StopReason = "Run stopped by runtime control"

// Dialect is Cline's hooks dialect, where an ask (which a Cline hook cannot make) becomes a
// deny.
var Dialect dialect.Dialect = impl{askAs: dialect.AskAsDeny}

// DialectFor is Cline's dialect with askAs for an ask.
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

// Interpret reads a finished run of a Cline hook as the CLI 3.0.65's runner does
// (parseStdout and parseHookControl in @cline/core 0.0.86). The exit status never decides.
// Stdout, trimmed, is the answer; when lines start with "HOOK_CONTROL\t", the last of them is.
// Empty stdout is no answer; stdout that is not JSON makes Cline log the hook as failed and
// ignore it, so the call runs. In the JSON: cancel true (a boolean) stops the whole run, the
// tool not run, with errorMessage (else context or contextModification) as the reason; else
// context, or contextModification, or errorMessage is context for the model; overrideInput
// replaces the tool's input. review is read and not acted on.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[s.Name]
	if !ok {
		out.Failed, out.Errors = true, []string{"Cline has no hook event " + s.Name}
		return out
	}
	if exitCode != 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("Cline ignores the exit status (%d); only stdout's JSON answers", exitCode))
	}
	body := bytes.TrimSpace(stdout)
	if len(body) == 0 {
		out.Answered = true
		return out
	}
	switch {
	case e.vscode && !e.answered:
		out.Notes = append(out.Notes, "the Cline CLI runs "+s.Name+" hooks detached and reads no answer; the VS Code extension reads it")
	case !e.answered:
		out.Answered = true
		out.Notes = append(out.Notes, "Cline runs "+s.Name+" hooks detached and reads no answer")
		return out
	}
	if cut > 0 {
		out.Failed, out.Errors = true, []string{fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut)}
		return out
	}
	candidate := body
	for _, line := range bytes.Split(body, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte(ControlPrefix)); ok {
			candidate = rest
		}
	}
	v, err := dialect.DecodeJSON(candidate)
	if err != nil {
		out.Failed = true
		out.Errors = append(out.Errors, "stdout is not JSON ("+err.Error()+"); Cline logs the hook as failed and ignores it")
		return out
	}
	obj, _ := v.(map[string]any)
	out.Answered = true
	if obj == nil {
		out.Notes = append(out.Notes, "stdout is JSON but not an object; Cline reads nothing from it")
		return out
	}
	// Cline's injectable context: context, else contextModification, when a string; errorMessage
	// counts only when it is not blank.
	context, hasContext := obj["context"].(string)
	if !hasContext {
		context, hasContext = obj["contextModification"].(string)
	}
	errMsg := strOf(obj, "errorMessage")
	if strings.TrimSpace(errMsg) == "" {
		errMsg = ""
	}
	if c, ok := obj["cancel"]; ok {
		if _, isBool := c.(bool); !isBool {
			out.Notes = append(out.Notes, "cancel must be a boolean; Cline ignores it")
		}
	}
	if c, _ := obj["cancel"].(bool); c {
		reason := errMsg
		if reason == "" {
			reason = context
		}
		reason = dialect.FirstText(reason, StopReason)
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason, Halt: true, StopReason: reason}
		if !s.Gates {
			out.Notes = append(out.Notes, "cancel on "+s.Name+" stops Cline's run; what the event follows has already happened")
		}
		return out
	}
	ctx := context
	if !hasContext {
		ctx = errMsg
	}
	if strings.TrimSpace(ctx) != "" {
		if len(ctx) > MaxContext {
			ctx = ctx[:MaxContext]
			out.Notes = append(out.Notes, fmt.Sprintf("Cline cuts a hook's context to %d characters", MaxContext))
		}
		out.Answer.AdditionalContext = ctx
	}
	if in, has := obj["overrideInput"]; has {
		if s.Name != "PreToolUse" {
			out.Notes = append(out.Notes, "overrideInput is read only on PreToolUse")
		} else if m, ok := in.(map[string]any); ok {
			out.Answer.UpdatedInput, _ = dialect.Marshal(m)
		} else {
			out.Notes = append(out.Notes, "overrideInput is not an object; Cline would run the tool with it as its whole input")
		}
	}
	if _, has := obj["review"]; has {
		out.Notes = append(out.Notes, "review is read by Cline and not acted on; a hook cannot make Cline ask")
	}
	return out
}

func strOf(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// Encode writes a merged decision in the form Cline honours, JSON on stdout with exit status
// 0: a deny (or a stop) is {"cancel": true, "errorMessage": reason}, which stops Cline's whole
// run with the reason; context is contextModification (and on PostToolUse, where the tool has
// run, a deny's reason too: a cancel there would end the run). An ask, which a Cline hook cannot make,
// becomes askAs. A rewritten input is refused as a deny: agenthooks does not pass it on, and
// running the original would undo what the hook asked for. Events Cline does not wait for get
// nothing.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	e, ok := events()[s.Name]
	if !ok || !e.answered {
		return dialect.Reply{}
	}
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage)
	perm, reason, warning := dialect.ResolveAsk("Cline", d.askAs, dec.Permission, reason)
	var r dialect.Reply
	if warning != "" {
		r.Stderr = []byte("agenthooks: " + warning + "\n")
	}
	if dec.UpdatedInput != nil && perm != decide.Deny && s.Name == "PreToolUse" {
		perm = decide.Deny
		reason = "a hook rewrote the tool's input, which agenthooks does not pass to Cline: " + string(dec.UpdatedInput)
	}
	out := map[string]any{}
	if !s.Gates && perm == decide.Deny && !dec.Halt {
		// After the tool ran (PostToolUse) a block can only be feedback: the model reads it as
		// context, as Claude Code's PostToolUse block feeds its reason back. A cancel would end
		// the whole run.
		perm, dec.AdditionalContext = decide.None, strings.TrimSpace(dialect.FirstText(reason, "blocked by agenthooks")+"\n"+dec.AdditionalContext)
	}
	switch {
	case perm == decide.Deny:
		out["cancel"], out["errorMessage"] = true, dialect.FirstText(reason, "blocked by agenthooks")
	case dec.Halt:
		out["cancel"], out["errorMessage"] = true, dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")
	case strings.TrimSpace(dec.AdditionalContext) != "":
		out["contextModification"] = dec.AdditionalContext
	}
	if len(out) == 0 {
		return r
	}
	b, _ := dialect.Marshal(out)
	r.Stdout = append(b, '\n')
	return r
}

// Messages returns what the user and the model see: a cancel's reason is the run's error, which
// the user reads and the model does not (the run is over); context reaches the model.
func (d impl) Messages(s *dialect.Spec, dec decide.Decision) (string, string) {
	r := d.Encode(s, dec)
	if len(r.Stdout) == 0 {
		return "", ""
	}
	v, _ := dialect.DecodeJSON(r.Stdout)
	m, _ := v.(map[string]any)
	if c, _ := m["cancel"].(bool); c {
		return strOf(m, "errorMessage"), ""
	}
	return "", strOf(m, "contextModification")
}
