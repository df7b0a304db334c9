package cline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// Cline's tools as Claude Code names them. The CLI 3.x's own tools are run_commands,
// read_files, editor and apply_patch; the VS Code extension's older ones are execute_command,
// read_file, write_to_file and replace_in_file.
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
			"run_commands": "Bash", "execute_command": "Bash",
			"read_files": "Read", "read_file": "Read",
			"editor": "Edit", "replace_in_file": "Edit", "write_to_file": "Write",
			"search_codebase": "Grep", "search_files": "Grep", "list_files": "LS",
			"fetch_web_content": "WebFetch", "web_fetch": "WebFetch",
		}
	})
}

// ClaudeTool names a Cline tool as Claude Code does, given its input where the name depends on
// it (editor creating a file with no old_text is Write); other tools (apply_patch, MCP tools)
// keep their names.
func ClaudeTool(tool string, input map[string]any) string {
	if tool == "editor" && input != nil {
		if old, _ := input["old_text"].(string); old == "" && input["insert_line"] == nil {
			return "Write"
		}
	}
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	return tool
}

// ClineTool names a Claude Code tool as the Cline CLI does; others keep their names.
func ClineTool(tool string) string {
	switch tool {
	case "Bash":
		return "run_commands"
	case "Read":
		return "read_files"
	case "Write", "Edit", "MultiEdit":
		return "editor"
	case "Grep", "Glob":
		return "search_codebase"
	case "WebFetch":
		return "fetch_web_content"
	}
	return tool
}

// ToClaude rewrites the payload of Cline event name as the payload of its Claude Code namesake,
// which it returns with notes on what Claude Code's shape has no place for.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return "", nil, nil, fmt.Errorf("Cline's %s has no Claude Code counterpart", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return e.claude, b, notes, err
}

// FromClaude rewrites a Claude Code payload as the payload of Cline event name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if _, ok := events()[name]; !ok {
		return nil, nil, fmt.Errorf("Cline has no hook event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameToClaude rewrites a decoded payload of Cline event name, in place, into its Claude Code
// namesake's shape: taskId is session_id, the first workspace root cwd, preToolUse's toolName
// and parameters (or the CLI's tool_call input, which keeps the model's JSON types) tool_name
// and tool_input in Claude Code's names. An event with no namesake is left as it is.
func RenameToClaude(name string, m map[string]any) []string {
	e, ok := events()[name]
	if !ok || e.claude == "" {
		return nil
	}
	var notes []string
	delete(m, "hookName")
	m["hook_event_name"] = e.claude
	move(m, "taskId", "session_id")
	if p, _ := m["parent_agent_id"].(string); p == "" {
		// Cline names every agent, the task's own too; Claude Code sends agent_id only from
		// inside a subagent, which is how its hooks tell one.
		delete(m, "agent_id")
	}
	if roots, ok := m["workspaceRoots"].([]any); ok && len(roots) > 0 {
		if _, has := m["cwd"]; !has {
			m["cwd"] = roots[0]
		}
	}
	data, _ := m[e.data].(map[string]any)
	switch name {
	case "PreToolUse", "PostToolUse":
		tool, _ := data["toolName"].(string)
		params, _ := data["parameters"].(map[string]any)
		in := params
		call, _ := m["tool_call"].(map[string]any)
		if call == nil {
			call, _ = m["tool_result"].(map[string]any)
		}
		if raw, ok := call["input"].(map[string]any); ok {
			in = raw // the CLI's own input, not flattened to strings
		}
		if tool == "" {
			tool, _ = call["name"].(string)
		}
		if id, ok := call["id"].(string); ok {
			m["tool_use_id"] = id
		}
		var n []string
		m["tool_name"], m["tool_input"], n = toClaudeInput(tool, in)
		notes = append(notes, n...)
		if name == "PostToolUse" {
			if r, has := data["result"]; has {
				m["tool_response"] = r
			}
		}
		delete(m, "tool_call")
		delete(m, "tool_result")
	case "UserPromptSubmit":
		m["prompt"] = data["prompt"]
		if a, ok := data["attachments"].([]any); ok && len(a) > 0 {
			notes = append(notes, "userPromptSubmit.attachments has no place in Claude Code's payload; it is dropped")
		}
	case "TaskStart":
		m["source"] = "startup"
	case "TaskResume":
		m["source"] = "resume"
	case "TaskComplete":
		m["stop_hook_active"] = false
	case "SessionShutdown":
		if _, has := m["reason"]; !has {
			m["reason"] = "other"
		}
	case "PreCompact":
		m["trigger"] = "auto"
	}
	if e.data != "" {
		delete(m, e.data)
	}
	return notes
}

// toClaudeInput is a Cline tool's input as Claude Code's tool of the same kind takes it.
func toClaudeInput(tool string, in map[string]any) (string, map[string]any, []string) {
	if in == nil {
		in = map[string]any{}
	}
	out := map[string]any{}
	var notes []string
	switch tool {
	case "run_commands":
		cmds := commandsOf(in)
		out["command"] = strings.Join(cmds, "\n")
		if len(cmds) > 1 {
			notes = append(notes, fmt.Sprintf("run_commands' %d commands are one Bash command, a line each", len(cmds)))
		}
		return "Bash", out, notes
	case "execute_command":
		out["command"] = in["command"]
		return "Bash", out, nil
	case "read_files":
		files := filesOf(in)
		if len(files) > 0 {
			out["file_path"] = files[0]
		}
		if len(files) > 1 {
			out["file_paths"] = files
			notes = append(notes, "read_files reads several files; Claude Code's Read takes the first as file_path, all are in file_paths")
		}
		return "Read", out, notes
	case "read_file", "write_to_file", "replace_in_file", "editor":
		ct := ClaudeTool(tool, in)
		for k, v := range in {
			switch k {
			case "path":
				out["file_path"] = v
			case "old_text":
				out["old_string"] = v
			case "new_text":
				if ct == "Write" {
					out["content"] = v
				} else {
					out["new_string"] = v
				}
			default:
				out[k] = v
			}
		}
		return ct, out, nil
	}
	if server, name, ok := mcpTool(tool, in); ok {
		return dialect.MCPTool(server, name), in, nil
	}
	return ClaudeTool(tool, in), in, nil
}

// mcpTool reads a Cline MCP call's server and tool: the CLI 3.x's SERVER__TOOL (no built-in
// name holds "__", and Cline's server names are read up to the first "__"; a part may be empty,
// and the name is still an MCP call's, mcp__ followed by it, as the guards read it), or
// use_mcp_tool naming both in its input.
func mcpTool(tool string, in map[string]any) (server, name string, ok bool) {
	if tool == "use_mcp_tool" {
		server, _ = in["server_name"].(string)
		name, _ = in["tool_name"].(string)
		return server, name, server != "" && name != ""
	}
	if strings.HasPrefix(tool, "mcp__") {
		return "", "", false
	}
	return strings.Cut(tool, "__")
}

// commandsOf lists run_commands' commands in any of the forms the CLI accepts: an array of
// strings or of {command, args}, one of them, a command or cmd field, or the array as a JSON
// string (preToolUse.parameters flattens every value that is not a string).
func commandsOf(in map[string]any) []string {
	v, ok := in["commands"]
	if !ok {
		v, ok = in["command"]
	}
	if !ok {
		v = in["cmd"]
	}
	if s, isStr := v.(string); isStr {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
			if d, err := dialect.DecodeJSON([]byte(t)); err == nil {
				v = d
			}
		}
	}
	var out []string
	var add func(x any)
	add = func(x any) {
		switch c := x.(type) {
		case string:
			out = append(out, c)
		case []any:
			for _, y := range c {
				add(y)
			}
		case map[string]any:
			cmd, _ := c["command"].(string)
			parts := []string{cmd}
			if args, ok := c["args"].([]any); ok {
				for _, a := range args {
					s, _ := a.(string)
					parts = append(parts, shellQuote(s))
				}
			}
			out = append(out, strings.Join(parts, " "))
		}
	}
	add(v)
	return out
}

