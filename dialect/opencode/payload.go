package opencode

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// The plugin's payload, one JSON object on agenthooks' stdin:
//
//	{"hook_event_name":"tool.execute.before","tool":"bash","sessionID":"ses_…","callID":"call_…",
//	 "args":{"command":"ls"},"cwd":"/project"}
//
// tool, sessionID, callID and args are OpenCode's own (the input and output its
// tool.execute.before hook receives); hook_event_name and cwd (the project folder OpenCode
// gives the plugin) are the plugin's. tool.execute.after adds the tool's "title" and "output".
//
// chat.message sends the prompt: "prompt" (the text parts a person wrote, joined by blank
// lines), "attachments" (the files attached to it, {"filePath":...}), "sessionID", "messageID"
// and "agent". session.created and session.idle send "sessionID" (session.created also
// "parentID", the parent's session for a subagent's).

// claudeTools names OpenCode's built-in tools as Claude Code names the same tools.
var claudeToolsValue dialect.Lazy[map[string]string]

func claudeTools() map[string]string {
	return claudeToolsValue.Get(func() map[string]string {
		return map[string]string{
			"bash":      "Bash",
			"read":      "Read",
			"write":     "Write",
			"edit":      "Edit",
			"multiedit": "MultiEdit",
			"glob":      "Glob",
			"grep":      "Grep",
			"list":      "LS",
			"task":      "Task",
			"webfetch":  "WebFetch",
			"websearch": "WebSearch",
			"todowrite": "TodoWrite",
			"skill":     "Skill",
		}
	})
}

// ClaudeTool names an OpenCode tool as Claude Code does; others (apply_patch, MCP tools) keep
// their names.
func ClaudeTool(tool string) string {
	if t, ok := claudeTools()[tool]; ok {
		return t
	}
	return tool
}

var openCodeToolsValue dialect.Lazy[map[string]string]

func openCodeTools() map[string]string {
	return openCodeToolsValue.Get(func() map[string]string {
		m := make(map[string]string, len(claudeTools()))
		for o, c := range claudeTools() {
			m[c] = o
		}
		return m
	})
}

// OpenCodeTool names a Claude Code tool as OpenCode does; others keep their names.
func OpenCodeTool(tool string) string {
	if o, ok := openCodeTools()[tool]; ok {
		return o
	}
	return tool
}

// The payload's fields and the file tools' argument names, OpenCode's beside Claude Code's.
var (
	fieldKeys = [][2]string{{"tool", "tool_name"}, {"args", "tool_input"}, {"sessionID", "session_id"}, {"callID", "tool_use_id"}}
	// attachKeys are chat.message's own fields beside Claude Code's: an attachment's filePath is
	// the prompt guard's file_path.
	attachKeys = [][2]string{{"filePath", "file_path"}}
	argKeys    = [][2]string{{"filePath", "file_path"}, {"oldString", "old_string"}, {"newString", "new_string"}, {"replaceAll", "replace_all"}}
)

// claudeEvent is the Claude Code namesake of an OpenCode event.
func claudeEvent(event string) string {
	switch event {
	case BeforeTool:
		return "PreToolUse"
	case AfterTool:
		return "PostToolUse"
	case ChatMessage:
		return "UserPromptSubmit"
	case SessionCreated:
		return "SessionStart"
	case SessionIdle:
		return "Stop"
	}
	return ""
}

