package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/confine"
	"github.com/agenthooks/agenthooks/decide"
)

// Hooks that run side by side and rewrite the tool input differently cannot both be honoured:
// whichever rewrite ran, the other hook never judged it (a guard's sandboxed command replaced by
// another hook's rewrite of the original would run unconfined). The call is denied, saying why;
// the same rewrite from both agrees, and run one after another the last rewrite, which saw the
// ones before, stands.
func TestConflictingRewritesAreDenied(t *testing.T) {
	t.Parallel()
	confined := `echo '{"permission":"allow","updated_input":{"command":"agenthooks confine -- rm -rf build"}}'`
	other := `echo '{"permission":"allow","updated_input":{"command":"rm -rf build"}}'`
	fire := func(t *testing.T, opts Options, hooks ...string) decide.Decision {
		t.Helper()
		eng := newEngine(t, hooksOf("preToolUse", hooks...), opts)
		d, err := eng.Fire(context.Background(), Event{Name: "preToolUse", Payload: []byte(`{"tool_name":"Shell","tool_input":{"command":"rm -rf build"}}`)})
		if err != nil {
			t.Fatal(err)
		}
		return d.Decision
	}
	t.Run("different", func(t *testing.T) {
		d := fire(t, Options{}, confined, other)
		if d.Permission != decide.Deny || d.UpdatedInput != nil || !strings.Contains(d.AgentMessage, "rewrote the tool input in different ways") {
			t.Fatalf("conflicting rewrites: %+v", d)
		}
	})
	t.Run("same", func(t *testing.T) {
		d := fire(t, Options{}, confined, confined)
		if d.Permission != decide.Allow || !strings.Contains(string(d.UpdatedInput), "confine") {
			t.Fatalf("agreeing rewrites: %+v", d)
		}
	})
	t.Run("sequential", func(t *testing.T) {
		d := fire(t, Options{Sequential: true}, other, confined)
		if d.Permission != decide.Allow || !strings.Contains(string(d.UpdatedInput), "confine") {
			t.Fatalf("sequential rewrites: %+v", d)
		}
	})
	// The guard set the command to run confined; a later hook that rewrites it again would run
	// it outside the sandbox, unjudged: denied. A later hook that keeps it confined stands.
	t.Run("sequential after the guard", func(t *testing.T) {
		dir := t.TempDir()
		answer := func(name, command string) string {
			b, _ := json.Marshal(map[string]any{"permission": "allow", "updated_input": map[string]string{"command": command}})
			file := filepath.Join(dir, name)
			if err := os.WriteFile(file, b, 0o600); err != nil {
				t.Fatal(err)
			}
			return "cat '" + file + "'"
		}
		guard := answer("guard.json", confine.ShellCommand("/usr/bin/agenthooks", "/home/dev/project", "rm -rf build"))
		d := fire(t, Options{Sequential: true}, guard, other)
		if d.Permission != decide.Deny || d.UpdatedInput != nil || !strings.Contains(d.AgentMessage, "outside the sandbox") {
			t.Fatalf("a rewrite after the guard's confined one: %+v", d)
		}
		again := answer("again.json", confine.ShellCommand("/usr/bin/agenthooks", "/home/dev/project", "rm -rf build && echo done"))
		d = fire(t, Options{Sequential: true}, guard, again)
		if d.Permission != decide.Allow || !strings.Contains(string(d.UpdatedInput), "echo done") {
			t.Fatalf("a later rewrite that stays confined: %+v", d)
		}
	})
	t.Run("deny stands", func(t *testing.T) {
		d := fire(t, Options{}, confined, `echo '{"permission":"deny","user_message":"no"}'`)
		if d.Permission != decide.Deny || d.UserMessage != "no" {
			t.Fatalf("a deny beside a rewrite: %+v", d)
		}
	})
}
