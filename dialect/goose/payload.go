package goose

import (
	"fmt"

	"github.com/agenthooks/agenthooks/dialect"
)

// Goose's built-in developer tools are namespaced by their extension (developer__shell,
// developer__write, developer__edit); the model sometimes calls them unprefixed. The file tools
// name their file "path", and the edit tool its old and new text "before" and "after".
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{"developer__shell": "Bash", "shell": "Bash", "developer__write": "Write",
			"write": "Write", "developer__edit": "Edit", "edit": "Edit"}
	})
}

// ClaudeTool names Goose's tool as Claude Code does; a tool Claude Code has not keeps its name.
func ClaudeTool(tool string) string {
	if c, ok := claudeTools()[tool]; ok {
		return c
	}
	return tool
}

// GooseTool names Claude Code's tool as Goose does (MultiEdit as its one edit tool).
func GooseTool(tool string) string {
	switch tool {
	case "Bash":
		return "developer__shell"
	case "Write":
		return "developer__write"
	case "Edit", "MultiEdit":
		return "developer__edit"
	}
	return tool
}

// the renames of tool_input's keys between Goose's file tools and Claude Code's.
var inputKeys = [][2]string{{"path", "file_path"}, {"before", "old_string"}, {"after", "new_string"}}

// ToClaude rewrites the payload of Goose event name as Claude Code's payload of its namesake;
// an event Claude Code has not keeps its payload and gives no name.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return "", nil, nil, fmt.Errorf("Goose has no event %s", name)
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

// RenameToClaude rewrites a decoded Goose payload, in place, as Claude Code's: event as
// hook_event_name, working_dir as cwd, the prompt's message as prompt, tool_output as
// tool_response, the tool's name and its file arguments in Claude Code's names.
func RenameToClaude(name string, m map[string]any) []string {
	delete(m, "event")
	delete(m, "matcher_context")
	m["hook_event_name"] = name
	move(m, "working_dir", "cwd")
	move(m, "tool_output", "tool_response")
	if name == "UserPromptSubmit" {
		move(m, "message", "prompt")
	}
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = ClaudeTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && m["tool_name"] != tool {
			for _, k := range inputKeys {
				move(in, k[0], k[1])
			}
		}
	}
	return nil
}

// FromClaude rewrites a Claude Code payload as the payload of Goose event name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Goose has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as Goose's, with the
// matcher_context Goose's matchers are tried on.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	delete(m, "hook_event_name")
	m["event"] = name
	move(m, "cwd", "working_dir")
	move(m, "tool_response", "tool_output")
	if name == "UserPromptSubmit" {
		move(m, "prompt", "message")
		if msg, ok := m["message"].(string); ok {
			m["matcher_context"] = msg
		}
	}
	if tool, ok := m["tool_name"].(string); ok {
		if tool == "MultiEdit" {
			notes = append(notes, "MultiEdit has no Goose form; its edits are passed as they are")
		}
		g := GooseTool(tool)
		m["tool_name"], m["matcher_context"] = g, g
		if in, ok := m["tool_input"].(map[string]any); ok && g != tool {
			for _, k := range inputKeys {
				move(in, k[1], k[0])
			}
		}
	}
	return notes
}

// move renames key from as to in m, unless to is there already.
func move(m map[string]any, from, to string) {
	v, ok := m[from]
	if !ok {
		return
	}
	if _, both := m[to]; both {
		return
	}
	m[to] = v
	delete(m, from)
}

// GuardView rewrites a Goose payload for the built-in guards in Claude Code's names.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name, _ := m["event"].(string)
	if name == "" {
		name, _ = m["hook_event_name"].(string)
	}
	RenameToClaude(name, m)
	if name == "" {
		delete(m, "hook_event_name")
	}
	return dialect.Marshal(m)
}

// spokenEvent names the Claude Code namesake of a Goose event ("" for one of Goose's own, such
// as BeforeShellExecution, which cannot block unlike Cursor's event of that name).
func spokenEvent(event string) string {
	if _, ok := events()[event]; !ok {
		return ""
	}
	if _, ok := claudeLookup(event); ok {
		return event
	}
	return ""
}
