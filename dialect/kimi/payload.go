package kimi

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// Kimi Code's built-in tools have Claude Code's names (Bash, Read, Write, Edit, Grep, Glob), but
// its file tools name their file "path" where Claude Code's name it "file_path"
// (agent-core/src/tools/builtin/file).
func fileTool(tool string) bool { return tool == "Read" || tool == "Write" || tool == "Edit" }

// ToClaude rewrites the payload of Kimi Code event name as Claude Code's payload of the same
// event.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return "", nil, nil, fmt.Errorf("Kimi Code has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	spoken := spokenEvent(name)
	if spoken == "" {
		return "", payload, nil, nil
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return spoken, b, notes, err
}

// RenameToClaude rewrites a decoded Kimi Code payload, in place, as Claude Code's: a file
// tool's path as file_path, and a prompt given as the message's content parts (2.1.0 sends
// UserPromptSubmit's prompt so) as its text.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	if parts, ok := m["prompt"].([]any); ok {
		var text []string
		for _, p := range parts {
			part, _ := p.(map[string]any)
			if t, ok := part["text"].(string); ok && (part["type"] == "text" || part["type"] == nil) {
				text = append(text, t)
			} else {
				notes = append(notes, "a prompt part that is not text is left out")
			}
		}
		m["prompt"] = strings.Join(text, "\n")
	}
	tool, _ := m["tool_name"].(string)
	// Kimi Code 2.1.0 names the call tool_call_id and a PostToolUse's result tool_output, a
	// string (seen in the e2e suite); Claude Code names them tool_use_id and tool_response,
	// which for Bash is an object with stdout.
	renameKey(m, "tool_call_id", "tool_use_id")
	if out, has := m["tool_output"]; has {
		if _, both := m["tool_response"]; !both {
			if s, ok := out.(string); ok && tool == "Bash" {
				m["tool_response"] = map[string]any{"stdout": s, "stderr": "", "interrupted": false}
			} else {
				m["tool_response"] = out
			}
			delete(m, "tool_output")
		}
	}
	if fileTool(tool) {
		if in, ok := m["tool_input"].(map[string]any); ok {
			if v, has := in["path"]; has {
				if _, both := in["file_path"]; !both {
					in["file_path"] = v
					delete(in, "path")
				}
			}
		}
	}
	return notes
}

// FromClaude rewrites a Claude Code payload as the payload of Kimi Code event name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Kimi Code has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as Kimi Code's.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	tool, _ := m["tool_name"].(string)
	if tool == "MultiEdit" {
		notes = append(notes, "MultiEdit has no Kimi Code form; its edits are passed as they are")
	}
	if fileTool(tool) || tool == "MultiEdit" {
		if in, ok := m["tool_input"].(map[string]any); ok {
			if v, has := in["file_path"]; has {
				in["path"] = v
				delete(in, "file_path")
			}
		}
	}
	renameKey(m, "tool_use_id", "tool_call_id")
	if resp, has := m["tool_response"]; has {
		if _, both := m["tool_output"]; !both {
			if r, ok := resp.(map[string]any); ok && tool == "Bash" {
				resp, _ = r["stdout"].(string)
			}
			m["tool_output"] = resp
			delete(m, "tool_response")
		}
	}
	return notes
}

// renameKey moves m[from] to m[to] unless m already has to.
func renameKey(m map[string]any, from, to string) {
	v, has := m[from]
	if _, both := m[to]; !has || both {
		return
	}
	m[to] = v
	delete(m, from)
}

// GuardView rewrites a Kimi Code payload for the built-in guards in Claude Code's names.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name, _ := m["hook_event_name"].(string)
	RenameToClaude(name, m)
	if name == "" {
		delete(m, "hook_event_name")
	}
	return dialect.Marshal(m)
}

// spokenEvent names the Claude Code namesake of a Kimi Code event ("" for one Claude Code has
// not, such as SessionHeartbeat).
func spokenEvent(event string) string {
	if _, ok := events()[event]; !ok {
		return ""
	}
	if _, ok := claudeLookup(event); ok {
		return event
	}
	return ""
}
