package copilot

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Copilot CLI's built-in tools as Claude Code names the same tools.
var claudeTools = map[string]string{
	"bash":       "Bash",
	"view":       "Read",
	"create":     "Write",
	"edit":       "Edit",
	"glob":       "Glob",
	"grep":       "Grep",
	"web_fetch":  "WebFetch",
	"task":       "Task",
	"powershell": "PowerShell",
}

// argKeys renames the arguments of Copilot's file tools to Claude Code's keys.
var argKeys = map[string]string{"path": "file_path", "file_text": "content", "old_str": "old_string", "new_str": "new_string"}

// ClaudeTool names a Copilot tool as Claude Code does; others keep their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools[tool]; ok {
		return t
	}
	return tool
}

var copilotTools = sync.OnceValue(func() map[string]string {
	m := map[string]string{"MultiEdit": "edit"}
	for c, cl := range claudeTools {
		m[cl] = c
	}
	return m
})

// CopilotTool names a Claude Code tool as Copilot does; others keep their names.
func CopilotTool(tool string) string {
	if c, ok := copilotTools()[tool]; ok {
		return c
	}
	return tool
}

// renames are the camelCase payload fields whose Claude Code names differ.
var renames = map[string]string{"sessionId": "session_id", "toolName": "tool_name", "toolArgs": "tool_input",
	"toolInput": "tool_input", "toolResult": "tool_response", "transcriptPath": "transcript_path",
	"stopReason": "stop_reason", "initialPrompt": "initial_prompt", "permissionSuggestions": "permission_suggestions"}

// ToClaude rewrites the payload of Copilot event name as the payload of its Claude Code
// namesake, which it returns with notes on what Claude Code's shape has no place for. Copilot's
// payloads do not name their event, so the name must come from how the hook was registered. A
// payload already in Claude Code's shape (a hooks file that names the event in PascalCase gets
// one) keeps its fields and gets Claude Code's tool name.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return "", nil, nil, fmt.Errorf("Copilot CLI's %s has no Claude Code counterpart", name)
	}
	m, err := decodeObject(payload)
	if err != nil {
		return "", nil, nil, err
	}
	var notes []string
	out := map[string]any{}
	for k, v := range m {
		if r, ok := renames[k]; ok {
			k = r
		}
		out[k] = v
	}
	out["hook_event_name"] = e.claude
	if tool, ok := out["tool_name"].(string); ok {
		out["tool_name"] = ClaudeTool(tool)
		if in, ok := out["tool_input"].(map[string]any); ok {
			for from, to := range argKeys {
				if v, has := in[from]; has {
					if _, taken := in[to]; !taken {
						in[to] = v
						delete(in, from)
					}
				}
			}
		}
		if res, ok := out["tool_response"].(map[string]any); ok && tool == "bash" {
			text, _ := res["textResultForLlm"].(string)
			out["tool_response"] = map[string]any{"stdout": text, "stderr": "", "interrupted": false}
		}
	}
	if src, ok := out["source"].(string); ok && src == "new" && name == "sessionStart" {
		out["source"] = "startup"
	}
	if ts, ok := out["timestamp"].(json.Number); ok {
		out["timestamp"] = ts // Copilot's is milliseconds since 1970; Claude Code sends none
		notes = append(notes, "timestamp is Copilot's milliseconds; it is passed as is")
	}
	for _, k := range []string{"initial_prompt", "permission_suggestions", "hookName"} {
		if _, ok := out[k]; ok {
			notes = append(notes, k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	b, err := dialect.Marshal(out)
	return e.claude, b, notes, err
}

// FromClaude rewrites the payload of a Claude Code event as the camelCase payload of Copilot
// event name, with notes on what Copilot's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Copilot CLI has no event %s", name)
	}
	m, err := decodeObject(payload)
	if err != nil {
		return nil, nil, err
	}
	back := map[string]string{}
	for c, cl := range renames {
		if c != "toolInput" {
			back[cl] = c
		}
	}
	if name == "permissionRequest" {
		back["tool_input"] = "toolInput"
	}
	var notes []string
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "hook_event_name":
			continue // Copilot's camelCase payloads do not name their event
		case "permission_mode", "tool_use_id", "prompt_id", "effort", "agent_id", "agent_type":
			notes = append(notes, k+" has no place in Copilot's payload; it is dropped")
			continue
		}
		if c, ok := back[k]; ok {
			k = c
		}
		out[k] = v
	}
	if tool, ok := out["toolName"].(string); ok {
		out["toolName"] = CopilotTool(tool)
		for _, key := range []string{"toolArgs", "toolInput"} {
			if in, ok := out[key].(map[string]any); ok {
				for from, to := range argKeys {
					if v, has := in[to]; has {
						in[from] = v
						delete(in, to)
					}
				}
			}
		}
		if res, ok := out["toolResult"].(map[string]any); ok && tool == "Bash" {
			text, _ := res["stdout"].(string)
			out["toolResult"] = map[string]any{"resultType": "success", "textResultForLlm": text}
		}
	}
	if src, ok := out["source"].(string); ok && src == "startup" && name == "sessionStart" {
		out["source"] = "new"
	}
	b, err := dialect.Marshal(out)
	return b, notes, err
}

// decodeObject decodes a payload that must be a JSON object, bounded in depth.
func decodeObject(payload []byte) (map[string]any, error) {
	v, err := dialect.DecodeJSON(payload)
	if err != nil {
		return nil, dialect.JSONError("payload", payload, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("payload must be a JSON object")
	}
	return m, nil
}
