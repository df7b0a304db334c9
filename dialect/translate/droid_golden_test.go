package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/droid"
)

// TestGoldenPayloadsDroid runs the payloads Factory Droid sent through the translation the
// engine makes for another agent's hook: to Claude Code (Execute as Bash) and to Cursor's
// beforeShellExecution; and back into Droid's shape.
func TestGoldenPayloadsDroid(t *testing.T) {
	for name, b := range goldenPayloads(t, string(droid.Name)) {
		event, _, _ := strings.Cut(name, "-")
		out, _, err := Payload(droid.Name, event, b, dialect.Claude, event, Env{})
		if err != nil {
			t.Fatalf("droid %s → claude: %v", name, err)
		}
		var m struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Event != event {
			t.Fatalf("droid %s → claude: %s (%v)", name, out, err)
		}
		if strings.HasSuffix(name, "-Execute") {
			if m.Tool != "Bash" || m.Input["command"] == nil {
				t.Errorf("droid %s → claude lost the shell call: %s", name, out)
			}
			cur, _, err := Payload(droid.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !strings.Contains(string(cur), `"command":"echo hello`) {
				t.Errorf("droid %s → cursor: %s (%v)", name, cur, err)
			}
		}
		back, _, err := Payload(dialect.Claude, event, out, droid.Name, event, Env{})
		if err != nil || !strings.Contains(string(back), `"tool_name":"Execute"`) {
			t.Errorf("claude → droid %s: %s (%v)", name, back, err)
		}
	}
}
