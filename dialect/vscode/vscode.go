package vscode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Dialect is VS Code's hooks dialect for the engine. VS Code asks a person for an ask, so an
// ask is written as an ask.
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

// Interpret reads a finished run of a VS Code hook as VS Code's hooks reference says it does:
// exit status 2 is a blocking error whose stderr reaches the model; any other non-zero status is
// a warning shown to the user, and the call runs; on exit 0 stdout is parsed as JSON.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[s.Name]
	if !ok {
		out.Failed, out.Errors = true, []string{"VS Code has no event " + s.Name}
		return out
	}
	switch {
	case exitCode == 2:
		reason := strings.TrimSpace(string(stderr))
		if reason == "" {
			reason = "blocked by a hook (exit status 2)"
		}
		a := blockAnswer(e, reason)
		if e.style == styleNone {
			out.Notes = append(out.Notes, "exit status 2 stops nothing on "+s.Name+" in VS Code")
			return out
		}
		out.Answer, out.Answered = a, true
		return out
	case exitCode != 0:
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("hook exited with status %d (a warning in VS Code: the call runs)%s", exitCode, suffix(stderr)))
		return out
	case cut > 0:
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut))
		return out
	}
	text := bytes.TrimSpace(stdout)
	if len(text) == 0 {
		return out
	}
	v, err := dialect.DecodeJSON(text)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		out.Failed = true
		out.Errors = append(out.Errors, "stdout is not a JSON object, which VS Code cannot read: "+firstLine(string(text)))
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

// blockAnswer is what a block (exit status 2, a decision "block") means on event e; the zero
// answer where nothing can be blocked.
func blockAnswer(e *event, reason string) decide.Answer {
	switch e.style {
	case stylePermission, styleExit2, styleBlock:
		return decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
	case styleContinue:
		return decide.Answer{Followup: reason}
	}
	return decide.Answer{}
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
	reason := str(obj, "reason")
	decision := str(obj, "decision")
	a.SystemMessage = str(obj, "systemMessage")
	if c, ok := obj["continue"]; ok {
		b, isBool := c.(bool)
		switch {
		case !isBool:
			errs = append(errs, "continue must be a boolean")
		case !b:
			a.Halt, a.StopReason = true, dialect.FirstText(str(obj, "stopReason"), reason)
		}
	}
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	if v, ok := obj["hookSpecificOutput"]; ok && v != nil && hso == nil {
		errs = append(errs, "hookSpecificOutput must be an object")
	}
	if hso != nil && e.context {
		a.AdditionalContext = str(hso, "additionalContext")
	}
	switch e.style {
	case stylePermission:
		if hso == nil {
			break
		}
		switch p := str(hso, "permissionDecision"); p {
		case "allow", "deny", "ask":
			a.Permission = decide.Permission(p)
		case "":
		default:
			errs = append(errs, fmt.Sprintf("hookSpecificOutput.permissionDecision %q is not one of allow, deny, ask", p))
		}
		if r := str(hso, "permissionDecisionReason"); r != "" {
			reason = r
		}
		if u, ok := hso["updatedInput"]; ok && u != nil {
			if _, isObj := u.(map[string]any); !isObj {
				errs = append(errs, "hookSpecificOutput.updatedInput must be an object")
			} else {
				b, _ := dialect.Marshal(u)
				a.UpdatedInput = json.RawMessage(b)
			}
		}
		switch a.Permission {
		case decide.Deny:
			a.UserMessage, a.AgentMessage = reason, reason
		case decide.Ask, decide.Allow:
			a.UserMessage = reason
		}
	case styleBlock:
		if decision == "block" {
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, reason, reason
		}
	case styleContinue:
		// The reference puts Stop's decision in hookSpecificOutput and SubagentStop's at the top
		// level; both are read on both.
		if hso != nil && str(hso, "decision") == "block" {
			decision, reason = "block", dialect.FirstText(str(hso, "reason"), reason)
		}
		if decision == "block" {
			a.Followup = dialect.FirstText(reason, "continue")
		}
	}
	if decision != "" && decision != "block" {
		errs = append(errs, fmt.Sprintf("decision %q is not block", decision))
	}
	return a, errs
}

// Encode writes a merged decision in the form VS Code honours: JSON on stdout with exit status
// 0, except a blocked prompt, which UserPromptSubmit's common output cannot carry: exit status 2
// with the reason on stderr. An allow with rewritten input carries updatedInput.
func (impl) Encode(s *dialect.Spec, d decide.Decision) dialect.Reply {
	e, ok := events()[s.Name]
	if !ok {
		return dialect.Reply{}
	}
	out := map[string]any{}
	hso := map[string]any{}
	reason := dialect.FirstText(d.AgentMessage, d.UserMessage)
	perm := d.Permission
	if perm == decide.Defer {
		perm = decide.Ask // VS Code has no defer: a person decides
	}
	switch e.style {
	case stylePermission:
		switch perm {
		case decide.Deny:
			hso["permissionDecision"], hso["permissionDecisionReason"] = "deny", dialect.FirstText(reason, "blocked by agenthooks")
		case decide.Ask:
			hso["permissionDecision"] = "ask"
			if r := dialect.FirstText(d.UserMessage, d.AgentMessage); r != "" {
				hso["permissionDecisionReason"] = r
			}
		case decide.Allow:
			hso["permissionDecision"] = "allow"
			if d.UpdatedInput != nil {
				hso["updatedInput"] = d.UpdatedInput
			}
			if r := d.UserMessage; r != "" {
				hso["permissionDecisionReason"] = r
			}
		}
	case styleExit2, styleBlock:
		if perm == decide.Ask {
			// Only PreToolUse can ask a person; elsewhere an ask is not let through unasked.
			perm, reason = decide.Deny, "VS Code cannot ask a person on "+s.Name+", so agenthooks denies: "+dialect.FirstText(reason, "asked by a hook")
		}
	}
	switch e.style {
	case styleExit2:
		if perm == decide.Deny {
			return dialect.Reply{ExitCode: 2, Stderr: []byte(dialect.FirstText(reason, "blocked by agenthooks") + "\n")}
		}
	case styleBlock:
		if perm == decide.Deny {
			out["decision"], out["reason"] = "block", dialect.FirstText(reason, "blocked by agenthooks")
		}
	case styleContinue:
		if d.Followup != "" {
			out["decision"], out["reason"] = "block", d.Followup
			if s.Name == "Stop" {
				hso["decision"], hso["reason"] = "block", d.Followup
			}
		}
	}
	if d.Halt {
		out["continue"] = false
		out["stopReason"] = dialect.FirstText(d.StopReason, reason, "stopped by agenthooks")
	}
	if d.AdditionalContext != "" && e.context {
		hso["additionalContext"] = d.AdditionalContext
	}
	if d.SystemMessage != "" {
		out["systemMessage"] = d.SystemMessage
	}
	if len(hso) > 0 {
		hso["hookEventName"] = s.Name
		out["hookSpecificOutput"] = hso
	}
	if len(out) == 0 {
		return dialect.Reply{}
	}
	b, _ := dialect.Marshal(out)
	return dialect.Reply{Stdout: append(b, '\n')}
}

// Messages returns what the user and the model see: a deny's reason reaches the model (and the
// user); an ask's reason is shown to the user; a stop's reason to both.
func (impl) Messages(s *dialect.Spec, d decide.Decision) (string, string) {
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

func suffix(stderr []byte) string {
	if s := strings.TrimSpace(string(stderr)); s != "" {
		return ": " + firstLine(s)
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
