package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/crush"
)

// TestGoldenPayloadsCrush runs the payloads Crush sent through the translation the engine makes
// for another agent's hook: to Claude Code (Bash and Read, the command and the path kept) and to
// Cursor's beforeShellExecution; and a Claude Code payload back into Crush's shape.
func TestGoldenPayloadsCrush(t *testing.T) {
	for name, b := range goldenPayloads(t, string(crush.Name)) {
		event, _, _ := strings.Cut(name, "-")
		out, _, err := Payload(crush.Name, event, b, dialect.Claude, "PreToolUse", Env{})
		if err != nil {
			t.Fatalf("crush %s → claude: %v", name, err)
		}
		var m struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Event != "PreToolUse" {
			t.Fatalf("crush %s → claude: %s (%v)", name, out, err)
		}
		switch {
		case strings.HasSuffix(name, "-bash"):
			if m.Tool != "Bash" || m.Input["command"] == nil {
				t.Errorf("crush %s → claude lost the shell call: %s", name, out)
			}
			cur, _, err := Payload(crush.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !strings.Contains(string(cur), `"command":"echo hello`) {
				t.Errorf("crush %s → cursor: %s (%v)", name, cur, err)
			}
		case strings.HasSuffix(name, "-view"):
			if m.Tool != "Read" || m.Input["file_path"] == nil {
				t.Errorf("crush %s → claude lost the read: %s", name, out)
			}
		}
		back, _, err := Payload(dialect.Claude, "PreToolUse", out, crush.Name, event, Env{})
		if err != nil || !strings.Contains(string(back), `"event":"PreToolUse"`) || strings.Contains(string(back), "hook_event_name") {
			t.Errorf("claude → crush %s: %s (%v)", name, back, err)
		}
	}
}
