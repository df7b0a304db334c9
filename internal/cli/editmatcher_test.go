package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/internal/cli"
)

// editCalls are realistic PreToolUse payloads, one for each tool some agent's install routes to
// the edit guard (Install.EditMatcher), each writing, editing or deleting @FILE in that agent's
// own shape and input fields.
var editCalls = map[string]map[string]string{
	"claude": {
		"Write":        `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"@FILE","content":"{}"}}`,
		"Edit":         `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"@FILE","old_string":"a","new_string":"b"}}`,
		"MultiEdit":    `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"@FILE","edits":[{"old_string":"a","new_string":"b"}]}}`,
		"NotebookEdit": `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"@FILE","new_source":"x"}}`,
	},
	"cursor": {
		"Write":  `{"hook_event_name":"preToolUse","conversation_id":"c","generation_id":"g","tool_name":"Write","tool_input":{"file_path":"@FILE","content":"x"},"workspace_roots":["/tmp"]}`,
		"Delete": `{"hook_event_name":"preToolUse","conversation_id":"c","generation_id":"g","tool_name":"Delete","tool_input":{"file_path":"@FILE"},"workspace_roots":["/tmp"]}`,
	},
	"codex": {
		"apply_patch": `{"session_id":"s","turn_id":"t1","cwd":"/tmp","hook_event_name":"PreToolUse","model":"gpt-5","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch\n"}}`,
	},
	"gemini": {
		"write_file": `{"session_id":"g1","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-11-24T09:32:52.993Z","tool_name":"write_file","tool_input":{"file_path":"@FILE","content":"y"}}`,
		"replace":    `{"session_id":"g1","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-11-24T09:32:52.993Z","tool_name":"replace","tool_input":{"file_path":"@FILE","old_string":"a","new_string":"b"}}`,
	},
	"qwen": {
		"write_file":    `{"cwd":"/tmp","hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-11-24T08:40:00.612Z","tool_input":{"file_path":"@FILE","content":"b"},"tool_name":"write_file"}`,
		"edit":          `{"cwd":"/tmp","hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-11-24T08:40:00.612Z","tool_input":{"file_path":"@FILE","old_string":"a","new_string":"b"},"tool_name":"edit"}`,
		"notebook_edit": `{"cwd":"/tmp","hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-11-24T08:40:00.612Z","tool_input":{"notebook_path":"@FILE","cell_id":"c1","new_source":"x","edit_mode":"replace"},"tool_name":"notebook_edit","tool_call_id":"call_04"}`,
	},
	"copilot": {
		"create":      `{"cwd":"/tmp","sessionId":"s","timestamp":1795509711897,"toolArgs":{"path":"@FILE","file_text":"{}"},"toolName":"create"}`,
		"edit":        `{"cwd":"/tmp","sessionId":"s","timestamp":1795509711897,"toolArgs":{"path":"@FILE","old_str":"a","new_str":"b"},"toolName":"edit"}`,
		"apply_patch": `{"cwd":"/tmp","sessionId":"s","timestamp":1795553393499,"toolArgs":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch\n","toolName":"apply_patch"}`,
	},
	"vscode": {
		"create_file":                  `{"timestamp":"2026-11-24T10:00:00.000Z","hookEventName":"PreToolUse","sessionId":"s","cwd":"/tmp","tool_name":"create_file","tool_use_id":"u","tool_input":{"filePath":"@FILE","content":"{}"}}`,
		"replace_string_in_file":       `{"timestamp":"2026-11-24T10:00:00.000Z","hookEventName":"PreToolUse","sessionId":"s","cwd":"/tmp","tool_name":"replace_string_in_file","tool_use_id":"u","tool_input":{"filePath":"@FILE","oldString":"a","newString":"b","explanation":"e"}}`,
		"multi_replace_string_in_file": `{"timestamp":"2026-11-24T10:00:00.000Z","hookEventName":"PreToolUse","sessionId":"s","cwd":"/tmp","tool_name":"multi_replace_string_in_file","tool_use_id":"u","tool_input":{"explanation":"e","replacements":[{"filePath":"/tmp/ok.txt","oldString":"a","newString":"b","explanation":"e"},{"filePath":"@FILE","oldString":"a","newString":"b","explanation":"e"}]}}`,
		"insert_edit_into_file":        `{"timestamp":"2026-11-24T10:00:00.000Z","hookEventName":"PreToolUse","sessionId":"s","cwd":"/tmp","tool_name":"insert_edit_into_file","tool_use_id":"u","tool_input":{"filePath":"@FILE","code":"{}","explanation":"e"}}`,
		"edit_notebook_file":           `{"timestamp":"2026-11-24T10:00:00.000Z","hookEventName":"PreToolUse","sessionId":"s","cwd":"/tmp","tool_name":"edit_notebook_file","tool_use_id":"u","tool_input":{"filePath":"@FILE","editType":"insert","cellId":"c1","newCode":"x","language":"python"}}`,
		"apply_patch":                  `{"timestamp":"2026-11-24T10:00:00.000Z","hookEventName":"PreToolUse","sessionId":"s","cwd":"/tmp","tool_name":"apply_patch","tool_use_id":"u","tool_input":{"input":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch","explanation":"e"}}`,
	},
	"kimi": {
		"Write": `{"hook_event_name":"PreToolUse","session_id":"s","session_title":"","client_type":"kimi_code_cli","cwd":"/tmp","tool_name":"Write","tool_input":{"path":"@FILE","content":"{}"},"tool_call_id":"c1"}`,
		"Edit":  `{"hook_event_name":"PreToolUse","session_id":"s","session_title":"","client_type":"kimi_code_cli","cwd":"/tmp","tool_name":"Edit","tool_input":{"path":"@FILE","old_string":"{","new_string":"{}"},"tool_call_id":"c2"}`,
	},
	"droid": {
		"Create":     `{"session_id":"s","transcript_path":"","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Create","tool_input":{"file_path":"@FILE","content":"{}"}}`,
		"Edit":       `{"session_id":"s","transcript_path":"","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"@FILE","old_str":"a","new_str":"b"}}`,
		"ApplyPatch": `{"session_id":"s","transcript_path":"","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"ApplyPatch","tool_input":{"input":"*** Begin Patch\n*** Update File: @FILE\n@@\n-{}\n+{}\n*** End Patch\n"}}`,
	},
	"crush": {
		"edit":               `{"event":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"edit","tool_input":{"file_path":"@FILE","old_string":"a","new_string":"b"}}`,
		"multiedit":          `{"event":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"multiedit","tool_input":{"file_path":"@FILE","edits":[{"old_string":"a","new_string":"b"}]}}`,
		"write":              `{"event":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"write","tool_input":{"file_path":"@FILE","content":"{}"}}`,
		"download":           `{"event":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"download","tool_input":{"url":"http://127.0.0.1:9/x","file_path":"@FILE"}}`,
		"lsp_replace_symbol": `{"event":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"lsp_replace_symbol","tool_input":{"symbol":"hooks","file_path":"@FILE","replacement":"{}"}}`,
	},
	"auggie": {
		"save-file":          `{"hook_event_name":"PreToolUse","conversation_id":"c","workspace_roots":["/tmp"],"tool_name":"save-file","tool_input":{"path":"@FILE","file_content":"{}"},"is_mcp_tool":false}`,
		"str-replace-editor": `{"hook_event_name":"PreToolUse","conversation_id":"c","workspace_roots":["/tmp"],"tool_name":"str-replace-editor","tool_input":{"command":"str_replace","path":"@FILE","old_str_1":"a","new_str_1":"b"},"is_mcp_tool":false}`,
		"remove-files":       `{"hook_event_name":"PreToolUse","conversation_id":"c","workspace_roots":["/tmp"],"tool_name":"remove-files","tool_input":{"file_paths":["/tmp/ok.txt","@FILE"]},"is_mcp_tool":false}`,
		"apply_patch":        `{"hook_event_name":"PreToolUse","conversation_id":"c","workspace_roots":["/tmp"],"tool_name":"apply_patch","tool_input":{"input":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch"},"is_mcp_tool":false}`,
	},
	"antigravity": {
		"write_to_file":              `{"conversationId":"c1","workspacePaths":["/tmp"],"stepIdx":4,"toolCall":{"name":"write_to_file","args":{"TargetFile":"@FILE","CodeContent":"{}"}}}`,
		"replace_file_content":       `{"conversationId":"c1","workspacePaths":["/tmp"],"stepIdx":4,"toolCall":{"name":"replace_file_content","args":{"TargetFile":"@FILE","TargetContent":"a","ReplacementContent":"b"}}}`,
		"multi_replace_file_content": `{"conversationId":"c1","workspacePaths":["/tmp"],"stepIdx":4,"toolCall":{"name":"multi_replace_file_content","args":{"TargetFile":"@FILE","ReplacementChunks":[{"TargetContent":"a","ReplacementContent":"b"}]}}}`,
	},
	"opencode": {
		"edit":        `{"hook_event_name":"tool.execute.before","tool":"edit","sessionID":"ses_1","callID":"call_1","args":{"filePath":"@FILE","oldString":"a","newString":"b"},"cwd":"/tmp"}`,
		"write":       `{"hook_event_name":"tool.execute.before","tool":"write","sessionID":"ses_1","callID":"call_1","args":{"filePath":"@FILE","content":"{}"},"cwd":"/tmp"}`,
		"multiedit":   `{"hook_event_name":"tool.execute.before","tool":"multiedit","sessionID":"ses_1","callID":"call_1","args":{"filePath":"@FILE","edits":[{"oldString":"a","newString":"b"}]},"cwd":"/tmp"}`,
		"apply_patch": `{"hook_event_name":"tool.execute.before","tool":"apply_patch","sessionID":"ses_1","callID":"call_1","args":{"patchText":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch"},"cwd":"/tmp"}`,
		"patch":       `{"hook_event_name":"tool.execute.before","tool":"patch","sessionID":"ses_1","callID":"call_1","args":{"patchText":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch"},"cwd":"/tmp"}`,
	},
	"goose": {
		"developer__write": `{"event":"PreToolUse","session_id":"s","matcher_context":"developer__write","tool_call_id":"c1","tool_name":"developer__write","tool_input":{"path":"@FILE","content":"{}"},"working_dir":"/tmp"}`,
		"developer__edit":  `{"event":"PreToolUse","session_id":"s","matcher_context":"developer__edit","tool_call_id":"c2","tool_name":"developer__edit","tool_input":{"path":"@FILE","before":"{","after":"{}"},"working_dir":"/tmp"}`,
		"write":            `{"event":"PreToolUse","session_id":"s","matcher_context":"write","tool_call_id":"c3","tool_name":"write","tool_input":{"path":"@FILE","content":"{}"},"working_dir":"/tmp"}`,
		"edit":             `{"event":"PreToolUse","session_id":"s","matcher_context":"edit","tool_call_id":"c4","tool_name":"edit","tool_input":{"path":"@FILE","before":"{","after":"{}"},"working_dir":"/tmp"}`,
	},
	"kiro": {
		"write":    `{"hook_event_name":"PreToolUse","cwd":"/tmp","session_id":"s1","tool_name":"write","tool_input":{"command":"create","path":"@FILE","file_text":"{}"}}`,
		"fs_write": `{"hook_event_name":"PreToolUse","cwd":"/tmp","session_id":"s1","tool_name":"fs_write","tool_input":{"command":"str_replace","path":"@FILE","old_str":"a","new_str":"b"}}`,
	},
	"cline": {
		"editor":          `{"clineVersion":"3.0.65","hookName":"tool_call","timestamp":"2026-11-24T14:00:00.000Z","taskId":"t1","workspaceRoots":["/tmp"],"userId":"u","agent_id":"a1","parent_agent_id":null,"iteration":1,"tool_call":{"id":"c4","name":"editor","input":{"path":"@FILE","new_text":"{}"}},"preToolUse":{"toolName":"editor","parameters":{"path":"@FILE","new_text":"{}"}}}`,
		"write_to_file":   `{"clineVersion":"3.17.0","hookName":"PreToolUse","timestamp":"1795509711897","taskId":"t1","workspaceRoots":["/tmp"],"userId":"u","preToolUse":{"toolName":"write_to_file","parameters":{"path":"@FILE","content":"{}"}}}`,
		"replace_in_file": `{"clineVersion":"3.17.0","hookName":"PreToolUse","timestamp":"1795509711897","taskId":"t1","workspaceRoots":["/tmp"],"userId":"u","preToolUse":{"toolName":"replace_in_file","parameters":{"path":"@FILE","diff":"------- SEARCH\na\n=======\nb\n+++++++ REPLACE"}}}`,
		"apply_patch":     `{"clineVersion":"3.0.65","hookName":"tool_call","timestamp":"2026-11-24T14:00:00.000Z","taskId":"t1","workspaceRoots":["/tmp"],"userId":"u","agent_id":"a1","parent_agent_id":null,"iteration":1,"tool_call":{"id":"c5","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch"}},"preToolUse":{"toolName":"apply_patch","parameters":{"input":"*** Begin Patch\n*** Update File: @FILE\n@@\n-a\n+b\n*** End Patch"}}}`,
	},
}

