package opencode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// harness loads the plugin as OpenCode does (an ES module whose export is called with the
// project's folder), calls one hook with a tool call and prints what happened: the error it
// threw, or the arguments and output after it.
const harness = `
const [plugin, directory, event, tool, args] = process.argv.slice(2);
const { AgenthooksPlugin } = await import(plugin);
const hooks = await AgenthooksPlugin({ directory });
const input = { tool, sessionID: "ses_1", callID: "call_1", args: JSON.parse(args) };
const output = event === "tool.execute.before" ? { args: JSON.parse(args) } : { title: "t", output: "out", metadata: {} };
const before = output.args;
try {
  await hooks[event](input, output);
  console.log(JSON.stringify({ ok: true, args: output.args, same: output.args === before, output: output.output }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: e.message }));
}
`

// fake is an agenthooks stand-in: it saves its arguments and stdin, then answers as FAKE_MODE
// says.
const fake = `#!/bin/sh
echo "$@" >> "$FAKE_DIR/calls"
cat > "$FAKE_DIR/payload.json"
case "$FAKE_MODE" in
deny2) echo "no way" >&2; exit 2 ;;
deny2-silent) exit 2 ;;
denyjson) echo '{"decision":"deny","reason":"json says no"}' ;;
rewrite) echo '{"decision":"allow","args":{"command":"echo safe"}}' ;;
context) echo '{"context":"remember this"}' ;;
crash) echo "it broke" >&2; exit 1 ;;
garbage) echo 'not json' ;;
ask) echo '{"decision":"ask"}' ;;
hang) sleep 5 ;;
esac
exit 0
`

type pluginResult struct {
	OK     bool           `json:"ok"`
	Error  string         `json:"error"`
	Args   map[string]any `json:"args"`
	Same   bool           `json:"same"`
	Output string         `json:"output"`
	Shown  string         `json:"shown"`
}

