package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/kimi"
)

// TestGoldenPayloadsKimi runs the payloads Kimi Code 2.1.0 sent in the e2e suite
// (TestKimiPayloads) through the translation the engine makes for another agent's hook: to
// Claude Code (path as file_path, tool_call_id as tool_use_id, tool_output as tool_response), to
// Cursor's beforeShellExecution for Bash, and back into Kimi Code's shape. Events Claude Code has
// not (TurnStarted) are passed to no other agent's hook.
func TestGoldenPayloadsKimi(t *testing.T) {
	for name, b := range goldenPayloads(t, string(kimi.Name)) {
		event, tool, _ := strings.Cut(name, "-")
		if spoken, _, _, err := kimi.ToClaude(event, b); err != nil || spoken == "" {
			continue
		}
		out, _, err := Payload(kimi.Name, event, b, dialect.Claude, event, Env{})
		if err != nil {
			t.Fatalf("kimi %s → claude: %v", name, err)
		}
		var m struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
			ID    string         `json:"tool_use_id"`
			Resp  any            `json:"tool_response"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Event != event || m.Tool != tool {
			t.Fatalf("kimi %s → claude: %s (%v)", name, out, err)
		}
		if tool != "" && m.ID == "" {
			t.Errorf("kimi %s → claude: no tool_use_id: %s", name, out)
		}
		if event == "PostToolUse" && m.Resp == nil {
			t.Errorf("kimi %s → claude: no tool_response: %s", name, out)
		}
		switch tool {
		case "Bash":
			cur, _, err := Payload(kimi.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !strings.Contains(string(cur), `"command":"echo hello > hello.txt"`) {
				t.Errorf("kimi %s → cursor: %s (%v)", name, cur, err)
			}
		case "":
			var p struct {
				Prompt string `json:"prompt"`
			}
			if event == "UserPromptSubmit" && (json.Unmarshal(out, &p) != nil || p.Prompt != "please run it") {
				t.Errorf("kimi %s → claude: the prompt's content parts are not its text: %s", name, out)
			}
		case "Write":
			if m.Input["file_path"] != "notes.txt" || m.Input["path"] != nil {
				t.Errorf("kimi %s → claude: Write's path not file_path: %s", name, out)
			}
		}
		back, _, err := Payload(dialect.Claude, event, out, kimi.Name, event, Env{})
		if err != nil || strings.Contains(string(back), "file_path") || strings.Contains(string(back), "tool_use_id") || !strings.Contains(string(back), `"hook_event_name":"`+event+`"`) {
			t.Errorf("claude → kimi %s: %s (%v)", name, back, err)
		}
	}
}
