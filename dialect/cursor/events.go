package cursor

import (
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// Shape is the response schema of an event: which fields a hook may answer with.
type Shape int

// The response shapes Cursor validates.
const (
	// Observe events take no answer beyond an object.
	Observe Shape = iota
	// Permission is allow/deny/ask with user_message and agent_message (shell and MCP).
	Permission
	// ReadPermission is allow/deny with user_message (file reads).
	ReadPermission
	// Prompt is continue with user_message (beforeSubmitPrompt).
	Prompt
	// Followup is followup_message (stop, subagentStop).
	Followup
	// PreTool is Permission plus updated_input (preToolUse).
	PreTool
	// SubagentGate is allow/deny with user_message; ask counts as deny (subagentStart).
	SubagentGate
	// PostTool is additional_context and updated_mcp_tool_output (postToolUse).
	PostTool
	// SessionStart is env, additional_context, continue and user_message (sessionStart).
	SessionStart
	// Compact is user_message (preCompact).
	Compact
	// WorkspaceOpen is pluginPaths (workspaceOpen).
	WorkspaceOpen
)

// Event describes one Cursor hook event: its dialect-neutral spec, its answer's shape and the
// input fields Cursor documents for it.
type Event struct {
	dialect.Spec
	Shape  Shape
	Fields []string // input fields beyond the common ones
}

// Common lists the input fields Cursor sends with every event.
var Common = []string{"conversation_id", "generation_id", "model", "hook_event_name", "cursor_version",
	"workspace_roots", "user_email", "transcript_path"}

// table holds the events, built on first use: a guard process that never looks an event up
// does not pay for building them at start.
type table struct {
	list   []Event
	byName map[string]*Event
}

var tables = sync.OnceValue(func() *table {
	list := []Event{
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "beforeShellExecution", Kind: dialect.BeforeShell, Target: dialect.FieldText, MatchField: "command", MatchConst: ""},
			Shape: Permission, Fields: []string{"command", "cwd", "sandbox"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "beforeMCPExecution", Kind: dialect.BeforeMCP, Target: dialect.FieldName, MatchField: "tool_name", MatchConst: ""},
			Shape: Permission, Fields: []string{"tool_name", "tool_input", "url", "command"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "afterShellExecution", Kind: dialect.AfterShell, Target: dialect.FieldText, MatchField: "command", MatchConst: ""},
			Shape: Observe, Fields: []string{"command", "output", "duration", "sandbox"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "afterMCPExecution", Kind: dialect.AfterMCP, Target: dialect.FieldName, MatchField: "tool_name", MatchConst: ""},
			Shape: Observe, Fields: []string{"tool_name", "tool_input", "result_json", "duration"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "beforeReadFile", Kind: dialect.BeforeRead, Target: dialect.Constant, MatchField: "", MatchConst: "Read"},
			Shape: ReadPermission, Fields: []string{"file_path", "content", "attachments"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "afterFileEdit", Kind: dialect.AfterEdit, Target: dialect.Constant, MatchField: "", MatchConst: "Write"},
			Shape: Observe, Fields: []string{"file_path", "edits"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "beforeTabFileRead", Kind: "", Target: dialect.Constant, MatchField: "", MatchConst: "TabRead"},
			Shape: ReadPermission, Fields: []string{"file_path", "content"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "afterTabFileEdit", Kind: "", Target: dialect.Constant, MatchField: "", MatchConst: "TabWrite"},
			Shape: Observe, Fields: []string{"file_path", "edits"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "stop", Kind: dialect.Stop, Loop: true, Target: dialect.Constant, MatchField: "", MatchConst: "Stop"},
			Shape: Followup, Fields: []string{"status", "loop_count"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "beforeSubmitPrompt", Kind: dialect.PromptSubmit, Target: dialect.Constant, MatchField: "", MatchConst: "UserPromptSubmit"},
			Shape: Prompt, Fields: []string{"prompt", "attachments"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "afterAgentResponse", Kind: "", Target: dialect.Constant, MatchField: "", MatchConst: "AgentResponse"},
			Shape: Observe, Fields: []string{"text"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "afterAgentThought", Kind: "", Target: dialect.Constant, MatchField: "", MatchConst: "AgentThought"},
			Shape: Observe, Fields: []string{"text", "duration_ms"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "preToolUse", Kind: dialect.PreTool, Target: dialect.FieldName, MatchField: "tool_name", MatchConst: ""},
			Shape: PreTool, Fields: []string{"tool_name", "tool_input", "tool_use_id", "cwd", "agent_message"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "postToolUse", Kind: dialect.PostTool, Target: dialect.FieldName, MatchField: "tool_name", MatchConst: ""},
			Shape: PostTool, Fields: []string{"tool_name", "tool_input", "tool_output", "tool_use_id", "cwd", "duration"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "postToolUseFailure", Kind: dialect.PostToolFailure, Target: dialect.FieldName, MatchField: "tool_name", MatchConst: ""},
			Shape: Observe, Fields: []string{"tool_name", "tool_input", "tool_use_id", "cwd", "error_message", "failure_type", "duration", "is_interrupt"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "subagentStart", Kind: dialect.SubagentStart, Target: dialect.FieldName, MatchField: "subagent_type", MatchConst: ""},
			Shape: SubagentGate, Fields: []string{"subagent_id", "subagent_type", "task", "parent_conversation_id", "tool_call_id", "subagent_model", "is_parallel_worker", "git_branch"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "subagentStop", Kind: dialect.SubagentStop, Loop: true, Target: dialect.FieldName, MatchField: "subagent_type", MatchConst: ""},
			Shape: Followup, Fields: []string{"subagent_type", "status", "task", "description", "summary", "duration_ms", "message_count", "tool_call_count", "loop_count", "modified_files", "agent_transcript_path"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "sessionStart", Kind: dialect.SessionStart, Target: dialect.NoTarget, MatchField: "", MatchConst: ""},
			Shape: SessionStart, Fields: []string{"session_id", "is_background_agent", "composer_mode"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "sessionEnd", Kind: dialect.SessionEnd, Target: dialect.NoTarget, MatchField: "", MatchConst: ""},
			Shape: Observe, Fields: []string{"session_id", "reason", "duration_ms", "is_background_agent", "final_status", "error_message"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "preCompact", Kind: dialect.PreCompact, Target: dialect.NoTarget, MatchField: "", MatchConst: ""},
			Shape: Compact, Fields: []string{"trigger", "context_usage_percent", "context_tokens", "context_window_size", "message_count", "messages_to_compact", "is_first_compaction"}},
		{Spec: dialect.Spec{Dialect: dialect.Cursor, Name: "workspaceOpen", Kind: "", Target: dialect.NoTarget, MatchField: "", MatchConst: ""},
			Shape: WorkspaceOpen, Fields: nil},
	}
	m := make(map[string]*Event, len(list))
	for i := range list {
		e := &list[i]
		e.Gates = e.gates()
		m[e.Name] = e
	}
	return &table{list: list, byName: m}
})

// Events lists every Cursor event: the twelve of Cursor's validator table first, in its order,
// then the newer agent and app events.
func Events() []Event { return tables().list }

// Lookup returns the event named name (Cursor's exact spelling).
func Lookup(name string) (*Event, bool) {
	e, ok := tables().byName[name]
	return e, ok
}

// Names returns every event name, in the order of Events.
func Names() []string {
	list := Events()
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Name
	}
	return out
}

// gates reports whether the event can block the operation it precedes.
func (e *Event) gates() bool {
	switch e.Shape {
	case Permission, ReadPermission, Prompt, PreTool, SubagentGate:
		return true
	}
	return false
}