// matcherTools lists the tool names of a hooks matcher: Write|Edit, ^(edit|write)$.
func matcherTools(m string) []string {
	m = strings.TrimSuffix(strings.TrimPrefix(m, "^("), ")$")
	return strings.Split(m, "|")
}

// blocked reports whether an answer of guard bash is a deny in any agent's contract: exit 2, or
// a JSON deny, block or cancel on stdout.
var denyJSON = regexp.MustCompile(`"(permission|permissionDecision|decision)":"(deny|block)"|"cancel":true`)

// TestEveryEditMatcherToolIsJudged holds that every tool an agent's install routes to the edit
// guard is one the guard understands through that agent's GuardView: with the agent's own
// payload naming a protected file (another agent's hooks file), the answer is a deny; naming
// an ordinary file, it is an allow. A tool added to a matcher without a payload here fails.
func TestEveryEditMatcherToolIsJudged(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("CURSOR_PROJECT_DIR", "")
	t.Setenv("AGENTHOOKS_POLICY", "")
	protected := filepath.ToSlash(filepath.Join(home, ".claude", "settings.json"))
	run := func(format, payload string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Main(context.Background(), []string{"guard", "bash", "--format", format, "--audit", "off"}, strings.NewReader(payload), &out, &errb)
		return code, out.String(), errb.String()
	}
	for _, a := range agents.All() {
		m := a.Install.EditMatcher
		if m == "" {
			continue
		}
		for _, tool := range matcherTools(m) {
			name := string(a.Name)
			payload, ok := editCalls[name][tool]
			if !ok {
				t.Errorf("%s: its install routes %s to the edit guard, and this test has no %s payload for it", name, tool, name)
				continue
			}
			if !json.Valid([]byte(strings.ReplaceAll(payload, "@FILE", "x"))) {
				t.Fatalf("%s %s: the test's payload is not JSON", name, tool)
			}
			t.Run(name+"/"+tool, func(t *testing.T) {
				code, stdout, stderr := run(name, strings.ReplaceAll(payload, "@FILE", protected))
				if !(code == 2 || code == 0 && denyJSON.MatchString(stdout)) || !strings.Contains(stdout+stderr, "protected") {
					t.Errorf("an edit of %s is not denied: exit %d, stdout %q, stderr %q", protected, code, stdout, stderr)
				}
				code, stdout, stderr = run(name, strings.ReplaceAll(payload, "@FILE", "/tmp/agenthooks-test/notes.txt"))
				if code != 0 || denyJSON.MatchString(stdout) {
					t.Errorf("an edit of an ordinary file is not allowed: exit %d, stdout %q, stderr %q", code, stdout, stderr)
				}
			})
		}
	}
}
