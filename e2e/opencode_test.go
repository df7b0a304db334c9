package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/opencode"
)

const openCodeVersion = "1.18.33"

type openCodeRun struct{ agentRun }

// newOpenCode installs OpenCode and points it at a Chat Completions stand-in on loopback: a
// custom provider in ~/.config/opencode/opencode.json (OpenCode bundles
// @ai-sdk/openai-compatible, so nothing is fetched for it).
func newOpenCode(t testing.TB, commands ...string) *openCodeRun {
	return newOpenCodeWith(t, chatModel, commands...)
}

// newOpenCodeWith is newOpenCode with another model stand-in.
func newOpenCodeWith(t testing.TB, handler func(*model) http.HandlerFunc, commands ...string) *openCodeRun {
	o := &openCodeRun{newAgentRun(t, installAgent(t, "opencode-ai", openCodeVersion, "opencode"), handler, commands)}
	writeJSONFile(t, filepath.Join(o.ws.home, ".config", "opencode", "opencode.json"), map[string]any{
		"$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled", "model": "e2e/gpt-4.1",
		"provider": map[string]any{"e2e": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "e2e",
			"options": map[string]any{"baseURL": o.url + "/v1", "apiKey": "sk-test"},
			"models":  map[string]any{"gpt-4.1": map[string]any{"name": "e2e"}}}},
	})
	return o
}

// env keeps OpenCode offline: it installs @opencode-ai/plugin into each config folder that has
// plugins, in the background; with npm offline that fails at once (a warning in its log) instead
// of waiting on the registry, and the plugin, which imports nothing, loads all the same.
func (o *openCodeRun) env() []string {
	return []string{"npm_config_offline=true", "npm_config_registry=http://127.0.0.1:9/", "OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1"}
}

// exec runs opencode run in the workspace; OpenCode's default permissions let the shell tool
// run without asking, so only the plugin decides.
func (o *openCodeRun) exec(t testing.TB, prompt string) string {
	return o.ws.run(t, o.env(), o.bin, "run", prompt)
}

