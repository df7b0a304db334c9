// Package gemini is Google Gemini CLI's hooks dialect: its events, how a Gemini hook's answer
// reads (as Gemini's HookRunner reads it), how a decision is written in the form Gemini honours,
// and the rewrite of a Gemini payload into Claude Code's shape, so that Claude Code and Cursor
// hooks (through dialect/translate) run for Gemini events.
//
// Gemini parses stdout, else stderr, as the answer whatever the exit code: JSON decides, plain
// text allows on exit 0, warns on exit 1 and denies on any other code, and no text at all is no
// decision, so exit 2 with an empty stderr lets the call run. A block is therefore always written
// as exit 2 with a non-empty reason on stderr and nothing on stdout. It imports decide, dialect and
// dialect/claude, and internal/regfile and go-toml to read the agent's own permission rules.
package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Events are Gemini CLI's hook events.
var Events = []string{"SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
	"BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress", "Notification"}

// event is one Gemini event: its spec, its Claude Code namesake (whose hooks run for it) and
// which output fields Gemini honours on it.
type event struct {
	dialect.Spec
	claude  string
	block   bool // exit 2 / decision deny has an effect
	halt    bool // continue:false has an effect
	context bool // hookSpecificOutput.additionalContext has an effect
}

// events is built on first use (a guard process reads only the tool names).
var events = sync.OnceValue(func() map[string]*event {
	return map[string]*event{
		"SessionStart":        {Spec: spec("SessionStart", dialect.SessionStart, false, "source"), claude: "SessionStart", context: true},
		"SessionEnd":          {Spec: spec("SessionEnd", dialect.SessionEnd, false, "reason"), claude: "SessionEnd"},
		"BeforeAgent":         {Spec: spec("BeforeAgent", dialect.PromptSubmit, true, ""), claude: "UserPromptSubmit", block: true, halt: true, context: true},
		"AfterAgent":          {Spec: spec("AfterAgent", dialect.Stop, false, ""), claude: "Stop", block: true, halt: true},
		"BeforeModel":         {Spec: spec("BeforeModel", "", true, ""), block: true, halt: true},
		"AfterModel":          {Spec: spec("AfterModel", "", true, ""), block: true, halt: true},
		"BeforeToolSelection": {Spec: spec("BeforeToolSelection", "", false, "")},
		"BeforeTool":          {Spec: spec("BeforeTool", dialect.PreTool, true, "tool_name"), claude: "PreToolUse", block: true, halt: true},
		"AfterTool":           {Spec: spec("AfterTool", dialect.PostTool, false, "tool_name"), claude: "PostToolUse", block: true, halt: true, context: true},
		"PreCompress":         {Spec: spec("PreCompress", dialect.PreCompact, false, "trigger"), claude: "PreCompact"},
		"Notification":        {Spec: spec("Notification", "", false, "notification_type"), claude: "Notification"},
	}
})

func spec(name string, kind dialect.Kind, gates bool, field string) dialect.Spec {
	s := dialect.Spec{Dialect: dialect.Gemini, Name: name, Kind: kind, Gates: gates}
	if field != "" {
		s.Target, s.MatchField = dialect.FieldName, field
	}
	if kind == dialect.Stop {
		s.Loop = true
	}
	return s
}

// ClaudeEvent names the Claude Code event whose hooks run for a Gemini event, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}

// New returns Gemini's dialect; askAs is what an ask becomes (Gemini's hooks cannot ask).
func New(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return dialect.Gemini }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	e, ok := events()[name]
	if !ok {
		return nil, false
	}
	return &e.Spec, true
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a Gemini hook's run as Gemini does.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	var out dialect.Outcome
	e := events()[s.Name]
	text := bytes.TrimSpace(stdout)
	if len(text) == 0 {
		text = bytes.TrimSpace(stderr)
	}
	if len(text) == 0 {
		if exitCode != 0 {
			out.Notes = append(out.Notes, fmt.Sprintf("exit status %d with no output is no decision in Gemini", exitCode))
		}
		return out
	}
	if text[0] == '{' && cut == 0 {
		v, err := dialect.DecodeJSON(text)
		obj, isObj := v.(map[string]any)
		if err == nil && isObj {
			a, errs := answerFrom(e, obj)
			if len(errs) > 0 {
				out.Failed, out.Errors = true, errs
				return out
			}
			out.Answer, out.Answered = a, true
			return out
		}
		if err != nil {
			out.Notes = append(out.Notes, "output starts with { but is not JSON ("+err.Error()+"); read as text")
		}
	}
	if cut > 0 {
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("response is larger than the output cap (%d bytes cut)", cut))
		return out
	}
	switch exitCode {
	case 0:
		return out
	case 1:
		out.Failed = true
		out.Errors = append(out.Errors, "hook exited with status 1: "+string(text))
		return out
	}
	reason := string(text)
	if e.claude == "Stop" {
		out.Answer = decide.Answer{Followup: reason}
	} else if e.block {
		out.Answer = decide.Answer{Permission: decide.Deny, UserMessage: reason, AgentMessage: reason}
	}
	out.Answered = true
	return out
}

