package vscode

import (
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestGuardViewFileTools: every GitHub Copilot Chat tool that writes files reaches the edit
// guard in a form it judges (a multi-file edit names every file in file_paths), whether named
// as the agent calls it or as it is contributed; an MCP tool is mcp__SERVER_TOOL.
func TestGuardViewFileTools(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, tool, field, want string }{
		{`{"hookEventName":"PreToolUse","tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"filePath":"/a"},{"filePath":"/b"}]}}`, "MultiEdit", "file_paths", "[/a /b]"},
		{`{"hookEventName":"PreToolUse","tool_name":"copilot_multiReplaceString","tool_input":{"replacements":[{"filePath":"/a"}]}}`, "MultiEdit", "file_paths", "[/a]"},
		{`{"hookEventName":"PreToolUse","tool_name":"insert_edit_into_file","tool_input":{"filePath":"/a","code":"x"}}`, "Edit", "file_path", "/a"},
		{`{"hookEventName":"PreToolUse","tool_name":"edit_notebook_file","tool_input":{"filePath":"/n.ipynb","editType":"insert"}}`, "NotebookEdit", "file_path", "/n.ipynb"},
		{`{"hookEventName":"PreToolUse","tool_name":"copilot_createFile","tool_input":{"filePath":"/a","content":"x"}}`, "Write", "file_path", "/a"},
		{`{"hookEventName":"PreToolUse","tool_name":"apply_patch","tool_input":{"input":"*** Begin Patch"}}`, "apply_patch", "input", "*** Begin Patch"},
		{`{"tool_name":"mcp_github_delete_repository","tool_input":{}}`, "mcp__github_delete_repository", "", ""},
	}
	for _, c := range cases {
		b, err := GuardView([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		m := object(t, b)
		if m["tool_name"] != c.tool {
			t.Errorf("%s: tool %v, want %s", c.in, m["tool_name"], c.tool)
		}
		if c.field != "" {
			if got := fmt.Sprint(m["tool_input"].(map[string]any)[c.field]); got != c.want {
				t.Errorf("%s: %s = %s, want %s", c.in, c.field, got, c.want)
			}
		}
	}
	for _, bad := range []string{
		`{"tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"oldString":"a"}]}}`,
		`{"tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"filePath":5}]}}`,
		`{"tool_name":"multi_replace_string_in_file","tool_input":{"replacements":"x"}}`,
	} {
		if b, err := GuardView([]byte(bad)); err == nil {
			t.Errorf("%s: viewed as %s; a replacement the guard cannot place is an error", bad, b)
		}
	}
}

// FuzzGuardViewFiles: whatever the input, a multi-file edit that GuardView accepts names every
// replacement's file, and nothing else, in file_paths.
func FuzzGuardViewFiles(f *testing.F) {
	f.Add(`/a`, `/b`, `mcp_x_y`)
	f.Add(``, `~/.copilot/hooks/agenthooks.json`, `multi_replace_string_in_file`)
	f.Fuzz(func(t *testing.T, a, b, tool string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return // JSON would carry other text than the strings
		}
		in, _ := json.Marshal(map[string]any{"tool_name": "multi_replace_string_in_file",
			"tool_input": map[string]any{"replacements": []any{map[string]any{"filePath": a}, map[string]any{"filePath": b}}}})
		v, err := GuardView(in)
		if err != nil {
			if a != "" && b != "" {
				t.Fatalf("%s: %v", in, err)
			}
			return
		}
		m, _ := dialect.DecodePayload(v)
		files, _ := m["tool_input"].(map[string]any)["file_paths"].([]any)
		if len(files) != 2 || files[0] != a || files[1] != b {
			t.Fatalf("file_paths %v, want [%q %q]", files, a, b)
		}
		name, _ := json.Marshal(tool)
		if v, err := GuardView([]byte(`{"tool_name":` + string(name) + `,"tool_input":{}}`)); err == nil {
			if _, err := dialect.DecodePayload(v); err != nil {
				t.Fatalf("GuardView wrote what it cannot read: %s", v)
			}
		}
	})
}
