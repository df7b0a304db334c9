package translate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/auggie"
)

// TestGoldenPayloadsAuggie runs Auggie's payloads, written from the payload builders in its
// bundled code (Auggie cannot run here), through the translation to Claude Code and back (less is_mcp_tool), and its
// shell call to Cursor's beforeShellExecution.
func TestGoldenPayloadsAuggie(t *testing.T) {
	for name, b := range goldenPayloads(t, string(auggie.Name)) {
		event, _, _ := strings.Cut(name, "-")
		spoken := auggie.ClaudeEvent(event)
		out, _, err := Payload(auggie.Name, event, b, dialect.Claude, spoken, Env{})
		if err != nil {
			t.Fatalf("auggie %s → claude: %v", name, err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m["hook_event_name"] != spoken || m["session_id"] == nil {
			t.Fatalf("auggie %s → claude: %s (%v)", name, out, err)
		}
		if strings.HasSuffix(name, "-launch-process") {
			if m["tool_name"] != "Bash" {
				t.Errorf("auggie %s → claude lost the shell call: %s", name, out)
			}
			cur, _, err := Payload(auggie.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !strings.Contains(string(cur), `"command":"echo hello`) {
				t.Errorf("auggie %s → cursor: %s (%v)", name, cur, err)
			}
		}
		back, _, err := Payload(dialect.Claude, spoken, out, auggie.Name, event, Env{})
		var orig, got map[string]any
		_ = json.Unmarshal(b, &orig)
		_ = json.Unmarshal(back, &got)
		delete(orig, "is_mcp_tool") // Claude Code's shape has no place for it: the translation drops it
		if err != nil || !reflect.DeepEqual(orig, got) {
			t.Errorf("auggie %s round trip:\n got %s\nwant %s (%v)", name, back, b, err)
		}
	}
}
