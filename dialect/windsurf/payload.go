package windsurf

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// ToClaude rewrites the payload of Cascade event name (agent_action_name and tool_info) as the
// payload of its Claude Code namesake (hook_event_name, tool_name, tool_input), which it returns
// with notes on what Claude Code's shape has no place for.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return "", nil, nil, fmt.Errorf("Cascade's %s has no Claude Code counterpart", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return e.claude, b, notes, err
}

// FromClaude rewrites the payload of a Claude Code event as the payload of Cascade event name,
// with notes on what Cascade's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Cascade has no hook event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameToClaude rewrites a decoded payload of Cascade event name, in place, into its Claude
// Code namesake's shape, and says what has no place there. An event with no namesake is left
// as it is.
func RenameToClaude(name string, m map[string]any) []string {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return nil
	}
	var notes []string
	info, _ := m["tool_info"].(map[string]any)
	if info == nil {
		info = map[string]any{}
	}
	delete(m, "tool_info")
	delete(m, "agent_action_name")
	m["hook_event_name"] = e.claude
	move(m, "trajectory_id", "session_id")
	if e.tool != "" {
		move(m, "execution_id", "tool_use_id")
	}
	for _, k := range []string{"timestamp", "model_name", "execution_id"} {
		if _, has := m[k]; has {
			notes = append(notes, k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	in := map[string]any{}
	take := func(from, to string) {
		if v, has := info[from]; has {
			in[to] = v
			delete(info, from)
		}
	}
	switch e.tool {
	case "Bash":
		take("command_line", "command")
		if cwd, has := info["cwd"]; has {
			m["cwd"] = cwd
			delete(info, "cwd")
		}
	case "Read":
		take("file_path", "file_path")
		if c, has := info["content"]; has {
			m["tool_response"] = c
			delete(info, "content")
		}
	case "Edit":
		take("file_path", "file_path")
		edits, _ := info["edits"].([]any)
		if len(edits) == 1 {
			if ed, ok := edits[0].(map[string]any); ok {
				for _, k := range []string{"old_string", "new_string"} {
					if v, has := ed[k]; has {
						in[k] = v
					}
				}
				delete(info, "edits")
			}
		} else if len(edits) > 1 {
			in["edits"] = edits
			delete(info, "edits")
			m["tool_name"] = "MultiEdit"
		}
	case "mcp":
		server, _ := info["mcp_server_name"].(string)
		tool, _ := info["mcp_tool_name"].(string)
		m["tool_name"] = "mcp__" + server + "__" + tool
		delete(info, "mcp_server_name")
		delete(info, "mcp_tool_name")
		if args, ok := info["mcp_tool_arguments"].(map[string]any); ok {
			in = args
		}
		delete(info, "mcp_tool_arguments")
		if r, has := info["mcp_result"]; has {
			m["tool_response"] = r
			delete(info, "mcp_result")
		}
	case "":
		if p, has := info["user_prompt"]; has {
			m["prompt"] = p
			delete(info, "user_prompt")
		}
	}
	if e.tool != "" {
		if _, named := m["tool_name"]; !named {
			m["tool_name"] = e.tool
		}
		for _, k := range sortedKeys(info) {
			in[k] = info[k] // what the documentation does not list travels with the tool's input
			notes = append(notes, "tool_info."+k+" has no place in Claude Code's payload; it is passed in tool_input")
		}
		m["tool_input"] = in
	} else {
		for _, k := range sortedKeys(info) {
			m[k] = info[k]
			notes = append(notes, "tool_info."+k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	return notes
}

// RenameFromClaude rewrites a decoded payload in Claude Code's shape, in place, into the shape
// of Cascade event name, and says what has no place there.
func RenameFromClaude(name string, m map[string]any) []string {
	e, ok := events()[name]
	if !ok {
		return nil
	}
	var notes []string
	in, _ := m["tool_input"].(map[string]any)
	if in == nil {
		in = map[string]any{}
	}
	info := map[string]any{}
	move(m, "session_id", "trajectory_id")
	move(m, "tool_use_id", "execution_id")
	switch e.tool {
	case "Bash":
		info["command_line"] = in["command"]
		info["cwd"] = m["cwd"]
	case "Read":
		info["file_path"] = in["file_path"]
		if r, has := m["tool_response"]; has && strings.HasPrefix(name, "post_") {
			info["content"] = r
		}
	case "Edit":
		info["file_path"] = in["file_path"]
		switch {
		case in["edits"] != nil:
			info["edits"] = in["edits"]
		case in["old_string"] != nil || in["new_string"] != nil:
			info["edits"] = []any{map[string]any{"old_string": in["old_string"], "new_string": in["new_string"]}}
		case in["content"] != nil:
			info["edits"] = []any{map[string]any{"old_string": "", "new_string": in["content"]}}
		}
	case "mcp":
		tool, _ := m["tool_name"].(string)
		rest, _ := strings.CutPrefix(tool, "mcp__")
		server, t, _ := strings.Cut(rest, "__")
		info["mcp_server_name"], info["mcp_tool_name"], info["mcp_tool_arguments"] = server, t, in
		if r, has := m["tool_response"]; has && strings.HasPrefix(name, "post_") {
			info["mcp_result"] = r
		}
	case "":
		if p, has := m["prompt"]; has {
			info["user_prompt"] = p
		}
	}
	for k, v := range info {
		if v == nil {
			delete(info, k)
		}
	}
	for _, k := range []string{"hook_event_name", "tool_name", "tool_input", "tool_response", "prompt", "cwd",
		"transcript_path", "permission_mode", "stop_hook_active", "prompt_id", "agent_id", "agent_type"} {
		if _, has := m[k]; !has {
			continue
		}
		delete(m, k)
		switch k {
		case "hook_event_name", "tool_name", "tool_input", "tool_response", "prompt":
		case "cwd":
			if e.tool != "Bash" {
				notes = append(notes, "cwd has no place in Cascade's "+name+" payload; it is dropped")
			}
		default:
			notes = append(notes, k+" has no place in Cascade's payload; it is dropped")
		}
	}
	m["agent_action_name"] = name
	m["tool_info"] = info
	return notes
}

// GuardView rewrites a Cascade payload, for the built-in guards, into Claude Code's field and
// tool names (tool_name, tool_input.command or file_path, prompt), the event named as Cascade
// named it.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name, _ := m["agent_action_name"].(string)
	if _, ok := events()[name]; !ok {
		return nil, fmt.Errorf("agent_action_name %q is not a Cascade hook event", name)
	}
	RenameToClaude(name, m)
	m["hook_event_name"] = name
	return dialect.Marshal(m)
}

func move(m map[string]any, from, to string) {
	if v, has := m[from]; has {
		if _, taken := m[to]; !taken {
			m[to] = v
		}
		delete(m, from)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
