package translate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/gemini"
)

// goldenPayloads reads the payloads the real agents sent (go test ./e2e -update-payloads).
func goldenPayloads(t *testing.T, agent string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "payloads", agent, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden payloads for %s in dialect/testdata/payloads (go test ./e2e -update-payloads)", agent)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = b
	}
	return out
}

// checkFields fails on a field the translation neither reads nor drops knowingly.
func checkFields(t *testing.T, agent, name string, payload []byte) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatalf("%s %s: %v", agent, name, err)
	}
	for k := range m {
		if !slices.Contains(ClaudeFieldsRead, k) && ClaudeFieldsDropped[k] == "" {
			t.Errorf("%s's %s payload has %q, which the translation neither reads nor lists as dropped", agent, name, k)
		}
	}
}

// TestGoldenPayloads runs every payload the real agents sent through the translation to the
// other dialects: it must be read without error, its tool mapped, and no field dropped unknowingly.
func TestGoldenPayloads(t *testing.T) {
	for _, agent := range []string{"claude", "codex"} {
		for name, b := range goldenPayloads(t, agent) {
			checkFields(t, agent, name, b)
			event, _, _ := strings.Cut(name, "-")
			ev, ok := claude.Lookup(event)
			if !ok {
				t.Errorf("%s sent %s, which dialect/claude does not know", agent, event)
				continue
			}
			target := EventFor(dialect.Cursor, claude.ToolKind(event, toolOf(b)))
			if target == "" {
				continue // an event Cursor does not have
			}
			out, _, err := Payload(dialect.Claude, ev.Name, b, dialect.Cursor, target, Env{})
			if err != nil {
				t.Errorf("%s %s → cursor %s: %v", agent, name, target, err)
				continue
			}
			if tool := toolOf(b); tool == "Bash" && strings.HasPrefix(target, "beforeShell") && !strings.Contains(string(out), `"command":`) {
				t.Errorf("%s %s → %s lost the command: %s", agent, name, target, out)
			}
		}
	}
	for name, b := range goldenPayloads(t, "gemini") {
		event, _, _ := strings.Cut(name, "-")
		if gemini.ClaudeEvent(event) == "" {
			continue // Gemini's model events: no other agent has them
		}
		claudeName, cb, _, err := gemini.ToClaude(event, b)
		if err != nil {
			t.Errorf("gemini %s: %v", name, err)
			continue
		}
		checkFields(t, "gemini", name, cb)
		if tool := toolOf(b); tool != "" && tool == toolOf(cb) && !strings.HasPrefix(tool, "mcp__") {
			if _, known := map[string]bool{"list_directory": true, "read_many_files": true}[tool]; !known {
				t.Errorf("gemini %s: tool %q has no Claude Code name", name, tool)
			}
		}
		if claudeName == "PreToolUse" && toolOf(b) == "read_file" && !strings.Contains(string(cb), `"file_path":`) {
			t.Errorf("gemini %s: read_file's path is lost: %s", name, cb)
		}
	}
}

func toolOf(b []byte) string {
	var m struct {
		Tool string `json:"tool_name"`
	}
	_ = json.Unmarshal(b, &m)
	return m.Tool
}