// TestPluginUnderNode runs the generated plugin's hooks under Node with a fake agenthooks and
// checks what OpenCode would see: a block throws with the reason, silence lets the call run, a
// rewrite changes the very arguments object OpenCode runs the tool with, and a missing,
// crashing or garbled agenthooks throws (fails closed).
func TestPluginUnderNode(t *testing.T) {
	node, dir, prog, h := nodeHarness(t, harness)
	entries := []dialect.InstallEntry{
		{Event: BeforeTool, Matcher: "bash", Args: "guard bash --fail-closed"},
		{Event: BeforeTool, Matcher: "edit|write", Args: "guard bash --fail-closed --edit"},
		{Event: AfterTool, Args: "run --agent opencode tool.execute.after"},
	}
	write := func(name, program string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, Plugin(program, program, entries), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plugin, missing := write("agenthooks.mjs", prog), write("missing.mjs", filepath.Join(dir, "nowhere", "agenthooks"))
	project := t.TempDir()
	run := func(t *testing.T, plugin, mode, event, tool, args string) pluginResult {
		t.Helper()
		_ = os.Remove(filepath.Join(dir, "calls"))
		cmd := exec.Command(node, h, plugin, project, event, tool, args)
		cmd.Env = append(os.Environ(), "FAKE_MODE="+mode, "FAKE_DIR="+dir)
		out, err := cmd.CombinedOutput()
		var r pluginResult
		if err != nil || json.Unmarshal(out, &r) != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		return r
	}
	bash := `{"command":"rm -rf build","description":"clean"}`
	for _, c := range []struct {
		name, plugin, mode string
		blocked            string // "" when the call runs
	}{
		{"silence allows", plugin, "allow", ""},
		{"exit 2 blocks with stderr", plugin, "deny2", "no way"},
		{"exit 2 without stderr", plugin, "deny2-silent", "blocked by agenthooks"},
		{"deny JSON blocks", plugin, "denyjson", "json says no"},
		{"a crash fails closed", plugin, "crash", "fails closed): agenthooks guard bash --fail-closed exited with status 1: it broke"},
		{"garbage fails closed", plugin, "garbage", "fails closed): agenthooks' answer is not a JSON object: not json"},
		{"an unknown decision fails closed", plugin, "ask", "unknown decision: ask"},
		{"a missing agenthooks fails closed", missing, "allow", "fails closed): agenthooks could not be run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.plugin, c.mode, BeforeTool, "bash", bash)
			switch {
			case c.blocked == "" && !r.OK:
				t.Errorf("blocked: %s", r.Error)
			case c.blocked != "" && (r.OK || !strings.Contains(r.Error, c.blocked)):
				t.Errorf("got %+v, want a throw with %q", r, c.blocked)
			}
		})
	}
	t.Run("payload on stdin", func(t *testing.T) {
		run(t, plugin, "allow", BeforeTool, "bash", bash)
		b, _ := os.ReadFile(filepath.Join(dir, "payload.json"))
		var p map[string]any
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("payload %s: %v", b, err)
		}
		want := map[string]any{"hook_event_name": BeforeTool, "tool": "bash", "sessionID": "ses_1", "callID": "call_1", "cwd": project,
			"args": map[string]any{"command": "rm -rf build", "description": "clean"}}
		if !jsonEqual(p, want) {
			t.Errorf("payload %s, want %v", b, want)
		}
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		if strings.TrimSpace(string(calls)) != "guard bash --fail-closed" {
			t.Errorf("for bash the plugin ran %q, want the shell guard only (the edit guard's matcher is edit|write)", calls)
		}
	})
	t.Run("rewrite changes the arguments in place", func(t *testing.T) {
		r := run(t, plugin, "rewrite", BeforeTool, "bash", bash)
		if !r.OK || !r.Same || r.Args["command"] != "echo safe" || r.Args["description"] != nil {
			t.Errorf("got %+v", r)
		}
	})
	t.Run("matcher skips other tools", func(t *testing.T) {
		r := run(t, plugin, "deny2", BeforeTool, "read", `{"filePath":"a"}`)
		if !r.OK {
			t.Errorf("read was blocked by entries for bash and edit|write: %s", r.Error)
		}
		if r := run(t, plugin, "deny2", BeforeTool, "write", `{"filePath":"a","content":"x"}`); r.OK {
			t.Error("write went past the edit guard's entry")
		}
	})
	t.Run("an entry of agenthooks-guard runs it", func(t *testing.T) {
		guardBin := filepath.Join(dir, "agenthooks-guard")
		if err := os.WriteFile(guardBin, []byte(strings.Replace(fake, `echo "$@"`, `echo "agenthooks-guard $@"`, 1)), 0o755); err != nil {
			t.Fatal(err)
		}
		withGuard := append([]dialect.InstallEntry(nil), entries...)
		withGuard[0].Guard, withGuard[0].GuardPath = guardBin, guardBin
		p := filepath.Join(dir, "guard.mjs")
		if err := os.WriteFile(p, Plugin(prog, prog, withGuard), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := run(t, p, "deny2", BeforeTool, "bash", bash); r.OK || !strings.Contains(r.Error, "no way") {
			t.Errorf("got %+v, want agenthooks-guard's block", r)
		}
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		if strings.TrimSpace(string(calls)) != "agenthooks-guard bash --fail-closed" {
			t.Errorf("for bash the plugin ran %q, want agenthooks-guard bash --fail-closed", calls)
		}
		if err := os.Remove(guardBin); err != nil {
			t.Fatal(err)
		}
		if r := run(t, p, "allow", BeforeTool, "bash", bash); r.OK || !strings.Contains(r.Error, "could not be run ("+guardBin+")") {
			t.Errorf("a missing agenthooks-guard: got %+v, want a throw naming it", r)
		}
	})
	t.Run("after: context added, failure changes nothing", func(t *testing.T) {
		if r := run(t, plugin, "context", AfterTool, "bash", bash); !r.OK || r.Output != "out\n\nremember this" {
			t.Errorf("got %+v", r)
		}
		if r := run(t, missing, "allow", AfterTool, "bash", bash); !r.OK || r.Output != "out" {
			t.Errorf("a failure after the tool ran changed its result: %+v", r)
		}
	})
}

