package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/kimi"
)

// TestGoldenPayloadsKimi runs Kimi Code's payloads, written from its hooks page's event data
// (hook_event_name, session_id, session_title, client_type, cwd), the trigger calls in the
// bundled code of 2.1.0 (UserPromptSubmit's prompt as content parts, is_steer) and its tools'
// input schemas (Write's path); not captured from Kimi Code, which does not run here, through the translation
// the engine makes for another agent's hook: to Claude Code (path as file_path), to Cursor's
// beforeShellExecution for Bash, and back into Kimi Code's shape.
func TestGoldenPayloadsKimi(t *testing.T) {
	for name, b := range goldenPayloads(t, string(kimi.Name)) {
		event, tool, _ := strings.Cut(name, "-")
		out, _, err := Payload(kimi.Name, event, b, dialect.Claude, event, Env{})
		if err != nil {
			t.Fatalf("kimi %s → claude: %v", name, err)
		}
		var m struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Event != event || m.Tool != tool {
			t.Fatalf("kimi %s → claude: %s (%v)", name, out, err)
		}
		switch tool {
		case "Bash":
			cur, _, err := Payload(kimi.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !strings.Contains(string(cur), `"command":"rm -rf build"`) {
				t.Errorf("kimi %s → cursor: %s (%v)", name, cur, err)
			}
		case "":
			var p struct {
				Prompt string `json:"prompt"`
			}
			if event == "UserPromptSubmit" && (json.Unmarshal(out, &p) != nil || p.Prompt != "fix the login page") {
				t.Errorf("kimi %s → claude: the prompt's content parts are not its text: %s", name, out)
			}
		case "Write":
			if m.Input["file_path"] != "src/login.ts" || m.Input["path"] != nil {
				t.Errorf("kimi %s → claude: Write's path not file_path: %s", name, out)
			}
		}
		back, _, err := Payload(dialect.Claude, event, out, kimi.Name, event, Env{})
		if err != nil || strings.Contains(string(back), "file_path") || !strings.Contains(string(back), `"hook_event_name":"`+event+`"`) {
			t.Errorf("claude → kimi %s: %s (%v)", name, back, err)
		}
	}
}
