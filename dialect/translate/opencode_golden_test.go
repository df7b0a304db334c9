package translate

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/opencode"
)

// TestGoldenPayloadsOpenCode runs the payloads agenthooks' plugin sent from inside OpenCode
// 1.18.33 through the translation to Claude Code (bash is Bash, args tool_input, tool.execute.after's
// output the shell's stdout), to Cursor's beforeShellExecution, and back unchanged.
func TestGoldenPayloadsOpenCode(t *testing.T) {
	golden := goldenPayloads(t, string(opencode.Name))
	if len(golden) != 2 {
		t.Fatalf("golden payloads %v, want tool.execute.before and tool.execute.after", len(golden))
	}
	for event, b := range golden {
		spoken := map[string]string{opencode.BeforeTool: "PreToolUse", opencode.AfterTool: "PostToolUse"}[event]
		out, _, err := Payload(opencode.Name, event, b, dialect.Claude, spoken, Env{})
		if err != nil {
			t.Fatalf("opencode %s → claude: %v", event, err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m["hook_event_name"] != spoken || m["tool_name"] != "Bash" || m["session_id"] == nil || m["tool_use_id"] != "call_00" {
			t.Fatalf("opencode %s → claude: %s (%v)", event, out, err)
		}
		if in, _ := m["tool_input"].(map[string]any); in["command"] != "echo hello > hello.txt" {
			t.Errorf("opencode %s → claude lost the command: %s", event, out)
		}
		if event == opencode.AfterTool {
			if r, _ := m["tool_response"].(map[string]any); r["stdout"] != "(no output)" {
				t.Errorf("opencode %s → claude lost the output: %s", event, out)
			}
		} else {
			cur, _, err := Payload(opencode.Name, event, b, dialect.Cursor, "beforeShellExecution", Env{})
			if err != nil || !json.Valid(cur) || !reflect.DeepEqual(field(t, cur, "command"), "echo hello > hello.txt") {
				t.Errorf("opencode %s → cursor: %s (%v)", event, cur, err)
			}
		}
		back, _, err := Payload(dialect.Claude, spoken, out, opencode.Name, event, Env{})
		var orig, got map[string]any
		_ = json.Unmarshal(b, &orig)
		_ = json.Unmarshal(back, &got)
		if err != nil || !reflect.DeepEqual(orig, got) {
			t.Errorf("opencode %s round trip:\n got %s\nwant %s (%v)", event, back, b, err)
		}
	}
}

func field(t *testing.T, b []byte, k string) any {
	t.Helper()
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m[k]
}
