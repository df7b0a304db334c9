package cursor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Validate applies Cursor's response validator for the event to a decoded JSON value and returns
// Cursor's messages, in the order Cursor reports them. No messages means valid.
func Validate(ev *Event, v any) []string {
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{"Expected an object"}
	}
	var errs []string
	check := func(field string, valid func(any) bool, msg string) {
		if x, present := obj[field]; present && !valid(x) {
			errs = append(errs, msg)
		}
	}
	oneOf := func(values ...string) func(any) bool {
		return func(x any) bool {
			s, ok := x.(string)
			for _, v := range values {
				if ok && s == v {
					return true
				}
			}
			return false
		}
	}
	switch ev.Shape {
	case Permission, PreTool:
		check("permission", oneOf("allow", "deny", "ask"), "Invalid permission value. Expected one of: allow, deny, ask, or undefined")
		check("user_message", isString, "Invalid user_message value. Expected a string if provided")
		check("agent_message", isString, "Invalid agent_message value. Expected a string if provided")
		if ev.Shape == PreTool {
			check("updated_input", isObject, "Invalid updated_input value. Expected an object if provided")
		}
	case ReadPermission:
		check("permission", oneOf("allow", "deny"), "Invalid permission value. Expected one of: allow, deny, or undefined")
		check("user_message", isString, "Invalid user_message value. Expected a string if provided")
	case SubagentGate:
		check("permission", oneOf("allow", "deny", "ask"), "Invalid permission value. Expected one of: allow, deny, ask, or undefined")
		check("user_message", isString, "Invalid user_message value. Expected a string if provided")
	case Prompt:
		check("continue", isBool, "Invalid continue value. Expected a boolean if provided")
		check("user_message", isString, "Invalid user_message value. Expected a string if provided")
	case Followup:
		check("followup_message", isString, "Invalid followup_message value. Expected a string if provided")
	case PostTool:
		check("additional_context", isString, "Invalid additional_context value. Expected a string if provided")
	case SessionStart:
		check("env", isStringMap, "Invalid env value. Expected an object of strings if provided")
		check("additional_context", isString, "Invalid additional_context value. Expected a string if provided")
		check("continue", isBool, "Invalid continue value. Expected a boolean if provided")
		check("user_message", isString, "Invalid user_message value. Expected a string if provided")
	case Compact:
		check("user_message", isString, "Invalid user_message value. Expected a string if provided")
	case WorkspaceOpen:
		check("pluginPaths", isStringList, "Invalid pluginPaths value. Expected an array of strings if provided")
	}
	return errs
}

func isString(x any) bool { _, ok := x.(string); return ok }
func isBool(x any) bool   { _, ok := x.(bool); return ok }
func isObject(x any) bool { _, ok := x.(map[string]any); return ok }

func isStringMap(x any) bool {
	m, ok := x.(map[string]any)
	if !ok {
		return false
	}
	for _, v := range m {
		if !isString(v) {
			return false
		}
	}
	return true
}

func isStringList(x any) bool {
	l, ok := x.([]any)
	if !ok {
		return false
	}
	for _, v := range l {
		if !isString(v) {
			return false
		}
	}
	return true
}

// Interpret reads a finished hook run as Cursor does: exit 0 uses the JSON on stdout (empty
// stdout is no answer), exit 2 denies (with stderr as the message when stdout gives none), any
// other exit code is a failure. stdoutCut is how many bytes of stdout were dropped by the cap.
func Interpret(ev *Event, exitCode int, stdout, stderr []byte, stdoutCut int64) dialect.Outcome {
	var out dialect.Outcome
	switch exitCode {
	case 0, 2:
	default:
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("hook exited with status %d%s", exitCode, stderrSuffix(stderr)))
		return out
	}
	var parsed any
	body := bytes.TrimSpace(stdout)
	if stdoutCut > 0 {
		out.Failed = true
		out.Errors = append(out.Errors, fmt.Sprintf("response is larger than the output cap (%d bytes cut)", stdoutCut))
		return out
	}
	if len(body) > 0 {
		v, err := dialect.DecodeJSON(body)
		if err != nil {
			out.Failed = true
			out.Errors = append(out.Errors, "response is not valid JSON: "+err.Error())
			return out
		}
		if errs := Validate(ev, v); len(errs) > 0 {
			out.Failed = true
			out.Errors = errs
			return out
		}
		parsed = v
	}
	if exitCode == 2 {
		return blockByExit(ev, parsed, stderr)
	}
	if parsed == nil {
		return out // exit 0 with nothing to say
	}
	out.Answer, out.Answered = answerFrom(ev, parsed.(map[string]any)), true
	return out
}

func blockByExit(ev *Event, parsed any, stderr []byte) dialect.Outcome {
	var out dialect.Outcome
	if !ev.Gates {
		out.Notes = append(out.Notes, "exit status 2 has no effect on "+ev.Name)
		if parsed != nil {
			out.Answer, out.Answered = answerFrom(ev, parsed.(map[string]any)), true
		}
		return out
	}
	a := decide.Answer{}
	if parsed != nil {
		a = answerFrom(ev, parsed.(map[string]any))
	}
	a.Permission = decide.Deny
	reason := strings.TrimSpace(string(stderr))
	if a.UserMessage == "" {
		a.UserMessage = reason
	}
	if a.AgentMessage == "" && (ev.Shape == Permission || ev.Shape == PreTool) {
		a.AgentMessage = reason
	}
	out.Answer, out.Answered = a, true
	return out
}

func answerFrom(ev *Event, obj map[string]any) decide.Answer {
	str := func(k string) string { s, _ := obj[k].(string); return s }
	a := decide.Answer{}
	switch ev.Shape {
	case Permission, PreTool, ReadPermission, SubagentGate:
		a.Permission = decide.Permission(str("permission"))
		if ev.Shape == SubagentGate && a.Permission == decide.Ask {
			a.Permission = decide.Deny // Cursor treats ask as deny for subagents
		}
		a.UserMessage = str("user_message")
		a.AgentMessage = str("agent_message")
		if u, ok := obj["updated_input"]; ok && ev.Shape == PreTool {
			a.UpdatedInput = mustMarshal(u)
		}
	case Prompt:
		if c, ok := obj["continue"].(bool); ok {
			a.Permission = decide.Allow
			if !c {
				a.Permission = decide.Deny
			}
		}
		a.UserMessage = str("user_message")
	case Followup:
		a.Followup = str("followup_message")
	case PostTool:
		a.AdditionalContext = str("additional_context")
		if u, ok := obj["updated_mcp_tool_output"]; ok {
			a.UpdatedMCPToolOutput = mustMarshal(u)
		}
	case SessionStart:
		a.AdditionalContext = str("additional_context")
		if env, ok := obj["env"].(map[string]any); ok {
			a.Env = make(map[string]string, len(env))
			for k, v := range env {
				a.Env[k] = v.(string)
			}
		}
	case Compact:
		a.UserMessage = str("user_message")
	case WorkspaceOpen:
		if l, ok := obj["pluginPaths"].([]any); ok {
			for _, p := range l {
				a.PluginPaths = append(a.PluginPaths, p.(string))
			}
		}
	}
	return a
}

func mustMarshal(v any) json.RawMessage {
	b, err := marshal(v)
	if err != nil {
		return nil // unreachable for values produced by decodeJSON
	}
	return b
}

func marshal(v any) ([]byte, error) { return dialect.Marshal(v) }

func stderrSuffix(stderr []byte) string {
	s := strings.TrimSpace(string(stderr))
	if s == "" {
		return ""
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return ": " + s
}
