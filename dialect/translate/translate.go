// Package translate rewrites an event payload from one agent's dialect into another's, so that a
// hook written for Claude Code runs under Cursor and the other way round. It goes through a
// dialect-neutral form and reports, as notes, every field the target dialect has no place for
// and every field it needs that the source does not carry. Answers need no translation here:
// each dialect reads its own hook's answer into the canonical decide.Answer.
//
// Which shape an agent's payload has, and how an agent that speaks another's format renames
// it, come from the agents' descriptors (dialect/agents). It imports dialect, dialect/agents,
// dialect/cursor and dialect/claude.
package translate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/cursor"
)

// event is the dialect-neutral form of a payload.
type event struct {
	kind           dialect.Kind
	sessionID      string
	generationID   string
	transcriptPath string
	cwd            string
	workspace      string
	model          string
	tool           string // the tool's name in Claude Code's vocabulary
	toolInput      map[string]any
	toolResponse   any
	toolUseID      string
	errorMessage   string
	prompt         string
	status         string
	loopCount      int
	stopActive     bool
	lastMessage    string
	agentID        string
	agentType      string
	source         string
	reason         string
	trigger        string
	durationMS     any
	permissionMode string
	mcpServer      string
}

// EventFor names the event of dialect to that matches an event of kind k, or "": the event of
// that kind, else, for a tool event, the agent's event for any tool on that side (Claude Code's
// PreToolUse for a before-shell event). An agent that speaks another's format without renaming
// (Codex) has that agent's events.
func EventFor(to dialect.Name, k dialect.Kind) string {
	if k == "" {
		return "" // an event only its own agent has
	}
	a := agentOf(to)
	if a.Speaks != "" && a.ToSpoken == nil {
		a = agentOf(a.Speaks)
	}
	d := a.Dialect(dialect.AskAsDeny)
	generic := dialect.Kind("")
	switch {
	case k.IsPreTool():
		generic = dialect.PreTool
	case k.IsPostTool():
		generic = dialect.PostTool
	}
	fallback := ""
	for _, name := range d.Names() {
		s, _ := d.Lookup(name)
		if s.Kind == k {
			return name
		}
		if generic != "" && s.Kind == generic && fallback == "" {
			fallback = name
		}
	}
	return fallback
}

// agentOf is the registered agent named n; the default agent (Cursor) for another name.
func agentOf(n dialect.Name) *dialect.Agent {
	if a := agents.Get(n); a != nil {
		return a
	}
	return agents.Default()
}

// cursorShaped reports whether agent a's payloads have Cursor's shape; the others have Claude
// Code's. These are the two shapes the neutral form is read from and written to.
func cursorShaped(a *dialect.Agent) bool { return a == &cursor.Agent }

// Env is what the payload does not carry but a translation may need.
type Env struct {
	ProjectDir string // the workspace root
}

// Payload rewrites payload, an event fromEvent of dialect from, as the payload of event toEvent
// of dialect to. It returns the new payload and notes on what could not be carried.
func Payload(from dialect.Name, fromEvent string, payload []byte, to dialect.Name, toEvent string, env Env) ([]byte, []string, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, nil, dialect.JSONError("payload", payload, err)
	}
	var ev event
	var notes []string
	fa := agents.Get(from)
	if fa == nil {
		fa = agents.Fallback() // a payload of no registered agent is read as Claude Code's
	}
	if fa.SpokenEvent != nil {
		name := fa.SpokenEvent(fromEvent)
		if name == "" {
			return nil, nil, fmt.Errorf("%s's %s has no counterpart in other agents", fa.ShortTitle(), fromEvent)
		}
		notes = fa.RenameToSpoken(fromEvent, m)
		fromEvent = name
	}
	if cursorShaped(fa) {
		ev, notes = fromCursor(fromEvent, m)
	} else {
		var more []string
		ev, more = fromClaude(fromEvent, m)
		notes = append(notes, more...)
	}
	if ev.workspace == "" {
		ev.workspace = env.ProjectDir
	}
	var out map[string]any
	var more []string
	ta := agents.Get(to)
	switch {
	case ta == nil:
		out, more = toClaude(toEvent, ev)
	case cursorShaped(ta):
		out, more = toCursor(toEvent, ev)
	case ta.SpokenEvent != nil:
		spoken := ta.SpokenEvent(toEvent)
		if spoken == "" {
			return nil, nil, fmt.Errorf("%s's %s has no counterpart in other agents", ta.ShortTitle(), toEvent)
		}
		out, more = toClaude(spoken, ev)
		more = append(more, ta.RenameFromSpoken(toEvent, out)...)
	default:
		out, more = toClaude(toEvent, ev)
	}
	b, err := marshal(out)
	return b, append(notes, more...), err
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

