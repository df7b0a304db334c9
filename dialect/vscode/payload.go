package vscode

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// tool is one of VS Code's built-in tools that Claude Code has too: its Claude Code name and
// the renames of its input keys (VS Code's camelCase to Claude Code's snake_case).
type tool struct {
	claude string
	keys   map[string]string
}

var toolsValue dialect.Lazy[map[string]tool]

// tools are VS Code's built-in agent tools (GitHub Copilot Chat's run_in_terminal, read_file,
// create_file, replace_string_in_file, file_search, grep_search, runSubagent, as VS Code's hook
// documentation names them and their input schemas have them) with a Claude Code namesake.
func tools() map[string]tool {
	return toolsValue.Get(func() map[string]tool {
		path := map[string]string{"filePath": "file_path"}
		return map[string]tool{
			"run_in_terminal":        {claude: "Bash"},
			"read_file":              {claude: "Read", keys: path},
			"create_file":            {claude: "Write", keys: path},
			"replace_string_in_file": {claude: "Edit", keys: map[string]string{"filePath": "file_path", "oldString": "old_string", "newString": "new_string"}},
			"file_search":            {claude: "Glob", keys: map[string]string{"query": "pattern"}},
			"grep_search":            {claude: "Grep", keys: map[string]string{"query": "pattern"}},
			"runSubagent":            {claude: "Task"},
		}
	})
}

var vscodeToolsValue dialect.Lazy[map[string]string]

func vscodeTools() map[string]string {
	return vscodeToolsValue.Get(func() map[string]string {
		m := map[string]string{}
		for v, t := range tools() {
			m[t.claude] = v
		}
		return m
	})
}

// ClaudeTool names a VS Code tool as Claude Code does; others (MCP tools, VS Code's own) keep
// their names.
func ClaudeTool(name string) string {
	if t, ok := tools()[name]; ok {
		return t.claude
	}
	return name
}

// VSCodeTool names a Claude Code tool as VS Code does; others keep their names.
func VSCodeTool(name string) string {
	if v, ok := vscodeTools()[name]; ok {
		return v
	}
	return name
}

// common are the payload fields VS Code names in camelCase and Claude Code in snake_case.
var commonValue dialect.Lazy[map[string]string]

func common() map[string]string {
	return commonValue.Get(func() map[string]string {
		return map[string]string{"hookEventName": "hook_event_name", "sessionId": "session_id"}
	})
}

// ToClaude rewrites the payload of VS Code event name as the payload of its Claude Code
// namesake, which it returns with notes on what Claude Code's shape has no place for. An event
// VS Code does not have, or a payload that is not a JSON object, is an error.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(name) == "" {
		return "", nil, nil, fmt.Errorf("VS Code has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return name, b, notes, err
}

// RenameToClaude rewrites a decoded payload of VS Code event name, in place, as the payload of
// its Claude Code namesake, and says what Claude Code's shape has no place for.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	renameKeys(m, common())
	m["hook_event_name"] = ClaudeEvent(name)
	if name, ok := m["tool_name"].(string); ok {
		t, known := tools()[name]
		if known {
			m["tool_name"] = t.claude
			if in, ok := m["tool_input"].(map[string]any); ok {
				renameKeys(in, t.keys)
			}
		}
		if text, ok := m["tool_response"].(string); ok && name == "run_in_terminal" {
			m["tool_response"] = map[string]any{"stdout": text, "stderr": "", "interrupted": false}
		}
	}
	if _, ok := m["timestamp"]; ok {
		notes = append(notes, "timestamp has no place in Claude Code's payload; it is passed as is")
	}
	return notes
}

// FromClaude rewrites the payload of a Claude Code event as the payload of VS Code event name,
// with notes on what VS Code's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if ClaudeEvent(name) == "" {
		return nil, nil, fmt.Errorf("VS Code has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as the payload of VS Code
// event name, and says what VS Code's payload has no place for.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	back := map[string]string{}
	for camel, snake := range common() {
		back[snake] = camel
	}
	renameKeys(m, back)
	m["hookEventName"] = name
	if tool, ok := m["tool_name"].(string); ok {
		v := VSCodeTool(tool)
		m["tool_name"] = v
		if t, known := tools()[v]; known {
			if in, ok := m["tool_input"].(map[string]any); ok {
				rev := map[string]string{}
				for camel, snake := range t.keys {
					rev[snake] = camel
				}
				renameKeys(in, rev)
			}
		}
		if resp, ok := m["tool_response"].(map[string]any); ok && tool == "Bash" {
			out, _ := resp["stdout"].(string)
			m["tool_response"] = out
		}
		if tool == "MultiEdit" {
			notes = append(notes, "MultiEdit has no VS Code namesake; its name and input are passed as they are")
		}
	}
	for _, k := range []string{"permission_mode", "effort"} {
		if _, ok := m[k]; ok {
			delete(m, k)
			notes = append(notes, k+" has no place in VS Code's payload; it is dropped")
		}
	}
	return notes
}

