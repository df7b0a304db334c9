package kiro

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// claudeTool names Kiro's built-in tools, by their names and by their agent-config aliases, as
// Claude Code names the same tools; false for any other tool. A switch, not a map built on
// first use: detect asks it of every payload that names one of Kiro's events, Claude Code's too.
func claudeTool(tool string) (string, bool) {
	switch tool {
	case "shell", "execute_bash", "execute_cmd":
		return "Bash", true
	case "read", "fs_read":
		return "Read", true
	case "write", "fs_write":
		return "Write", true
	case "glob":
		return "Glob", true
	case "grep":
		return "Grep", true
	case "web_fetch":
		return "WebFetch", true
	case "web_search":
		return "WebSearch", true
	}
	return "", false
}

// kiroTools names a Claude Code tool as Kiro does.
var kiroToolsValue dialect.Lazy[map[string]string]

func kiroTools() map[string]string {
	return kiroToolsValue.Get(func() map[string]string {
		return map[string]string{"Bash": "shell", "Read": "read", "Write": "write", "Edit": "write", "MultiEdit": "write",
			"Glob": "glob", "Grep": "grep", "WebFetch": "web_fetch", "WebSearch": "web_search"}
	})
}

// aliases are the other names Kiro gives a built-in tool (its agent-config names), which a
// matcher lists beside the tool's own so that it selects the tool in either harness.
var aliasesValue dialect.Lazy[map[string][]string]

func aliases() map[string][]string {
	return aliasesValue.Get(func() map[string][]string {
		return map[string][]string{"shell": {"execute_bash"}, "read": {"fs_read"}, "write": {"fs_write"}}
	})
}

// ClaudeTool names a Kiro tool as Claude Code does: a built-in by its Claude Code name, an MCP
// tool (@server/tool) as mcp__server__tool; others keep their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTool(tool); ok {
		return t
	}
	if server, name, ok := strings.Cut(strings.TrimPrefix(tool, "@"), "/"); ok && strings.HasPrefix(tool, "@") {
		return "mcp__" + server + "__" + name
	}
	return tool
}

// KiroTool names a Claude Code tool as Kiro does (Bash is shell, mcp__server__tool is
// @server/tool); others keep their names.
func KiroTool(tool string) string {
	if t, ok := kiroTools()[tool]; ok {
		return t
	}
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if server, name, ok := strings.Cut(rest, "__"); ok {
			return "@" + server + "/" + name
		}
	}
	return tool
}

// IsTool reports whether tool is one of Kiro's built-in tools by its Kiro name (shell, read,
// write, glob, grep, web_fetch, their agent-config aliases execute_bash, fs_read, fs_write,
// use_aws), lower-case names no other agent that names its event in hook_event_name gives its
// tools, or an MCP tool in Kiro's @server/tool form.
func IsTool(tool string) bool {
	if _, ok := claudeTool(tool); ok {
		return true
	}
	switch tool {
	case "use_aws", "aws":
		return true
	}
	return strings.HasPrefix(tool, "@") && strings.Contains(tool, "/")
}

// Matcher is a hooks-file matcher that selects tools, each by its Kiro name and its
// agent-config alias (shell|execute_bash), in the order given, each once.
func Matcher(tools []string) string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range tools {
		add(t)
		for _, a := range aliases()[t] {
			add(a)
		}
	}
	return strings.Join(out, "|")
}

// ToClaude rewrites the payload of Kiro trigger name as Claude Code's payload of its namesake.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	claudeEvent := ClaudeEvent(name)
	if claudeEvent == "" {
		return "", nil, nil, fmt.Errorf("Kiro's %s has no Claude Code counterpart", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return claudeEvent, b, notes, err
}

// toSpoken rewrites a Kiro payload as its Claude Code namesake's; a trigger with none keeps its
// payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// RenameToClaude rewrites a decoded Kiro payload, in place, as Claude Code's: the event's name,
// the tool's name, and the write tool's input (path, file_text, old_str, new_str; its command
// str_replace makes it Claude Code's Edit) and the read tool's path as Claude Code's.
func RenameToClaude(name string, m map[string]any) []string {
	if e := ClaudeEvent(name); e != "" {
		m["hook_event_name"] = e
	}
	tool, ok := m["tool_name"].(string)
	if !ok {
		return nil
	}
	m["tool_name"] = ClaudeTool(tool)
	in, ok := m["tool_input"].(map[string]any)
	if !ok {
		return nil
	}
	switch ClaudeTool(tool) {
	case "Write":
		rename(in, "path", "file_path")
		rename(in, "file_text", "content")
		if c, _ := in["command"].(string); c == "str_replace" {
			m["tool_name"] = "Edit"
			rename(in, "old_str", "old_string")
			rename(in, "new_str", "new_string")
			delete(in, "command")
		} else if c == "create" {
			delete(in, "command")
		}
	case "Read":
		rename(in, "path", "file_path")
		if paths := readPaths(in); len(paths) == 1 && in["file_path"] == nil {
			in["file_path"] = paths[0]
		}
	}
	return nil
}

// readPaths are the distinct paths of the read tool's operations (kiro-cli's fs_read reads
// several at once).
func readPaths(in map[string]any) []string {
	ops, _ := in["operations"].([]any)
	var out []string
	for _, op := range ops {
		o, _ := op.(map[string]any)
		if p, ok := o["path"].(string); ok && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// FromClaude rewrites a Claude Code payload as the payload of Kiro trigger name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Kiro has no hook trigger %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as Kiro's: Write is the
// write tool's create (path, file_text), Edit its str_replace (old_str, new_str), Read's
// file_path the read tool's path; Claude Code's fields Kiro does not send (transcript_path,
// permission_mode, tool_use_id) are dropped.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	for _, k := range []string{"transcript_path", "permission_mode", "tool_use_id"} {
		delete(m, k)
	}
	tool, ok := m["tool_name"].(string)
	if !ok {
		return nil
	}
	m["tool_name"] = KiroTool(tool)
	in, ok := m["tool_input"].(map[string]any)
	if !ok {
		return nil
	}
	switch tool {
	case "Write":
		in["command"] = "create"
		rename(in, "file_path", "path")
		rename(in, "content", "file_text")
	case "Edit", "MultiEdit":
		in["command"] = "str_replace"
		rename(in, "file_path", "path")
		rename(in, "old_string", "old_str")
		rename(in, "new_string", "new_str")
		if tool == "MultiEdit" {
			notes = append(notes, "MultiEdit's several edits have no Kiro form; the write tool gets them as they are")
		}
	case "Read":
		rename(in, "file_path", "path")
	}
	return notes
}

// GuardView rewrites a Kiro payload for the built-in guards in Claude Code's tool and field
// names; the event keeps its name.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	event, _ := m["hook_event_name"].(string)
	RenameToClaude("", m)
	if in, ok := m["tool_input"].(map[string]any); ok && m["tool_name"] == "Read" {
		if paths := readPaths(in); len(paths) > 1 {
			// fs_read reads several files at once: the read guard judges each (file_paths)
			list := make([]any, len(paths))
			for i, p := range paths {
				list[i] = p
			}
			in["file_paths"] = list
		}
	}
	if event != "" {
		m["hook_event_name"] = event
	}
	return dialect.Marshal(m)
}

func rename(m map[string]any, from, to string) {
	if v, ok := m[from]; ok {
		m[to] = v
		delete(m, from)
	}
}
