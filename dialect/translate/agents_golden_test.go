package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/copilot"
	"github.com/agenthooks/agenthooks/dialect/qwen"
)

// TestGoldenPayloadsQwenCopilot runs the payloads Qwen Code and Copilot CLI sent through the
// translation the engine makes for another agent's hook: to Cursor and to Claude Code, the shell
// command and the file path kept; and a Claude Code payload back into each agent's shape.
func TestGoldenPayloadsQwenCopilot(t *testing.T) {
	for _, c := range []struct {
		agent  dialect.Name
		events func(string) string // the Claude Code namesake, "" for none
	}{{qwen.Name, qwen.ClaudeEvent}, {copilot.Name, copilot.ClaudeEvent}} {
		for name, b := range goldenPayloads(t, string(c.agent)) {
			event, _, _ := strings.Cut(name, "-")
			spoken := c.events(event)
			if spoken == "" {
				continue // an event only the agent has, or Copilot's PascalCase registrations
			}
			out, _, err := Payload(c.agent, event, b, dialect.Claude, spoken, Env{})
			if err != nil {
				t.Errorf("%s %s → claude %s: %v", c.agent, name, spoken, err)
				continue
			}
			var m struct {
				Event string         `json:"hook_event_name"`
				Tool  string         `json:"tool_name"`
				Input map[string]any `json:"tool_input"`
			}
			if err := json.Unmarshal(out, &m); err != nil || m.Event != spoken {
				t.Errorf("%s %s → claude: %s (%v)", c.agent, name, out, err)
			}
			if spoken != "PreToolUse" && spoken != "PostToolUse" {
				continue // the translation carries no tool on other events (PermissionRequest)
			}
			switch {
			case strings.HasSuffix(name, "run_shell_command"), strings.HasSuffix(name, "-bash"):
				if m.Tool != "Bash" || m.Input["command"] == nil {
					t.Errorf("%s %s → claude lost the shell call: %s", c.agent, name, out)
				}
				if spoken == "PreToolUse" {
					cur, _, err := Payload(c.agent, event, b, dialect.Cursor, "beforeShellExecution", Env{})
					if err != nil || !strings.Contains(string(cur), `"command":"echo hello`) {
						t.Errorf("%s %s → cursor: %s (%v)", c.agent, name, cur, err)
					}
				}
			case strings.HasSuffix(name, "read_file"), strings.HasSuffix(name, "-view"):
				if m.Tool != "Read" || m.Input["file_path"] == nil {
					t.Errorf("%s %s → claude lost the read: %s", c.agent, name, out)
				}
			}
		}
	}
	claude := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/w","permission_mode":"default"}`)
	for _, c := range []struct {
		agent     dialect.Name
		event     string
		want, not []string
	}{
		{qwen.Name, "PreToolUse", []string{`"tool_name":"run_shell_command"`, `"hook_event_name":"PreToolUse"`, `"command":"ls"`}, nil},
		{copilot.Name, "preToolUse", []string{`"toolName":"bash"`, `"toolArgs":{"command":"ls"}`, `"sessionId":"s"`}, []string{"hook_event_name", "permission_mode"}},
	} {
		out, _, err := Payload(dialect.Claude, "PreToolUse", claude, c.agent, c.event, Env{})
		if err != nil {
			t.Fatalf("claude → %s: %v", c.agent, err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("claude → %s: %s lacks %s", c.agent, out, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(string(out), n) {
				t.Errorf("claude → %s: %s has %s", c.agent, out, n)
			}
		}
	}
}
