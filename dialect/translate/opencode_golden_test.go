package translate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/opencode"
)

// TestGoldenPayloadsOpenCode runs the payloads agenthooks' plugin sent from inside OpenCode
// 1.18.33 through the translation to Claude Code (bash is Bash, args tool_input, tool.execute.after's
// output the shell's stdout), to Cursor's beforeShellExecution, and back unchanged.
func TestGoldenPayloadsOpenCode(t *testing.T) {
	golden := goldenPayloads(t, string(opencode.Name))
	if len(golden) != len(opencode.Events) {
		t.Fatalf("golden payloads %v, want one for each of %v", len(golden), opencode.Events)
	}
	for event, b := range golden {
		if event != opencode.BeforeTool && event != opencode.AfterTool {
			continue
		}
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
		delete(orig, "attachments") // Claude Code's UserPromptSubmit has none (the translation says so)
		if err != nil || !reflect.DeepEqual(orig, got) {
			t.Errorf("opencode %s round trip:\n got %s\nwant %s (%v)", event, back, b, err)
		}
	}
}

// TestGoldenPayloadsOpenCodeEvents: the prompt and session payloads the plugin sent from inside
// OpenCode 1.18.33 read as Claude Code's UserPromptSubmit (with the prompt), SessionStart and
// Stop, as Cursor's beforeSubmitPrompt, and go back unchanged.
func TestGoldenPayloadsOpenCodeEvents(t *testing.T) {
	golden := goldenPayloads(t, string(opencode.Name))
	for _, c := range []struct{ event, spoken string }{
		{opencode.ChatMessage, "UserPromptSubmit"}, {opencode.SessionCreated, "SessionStart"}, {opencode.SessionIdle, "Stop"},
	} {
		b, ok := golden[c.event]
		if !ok {
			t.Errorf("no golden %s payload", c.event)
			continue
		}
		out, _, err := Payload(opencode.Name, c.event, b, dialect.Claude, c.spoken, Env{})
		if err != nil {
			t.Fatalf("opencode %s → claude: %v", c.event, err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m["hook_event_name"] != c.spoken || m["session_id"] == nil || m["cwd"] == nil {
			t.Errorf("opencode %s → claude: %s (%v)", c.event, out, err)
		}
		if c.event == opencode.ChatMessage {
			if p, _ := m["prompt"].(string); !strings.Contains(p, "please run it") {
				t.Errorf("opencode %s → claude lost the prompt: %s", c.event, out)
			}
			cur, _, err := Payload(opencode.Name, c.event, b, dialect.Cursor, "beforeSubmitPrompt", Env{})
			if p, _ := field(t, cur, "prompt").(string); err != nil || !strings.Contains(p, "please run it") {
				t.Errorf("opencode %s → cursor: %s (%v)", c.event, cur, err)
			}
		}
		back, _, err := Payload(dialect.Claude, c.spoken, out, opencode.Name, c.event, Env{})
		var orig, got map[string]any
		_ = json.Unmarshal(b, &orig)
		_ = json.Unmarshal(back, &got)
		delete(orig, "attachments") // Claude Code's UserPromptSubmit has none (the translation says so)
		if err != nil || !reflect.DeepEqual(orig, got) {
			t.Errorf("opencode %s round trip:\n got %s\nwant %s (%v)", c.event, back, b, err)
		}
	}
}

func field(t *testing.T, b []byte, k string) any {
	t.Helper()
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m[k]
}