// ToClaude rewrites the plugin's payload of event name as Claude Code's payload of its namesake.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	ce := claudeEvent(name)
	if ce == "" {
		return "", nil, nil, fmt.Errorf("OpenCode's plugin has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(name, m)
	b, err := dialect.Marshal(m)
	return ce, b, notes, err
}

// RenameToClaude rewrites a decoded payload of the plugin's, in place, as Claude Code's: the
// event's and tool's names, tool/args/sessionID/callID as tool_name/tool_input/session_id/
// tool_use_id, the file tools' filePath, oldString, newString and replaceAll in snake_case, and
// tool.execute.after's output and title as tool_response (output as stdout for the shell).
func RenameToClaude(name string, m map[string]any) []string {
	if ce := claudeEvent(name); ce != "" {
		m["hook_event_name"] = ce
	}
	rename(m, fieldKeys, 0)
	tool, _ := m["tool_name"].(string)
	if isMCPTool(tool) {
		// Claude Code's mcp__SERVER__TOOL, split at a server OpenCode's configuration names,
		// else at the first "_" (a hook's matcher is tried on every split: ToolReadings).
		cwd, _ := m["cwd"].(string)
		m["tool_name"], _ = mcpName(tool, cwd)
	} else if tool != "" {
		m["tool_name"] = ClaudeTool(tool)
	}
	if in, ok := m["tool_input"].(map[string]any); ok {
		rename(in, argKeys, 0)
	}
	renameAttachments(m, 0)
	if name == SessionCreated {
		m["source"] = "startup" // Claude Code's SessionStart says why the session began
	}
	if out, has := m["output"]; has {
		key := "output"
		if tool == "bash" {
			key = "stdout"
		}
		r := map[string]any{key: out}
		if title, has := m["title"]; has {
			r["title"] = title
			delete(m, "title")
		}
		m["tool_response"] = r
		delete(m, "output")
	}
	return nil
}

// FromClaude rewrites a Claude Code payload as the plugin's payload of event name.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	if claudeEvent(name) == "" {
		return nil, nil, fmt.Errorf("OpenCode's plugin has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameFromClaude rewrites a decoded Claude Code payload, in place, as the plugin's; the fields
// OpenCode has no place for (transcript_path, permission_mode) are dropped and named.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	m["hook_event_name"] = name
	tool, _ := m["tool_name"].(string)
	if in, ok := m["tool_input"].(map[string]any); ok {
		rename(in, argKeys, 1)
	}
	renameAttachments(m, 1)
	switch name {
	case SessionCreated:
		delete(m, "source")
	case SessionIdle:
		// Claude Code's Stop fields, which session.idle has no place for
		delete(m, "stop_hook_active")
		delete(m, "last_assistant_message")
	}
	if r, ok := m["tool_response"].(map[string]any); ok {
		if v, has := r["stdout"]; has && tool == "Bash" {
			m["output"] = v
		} else if v, has := r["output"]; has {
			m["output"] = v
		}
		if v, has := r["title"]; has {
			m["title"] = v
		}
		delete(m, "tool_response")
	}
	rename(m, fieldKeys, 1)
	if tool != "" {
		m["tool"] = OpenCodeTool(tool)
	}
	for _, k := range []string{"transcript_path", "permission_mode"} {
		if _, has := m[k]; has {
			delete(m, k)
			notes = append(notes, k+" has no place in OpenCode's payload")
		}
	}
	return notes
}

// renameAttachments renames the keys of a prompt's attachments.
func renameAttachments(m map[string]any, from int) {
	as, _ := m["attachments"].([]any)
	for _, a := range as {
		if am, ok := a.(map[string]any); ok {
			rename(am, attachKeys, from)
		}
	}
}

// rename renames the keys of m from pairs[i][from] to pairs[i][1-from].
func rename(m map[string]any, pairs [][2]string, from int) {
	for _, p := range pairs {
		if v, has := m[p[from]]; has {
			m[p[1-from]] = v
			delete(m, p[from])
		}
	}
}

// GuardView rewrites the plugin's payload for the built-in guards in Claude Code's names.
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	name, _ := m["hook_event_name"].(string)
	tool, _ := m["tool"].(string)
	if tool == "" {
		tool, _ = m["tool_name"].(string)
	}
	cwd, _ := m["cwd"].(string)
	RenameToClaude(name, m)
	if err := workdirAsCwd(m); err != nil {
		return nil, err
	}
	if isMCPTool(tool) {
		// A server OpenCode's configuration names splits the name; else the MCP guard judges
		// every split and the strictest answer stands (mcp__NAME).
		if n, known := mcpName(tool, cwd); known {
			m["tool_name"] = n
		} else {
			m["tool_name"] = dialect.MCPJoined(tool)
		}
	}
	return dialect.Marshal(m)
}

// builtinValue are OpenCode 1.18's built-in tools whose names Claude Code does not share.
var builtinValue dialect.Lazy[map[string]bool]

func builtin() map[string]bool {
	return builtinValue.Get(func() map[string]bool {
		m := map[string]bool{}
		for _, t := range []string{"apply_patch", "patch", "todoread", "codesearch", "lsp", "batch", "question", "plan_enter", "plan_exit", "invalid"} {
			m[t] = true
		}
		return m
	})
}

// isMCPTool reports whether tool, as the plugin names it after RenameToClaude, is an MCP
// server's: OpenCode 1.18 names those SERVER_TOOL (each with its characters outside
// [A-Za-z0-9_-] made "_"), so any tool that is not a built-in and holds "_" may be one. A
// custom tool whose name holds "_" is taken for one too: judged by the MCP policy (its default
// when no rule fits), never passed unjudged.
func isMCPTool(tool string) bool {
	if tool == "" || builtin()[tool] || strings.HasPrefix(tool, "mcp__") {
		return false
	}
	if _, ok := claudeTools()[tool]; ok {
		return false
	}
	if OpenCodeTool(tool) != tool { // a Claude Code name RenameToClaude gave a built-in
		return false
	}
	return strings.Contains(tool, "_")
}

// workdirAsCwd makes the shell tool's workdir, which OpenCode runs the command in (its prompt
// tells the model to prefer it to cd), the payload's cwd, relative to the cwd it had; that cwd,
// the project, stays the workspace root. A command is judged where it runs: rm -rf .ssh with
// workdir ~ is rm -rf ~/.ssh.
func workdirAsCwd(m map[string]any) error {
	in, ok := m["tool_input"].(map[string]any)
	if !ok || m["tool_name"] != "Bash" {
		return nil
	}
	w, has := in["workdir"]
	if !has || w == nil {
		return nil
	}
	dir, ok := w.(string)
	if !ok {
		return fmt.Errorf("payload: field \"args.workdir\" must be a string")
	}
	if dir == "" {
		return nil
	}
	cwd, _ := m["cwd"].(string)
	if !filepath.IsAbs(dir) {
		if cwd == "" {
			return fmt.Errorf("payload: args.workdir %q is relative and the payload has no cwd", dir)
		}
		dir = filepath.Join(cwd, dir)
	}
	if cwd != "" {
		if _, set := m["workspace_roots"]; !set {
			m["workspace_roots"] = []any{cwd}
		}
	}
	m["cwd"] = filepath.Clean(dir)
	return nil
}
