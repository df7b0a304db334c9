package cursor

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

// Target says what an event's matcher is compared with.
type Target int

// The matcher targets.
const (
	// NoTarget: a matcher on this event has no effect.
	NoTarget Target = iota
	// FieldName: the payload field Event.MatchField, a name (tool or subagent type).
	FieldName
	// FieldText: the payload field Event.MatchField, free text such as a whole shell command.
	FieldText
	// Constant: the fixed name Event.MatchConst (Cursor's Read, TabRead, Write, ...).
	Constant
)

// Event describes one Cursor hook event.
type Event struct {
	Name       string
	Shape      Shape
	Fields     []string // input fields beyond the common ones, as Cursor documents them
	Target     Target
	MatchField string
	MatchConst string
	// Loop is true for the events whose follow-ups are bounded by loop_count and loop_limit.
	Loop bool
	// Canonical is the dialect-neutral name of the event.
	Canonical string
}

// Common lists the input fields Cursor sends with every event.
var Common = []string{"conversation_id", "generation_id", "model", "hook_event_name", "cursor_version",
	"workspace_roots", "user_email", "transcript_path"}

// Events lists every Cursor event: the twelve of Cursor's validator table first, in its order,
// then the newer agent and app events.
var Events = []Event{
	{Name: "beforeShellExecution", Shape: Permission, Fields: []string{"command", "cwd", "sandbox"},
		Target: FieldText, MatchField: "command", Canonical: "before-shell"},
	{Name: "beforeMCPExecution", Shape: Permission, Fields: []string{"tool_name", "tool_input", "url", "command"},
		Target: FieldName, MatchField: "tool_name", Canonical: "before-mcp"},
	{Name: "afterShellExecution", Fields: []string{"command", "output", "duration", "sandbox"},
		Target: FieldText, MatchField: "command", Canonical: "after-shell"},
	{Name: "afterMCPExecution", Fields: []string{"tool_name", "tool_input", "result_json", "duration"},
		Target: FieldName, MatchField: "tool_name", Canonical: "after-mcp"},
	{Name: "beforeReadFile", Shape: ReadPermission, Fields: []string{"file_path", "content", "attachments"},
		Target: Constant, MatchConst: "Read", Canonical: "before-read-file"},
	{Name: "afterFileEdit", Fields: []string{"file_path", "edits"},
		Target: Constant, MatchConst: "Write", Canonical: "after-file-edit"},
	{Name: "beforeTabFileRead", Shape: ReadPermission, Fields: []string{"file_path", "content"},
		Target: Constant, MatchConst: "TabRead", Canonical: "before-tab-read"},
	{Name: "afterTabFileEdit", Fields: []string{"file_path", "edits"},
		Target: Constant, MatchConst: "TabWrite", Canonical: "after-tab-edit"},
	{Name: "stop", Shape: Followup, Fields: []string{"status", "loop_count"},
		Target: Constant, MatchConst: "Stop", Loop: true, Canonical: "stop"},
	{Name: "beforeSubmitPrompt", Shape: Prompt, Fields: []string{"prompt", "attachments"},
		Target: Constant, MatchConst: "UserPromptSubmit", Canonical: "before-submit-prompt"},
	{Name: "afterAgentResponse", Fields: []string{"text"},
		Target: Constant, MatchConst: "AgentResponse", Canonical: "after-agent-response"},
	{Name: "afterAgentThought", Fields: []string{"text", "duration_ms"},
		Target: Constant, MatchConst: "AgentThought", Canonical: "after-agent-thought"},
	{Name: "preToolUse", Shape: PreTool, Fields: []string{"tool_name", "tool_input", "tool_use_id", "cwd", "agent_message"},
		Target: FieldName, MatchField: "tool_name", Canonical: "pre-tool"},
	{Name: "postToolUse", Shape: PostTool, Fields: []string{"tool_name", "tool_input", "tool_output", "tool_use_id", "cwd", "duration"},
		Target: FieldName, MatchField: "tool_name", Canonical: "post-tool"},
	{Name: "postToolUseFailure", Fields: []string{"tool_name", "tool_input", "tool_use_id", "cwd", "error_message", "failure_type", "duration", "is_interrupt"},
		Target: FieldName, MatchField: "tool_name", Canonical: "post-tool-failure"},
	{Name: "subagentStart", Shape: SubagentGate, Fields: []string{"subagent_id", "subagent_type", "task", "parent_conversation_id", "tool_call_id", "subagent_model", "is_parallel_worker", "git_branch"},
		Target: FieldName, MatchField: "subagent_type", Canonical: "subagent-start"},
	{Name: "subagentStop", Shape: Followup, Fields: []string{"subagent_type", "status", "task", "description", "summary", "duration_ms", "message_count", "tool_call_count", "loop_count", "modified_files", "agent_transcript_path"},
		Target: FieldName, MatchField: "subagent_type", Loop: true, Canonical: "subagent-stop"},
	{Name: "sessionStart", Shape: SessionStart, Fields: []string{"session_id", "is_background_agent", "composer_mode"},
		Canonical: "session-start"},
	{Name: "sessionEnd", Fields: []string{"session_id", "reason", "duration_ms", "is_background_agent", "final_status", "error_message"},
		Canonical: "session-end"},
	{Name: "preCompact", Shape: Compact, Fields: []string{"trigger", "context_usage_percent", "context_tokens", "context_window_size", "message_count", "messages_to_compact", "is_first_compaction"},
		Canonical: "pre-compact"},
	{Name: "workspaceOpen", Shape: WorkspaceOpen, Canonical: "workspace-open"},
}

var byName = func() map[string]*Event {
	m := make(map[string]*Event, len(Events))
	for i := range Events {
		m[Events[i].Name] = &Events[i]
	}
	return m
}()

// Lookup returns the event named name (Cursor's exact spelling).
func Lookup(name string) (*Event, bool) {
	e, ok := byName[name]
	return e, ok
}

// Names returns every event name, in the order of Events.
func Names() []string {
	out := make([]string, len(Events))
	for i, e := range Events {
		out[i] = e.Name
	}
	return out
}

// Gates reports whether the event can block the operation it precedes.
func (e *Event) Gates() bool {
	switch e.Shape {
	case Permission, ReadPermission, Prompt, PreTool, SubagentGate:
		return true
	}
	return false
}