// plugin writes agenthooks' plugin into ~/.config/opencode/plugin with program and entries, as
// install renders it.
func (o *openCodeRun) plugin(t testing.TB, program string, entries ...dialect.InstallEntry) {
	t.Helper()
	p := filepath.Join(o.ws.home, ".config", "opencode", filepath.FromSlash(opencode.PluginFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, opencode.Plugin(program, program, entries), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenCodeShellGuard: the plugin agenthooks install --agent opencode writes blocks a
// destructive command (it does not run, and the model reads why) and lets an ordinary one run;
// both decisions are in the audit trail under "opencode".
func TestOpenCodeShellGuard(t *testing.T) {
	o := newOpenCode(t, destructive, ordinary)
	out := o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	if !strings.Contains(out, "written with") {
		t.Fatalf("install did not write the plugin:\n%s", out)
	}
	o.exec(t, "please run it")
	checkShellGuard(t, "opencode", o.agentRun, o.env())
}

// TestOpenCodeEditGuard: the edit guard install registers on OpenCode's file tools refuses
// OpenCode's write of agenthooks' own plugin (the agent cannot switch its guard off), and lets a
// write of an ordinary file through.
func TestOpenCodeEditGuard(t *testing.T) {
	o := newOpenCode(t)
	plugin := filepath.Join(o.ws.home, ".config", "opencode", filepath.FromSlash(opencode.PluginFile))
	o.model.commands = []string{"write:" + plugin + "=export {}", "write:" + filepath.Join(o.ws.dir, "notes.txt") + "=hi"}
	o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	before, err := os.ReadFile(plugin)
	if err != nil {
		t.Fatal(err)
	}
	o.exec(t, "please write them")
	if after, _ := os.ReadFile(plugin); string(after) != string(before) {
		t.Errorf("OpenCode's write tool changed agenthooks' plugin:\n%s", after)
	}
	if !o.model.anySent("protected") {
		t.Errorf("no model request carries the edit guard's reason; requests:\n%s", strings.Join(o.model.sent(), "\n---\n"))
	}
	if !o.ws.exists("notes.txt") {
		t.Error("an ordinary write did not happen")
	}
}

// TestOpenCodeConfigGuard: inside OpenCode, the agent cannot add a plugin to the project's
// opencode.json (write tool) nor a dependency to .opencode/package.json (bash), nor plant a
// plugin in the config folder $OPENCODE_CONFIG_DIR names, nor start a nested OpenCode with its
// plugins off: each is refused and the model reads why; an ordinary write goes through.
func TestOpenCodeConfigGuard(t *testing.T) {
	o := newOpenCode(t)
	ocdir := filepath.Join(o.ws.dir, "ocdir") // in the project: OpenCode asks before writing outside it
	o.model.commands = []string{
		"write:" + filepath.Join(o.ws.dir, "opencode.json") + `={"plugin":["opencode-unguard"]}`,
		`echo '{"dependencies":{"opencode-unguard":"1"}}' > .opencode/package.json`,
		"write:" + filepath.Join(ocdir, "plugins", "unguard.js") + "=export default {}",
		`OPENCODE_PURE=1 opencode run hi > pure.txt`,
		"write:" + filepath.Join(o.ws.dir, "notes.txt") + "=hi",
	}
	o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	if err := os.MkdirAll(filepath.Join(o.ws.dir, ".opencode"), 0o755); err != nil { // so that the write could happen
		t.Fatal(err)
	}
	o.ws.run(t, append(o.env(), "OPENCODE_CONFIG_DIR="+ocdir), o.bin, "run", "please do these")
	for _, f := range []string{filepath.Join(o.ws.dir, "opencode.json"), filepath.Join(o.ws.dir, ".opencode", "package.json"),
		filepath.Join(ocdir, "plugins", "unguard.js"), filepath.Join(o.ws.dir, "pure.txt")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("OpenCode wrote %s past the guard", f)
		}
	}
	for _, want := range []string{"protected-config", "agent-env"} {
		if !o.model.anySent(want) {
			t.Errorf("no model request carries %q; requests:\n%s", want, strings.Join(o.model.sent(), "\n---\n"))
		}
	}
	if !o.ws.exists("notes.txt") {
		t.Error("an ordinary write did not happen")
	}
}

// TestOpenCodeRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny run
// on OpenCode's bash tool through agenthooks run --agent opencode, and their messages reach the
// model.
func TestOpenCodeRunsOtherAgentsHooks(t *testing.T) {
	o := newOpenCode(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, o.ws.home)
	o.plugin(t, filepath.Join(agenthooksDir(t), "agenthooks"), dialect.InstallEntry{Event: opencode.BeforeTool,
		Args: "run --agent opencode " + opencode.BeforeTool + " --settings " + claude + " --config " + cursor})
	o.exec(t, "please run it")
	checkForeignHooks(t, "OpenCode", o.ws, o.model)
}

// TestOpenCodeHonoursTheDialect: the deny dialect/opencode writes blocks inside OpenCode and its
// reason reaches the model; a plugin whose agenthooks is missing, or exits 1, blocks too (fails
// closed).
func TestOpenCodeHonoursTheDialect(t *testing.T) {
	dl := opencode.Dialect(dialect.AskAsDeny)
	s, _ := dl.Lookup(opencode.BeforeTool)
	r := dl.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "denied by the opencode dialect"})
	for _, c := range []struct{ name, program, reason string }{
		{"deny", "printf '%s' '" + string(r.Stdout) + "'", "denied by the opencode dialect"},
		{"missing", "", "fails closed"},
		{"crash", `echo "it broke" >&2; exit 1`, "it broke"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOpenCode(t, markerCommand)
			program := filepath.Join(o.ws.home, "no-such-agenthooks")
			if c.program != "" {
				program = writeHookScript(t, o.ws.home, c.name, c.program)
			}
			o.plugin(t, program, dialect.InstallEntry{Event: opencode.BeforeTool, Args: "run --agent opencode " + opencode.BeforeTool})
			o.exec(t, "please run it")
			if o.ws.exists("marker.txt") {
				t.Error("the command ran although the plugin's agenthooks denied or failed")
			}
			if !strings.Contains(lastToolResult(o.model), c.reason) {
				t.Errorf("the model saw %q, want %q in it", lastToolResult(o.model), c.reason)
			}
		})
	}
}

// TestOpenCodePayloads runs OpenCode with a plugin whose program captures its payloads, and
// checks them against the goldens.
func TestOpenCodePayloads(t *testing.T) {
	o := newOpenCode(t, ordinary)
	dir := t.TempDir()
	capture := filepath.Join(o.ws.home, "capture.sh")
	if err := os.WriteFile(capture, []byte("#!/bin/sh\ncat > "+dir+"/$$.json\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var entries []dialect.InstallEntry
	for _, ev := range opencode.Events {
		entries = append(entries, dialect.InstallEntry{Event: ev, Args: "capture"})
	}
	o.plugin(t, capture, entries...)
	o.exec(t, "please run it")
	checkPayloads(t, "opencode", dir, o.ws)
}

// OpenCode in the cost benchmark, the hook on its bash tool as install's plugin runs the guard.
func init() {
	costAgents["opencode"] = func(b *testing.B, hook string) time.Duration {
		o := newOpenCode(b, costCommands()...)
		if hook != "" {
			prog, args, _ := strings.Cut(hook, " ")
			o.plugin(b, prog, dialect.InstallEntry{Event: opencode.BeforeTool, Matcher: "bash", Args: args})
		}
		return timed(func() { o.exec(b, "please run them") })
	}
}
