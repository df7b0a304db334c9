package copilot

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Copilot CLI's built-in tools as Claude Code names the same tools.
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
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
	})
}

// argKeys renames the arguments of Copilot's file tools to Claude Code's keys.
var argKeysValue dialect.Lazy[map[string]string]

func argKeys() map[string]string {
	return argKeysValue.Get(func() map[string]string {
		return map[string]string{"path": "file_path", "file_text": "content", "old_str": "old_string", "new_str": "new_string"}
	})
}

// ClaudeTool names a Copilot tool as Claude Code does; others keep their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	return tool
}

var copilotToolsValue dialect.Lazy[map[string]string]

func copilotTools() map[string]string {
	return copilotToolsValue.Get(func() map[string]string {
		m := map[string]string{"MultiEdit": "edit"}
		for c, cl := range claudeTools() {
			m[cl] = c
		}
		return m
	})
}

// CopilotTool names a Claude Code tool as Copilot does; others keep their names.
func CopilotTool(tool string) string {
	if c, ok := copilotTools()[tool]; ok {
		return c
	}
	return tool
}

// renames are the camelCase payload fields whose Claude Code names differ.
var renamesValue dialect.Lazy[map[string]string]

func renames() map[string]string {
	return renamesValue.Get(func() map[string]string {
		return map[string]string{"sessionId": "session_id", "toolName": "tool_name", "toolArgs": "tool_input",
			"toolInput": "tool_input", "toolResult": "tool_response", "transcriptPath": "transcript_path",
			"stopReason": "stop_reason", "initialPrompt": "initial_prompt", "permissionSuggestions": "permission_suggestions",
			"agentId": "agent_id", "agentType": "agent_type"}
	})
}

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
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return e.claude, b, notes, err
}

// RenameToClaude rewrites a decoded payload of Copilot event name, in place, as the payload of
// its Claude Code namesake, and says what Claude Code's shape has no place for.
func RenameToClaude(name string, m map[string]any) []string {
	notes := renameToClaude(m)
	m["hook_event_name"] = ClaudeEvent(name)
	if src, ok := m["source"].(string); ok && src == "new" && name == "sessionStart" {
		m["source"] = "startup"
	}
	return notes
}

// renameToClaude renames a camelCase payload's fields, its tool and its tool's arguments as
// Claude Code names them, in place; a payload in Claude Code's shape keeps its fields and gets
// Claude Code's tool name.
func renameToClaude(m map[string]any) []string {
	var notes []string
	for from, to := range renames() {
		if v, ok := m[from]; ok {
			delete(m, from)
			if _, taken := m[to]; !taken {
				m[to] = v
			}
		}
	}
	if tool, ok := m["tool_name"].(string); ok {
		m["tool_name"] = ClaudeTool(tool)
		if isMCPTool(tool) {
			// Claude Code's mcp__SERVER__TOOL, split at a configured server, else at the first
			// "-" (a hook's matcher is tried on every split: ToolReadings).
			m["tool_name"], _ = mcpName(tool)
		}
		if in, ok := m["tool_input"].(map[string]any); ok {
			for from, to := range argKeys() {
				if v, has := in[from]; has {
					if _, taken := in[to]; !taken {
						in[to] = v
						delete(in, from)
					}
				}
			}
		}
		if res, ok := m["tool_response"].(map[string]any); ok && tool == "bash" {
			text, _ := res["textResultForLlm"].(string)
			m["tool_response"] = map[string]any{"stdout": text, "stderr": "", "interrupted": false}
		}
	}
	if _, ok := m["timestamp"].(json.Number); ok {
		notes = append(notes, "timestamp is Copilot's milliseconds; it is passed as is") // Claude Code sends none
	}
	for _, k := range []string{"initial_prompt", "permission_suggestions", "hookName"} {
		if _, ok := m[k]; ok {
			notes = append(notes, k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	return notes
}

// FromClaude rewrites the payload of a Claude Code event as the camelCase payload of Copilot
// event name, with notes on what Copilot's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Copilot CLI has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as the camelCase payload of
// Copilot event name, and says what Copilot's payload has no place for.
func RenameFromClaude(name string, m map[string]any) []string {
	back := map[string]string{}
	for c, cl := range renames() {
		if c != "toolInput" {
			back[cl] = c
		}
	}
	if name == "permissionRequest" {
		back["tool_input"] = "toolInput"
	}
	var notes []string
	for k, v := range m {
		switch k {
		case "hook_event_name":
			delete(m, k) // Copilot's camelCase payloads do not name their event
			continue
		case "permission_mode", "tool_use_id", "prompt_id", "effort":
			delete(m, k)
			notes = append(notes, k+" has no place in Copilot's payload; it is dropped")
			continue
		}
		if c, ok := back[k]; ok {
			delete(m, k)
			m[c] = v
		}
	}
	if tool, ok := m["toolName"].(string); ok {
		m["toolName"] = CopilotTool(tool)
		for _, key := range []string{"toolArgs", "toolInput"} {
			if in, ok := m[key].(map[string]any); ok {
				for from, to := range argKeys() {
					if v, has := in[to]; has {
						in[from] = v
						delete(in, to)
					}
				}
			}
		}
		if res, ok := m["toolResult"].(map[string]any); ok && tool == "Bash" {
			text, _ := res["stdout"].(string)
			m["toolResult"] = map[string]any{"resultType": "success", "textResultForLlm": text}
		}
	}
	if src, ok := m["source"].(string); ok && src == "startup" && name == "sessionStart" {
		m["source"] = "new"
	}
	sort.Strings(notes) // map order
	return notes
}

// GuardView rewrites a Copilot payload for the built-in guards in Claude Code's field, tool and
// argument names (toolName bash with toolArgs.command is tool_name Bash with
// tool_input.command; create's path and file_text are file_path and content); it does not name
// the event, which Copilot's payloads do not carry.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	orig, _ := m["toolName"].(string)
	if orig == "" {
		orig, _ = m["tool_name"].(string)
	}
	renameToClaude(m)
	tool, _ := m["tool_name"].(string)
	if isMCPTool(orig) {
		// A server ~/.copilot/mcp-config.json names splits the name; else the MCP guard
		// judges every split and the strictest answer stands.
		if n, known := mcpName(orig); known {
			m["tool_name"] = n
		} else {
			dialect.MCPJoinedBy(m, orig, '-')
		}
	}
	if patch, ok := m["tool_input"].(string); ok && tool == "apply_patch" {
		m["tool_input"] = map[string]any{"input": patch} // the freeform tool's input is the patch itself
	}
	return dialect.Marshal(m)
}

// isMCPTool reports whether tool, as renameToClaude leaves it, is an MCP server's: Copilot CLI
// 1.0.102 names those SERVER-TOOL (e2edb-drop_table, e2e TestCopilotMCPGuard), and none of its
// own tools holds a "-". Either part may hold a "-", so the name does not split: the MCP guard
// judges every split.
func isMCPTool(tool string) bool {
	return tool != "" && strings.Contains(tool, "-") && !strings.HasPrefix(tool, "mcp__") && CopilotTool(tool) == tool
}