func answerFrom(e *event, obj map[string]any) (decide.Answer, []string) {
	var a decide.Answer
	var errs []string
	str := func(k string) string {
		v, ok := obj[k]
		if !ok || v == nil {
			return ""
		}
		s, ok := v.(string)
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: want a string, got %T", k, v))
		}
		return s
	}
	reason := str("reason")
	switch d := str("decision"); d {
	case "deny", "block":
		if e.claude == "Stop" {
			a.Followup = reason
		} else if e.block {
			a.Permission, a.UserMessage, a.AgentMessage = decide.Deny, reason, reason
		}
	case "allow", "approve":
		if e.Gates {
			a.Permission = decide.Allow
		}
	case "ask":
		if e.Gates {
			a.Permission, a.UserMessage = decide.Ask, reason
		}
	case "":
	default:
		errs = append(errs, fmt.Sprintf("decision: %q is not allow, deny or block", d))
	}
	if c, ok := obj["continue"]; ok {
		b, isBool := c.(bool)
		if !isBool {
			errs = append(errs, fmt.Sprintf("continue: want a boolean, got %T", c))
		} else if !b && e.halt {
			a.Halt, a.StopReason = true, dialect.FirstText(str("stopReason"), reason)
		}
	}
	a.SystemMessage = str("systemMessage")
	if hso, ok := obj["hookSpecificOutput"].(map[string]any); ok {
		if s, ok := hso["additionalContext"].(string); ok && e.context {
			a.AdditionalContext = s
		}
		if in, ok := hso["tool_input"].(map[string]any); ok && e.Name == "BeforeTool" {
			b, _ := dialect.Marshal(in)
			a.UpdatedInput = json.RawMessage(bytes.TrimSpace(b))
		}
	}
	return a, errs
}

// Encode writes the decision in the form Gemini honours.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	e := events()[s.Name]
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage, dec.StopReason)
	perm, reason, warning := dialect.ResolveAsk("Gemini CLI", d.askAs, dec.Permission, reason)
	if dec.Halt && e.halt {
		// Gemini stops its loop on continue:false, and the call it was about does not run.
		b, _ := dialect.Marshal(map[string]any{"continue": false, "stopReason": dialect.FirstText(dec.StopReason, reason, "stopped by agenthooks")})
		return dialect.Reply{Stdout: b}
	}
	if e.claude == "Stop" && dec.Followup != "" {
		// AfterAgent: exit 2 rejects the response and sends stderr as the next prompt.
		return dialect.Reply{ExitCode: 2, Stderr: []byte(strings.TrimSpace(dec.Followup) + "\n")}
	}
	if perm == decide.Deny && e.block && e.claude != "Stop" {
		if strings.TrimSpace(reason) == "" {
			reason = "blocked by agenthooks" // Gemini lets an exit 2 with an empty stderr through
		}
		return dialect.Reply{ExitCode: 2, Stderr: []byte(strings.TrimSpace(reason) + "\n")}
	}
	out := map[string]any{}
	hso := map[string]any{}
	if dec.AdditionalContext != "" && e.context {
		hso["additionalContext"] = dec.AdditionalContext
	}
	if dec.UpdatedInput != nil && s.Name == "BeforeTool" {
		hso["tool_input"] = dec.UpdatedInput
	}
	if len(hso) > 0 {
		hso["hookEventName"] = s.Name
		out["hookSpecificOutput"] = hso
	}
	if dec.SystemMessage != "" {
		out["systemMessage"] = dec.SystemMessage
	}
	var r dialect.Reply
	if len(out) > 0 {
		r.Stdout, _ = dialect.Marshal(out)
	}
	if warning != "" {
		r.Stderr = []byte(warning + "\n")
	}
	return r
}

// Messages returns what the user and the model see: a block's reason reaches the model as the
// tool's error.
func (impl) Messages(s *dialect.Spec, d decide.Decision) (string, string) {
	switch {
	case d.Permission == decide.Deny:
		return dialect.FirstText(d.UserMessage, d.AgentMessage), dialect.FirstText(d.AgentMessage, d.UserMessage)
	case d.Halt:
		return d.StopReason, ""
	}
	return "", ""
}
