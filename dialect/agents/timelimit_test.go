package agents

import (
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/cline"
)

// TestRunTimeLimit: agenthooks run --fail-closed answers before the agent gives up on its entry
// and lets the call run: four fifths of the agent's timeout for an entry that sets none (Claude
// Code and Codex 600 s, Gemini CLI 60 s), of the VS Code extension's 30 s for Cline; no limit
// where the agent's own timeout blocks (Cursor's failClosed).
func TestRunTimeLimit(t *testing.T) {
	for name, want := range map[dialect.Name]time.Duration{
		dialect.Claude:   480 * time.Second,
		dialect.Codex:    480 * time.Second,
		dialect.Gemini:   48 * time.Second,
		cline.Agent.Name: 24 * time.Second,
		dialect.Cursor:   0,
	} {
		if got := Get(name).RunTimeLimit("PreToolUse"); got != want {
			t.Errorf("%s: RunTimeLimit() = %s, want %s", name, got, want)
		}
	}
	// Claude Code gives a UserPromptSubmit hook 30 s, not 600: the runner answers within 24.
	if got := Get(dialect.Claude).RunTimeLimit("UserPromptSubmit"); got != 24*time.Second {
		t.Errorf("claude UserPromptSubmit: RunTimeLimit = %s, want 24s", got)
	}
}