// shellQuote quotes an argument that run_commands passes without a shell, so the guard reads it
// as one word.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// filesOf lists read_files' paths in the forms the CLI accepts.
func filesOf(in map[string]any) []string {
	var out []string
	var add func(x any)
	add = func(x any) {
		switch c := x.(type) {
		case string:
			if t := strings.TrimSpace(c); strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
				if d, err := dialect.DecodeJSON([]byte(t)); err == nil {
					add(d)
					return
				}
			}
			out = append(out, c)
		case []any:
			for _, y := range c {
				add(y)
			}
		case map[string]any:
			for _, k := range []string{"path", "file_path", "filePath"} {
				if p, ok := c[k].(string); ok {
					out = append(out, p)
					return
				}
			}
		}
	}
	for _, k := range []string{"files", "file_paths", "paths", "path", "file_path"} {
		if v, ok := in[k]; ok {
			add(v)
		}
	}
	return out
}

// RenameFromClaude rewrites a decoded payload in Claude Code's shape, in place, into the shape
// of Cline event name as the CLI sends it, and says what has no place there.
func RenameFromClaude(name string, m map[string]any) []string {
	e, ok := events()[name]
	if !ok {
		return nil
	}
	var notes []string
	move(m, "session_id", "taskId")
	if cwd, ok := m["cwd"].(string); ok {
		if _, has := m["workspaceRoots"]; !has {
			m["workspaceRoots"] = []any{cwd}
		}
	}
	hookName := e.sdk
	if hookName == "" {
		hookName = name
	}
	m["hookName"] = hookName
	switch name {
	case "PreToolUse", "PostToolUse":
		tool, _ := m["tool_name"].(string)
		in, _ := m["tool_input"].(map[string]any)
		ct, cin := fromClaudeInput(tool, in)
		if tool == "MultiEdit" {
			notes = append(notes, "MultiEdit's several edits have no Cline form; editor gets them as they are")
		}
		data := map[string]any{"toolName": ct, "parameters": flatten(cin)}
		call := map[string]any{"id": m["tool_use_id"], "name": ct, "input": cin}
		if call["id"] == nil {
			call["id"] = ""
		}
		if name == "PostToolUse" {
			r := m["tool_response"]
			if s, isStr := r.(string); isStr {
				data["result"] = s
			} else {
				b, _ := dialect.Marshal(r)
				data["result"] = string(b)
			}
			data["success"] = true
			m["tool_result"] = call
		} else {
			m["tool_call"] = call
		}
		m[e.data] = data
	case "UserPromptSubmit":
		p, _ := m["prompt"].(string)
		m[e.data] = map[string]any{"prompt": p, "attachments": []any{}}
	case "TaskStart", "TaskCancel", "TaskComplete":
		m[e.data] = map[string]any{"taskMetadata": map[string]any{}}
	case "TaskResume":
		m[e.data] = map[string]any{"taskMetadata": map[string]any{}, "previousState": map[string]any{}}
	}
	for _, k := range []string{"hook_event_name", "tool_name", "tool_input", "tool_response", "tool_use_id", "prompt",
		"cwd", "source", "trigger", "stop_hook_active", "transcript_path", "permission_mode"} {
		if _, has := m[k]; !has {
			continue
		}
		delete(m, k)
		switch k {
		case "transcript_path", "permission_mode":
			notes = append(notes, k+" has no place in Cline's payload; it is dropped")
		}
	}
	return notes
}

