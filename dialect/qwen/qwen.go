package qwen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Name is the dialect's name.
const Name dialect.Name = "qwen"

// Version is the Qwen Code release whose code and behaviour this package follows.
const Version = "0.24.4"

// Events are Qwen Code's hook events (packages/core/src/hooks/types.ts, HookEventName).
var Events = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
	"UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay", "SubagentStart",
	"SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "SessionDelete", "PermissionRequest",
	"PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded"}

// style says how an event takes a decision in Qwen Code.
type style int

const (
	styleNone       style = iota // no decision: an observation
	stylePermission              // PreToolUse: hookSpecificOutput.permissionDecision, or decision allow/deny/ask
	styleRequest                 // PermissionRequest: hookSpecificOutput.decision.behavior
	styleBlock                   // decision "block" (or "deny") with a reason stops what follows
	styleContinue                // Stop, SubagentStop: decision "block" keeps the agent working
)

// event is one Qwen Code event: its spec, its Claude Code namesake and what Qwen honours on it.
type event struct {
	dialect.Spec
	claude  string // the Claude Code event whose hooks run for it, or ""
	style   style
	halt    bool // continue:false has an effect
	context bool // hookSpecificOutput.additionalContext reaches the model
	text    bool // plain stdout on exit 0 is context (PLAIN_TEXT_CONTEXT_EVENTS)
}

// events is built on first use. What each event honours follows Qwen Code 0.24.4's
// toolHookTriggers.ts, hookAggregator.ts and client.ts; TodoCreated, TodoCompleted and
// SessionDelete have no Claude Code counterpart.
var eventsValue dialect.Lazy[map[string]*event]

func events() map[string]*event {
	return eventsValue.Get(func() map[string]*event {
		list := []event{
			{Spec: spec("PreToolUse", true), claude: "PreToolUse", style: stylePermission, halt: true, context: true},
			{Spec: spec("PostToolUse", false), claude: "PostToolUse", halt: true, context: true},
			{Spec: spec("PostToolUseFailure", false), claude: "PostToolUseFailure", context: true},
			{Spec: spec("PostToolBatch", true), claude: "PostToolBatch", style: styleBlock, halt: true},
			{Spec: spec("Notification", false), claude: "Notification"},
			{Spec: spec("UserPromptSubmit", true), claude: "UserPromptSubmit", style: styleBlock, halt: true, context: true, text: true},
			{Spec: spec("UserPromptExpansion", true), claude: "UserPromptExpansion", style: styleBlock, halt: true, context: true, text: true},
			{Spec: spec("SessionStart", false), claude: "SessionStart", context: true, text: true},
			{Spec: spec("Stop", false), claude: "Stop", style: styleContinue, halt: true},
			{Spec: spec("MessageDisplay", false), claude: "MessageDisplay"},
			{Spec: spec("SubagentStart", false), claude: "SubagentStart", context: true},
			{Spec: spec("SubagentStop", false), claude: "SubagentStop", style: styleContinue, halt: true},
			{Spec: spec("PreCompact", false), claude: "PreCompact"},
			{Spec: spec("PostCompact", false), claude: "PostCompact"},
			{Spec: spec("SessionEnd", false), claude: "SessionEnd"},
			{Spec: spec("SessionDelete", false)},
			{Spec: spec("PermissionRequest", true), claude: "PermissionRequest", style: styleRequest},
			{Spec: spec("PermissionDenied", false), claude: "PermissionDenied"},
			{Spec: spec("StopFailure", false), claude: "StopFailure"},
			{Spec: spec("TodoCreated", false)},
			{Spec: spec("TodoCompleted", false)},
			{Spec: spec("InstructionsLoaded", false), claude: "InstructionsLoaded"},
		}
		m := make(map[string]*event, len(list))
		for i := range list {
			m[list[i].Name] = &list[i]
		}
		return m
	})
}

