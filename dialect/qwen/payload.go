package qwen

import (
	"fmt"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Qwen Code's built-in tools (packages/core/src/tools/tool-names.ts) as Claude
// Code names the same tools; their inputs already use Claude Code's keys (command, file_path,
// content, old_string, new_string, pattern).
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
			"run_shell_command": "Bash",
			"read_file":         "Read",
			"write_file":        "Write",
			"edit":              "Edit",
			"glob":              "Glob",
			"grep_search":       "Grep",
			"web_fetch":         "WebFetch",
			"web_search":        "WebSearch",
			"agent":             "Task",
			"todo_write":        "TodoWrite",
			"notebook_edit":     "NotebookEdit",
		}
	})
}

// ClaudeTool names a Qwen Code tool as Claude Code does; MCP tools (mcp__server__tool) and
// tools Claude Code does not have keep their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	return tool
}

var qwenToolsValue dialect.Lazy[map[string]string]

func qwenTools() map[string]string {
	return qwenToolsValue.Get(func() map[string]string {
		m := map[string]string{"MultiEdit": "edit"}
		for q, c := range claudeTools() {
			m[c] = q
		}
		return m
	})
}

// QwenTool names a Claude Code tool as Qwen Code does; others keep their names.
func QwenTool(tool string) string {
	if q, ok := qwenTools()[tool]; ok {
		return q
	}
	return tool
}

// droppedForClaude are the fields of Qwen Code's payloads that Claude Code's have no place for.
var droppedForClaude = []string{"timestamp", "tool_call_id", "submitted_prompt", "background_tasks", "crons",
	"context_usage", "context_limit", "input_tokens"}

// ToClaude rewrites the payload of Qwen Code event name as the payload of its Claude Code
// namesake, which it returns with notes on what Claude Code's shape has no place for. An event
// with no namesake, or a payload that is not a JSON object, is an error.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return "", nil, nil, fmt.Errorf("Qwen Code's %s has no Claude Code counterpart", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return e.claude, b, notes, err
}

// RenameToClaude rewrites a decoded payload of Qwen Code event name, in place, as the payload of
// its Claude Code namesake, and says what Claude Code's shape has no place for.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = ClaudeEvent(name)
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = ClaudeTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && tool == "read_file" {
			if _, has := in["file_path"]; !has && in["absolute_path"] != nil {
				in["file_path"] = in["absolute_path"]
			}
		}
		if resp, ok := m["tool_response"].(map[string]any); ok && tool == "run_shell_command" {
			out := map[string]any{"stdout": resp["llmContent"], "stderr": "", "interrupted": false}
			if msg, ok := resp["error"]; ok && msg != nil {
				out["stderr"] = msg
			}
			m["tool_response"] = out
		}
	}
	for _, k := range droppedForClaude {
		if _, ok := m[k]; ok {
			notes = append(notes, k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	return notes
}

// FromClaude rewrites the payload of a Claude Code event as the payload of Qwen Code event
// name, with notes on what Qwen's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Qwen Code has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as the payload of Qwen Code
// event name, and says what Qwen's payload has no place for.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = QwenTool(tool)
		if resp, ok := m["tool_response"].(map[string]any); ok && tool == "Bash" {
			out, _ := resp["stdout"].(string)
			m["tool_response"] = map[string]any{"llmContent": out, "returnDisplay": out}
		}
		if tool == "MultiEdit" {
			notes = append(notes, "MultiEdit's several edits have no Qwen Code form; edit gets them as they are")
		}
	}
	for _, k := range []string{"effort", "agent_id", "agent_type"} {
		if _, ok := m[k]; ok {
			delete(m, k)
			notes = append(notes, k+" has no place in Qwen Code's payload; it is dropped")
		}
	}
	return notes
}
