package gemini

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTools names Gemini's built-in tools as Claude Code names the same tools; their inputs
// already use Claude Code's keys (command, file_path, content, old_string, new_string, pattern).
var claudeTools = map[string]string{
	"run_shell_command": "Bash",
	"read_file":         "Read",
	"write_file":        "Write",
	"replace":           "Edit",
	"glob":              "Glob",
	"grep_search":       "Grep",
	"web_fetch":         "WebFetch",
	"google_web_search": "WebSearch",
}

// ClaudeTool names a Gemini tool as Claude Code does; tools Claude Code does not have keep their
// names. An MCP tool (mcp_<server>_<tool>, which does not split) is renamed from its payload's
// mcp_context by RenameToClaude.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools[tool]; ok {
		return t
	}
	return tool
}

// ToClaude rewrites the payload of Gemini event name as the payload of its Claude Code
// namesake, which it returns with notes on what Claude Code's shape has no place for. An event
// with no namesake is an error.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return "", nil, nil, fmt.Errorf("Gemini's %s has no Claude Code counterpart", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return e.claude, b, notes, err
}

// RenameToClaude rewrites a decoded payload of Gemini event name, which must have a Claude Code
// namesake (ClaudeEvent), in Claude Code's shape, in place; it returns notes.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = events()[name].claude
	switch name {
	case "BeforeTool", "AfterTool":
		tool, _ := m["tool_name"].(string)
		m["tool_name"] = ClaudeTool(tool)
		if in, ok := m["tool_input"].(map[string]any); ok && tool == "read_file" {
			if _, has := in["file_path"]; !has && in["absolute_path"] != nil {
				in["file_path"] = in["absolute_path"] // older Gemini versions
			}
		}
		if resp, ok := m["tool_response"].(map[string]any); ok && tool == "run_shell_command" {
			out := map[string]any{"stdout": resp["llmContent"], "stderr": "", "interrupted": false}
			if msg, ok := resp["error"]; ok && msg != nil {
				out["stderr"] = msg
			}
			m["tool_response"] = out
		}
		if c, ok := m["mcp_context"].(map[string]any); ok {
			if server, name := mcpNames(c); server != "" && name != "" {
				m["tool_name"] = "mcp__" + server + "__" + name // Claude Code's name, which its matchers use
			}
			notes = append(notes, "mcp_context has no place in Claude Code's payload; it is passed as is")
		}
	case "AfterAgent":
		if r, ok := m["prompt_response"]; ok {
			m["last_assistant_message"] = r
		}
		if _, ok := m["stop_hook_active"]; !ok {
			m["stop_hook_active"] = false
		}
	}
	return notes
}

// geminiTools names Claude Code's tools as Gemini CLI does.
var geminiTools = sync.OnceValue(func() map[string]string {
	m := map[string]string{"MultiEdit": "replace"}
	for g, c := range claudeTools {
		m[c] = g
	}
	return m
})

// RenameFromClaude rewrites a decoded payload in Claude Code's shape as Gemini event name's, in
// place; it returns notes on what Gemini's payload has no place for.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	if tool, ok := m["tool_name"].(string); ok {
		if g, ok := geminiTools()[tool]; ok {
			m["tool_name"] = g
		}
		if c, ok := m["mcp_context"].(map[string]any); ok && strings.HasPrefix(tool, "mcp__") {
			if server, name := mcpNames(c); server != "" && name != "" {
				m["tool_name"] = "mcp_" + server + "_" + name // Gemini CLI's name again
			}
		}
		if resp, ok := m["tool_response"].(map[string]any); ok && tool == "Bash" {
			out, _ := resp["stdout"].(string)
			m["tool_response"] = map[string]any{"llmContent": out, "returnDisplay": out}
		}
		if tool == "MultiEdit" {
			notes = append(notes, "MultiEdit's several edits have no Gemini form; replace gets them as they are")
		}
	}
	if name == "AfterAgent" {
		if r, ok := m["last_assistant_message"]; ok {
			m["prompt_response"] = r
			delete(m, "last_assistant_message")
		}
	}
	for _, k := range []string{"permission_mode", "tool_use_id", "agent_id", "agent_type"} {
		delete(m, k) // Claude Code's fields that Gemini does not send
	}
	return notes
}

// GeminiTool names a Claude Code tool as Gemini CLI does; others keep their names.
func GeminiTool(tool string) string {
	if g, ok := geminiTools()[tool]; ok {
		return g
	}
	return tool
}

// mcpNames returns the server and tool an MCP call's mcp_context names.
func mcpNames(c map[string]any) (server, tool string) {
	server, _ = c["server_name"].(string)
	tool, _ = c["tool_name"].(string)
	return server, tool
}