// spec takes the kind and matcher target of the Claude Code event of the same name.
func spec(name string, gates bool) dialect.Spec {
	s := dialect.Spec{Dialect: Name, Name: name, Gates: gates}
	if c, ok := claude.Lookup(name); ok {
		s.Kind, s.Target, s.MatchField, s.MatchConst, s.Loop = c.Kind, c.Target, c.MatchField, c.MatchConst, c.Loop
	}
	return s
}

// ClaudeEvent names the Claude Code event whose hooks run for a Qwen Code event, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}

// Dialect is Qwen Code's hooks dialect for the engine. Qwen Code can ask a person (in a
// headless run it denies an ask, with its reason, which is the safe reading), so an ask is
// written as an ask.
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

// Interpret reads a finished run of a Qwen Code hook as Qwen Code's HookRunner does.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e, ok := events()[s.Name]
	if !ok {
		out.Failed, out.Errors = true, []string{"Qwen Code has no event " + s.Name}
		return out
	}
	blocking := exitCode == 2
	text := bytes.TrimSpace(stdout)
	if blocking || len(text) == 0 {
		text = bytes.TrimSpace(stderr)
	}
	if len(text) == 0 {
		switch {
		case blocking:
			out.Notes = append(out.Notes, "exit status 2 with an empty stderr is no decision in Qwen Code: the call runs")
		case exitCode != 0:
			out.Failed = true
			out.Errors = append(out.Errors, fmt.Sprintf("hook exited with status %d", exitCode))
		}
		return out
	}
	if cut > 0 && !blocking {
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut))
		return out
	}
	if obj, err := decodeAnswer(text); err == nil {
		a, errs := answerFrom(e, obj)
		if len(errs) > 0 {
			out.Failed, out.Errors = true, errs
			return out
		}
		out.Answer, out.Answered = a, true
		return out
	} else if !blocking && text[0] == '{' {
		// Qwen ignores it and counts the run as failed, which on PreToolUse lets the call run.
		out.Failed = true
		out.Errors = append(out.Errors, "output starts like a JSON object but is not valid JSON: "+err.Error())
		return out
	}
	reason := string(text)
	switch {
	case blocking:
		out.Answer, out.Answered = blockAnswer(e, reason), true
	case exitCode == 0:
		if e.text {
			out.Answer, out.Answered = decide.Answer{AdditionalContext: reason}, true
		} else {
			out.Answer, out.Answered = decide.Answer{SystemMessage: reason}, true
		}
	default:
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("hook exited with status %d (a non-blocking error in Qwen Code): %s", exitCode, firstLine(reason)))
	}
	return out
}

// blockAnswer is what a deny (exit 2 with text, or decision deny/block) means on event e.
func blockAnswer(e *event, reason string) decide.Answer {
	switch e.style {
	case stylePermission, styleBlock:
		return decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
	case styleContinue:
		return decide.Answer{Followup: reason}
	}
	return decide.Answer{}
}

