package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/cline"
)

// TestGoldenPayloadsCline runs the payloads the Cline CLI 3.0.65 sent through the translation the
// engine makes for another agent's hook: to Claude Code (run_commands as Bash) and to Cursor's
// beforeShellExecution; and back into Cline's shape.
func TestGoldenPayloadsCline(t *testing.T) {
	for name, b := range goldenPayloads(t, string(cline.Name)) {
		claudeEvent := cline.ClaudeEvent(name)
		if claudeEvent == "" {
			continue
		}
		out, _, err := Payload(cline.Name, name, b, dialect.Claude, claudeEvent, Env{})
		if err != nil {
			t.Fatalf("cline %s → claude: %v", name, err)
		}
		var m struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Event != claudeEvent {
			t.Fatalf("cline %s → claude: %s (%v)", name, out, err)
		}
		if name != "PreToolUse" {
			continue
		}
		if m.Tool != "Bash" || m.Input["command"] != "echo hello > hello.txt" {
			t.Errorf("cline %s → claude lost the shell call: %s", name, out)
		}
		cur, _, err := Payload(cline.Name, name, b, dialect.Cursor, "beforeShellExecution", Env{})
		if err != nil || !strings.Contains(string(cur), `"command":"echo hello > hello.txt"`) {
			t.Errorf("cline %s → cursor: %s (%v)", name, cur, err)
		}
		back, _, err := Payload(dialect.Claude, claudeEvent, out, cline.Name, name, Env{})
		if err != nil || !strings.Contains(string(back), `"toolName":"run_commands"`) {
			t.Errorf("claude → cline %s: %s (%v)", name, back, err)
		}
	}
}
