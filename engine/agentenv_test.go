package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestHooksKnowTheAgent: a hook is told, in AGENTHOOKS_AGENT, which agent fired the event,
// whatever dialect the hook itself is given: a Cursor-format hook run for Claude Code's or
// Codex's Bash call sees claude or codex, not cursor.
func TestHooksKnowTheAgent(t *testing.T) {
	t.Parallel()
	eng := newEngine(t, hooksOf("beforeShellExecution", `printf '{"permission":"deny","user_message":"agent=%s"}' "$AGENTHOOKS_AGENT"`), Options{})
	bash := []byte(`{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	for _, c := range []struct {
		agent dialect.Name
		event string
		body  []byte
		want  string
	}{
		{dialect.Claude, "PreToolUse", bash, "agent=claude"},
		{dialect.Codex, "PreToolUse", bash, "agent=codex"},
		{"", "beforeShellExecution", []byte(`{"command":"ls","cwd":"/tmp"}`), "agent=cursor"},
	} {
		d, err := eng.Fire(context.Background(), Event{Agent: c.agent, Name: c.event, Payload: c.body})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(d.UserMessage, c.want) {
			t.Errorf("%s: the hook said %q, want %q", c.agent, d.UserMessage, c.want)
		}
	}
}