func intOf(v any) int {
	switch n := v.(type) {
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	case float64:
		return int(n)
	}
	return 0
}

// Tool names: Claude Code's Bash is Cursor's Shell; Claude's MCP tools are mcp__<server>__<tool>,
// Cursor's MCP:<tool>; Claude's Edit, Write, MultiEdit and NotebookEdit are Cursor's Write.

// CursorTool names a Claude Code tool in Cursor's vocabulary.
func CursorTool(tool string) string {
	switch {
	case tool == "Bash":
		return "Shell"
	case tool == "Edit" || tool == "Write" || tool == "MultiEdit" || tool == "NotebookEdit":
		return "Write"
	case tool == "Glob":
		return "Grep"
	case strings.HasPrefix(tool, "mcp__"):
		parts := strings.SplitN(strings.TrimPrefix(tool, "mcp__"), "__", 2)
		return "MCP:" + parts[len(parts)-1]
	}
	return tool
}

// ClaudeTool names a Cursor tool in Claude Code's vocabulary; server names the MCP server when
// known (Cursor's MCP:<tool> does not say).
func ClaudeTool(tool, server string, input map[string]any) string {
	switch {
	case tool == "Shell":
		return "Bash"
	case tool == "Write":
		if _, edit := input["old_string"]; edit {
			return "Edit"
		}
		return "Write"
	case strings.HasPrefix(tool, "MCP:"):
		if server == "" {
			server = "unknown"
		}
		return "mcp__" + server + "__" + strings.TrimPrefix(tool, "MCP:")
	}
	return tool
}

func mcpServerFromCursor(m map[string]any) string {
	if u := str(m, "url"); u != "" {
		u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
		host, _, _ := strings.Cut(u, "/")
		host, _, _ = strings.Cut(host, ":")
		return strings.ReplaceAll(host, ".", "_")
	}
	if c := str(m, "command"); c != "" {
		f := strings.Fields(c)
		if len(f) > 0 {
			base := f[len(f)-1]
			if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
				base = base[i+1:]
			}
			return base
		}
	}
	return ""
}

