package crush

import (
	"fmt"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Crush's built-in tools (internal/agent/tools) as Claude Code names the same
// tools; their inputs already use Claude Code's keys (command, file_path, content, old_string,
// new_string, edits, pattern).
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
			"bash":       "Bash",
			"view":       "Read",
			"write":      "Write",
			"edit":       "Edit",
			"multiedit":  "MultiEdit",
			"glob":       "Glob",
			"grep":       "Grep",
			"ls":         "LS",
			"fetch":      "WebFetch",
			"web_search": "WebSearch",
			"agent":      "Task",
			"todos":      "TodoWrite",
		}
	})
}

// ClaudeTool names a Crush tool as Claude Code does; an MCP tool (mcp_server_tool, whose parts
// cannot be told apart when a name has an underscore) and tools Claude Code does not have keep
// their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	return tool
}

var crushToolsValue dialect.Lazy[map[string]string]

func crushTools() map[string]string {
	return crushToolsValue.Get(func() map[string]string {
		m := map[string]string{"NotebookEdit": "edit", "WebFetch": "fetch"}
		for c, cl := range claudeTools() {
			m[cl] = c
		}
		return m
	})
}

// CrushTool names a Claude Code tool as Crush does; others keep their names.
func CrushTool(tool string) string {
	if c, ok := crushTools()[tool]; ok {
		return c
	}
	return tool
}

// ToClaude rewrites the payload of Crush event name as the payload of its Claude Code
// namesake, which it returns with notes on what Claude Code's shape has no place for. An event
// Crush does not have, or a payload that is not a JSON object, is an error.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return "", nil, nil, fmt.Errorf("Crush has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return name, b, notes, err
}

// RenameToClaude rewrites a decoded payload of Crush event name, in place, as the payload of its
// Claude Code namesake: hook_event_name for event, Claude Code's tool names. Crush's payload has
// every field Claude Code's needs but transcript_path and permission_mode, which it does not send.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	if ev, ok := m["event"].(string); ok && CanonicalEvent(ev) != "" {
		name = CanonicalEvent(ev)
	}
	delete(m, "event")
	m["hook_event_name"] = name
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = ClaudeTool(tool)
		if joined, ok := mcpJoined(tool); ok {
			// Claude Code's mcp__SERVER__TOOL, split at a configured server, else at the first
			// "_" (a hook's matcher is tried on every split: ToolReadings).
			cwd, _ := m["cwd"].(string)
			n, known := mcpName(joined, cwd)
			m["tool_name"] = n
			if !known {
				notes = append(notes, "Crush's MCP tool name "+tool+" is mcp_<server>_<tool> and no configured server splits it; it is passed as "+n+" and matched in every split")
			}
		}
	}
	return notes
}

// FromClaude rewrites the payload of a Claude Code event as the payload of Crush event name,
// with notes on what Crush's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Crush has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as the payload of Crush
// event name (Crush's five fields), and says what Crush's payload has no place for.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	delete(m, "hook_event_name")
	m["event"] = name
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = CrushTool(tool)
	}
	for _, k := range []string{"transcript_path", "permission_mode", "tool_use_id", "effort", "agent_id", "agent_type"} {
		if _, ok := m[k]; ok {
			delete(m, k)
			notes = append(notes, k+" has no place in Crush's payload; it is dropped")
		}
	}
	return notes
}

// GuardView rewrites a Crush payload for the built-in guards in Claude Code's field and tool
// names (hook_event_name, Bash, Write, Edit, MultiEdit). An MCP tool, which Crush names
// mcp_<server>_<tool> (either part may hold "_", so the name does not split), is the neutral
// mcp__<server>_<tool> (dialect.MCPJoined), which the MCP guard judges in every reading.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	tool, _ := m["tool_name"].(string)
	RenameToClaude("PreToolUse", m)
	if joined, ok := mcpJoined(tool); ok {
		// A server Crush's configuration names splits the name; else the MCP guard judges
		// every split and the strictest answer stands (mcp__NAME).
		cwd, _ := m["cwd"].(string)
		if n, known := mcpName(joined, cwd); known {
			m["tool_name"] = n
		} else {
			m["tool_name"] = dialect.MCPJoined(joined)
		}
	}
	return dialect.Marshal(m)
}
