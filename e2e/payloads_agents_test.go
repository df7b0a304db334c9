package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/copilot"
	"github.com/agenthooks/agenthooks/dialect/qwen"
)

// TestQwenPayloads runs Qwen Code with a capturing hook on every event and checks the payloads
// against the goldens that dialect/qwen's tests read.
func TestQwenPayloads(t *testing.T) {
	q := newQwen(t, ordinary, "read:README.md")
	if err := os.WriteFile(filepath.Join(q.ws.dir, "README.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q.model.commands[1] = "read:" + filepath.Join(q.ws.dir, "README.md")
	dir := t.TempDir()
	q.settings(t, captureHooks(qwen.Events, func(string) map[string]any { return qwenGroup("", captureCommand(dir)) }))
	q.exec(t, "please run it")
	checkPayloads(t, "qwen", dir, q.ws)
}

// TestCopilotPayloads runs Copilot CLI with a capturing hook on every event a hooks file can
// name, and checks the payloads against the goldens that dialect/copilot's tests read.
func TestCopilotPayloads(t *testing.T) {
	c := newCopilot(t, ordinary, "read:README.md")
	if err := os.WriteFile(filepath.Join(c.ws.dir, "README.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.model.commands[1] = "read:" + filepath.Join(c.ws.dir, "README.md")
	dir := t.TempDir()
	hooks := map[string]any{}
	for _, ev := range copilot.Events {
		hooks[ev] = copilotHook(captureAs(dir, ev))
	}
	// Claude Code's name for the event: Copilot sends VS Code's snake_case payload.
	hooks["PreToolUse"] = copilotHook(captureAs(dir, "PreToolUse"))
	c.userHooks(t, "capture", hooks)
	c.exec(t, "please run it")
	checkPayloads(t, "copilot", dir, c.ws)
}