func fromCursor(name string, m map[string]any) (event, []string) {
	spec, _ := cursor.Lookup(name)
	ev := event{kind: spec.Kind, sessionID: cmp.Or(str(m, "session_id"), str(m, "conversation_id")),
		generationID: str(m, "generation_id"), transcriptPath: str(m, "transcript_path"), cwd: str(m, "cwd"),
		model: str(m, "model"), toolUseID: str(m, "tool_use_id"), durationMS: firstNumber(m["duration_ms"], m["duration"])}
	if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
		ev.workspace, _ = roots[0].(string)
	}
	if ev.cwd == "" {
		ev.cwd = ev.workspace
	}
	var notes []string
	switch name {
	case "beforeShellExecution", "afterShellExecution":
		ev.tool = "Bash"
		ev.toolInput = map[string]any{"command": str(m, "command")}
		if name == "afterShellExecution" {
			ev.toolResponse = map[string]any{"stdout": str(m, "output"), "stderr": "", "interrupted": false}
		}
	case "beforeMCPExecution", "afterMCPExecution":
		ev.mcpServer = mcpServerFromCursor(m)
		ev.tool = ClaudeTool("MCP:"+str(m, "tool_name"), ev.mcpServer, nil)
		ev.toolInput = parseJSONString(m["tool_input"])
		if name == "afterMCPExecution" {
			ev.toolResponse = parseJSONAny(m["result_json"])
		}
		if ev.mcpServer == "" {
			notes = append(notes, "the MCP server's name is not in Cursor's payload: the tool is named mcp__unknown__<tool>")
		}
	case "beforeReadFile", "beforeTabFileRead":
		ev.tool = "Read"
		ev.toolInput = map[string]any{"file_path": str(m, "file_path")}
		notes = append(notes, "Claude Code's Read payload has no file content: the content Cursor sent is not passed on")
	case "afterFileEdit", "afterTabFileEdit":
		edits, _ := m["edits"].([]any)
		ev.tool = "MultiEdit"
		input := map[string]any{"file_path": str(m, "file_path")}
		var list []any
		for _, e := range edits {
			if em, ok := e.(map[string]any); ok {
				list = append(list, map[string]any{"old_string": em["old_string"], "new_string": em["new_string"]})
			}
		}
		if len(list) == 1 {
			ev.tool = "Edit"
			first := list[0].(map[string]any)
			input["old_string"], input["new_string"] = first["old_string"], first["new_string"]
		} else {
			input["edits"] = list
		}
		ev.toolInput = input
		ev.toolResponse = map[string]any{"filePath": str(m, "file_path"), "success": true}
	case "preToolUse", "postToolUse", "postToolUseFailure":
		input := obj(m, "tool_input")
		ev.tool = ClaudeTool(str(m, "tool_name"), "", input)
		ev.toolInput = input
		ev.kind = claude.ToolKind(map[string]string{"preToolUse": "PreToolUse", "postToolUse": "PostToolUse"}[name], ev.tool)
		if name == "postToolUseFailure" {
			ev.kind = dialect.PostToolFailure
		}
		ev.toolResponse = parseJSONAny(m["tool_output"])
		ev.errorMessage = str(m, "error_message")
		if strings.HasPrefix(str(m, "tool_name"), "MCP:") {
			notes = append(notes, "the MCP server's name is not in Cursor's payload: the tool is named mcp__unknown__<tool>")
		}
	case "beforeSubmitPrompt":
		ev.prompt = str(m, "prompt")
		if a, ok := m["attachments"].([]any); ok && len(a) > 0 {
			notes = append(notes, "Claude Code's UserPromptSubmit has no attachments: they are not passed on")
		}
	case "stop", "subagentStop":
		ev.status, ev.loopCount = str(m, "status"), intOf(m["loop_count"])
		ev.stopActive = ev.loopCount > 0
		ev.agentType, ev.lastMessage = str(m, "subagent_type"), str(m, "summary")
		ev.transcriptPath = cmp.Or(str(m, "agent_transcript_path"), ev.transcriptPath)
	case "subagentStart":
		ev.agentID, ev.agentType = str(m, "subagent_id"), str(m, "subagent_type")
	case "sessionStart":
		ev.source = "startup"
	case "sessionEnd":
		ev.reason = str(m, "reason")
	case "preCompact":
		ev.trigger = str(m, "trigger")
	}
	return ev, notes
}

// ClaudeFieldsRead are the top-level fields of a Claude Code or Codex payload that the
// translation reads.
var ClaudeFieldsRead = []string{"hook_event_name", "session_id", "transcript_path", "cwd", "model", "tool_name",
	"tool_input", "tool_response", "tool_use_id", "permission_mode", "prompt", "last_assistant_message", "agent_id",
	"agent_type", "source", "reason", "trigger", "error", "duration_ms", "stop_hook_active"}

// ClaudeFieldsDropped are the fields of Claude Code's, Codex's and (rewritten) Gemini CLI's
// payloads that Cursor's payloads have no place for, and why they are dropped knowingly. The
// tests fail on a field the agents send that is in neither list.
var ClaudeFieldsDropped = map[string]string{
	"prompt_id":        "an id of the prompt; Cursor has generation_id, which is not the same thing",
	"effort":           "Claude Code's reasoning effort",
	"turn_id":          "Codex's id of the turn",
	"timestamp":        "Gemini's time of the event",
	"prompt_response":  "Gemini's AfterAgent text, carried as last_assistant_message",
	"background_tasks": "Claude Code's Stop: running background tasks",
	"session_crons":    "Claude Code's Stop: scheduled tasks",
	"tool_calls":       "Claude Code's PostToolBatch, an event Cursor does not have",
	"message_id":       "Claude Code's MessageDisplay, an event Cursor does not have",
	"delta":            "Claude Code's MessageDisplay",
	"final":            "Claude Code's MessageDisplay",
	"index":            "Claude Code's MessageDisplay",
	"llm_request":      "Gemini's model events, which no other agent has",
	"llm_response":     "Gemini's model events, which no other agent has",
	"mcp_context":      "Gemini's MCP metadata",
}

