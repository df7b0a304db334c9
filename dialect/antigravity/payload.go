package antigravity

import (
	"fmt"
	"sort"
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// tool is one of agy's built-in tools: its Claude Code namesake and its arguments' names there.
type tool struct {
	claude string
	args   map[string]string // agy's argument → Claude Code's tool_input key
}

var (
	toolsOnce  sync.Once
	toolsTable map[string]tool
	backTable  map[string]string
)

func tools() map[string]tool {
	toolsOnce.Do(func() {
		toolsTable = map[string]tool{
			"run_command":                {"Bash", map[string]string{"CommandLine": "command"}},
			"view_file":                  {"Read", map[string]string{"AbsolutePath": "file_path"}},
			"write_to_file":              {"Write", map[string]string{"TargetFile": "file_path", "CodeContent": "content"}},
			"replace_file_content":       {"Edit", map[string]string{"TargetFile": "file_path", "TargetContent": "old_string", "ReplacementContent": "new_string"}},
			"multi_replace_file_content": {"MultiEdit", map[string]string{"TargetFile": "file_path"}},
			"read_url_content":           {"WebFetch", map[string]string{"Url": "url"}},
			"search_web":                 {"WebSearch", map[string]string{}},
		}
		backTable = map[string]string{}
		for name, t := range toolsTable {
			backTable[t.claude] = name
		}
	})
	return toolsTable
}

// ClaudeTool names one of agy's tools as Claude Code does; others keep their names.
func ClaudeTool(name string) string {
	if t, ok := tools()[name]; ok {
		return t.claude
	}
	return name
}

// AgyTool names a Claude Code tool as agy does; others keep their names.
func AgyTool(name string) string {
	tools()
	if a, ok := backTable[name]; ok {
		return a
	}
	return name
}

// renames are the top-level payload fields whose Claude Code names differ.
var renames = [][2]string{{"conversationId", "session_id"}, {"transcriptPath", "transcript_path"}, {"modelName", "model"}}

// ToClaude rewrites the payload of Antigravity event name as the payload of its Claude Code
// namesake, which it returns with notes on what Claude Code's shape has no place for. agy's
// payloads do not name their event: the name comes from how the hook was registered.
func ToClaude(name string, payload []byte) (string, []byte, []string, error) {
	e, ok := events()[canonical(name)]
	if !ok || e.claude == "" {
		return "", nil, nil, fmt.Errorf("Antigravity's %s has no Claude Code counterpart", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return "", nil, nil, err
	}
	notes := RenameToClaude(e.Name, m)
	m["hook_event_name"] = e.claude
	b, err := dialect.Marshal(m)
	return e.claude, b, notes, err
}

// FromClaude rewrites the payload of a Claude Code event as the payload of Antigravity event
// name, with notes on what agy's payload has no place for.
func FromClaude(name string, payload []byte) ([]byte, []string, error) {
	e, ok := events()[canonical(name)]
	if !ok {
		return nil, nil, fmt.Errorf("Antigravity has no event %s", name)
	}
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, nil, err
	}
	notes := RenameFromClaude(e.Name, m)
	b, err := dialect.Marshal(m)
	return b, notes, err
}

// RenameToClaude rewrites a decoded agy payload, in place, into Claude Code's field and tool
// names (toolCall's name and args as tool_name and tool_input, conversationId as session_id,
// the first workspace as cwd where the call names none), and says what has no place there.
// It does not add the event's name.
func RenameToClaude(name string, m map[string]any) []string {
	var notes []string
	for _, r := range renames {
		move(m, r[0], r[1])
	}
	if call, ok := m["toolCall"].(map[string]any); ok {
		delete(m, "toolCall")
		toolName, _ := call["name"].(string)
		m["tool_name"] = ClaudeTool(toolName)
		in := map[string]any{}
		args, _ := call["args"].(map[string]any)
		t := tools()[toolName]
		for k, v := range args {
			switch to, ok := t.args[k]; {
			case ok:
				in[to] = v
			case k == "Cwd" && toolName == "run_command":
				m["cwd"] = v
			default:
				in[k] = v
			}
		}
		m["tool_input"] = in
	}
	if _, has := m["cwd"]; !has {
		if ws, ok := m["workspacePaths"].([]any); ok && len(ws) > 0 {
			m["cwd"] = ws[0]
		}
	}
	if canonical(name) == "Stop" {
		if _, has := m["stop_hook_active"]; !has {
			m["stop_hook_active"] = false
		}
	}
	for _, k := range sortedKeys(m) {
		switch k {
		case "workspacePaths", "artifactDirectoryPath", "stepIdx", "error", "invocationNum", "initialNumSteps",
			"executionNum", "terminationReason", "fullyIdle":
			notes = append(notes, k+" has no place in Claude Code's payload; it is passed as is")
		}
	}
	return notes
}

// RenameFromClaude rewrites a decoded payload in Claude Code's shape, in place, into agy's
// camelCase shape for event name, and says what has no place there.
func RenameFromClaude(name string, m map[string]any) []string {
	var notes []string
	for _, r := range renames {
		move(m, r[1], r[0])
	}
	if toolName, ok := m["tool_name"].(string); ok {
		agy := AgyTool(toolName)
		args := map[string]any{}
		back := map[string]string{}
		for from, to := range tools()[agy].args {
			back[to] = from
		}
		if in, ok := m["tool_input"].(map[string]any); ok {
			for k, v := range in {
				if from, ok := back[k]; ok {
					k = from
				}
				args[k] = v
			}
		}
		if cwd, ok := m["cwd"]; ok && agy == "run_command" {
			args["Cwd"] = cwd
		}
		m["toolCall"] = map[string]any{"name": agy, "args": args}
		delete(m, "tool_name")
		delete(m, "tool_input")
	}
	if cwd, ok := m["cwd"].(string); ok {
		if _, has := m["workspacePaths"]; !has {
			m["workspacePaths"] = []any{cwd}
		}
	}
	for _, k := range sortedKeys(m) {
		switch k {
		case "hook_event_name", "cwd", "stop_hook_active":
			delete(m, k)
		case "permission_mode", "tool_use_id", "tool_response", "prompt_id", "agent_id", "agent_type", "last_assistant_message", "source", "prompt":
			delete(m, k)
			notes = append(notes, k+" has no place in Antigravity's "+name+" payload; it is dropped")
		}
	}
	return notes
}

// GuardView rewrites an agy payload, for the built-in guards, into Claude Code's field and tool
// names; the event's name is not added (agy's payloads do not name it).
func GuardView(payload []byte) ([]byte, error) {
	m, err := dialect.DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	if _, ok := m["toolCall"].(map[string]any); !ok {
		return nil, fmt.Errorf("payload: no toolCall object: not an Antigravity tool call")
	}
	RenameToClaude("PreToolUse", m)
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