// decodeAnswer decodes a hook's JSON answer: an object, or a JSON string that holds one (Qwen
// parses a string twice).
func decodeAnswer(text []byte) (map[string]any, error) {
	v, err := dialect.DecodeJSON(text)
	if err != nil {
		return nil, err
	}
	if s, ok := v.(string); ok {
		if v, err = dialect.DecodeJSON([]byte(s)); err != nil {
			return nil, err
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
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
			errs = append(errs, fmt.Sprintf("%s must be a string", k))
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
		case !b && e.halt:
			a.Halt, a.StopReason = true, dialect.FirstText(str(obj, "stopReason"), reason)
		}
	}
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	if v, ok := obj["hookSpecificOutput"]; ok && v != nil && hso == nil {
		errs = append(errs, "hookSpecificOutput must be an object")
	}
	if hso != nil && e.context {
		if c, ok := hso["additionalContext"].(string); ok {
			a.AdditionalContext = c
		}
	}
	switch decision {
	case "", "allow", "approve", "deny", "block", "ask":
	default:
		errs = append(errs, fmt.Sprintf("decision %q is not one of allow, approve, deny, block, ask", decision))
	}
	switch e.style {
	case stylePermission:
		perm := map[string]decide.Permission{"allow": decide.Allow, "approve": decide.Allow, "deny": decide.Deny, "block": decide.Deny, "ask": decide.Ask}[decision]
		if hso != nil {
			switch p := str(hso, "permissionDecision"); p {
			case "allow", "deny", "ask":
				perm = decide.Permission(p) // Qwen reads it before the top-level decision
			case "":
			default:
				errs = append(errs, fmt.Sprintf("hookSpecificOutput.permissionDecision %q is not one of allow, deny, ask", p))
			}
			if r := str(hso, "permissionDecisionReason"); r != "" {
				reason = r
			}
		}
		a.Permission = perm
		switch perm {
		case decide.Deny:
			a.UserMessage, a.AgentMessage = reason, reason
		case decide.Ask:
			a.UserMessage = reason
		}
	case styleRequest:
		if hso != nil {
			if d, ok := hso["decision"].(map[string]any); ok {
				switch b := str(d, "behavior"); b {
				case "allow", "deny":
					a.Permission = decide.Permission(b)
				default:
					errs = append(errs, fmt.Sprintf("hookSpecificOutput.decision.behavior %q is not allow or deny", b))
				}
				a.UserMessage, a.AgentMessage = str(d, "message"), str(d, "message")
				if u, ok := d["updatedInput"].(map[string]any); ok {
					b, _ := dialect.Marshal(u)
					a.UpdatedInput = json.RawMessage(b)
				}
			}
		}
	case styleBlock, styleContinue:
		if decision == "block" || decision == "deny" {
			b := blockAnswer(e, reason)
			a.Permission, a.UserMessage, a.AgentMessage, a.Followup = b.Permission, b.UserMessage, b.AgentMessage, b.Followup
		}
	}
	return a, errs
}

// Encode writes a merged decision in the form Qwen Code honours: JSON on stdout with exit status
// 0, which its runner reads on every event. A deny on PreToolUse carries both the
// hookSpecificOutput deny and the top-level decision "block" (Qwen merges several hooks'
// top-level decisions with "any block wins"); an input rewrite, which Qwen Code 0.24.4 does not
// apply on PreToolUse, becomes a deny saying so, since the call was meant to run only rewritten.
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
		perm = decide.Ask // Qwen has no defer: a person decides
	}
	if d.UpdatedInput != nil && perm == decide.Allow && e.style == stylePermission {
		perm = decide.Deny
		reason = "agenthooks allows this call only with its input rewritten, which Qwen Code " + Version + " cannot do on PreToolUse"
	}
	switch e.style {
	case stylePermission:
		switch perm {
		case decide.Deny:
			reason = dialect.FirstText(reason, "blocked by agenthooks")
			out["decision"], out["reason"] = "block", reason
			hso["permissionDecision"], hso["permissionDecisionReason"] = "deny", reason
		case decide.Ask:
			hso["permissionDecision"] = "ask"
			if r := dialect.FirstText(d.UserMessage, d.AgentMessage); r != "" {
				hso["permissionDecisionReason"] = r
			}
		case decide.Allow:
			hso["permissionDecision"] = "allow"
		}
	case styleRequest:
		switch perm {
		case decide.Allow:
			dec := map[string]any{"behavior": "allow"}
			if d.UpdatedInput != nil {
				dec["updatedInput"] = d.UpdatedInput
			}
			hso["decision"] = dec
		case decide.Deny:
			hso["decision"] = map[string]any{"behavior": "deny", "message": dialect.FirstText(reason, "blocked by agenthooks")}
		}
	case styleBlock:
		if perm == decide.Deny {
			out["decision"], out["reason"] = "block", dialect.FirstText(reason, "blocked by agenthooks")
		}
	case styleContinue:
		if d.Followup != "" {
			out["decision"], out["reason"] = "block", d.Followup
		}
	}
	if d.Halt && e.halt {
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

// Messages returns what the user and the model see: a deny's reason reaches the model as the
// tool's error (and the user); an ask's reason is shown to the user.
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

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
