package droid

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Droid's built-in tools as Claude Code names the same tools.
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
			"Execute":   "Bash",
			"Read":      "Read",
			"Create":    "Write",
			"Edit":      "Edit",
			"LS":        "LS",
			"Glob":      "Glob",
			"Grep":      "Grep",
			"FetchUrl":  "WebFetch",
			"WebSearch": "WebSearch",
			"Task":      "Task",
			"TodoWrite": "TodoWrite",
		}
	})
}

// ClaudeTool names a Droid tool as Claude Code does: an MCP tool, which Droid 0.215 names
// SERVER___TOOL, as mcp__SERVER__TOOL; others (ApplyPatch) keep their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	if server, name, ok := strings.Cut(tool, mcpSeparator); ok && server != "" && name != "" {
		return dialect.MCPTool(server, name)
	}
	return tool
}

// mcpSeparator joins an MCP tool's server and name in Droid's name for it (e2edb___drop_table).
const mcpSeparator = "___"

var droidToolsValue dialect.Lazy[map[string]string]

func droidTools() map[string]string {
	return droidToolsValue.Get(func() map[string]string {
		m := map[string]string{"MultiEdit": "Edit"}
		for d, c := range claudeTools() {
			m[c] = d
		}
		return m
	})
}

// DroidTool names a Claude Code tool as Droid does (mcp__SERVER__TOOL as SERVER___TOOL); others
// keep their names.
func DroidTool(tool string) string {
	if d, ok := droidTools()[tool]; ok {
		return d
	}
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if server, name, ok := strings.Cut(rest, "__"); ok && server != "" && name != "" {
			return server + mcpSeparator + name
		}
	}
	return tool
}

// Edit's input keys in Droid (old_str, new_str) and in Claude Code.
var editKeys = [][2]string{{"old_str", "old_string"}, {"new_str", "new_string"}}

// ToClaude rewrites the payload of Droid event name as Claude Code's payload of the same event.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return "", nil, nil, fmt.Errorf("Factory Droid has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return name, b, notes, err
}

// RenameToClaude rewrites a decoded Droid payload, in place, as Claude Code's: its tool names,
// and Edit's old_str and new_str as old_string and new_string.
func RenameToClaude(name string, m map[string]any) []string {
	m["hook_event_name"] = name
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = ClaudeTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && tool == "Edit" {
			for _, k := range editKeys {
				if v, has := in[k[0]]; has {
					in[k[1]] = v
					delete(in, k[0])
				}
			}
		}
	}
	return nil
}

// FromClaude rewrites a Claude Code payload as the payload of Droid event name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Factory Droid has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as Droid's.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = DroidTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && (tool == "Edit" || tool == "MultiEdit") {
			for _, k := range editKeys {
				if v, has := in[k[1]]; has {
					in[k[0]] = v
					delete(in, k[1])
				}
			}
			if tool == "MultiEdit" {
				notes = append(notes, "MultiEdit's several edits have no Droid form; Edit gets them as they are")
			}
		}
	}
	return notes
}

// GuardView rewrites a Droid payload for the built-in guards in Claude Code's names.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name, _ := m["hook_event_name"].(string)
	RenameToClaude(name, m)
	return dialect.Marshal(m)
}