// contributed are the names GitHub Copilot Chat's file tools are contributed under (its
// ContributedToolName), by the names its agent calls them (ToolName).
var contributedValue dialect.Lazy[map[string]string]

func contributed() map[string]string {
	return contributedValue.Get(func() map[string]string {
		return map[string]string{"copilot_createFile": "create_file", "copilot_replaceString": "replace_string_in_file",
			"copilot_multiReplaceString": "multi_replace_string_in_file", "copilot_insertEdit": "insert_edit_into_file",
			"copilot_editNotebook": "edit_notebook_file", "copilot_applyPatch": "apply_patch", "copilot_readFile": "read_file"}
	})
}

// GuardView rewrites a VS Code payload into Claude Code's field and tool names for the built-in
// guards (tool_name Bash, tool_input.file_path, hook_event_name). Every tool of GitHub Copilot
// Chat's (its ToolName enum, vscode-copilot-chat as of 2026-11) that writes files is one the edit
// guard knows: create_file and replace_string_in_file by their Claude Code namesakes,
// insert_edit_into_file as Edit, edit_notebook_file as NotebookEdit, apply_patch as it is (its
// input is a patch that names its files), multi_replace_string_in_file as MultiEdit with every
// replacements[].filePath in file_paths. An MCP tool, mcp_SERVER_TOOL, is mcp__SERVER_TOOL
// (dialect.MCPJoined): VS Code joins the two with "_", which both may hold.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	if name, ok := m["tool_name"].(string); ok {
		if n, ok := contributed()[name]; ok {
			m["tool_name"] = n
		}
	}
	if ev, ok := m["hookEventName"].(string); ok && ClaudeEvent(ev) != "" {
		RenameToClaude(ev, m)
	} else {
		renameKeys(m, common())
		if name, ok := m["tool_name"].(string); ok {
			if t, known := tools()[name]; known {
				m["tool_name"] = t.claude
				if in, ok := m["tool_input"].(map[string]any); ok {
					renameKeys(in, t.keys)
				}
			}
		}
	}
	if err := guardTools(m); err != nil {
		return nil, err
	}
	return dialect.Marshal(m)
}

// guardTools rewrites, in place, the VS Code tools the guards must understand that have no
// Claude Code namesake for run --agent: the file tools beyond create_file and
// replace_string_in_file, and MCP tools.
func guardTools(m map[string]any) error {
	name, _ := m["tool_name"].(string)
	in, _ := m["tool_input"].(map[string]any)
	switch {
	case name == "insert_edit_into_file" || name == "edit_notebook_file":
		m["tool_name"] = map[string]string{"insert_edit_into_file": "Edit", "edit_notebook_file": "NotebookEdit"}[name]
		if in != nil {
			renameKeys(in, map[string]string{"filePath": "file_path"})
		}
	case name == "multi_replace_string_in_file":
		m["tool_name"] = "MultiEdit"
		if in == nil {
			return nil // the edit guard says the call names no file
		}
		list, ok := in["replacements"].([]any)
		if !ok {
			return fmt.Errorf("payload: field \"tool_input.replacements\" must be a list")
		}
		files := make([]any, 0, len(list))
		for i, r := range list {
			o, _ := r.(map[string]any)
			f, ok := o["filePath"].(string)
			if !ok || f == "" {
				return fmt.Errorf("payload: field tool_input.replacements[%d].filePath must be a path (a non-empty string)", i)
			}
			files = append(files, f)
		}
		in["file_paths"] = files
	case strings.HasPrefix(name, "mcp_") && !strings.HasPrefix(name, "mcp__"):
		m["tool_name"] = dialect.MCPJoined(strings.TrimPrefix(name, "mcp_"))
	}
	return nil
}

// renameKeys renames m's keys as renames says, leaving a key alone whose new name is taken.
func renameKeys(m map[string]any, renames map[string]string) {
	for from, to := range renames {
		if v, ok := m[from]; ok {
			if _, taken := m[to]; !taken {
				m[to] = v
				delete(m, from)
			}
		}
	}
}