// TestPluginRunnerFailsClosed: the runner's entry as install writes it (Agent.InstallEntries) on
// tool.execute.before, for a tool no guard matches: when agenthooks is missing, crashes or
// outlives the plugin's timeout, the plugin throws, so OpenCode does not run the call past the
// deny hooks the runner would have run; on tool.execute.after a failure changes nothing.
func TestPluginRunnerFailsClosed(t *testing.T) {
	node, dir, prog, h := nodeHarness(t, harness)
	entries := Agent.InstallEntries("guard bash --fail-closed")
	const runner = "run --agent opencode --fail-closed tool.execute.before"
	if !slices.ContainsFunc(entries, func(en dialect.InstallEntry) bool { return en.Event == BeforeTool && en.Args == runner }) {
		t.Fatalf("install writes no %q entry: %+v", runner, entries)
	}
	write := func(name, program string) string {
		p := filepath.Join(dir, name)
		src := strings.Replace(string(Plugin(program, program, entries)), `"timeout": 60,`, `"timeout": 1,`, 1)
		if !strings.Contains(src, `"timeout": 1,`) {
			t.Fatal("the plugin's timeout setting moved")
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plugin, missing := write("agenthooks.mjs", prog), write("missing.mjs", filepath.Join(dir, "nowhere", "agenthooks"))
	run := func(t *testing.T, plugin, mode, event string) pluginResult {
		t.Helper()
		_ = os.Remove(filepath.Join(dir, "calls"))
		cmd := exec.Command(node, h, plugin, t.TempDir(), event, "read", `{"filePath":"a"}`)
		cmd.Env = append(os.Environ(), "FAKE_MODE="+mode, "FAKE_DIR="+dir)
		out, err := cmd.CombinedOutput()
		var r pluginResult
		if err != nil || json.Unmarshal(out, &r) != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		return r
	}
	for _, c := range []struct {
		name, plugin, mode, blocked string
	}{
		{"silence allows", plugin, "allow", ""},
		{"a missing agenthooks blocks", missing, "allow", "fails closed): agenthooks could not be run"},
		{"a crash blocks", plugin, "crash", "fails closed): agenthooks " + runner + " exited with status 1: it broke"},
		{"a timeout blocks", plugin, "hang", "fails closed): agenthooks " + runner + " did not answer within 1 s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.plugin, c.mode, BeforeTool)
			switch {
			case c.blocked == "" && !r.OK:
				t.Errorf("blocked: %s", r.Error)
			case c.blocked != "" && (r.OK || !strings.Contains(r.Error, c.blocked)):
				t.Errorf("got %+v, want a throw with %q", r, c.blocked)
			}
			if calls, _ := os.ReadFile(filepath.Join(dir, "calls")); c.plugin == plugin && strings.TrimSpace(string(calls)) != runner {
				t.Errorf("for read the plugin ran %q, want the runner only", calls)
			}
		})
	}
	t.Run("after: a failure changes nothing", func(t *testing.T) {
		for _, p := range []string{missing, plugin} {
			if r := run(t, p, "crash", AfterTool); !r.OK {
				t.Errorf("%s: a failure after the tool ran threw: %s", filepath.Base(p), r.Error)
			}
		}
	})
}

// nodeHarness is what a test of the generated plugin under Node needs: node (else the test is
// skipped), a folder dir holding the fake agenthooks prog (a shell script, so not on Windows)
// and the harness h written from src.
func nodeHarness(t *testing.T, src string) (node, dir, prog, h string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the generated plugin's JavaScript is not run")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fake agenthooks is a shell script")
	}
	dir = t.TempDir()
	prog = filepath.Join(dir, "agenthooks")
	if err := os.WriteFile(prog, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	h = filepath.Join(dir, "harness.mjs")
	if err := os.WriteFile(h, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return node, dir, prog, h
}