func fromClaude(name string, m map[string]any) (event, []string) {
	ev := event{sessionID: str(m, "session_id"), transcriptPath: str(m, "transcript_path"), cwd: str(m, "cwd"),
		model: str(m, "model"), tool: str(m, "tool_name"), toolInput: obj(m, "tool_input"), toolResponse: m["tool_response"],
		toolUseID: str(m, "tool_use_id"), permissionMode: str(m, "permission_mode"), prompt: str(m, "prompt"),
		lastMessage: str(m, "last_assistant_message"), agentID: str(m, "agent_id"), agentType: str(m, "agent_type"),
		source: str(m, "source"), reason: str(m, "reason"), trigger: str(m, "trigger"), errorMessage: str(m, "error"),
		durationMS: m["duration_ms"]}
	ev.kind = claude.ToolKind(name, ev.tool)
	if b, ok := m["stop_hook_active"].(bool); ok && b {
		ev.stopActive, ev.loopCount = true, 1
	}
	if strings.HasPrefix(ev.tool, "mcp__") {
		parts := strings.SplitN(strings.TrimPrefix(ev.tool, "mcp__"), "__", 2)
		ev.mcpServer = parts[0]
	}
	return ev, nil
}

func toCursor(name string, ev event) (map[string]any, []string) {
	m := map[string]any{"conversation_id": ev.sessionID, "generation_id": ev.generationID, "model": ev.model,
		"hook_event_name": name, "cursor_version": "", "workspace_roots": []any{}, "user_email": nil, "transcript_path": nil}
	if ev.workspace != "" {
		m["workspace_roots"] = []any{ev.workspace}
	}
	if ev.transcriptPath != "" {
		m["transcript_path"] = ev.transcriptPath
	}
	var notes []string
	command, _ := ev.toolInput["command"].(string)
	switch name {
	case "beforeShellExecution":
		m["command"], m["cwd"], m["sandbox"] = command, ev.cwd, false
	case "afterShellExecution":
		m["command"], m["sandbox"], m["duration"] = command, false, ev.durationMS
		m["output"] = shellOutput(ev.toolResponse)
	case "beforeMCPExecution", "afterMCPExecution":
		m["tool_name"] = strings.TrimPrefix(CursorTool(ev.tool), "MCP:")
		m["tool_input"] = jsonString(ev.toolInput)
		m["command"] = ev.mcpServer
		notes = append(notes, "Cursor's MCP payload names the server by url or command; Claude Code gives only its name, passed as command")
		if name == "afterMCPExecution" {
			m["result_json"], m["duration"] = jsonString(ev.toolResponse), ev.durationMS
		}
	case "beforeReadFile", "beforeTabFileRead":
		fp, _ := ev.toolInput["file_path"].(string)
		m["file_path"] = fp
		if content, ok := readSmall(fp); ok {
			m["content"] = content
		} else {
			notes = append(notes, "the file's content could not be read for Cursor's content field")
		}
		if name == "beforeReadFile" {
			m["attachments"] = []any{}
		}
	case "afterFileEdit", "afterTabFileEdit":
		m["file_path"], _ = ev.toolInput["file_path"].(string)
		m["edits"] = cursorEdits(ev.tool, ev.toolInput)
	case "preToolUse", "postToolUse", "postToolUseFailure":
		m["tool_name"], m["tool_input"], m["tool_use_id"], m["cwd"] = CursorTool(ev.tool), orEmpty(ev.toolInput), ev.toolUseID, ev.cwd
		if name == "postToolUse" {
			m["tool_output"], m["duration"] = jsonString(ev.toolResponse), ev.durationMS
		}
		if name == "postToolUseFailure" {
			m["error_message"], m["failure_type"], m["duration"], m["is_interrupt"] = ev.errorMessage, "error", ev.durationMS, false
		}
	case "beforeSubmitPrompt":
		m["prompt"], m["attachments"] = ev.prompt, []any{}
	case "stop":
		m["status"], m["loop_count"] = cmp.Or(ev.status, "completed"), ev.loopCount
		if ev.stopActive {
			notes = append(notes, "Claude Code says only whether a stop hook is already active: loop_count is 1 when it is")
		}
	case "subagentStart":
		m["subagent_id"], m["subagent_type"], m["task"] = ev.agentID, ev.agentType, ""
	case "subagentStop":
		m["subagent_type"], m["status"], m["loop_count"], m["summary"] = ev.agentType, "completed", ev.loopCount, ev.lastMessage
		m["agent_transcript_path"] = ev.transcriptPath
	case "sessionStart":
		m["session_id"], m["is_background_agent"], m["composer_mode"] = ev.sessionID, false, "agent"
	case "sessionEnd":
		m["session_id"], m["reason"] = ev.sessionID, ev.reason
	case "preCompact":
		m["trigger"] = ev.trigger
	default:
		notes = append(notes, "Cursor's "+name+" has no counterpart in the source dialect: only the common fields are passed")
	}
	return m, notes
}

