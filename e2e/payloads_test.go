package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/codex"
	"github.com/agenthooks/agenthooks/dialect/gemini"
)

var updatePayloads = flag.Bool("update-payloads", false, "rewrite dialect/testdata/payloads from what the real agents send")

// goldenDir holds the payloads the agents really sent, the inputs of the dialects' unit tests.
var goldenDir = filepath.Join("..", "dialect", "testdata", "payloads")

// captureCommand is a hook that saves its payload and says nothing.
func captureCommand(dir string) string { return capture(dir, "$$.json") }

// captureAs is a hook that saves its payload under its event's name and says nothing, for
// agents whose payloads do not name their event.
func captureAs(dir, event string) string { return capture(dir, event+"-$$.json") }

// capture saves stdin as dir/name, complete or not at all: written beside it first and renamed,
// so that a hook the agent leaves running as it exits (Kimi Code's last events) is never read
// half-written.
func capture(dir, name string) string {
	return "cat > " + dir + "/." + name + ".part && mv " + dir + "/." + name + ".part " + dir + "/" + name
}

// checkPayloads compares what an agent sent with the golden payloads: the same events, and for
// each the same fields (top level and tool_input). With -update-payloads it rewrites them.
func checkPayloads(t testing.TB, agent, captured string, ws workspace) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(captured, "*.json"))
	got := map[string]map[string]any{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s sent a payload that is not a JSON object: %v\n%s", agent, err, b)
		}
		name, _ := m["hook_event_name"].(string)
		if name == "" { // Copilot CLI's camelCase payloads do not name their event: captureAs did
			name, _, _ = strings.Cut(filepath.Base(f), "-")
		}
		tool, _ := m["tool_name"].(string)
		if tool == "" {
			tool, _ = m["toolName"].(string)
		}
		if tool != "" {
			name += "-" + tool
		}
		if _, seen := got[name]; !seen {
			got[name] = m
		}
	}
	if len(got) == 0 {
		t.Fatalf("%s ran no capture hook", agent)
	}
	dir := filepath.Join(goldenDir, agent)
	if *updatePayloads {
		_ = os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, m := range got {
			b, _ := json.MarshalIndent(m, "", "  ")
			s := strings.NewReplacer(ws.dir, "/work/ws", ws.home, "/home/user").Replace(string(b))
			if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(s+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	golden, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	want := map[string]map[string]any{}
	for _, f := range golden {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want[strings.TrimSuffix(filepath.Base(f), ".json")] = m
	}
	for name, m := range got {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s sent %s, which has no golden payload: refresh with go test ./e2e -update-payloads and make the dialects read it", agent, name)
			continue
		}
		if g, wf := fieldsOf(m), fieldsOf(w); g != wf {
			t.Errorf("%s's %s payload has fields %s, the golden %s: refresh with -update-payloads and make the dialects read them", agent, name, g, wf)
		}
	}
}

// fieldsOf lists a payload's top-level fields and its tool_input's.
func fieldsOf(m map[string]any) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for _, input := range []string{"tool_input", "toolArgs", "args"} {
		if in, ok := m[input].(map[string]any); ok {
			for k := range in {
				keys = append(keys, input+"."+k)
			}
		}
	}
	sort.Strings(keys)
	return fmt.Sprint(keys)
}

func captureHooks(events []string, groupOf func(string) map[string]any) map[string]any {
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{groupOf(ev)}
	}
	return hooks
}

// TestPayloads runs each agent with a capturing hook on every event and checks the payloads
// against the goldens that the dialects' unit tests read.
func TestPayloads(t *testing.T) {
	t.Run("codex", func(t *testing.T) {
		c := newCodex(t, ordinary)
		dir := t.TempDir()
		c.hooks(t, captureHooks(codex.Events, func(string) map[string]any { return group("", captureCommand(dir)) }))
		c.exec(t, "please run it")
		checkPayloads(t, "codex", dir, c.ws)
	})
	t.Run("gemini", func(t *testing.T) {
		g := newGemini(t, ordinary, "read:README.md")
		if err := os.WriteFile(filepath.Join(g.ws.dir, "README.md"), []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		g.settings(t, captureHooks(gemini.Events, func(string) map[string]any { return geminiGroup("", captureCommand(dir)) }))
		g.exec(t, "please run it")
		checkPayloads(t, "gemini", dir, g.ws)
	})
	t.Run("claude", func(t *testing.T) {
		c := newClaude(t, ordinary, "read:README.md")
		if err := os.WriteFile(filepath.Join(c.ws.dir, "README.md"), []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		c.settings(t, captureHooks(claude.Names(), func(string) map[string]any { return group("", captureCommand(dir)) }))
		c.exec(t, "please run it")
		checkPayloads(t, "claude", dir, c.ws)
	})
}