// fromClaudeInput is a Claude Code tool's input as the Cline CLI's tool of the same kind takes it.
func fromClaudeInput(tool string, in map[string]any) (string, map[string]any) {
	if in == nil {
		in = map[string]any{}
	}
	switch tool {
	case "Bash":
		c, _ := in["command"].(string)
		return "run_commands", map[string]any{"commands": []any{c}}
	case "Read":
		return "read_files", map[string]any{"files": []any{map[string]any{"path": in["file_path"]}}}
	case "Write":
		return "editor", map[string]any{"path": in["file_path"], "new_text": in["content"]}
	case "Edit", "MultiEdit":
		out := map[string]any{"path": in["file_path"]}
		for k, v := range in {
			switch k {
			case "file_path":
			case "old_string":
				out["old_text"] = v
			case "new_string":
				out["new_text"] = v
			default:
				out[k] = v
			}
		}
		return "editor", out
	}
	return ClineTool(tool), in
}

// flatten is a tool's input as preToolUse.parameters carries it: strings as they are, anything
// else as its JSON text.
func flatten(in map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		b, _ := dialect.Marshal(v) // as JSON.stringify: no HTML escapes
		out[k] = string(b)
	}
	return out
}

// GuardView rewrites a Cline payload, for the built-in guards, into Claude Code's field and tool
// names (tool_name, tool_input.command or file_path, prompt, cwd), the event named as Cline
// names its hook file.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name := PayloadEvent(m)
	if name == "" {
		return nil, fmt.Errorf("payload: hookName %q is not a Cline hook event", m["hookName"])
	}
	RenameToClaude(name, m)
	m["hook_event_name"] = name
	if m["tool_name"] == "use_mcp_tool" {
		// Cline calls every MCP tool through use_mcp_tool, naming the server and the tool in
		// its input: the neutral mcp__server__tool for the MCP guard
		in, _ := m["tool_input"].(map[string]any)
		server, _ := in["server_name"].(string)
		tool, _ := in["tool_name"].(string)
		if server == "" || tool == "" {
			return nil, fmt.Errorf("payload: use_mcp_tool must name its server and tool (tool_input.server_name, tool_input.tool_name, non-empty strings)")
		}
		m["tool_name"] = dialect.MCPTool(server, tool)
	} else if tool, _ := m["tool_name"].(string); strings.Contains(tool, "__") && !strings.HasPrefix(tool, "mcp__") {
		// The CLI 3.x offers an MCP tool as <server>__<tool> (no built-in name holds "__"):
		// Claude Code's mcp__<server>__<tool> for the MCP guard (e2e TestClineMCPGuard)
		m["tool_name"] = "mcp__" + tool
	}
	return dialect.Marshal(m)
}

// PayloadEvent names the Cline event of a decoded payload: by its hookName, else by the event
// data it carries (preToolUse, ...); "" when it shows none.
func PayloadEvent(m map[string]any) string {
	if h, ok := m["hookName"].(string); ok {
		return EventOf(h)
	}
	names := make([]string, 0, len(events()))
	for n := range events() {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if e := events()[n]; e.data != "" && m[e.data] != nil {
			return n
		}
	}
	return ""
}

func move(m map[string]any, from, to string) {
	if v, has := m[from]; has {
		if _, taken := m[to]; !taken {
			m[to] = v
		}
		delete(m, from)
	}
}
