package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/goose"
)

// TestGoldenPayloadsGoose runs Goose's payloads, written from HookContext and its builders in
// crates/goose/src/hooks/mod.rs (block/goose 0825b57: event, session_id, matcher_context,
// tool_call_id, tool_name, tool_input, tool_output, message, last_assistant_message,
// working_dir) and its developer tools' arguments (path, content, before, after); not captured
// from Goose, which does not run here. Each goes to Claude Code (names and fields renamed), the
// shell call to Cursor's beforeShellExecution, and back into Goose's shape with the
// matcher_context Goose's matchers read.
func TestGoldenPayloadsGoose(t *testing.T) {
	for name, b := range goldenPayloads(t, string(goose.Name)) {
		event, tool, _ := strings.Cut(name, "-")
		out, _, err := Payload(goose.Name, event, b, dialect.Claude, event, Env{})
		if err != nil {
			t.Fatalf("goose %s → claude: %v", name, err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m["hook_event_name"] != event || m["event"] != nil ||
			m["cwd"] != "/path/to/project" || m["working_dir"] != nil {
			t.Fatalf("goose %s → claude: %s (%v)", name, out, err)
		}
		in, _ := m["tool_input"].(map[string]any)
		if tool != "" && m["tool_name"] != goose.ClaudeTool(tool) {
			t.Errorf("goose %s → claude: tool %v, want %s", name, m["tool_name"], goose.ClaudeTool(tool))
		}
		switch tool {
		case "developer__shell":
			cur, _, err := Payload(goose.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !strings.Contains(string(cur), `"command":"rm -rf build"`) {
				t.Errorf("goose %s → cursor: %s (%v)", name, cur, err)
			}
		case "developer__edit":
			if in["file_path"] != "src/login.ts" || in["old_string"] != "let a = 1" || in["new_string"] != "const a = 1" || in["before"] != nil {
				t.Errorf("goose %s → claude: the edit's arguments not in Claude Code's names: %s", name, out)
			}
		case "developer__write":
			if in["file_path"] != "src/login.ts" || m["tool_response"] == nil {
				t.Errorf("goose %s → claude: the write's path or output lost: %s", name, out)
			}
		case "":
			if event == "UserPromptSubmit" && m["prompt"] != "fix the login page" {
				t.Errorf("goose %s → claude: the message is not the prompt: %s", name, out)
			}
		}
		back, _, err := Payload(dialect.Claude, event, out, goose.Name, event, Env{})
		if err != nil {
			t.Fatalf("claude → goose %s: %v", name, err)
		}
		var g, orig map[string]any
		if err := json.Unmarshal(back, &g); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(b, &orig)
		for _, k := range []string{"event", "tool_name", "matcher_context", "working_dir", "message"} {
			if want, _ := json.Marshal(orig[k]); string(mustJSON(g[k])) != string(want) {
				t.Errorf("claude → goose %s: %s = %s, want %s (%s)", name, k, mustJSON(g[k]), want, back)
			}
		}
		if want := mustJSON(orig["tool_input"]); string(mustJSON(g["tool_input"])) != string(want) {
			t.Errorf("claude → goose %s: tool_input %s, want %s", name, mustJSON(g["tool_input"]), want)
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
