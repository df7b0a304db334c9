package auggie

import (
	"fmt"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Auggie's built-in tools as Claude Code names the same tools.
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
			"launch-process":     "Bash",
			"view":               "Read",
			"save-file":          "Write",
			"str-replace-editor": "Edit",
			"web-fetch":          "WebFetch",
			"web-search":         "WebSearch",
			"sub-agent":          "Task",
		}
	})
}

// ClaudeTool names an Auggie tool as Claude Code does; others keep their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	return tool
}

var auggieToolsValue dialect.Lazy[map[string]string]

func auggieTools() map[string]string {
	return auggieToolsValue.Get(func() map[string]string {
		m := map[string]string{"MultiEdit": "str-replace-editor"}
		for a, c := range claudeTools() {
			m[c] = a
		}
		return m
	})
}

// AuggieTool names a Claude Code tool as Auggie does; others keep their names.
func AuggieTool(tool string) string {
	if a, ok := auggieTools()[tool]; ok {
		return a
	}
	return tool
}

// inputKeys are the tool_input keys Auggie's file tools use for Claude Code's.
var inputKeys = [][2]string{{"path", "file_path"}, {"file_content", "content"}}

// ToClaude rewrites the payload of Auggie event name as its Claude Code namesake's.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	claudeName := ClaudeEvent(name)
	if claudeName == "" {
		return "", nil, nil, fmt.Errorf("Auggie has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return claudeName, b, notes, err
}

// RenameToClaude rewrites a decoded Auggie payload, in place, as its Claude Code namesake's:
// conversation_id is session_id, the first workspace root cwd, the prompt "prompt", the tool
// and its path and content keys Claude Code's.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = ClaudeEvent(name)
	if id, ok := m["conversation_id"]; ok {
		m["session_id"] = id
		delete(m, "conversation_id")
	}
	if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
		if _, has := m["cwd"]; !has {
			m["cwd"] = roots[0]
		}
	}
	if p, ok := m["user_prompt"]; ok && name == "PromptSubmit" {
		m["prompt"] = p
		delete(m, "user_prompt")
	}
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = ClaudeTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && ClaudeTool(tool) != tool {
			for _, k := range inputKeys {
				if v, has := in[k[0]]; has {
					in[k[1]] = v
					delete(in, k[0])
				}
			}
		}
	}
	for _, k := range []string{"is_mcp_tool", "tool_output", "tool_error", "file_changes", "agent_stop_cause", "notification_type"} {
		if _, ok := m[k]; ok {
			notes = append(notes, k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	return notes
}

// FromClaude rewrites a Claude Code payload as the payload of Auggie event name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if ClaudeEvent(name) == "" {
		return nil, nil, fmt.Errorf("Auggie has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as Auggie's.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	if id, ok := m["session_id"]; ok {
		m["conversation_id"] = id
		delete(m, "session_id")
	}
	if cwd, ok := m["cwd"]; ok {
		if _, has := m["workspace_roots"]; !has {
			m["workspace_roots"] = []any{cwd}
		}
		delete(m, "cwd")
	}
	if p, ok := m["prompt"]; ok && name == "PromptSubmit" {
		m["user_prompt"] = p
		delete(m, "prompt")
	}
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = AuggieTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && AuggieTool(tool) != tool {
			for _, k := range inputKeys {
				if v, has := in[k[1]]; has {
					in[k[0]] = v
					delete(in, k[1])
				}
			}
		}
	}
	for _, k := range []string{"transcript_path", "permission_mode", "tool_use_id", "effort", "agent_id", "agent_type"} {
		if _, ok := m[k]; ok {
			delete(m, k)
			notes = append(notes, k+" has no place in Auggie's payload; it is dropped")
		}
	}
	return notes
}

// GuardView rewrites an Auggie payload for the built-in guards in Claude Code's names.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name, _ := m["hook_event_name"].(string)
	if ClaudeEvent(name) == "" {
		name = "PreToolUse"
	}
	RenameToClaude(name, m)
	if m["tool_name"] == "remove-files" {
		// remove-files deletes every file it names: Cursor's Delete to the guard, each file in
		// file_paths (its own field), or a single path
		m["tool_name"] = "Delete"
		if in, ok := m["tool_input"].(map[string]any); ok {
			if err := dialect.StringList(in, "file_paths", "tool_input.file_paths"); err != nil {
				return nil, err
			}
		}
	}
	return dialect.Marshal(m)
}