func toClaude(name string, ev event) (map[string]any, []string) {
	m := map[string]any{"session_id": ev.sessionID, "transcript_path": ev.transcriptPath, "cwd": cmp.Or(ev.cwd, ev.workspace),
		"hook_event_name": name}
	if ev.permissionMode != "" {
		m["permission_mode"] = ev.permissionMode
	} else {
		m["permission_mode"] = "default"
	}
	var notes []string
	switch name {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure":
		m["tool_name"], m["tool_input"], m["tool_use_id"] = ev.tool, orEmpty(ev.toolInput), ev.toolUseID
		if name == "PostToolUse" {
			m["tool_response"] = ev.toolResponse
		}
		if name == "PostToolUseFailure" {
			m["error"] = ev.errorMessage
		}
		if ev.durationMS != nil && name != "PreToolUse" {
			m["duration_ms"] = ev.durationMS
		}
	case "UserPromptSubmit":
		m["prompt"] = ev.prompt
	case "Stop", "SubagentStop":
		m["stop_hook_active"], m["last_assistant_message"] = ev.stopActive, ev.lastMessage
		if name == "SubagentStop" {
			m["agent_id"], m["agent_type"], m["agent_transcript_path"] = ev.agentID, ev.agentType, ev.transcriptPath
		}
		notes = append(notes, "Cursor's stop has no last assistant message: last_assistant_message is empty")
	case "SubagentStart":
		m["agent_id"], m["agent_type"] = ev.agentID, ev.agentType
	case "SessionStart":
		m["source"] = cmp.Or(ev.source, "startup")
		if ev.model != "" {
			m["model"] = ev.model
		}
	case "SessionEnd":
		m["reason"] = cmp.Or(ev.reason, "other")
	case "PreCompact":
		m["trigger"], m["custom_instructions"] = ev.trigger, ""
	default:
		notes = append(notes, "Claude Code's "+name+" has no counterpart in the source dialect: only the common fields are passed")
	}
	return m, notes
}

func shellOutput(resp any) string {
	switch r := resp.(type) {
	case map[string]any:
		return str(r, "stdout") + str(r, "stderr")
	case string:
		return r
	}
	return ""
}

func cursorEdits(tool string, in map[string]any) []any {
	switch tool {
	case "Edit":
		return []any{map[string]any{"old_string": in["old_string"], "new_string": in["new_string"]}}
	case "MultiEdit":
		if list, ok := in["edits"].([]any); ok {
			return list
		}
	case "Write":
		return []any{map[string]any{"old_string": "", "new_string": in["content"]}}
	}
	return []any{}
}

// readSmall reads a file of at most 1 MiB, for Cursor's content field.
func readSmall(path string) (string, bool) {
	if path == "" {
		return "", false
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > 1<<20 {
		return "", false
	}
	b, err := os.ReadFile(path)
	return string(b), err == nil
}

func parseJSONString(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return x
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(x), &m) == nil {
			return m
		}
	}
	return map[string]any{}
}

func parseJSONAny(v any) any {
	if s, ok := v.(string); ok {
		var x any
		if json.Unmarshal([]byte(s), &x) == nil {
			return x
		}
	}
	return v
}

func jsonString(v any) string {
	b, _ := marshal(v)
	return string(b)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func firstNumber(values ...any) any {
	for _, v := range values {
		if v != nil {
			return v
		}
	}
	return nil
}

func marshal(v any) ([]byte, error) { return dialect.Marshal(v) }
