package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// TestGoldenPayloadsFire fires every payload the real agents sent (dialect/testdata/payloads,
// refreshed by go test ./e2e -update-payloads) as its agent's event, with a Cursor shell hook
// that denies: each is read without error, and a shell call of every agent reaches the Cursor
// hook and comes back as that agent's block.
func TestGoldenPayloadsFire(t *testing.T) {
	eng := newEngine(t, hooksOf("beforeShellExecution", `echo '{"permission":"deny","agent_message":"no shell today"}'`), Options{})
	for _, agent := range []dialect.Name{dialect.Claude, dialect.Codex, dialect.Gemini} {
		files, _ := filepath.Glob(filepath.Join("..", "dialect", "testdata", "payloads", string(agent), "*.json"))
		if len(files) == 0 {
			t.Fatalf("no golden payloads for %s", agent)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			event, tool, _ := strings.Cut(name, "-")
			d, err := eng.Fire(context.Background(), Event{Agent: agent, Name: event, Payload: b})
			if err != nil {
				t.Errorf("%s %s: %v", agent, name, err)
				continue
			}
			isShell := (event == "PreToolUse" && tool == "Bash") || (event == "BeforeTool" && tool == "run_shell_command")
			if !isShell {
				continue
			}
			if d.Permission != decide.Deny {
				t.Errorf("%s %s: the Cursor shell hook did not decide: %+v", agent, name, d.Runs)
			}
			if agent != dialect.Claude && (d.Reply.ExitCode != 2 || !strings.Contains(string(d.Reply.Stderr), "no shell today") || len(d.Reply.Stdout) != 0) {
				t.Errorf("%s %s: reply %+v, want exit 2 with the reason on stderr only", agent, name, d.Reply)
			}
		}
	}
}
