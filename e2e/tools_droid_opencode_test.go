package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/opencode"
)

// Subagents, every file tool and MCP tools inside Factory Droid and OpenCode: whether the
// guards agenthooks install registers see each of their calls.

// checkSubagentSession checks that the audit's deny of a subagent's rm -rf .git carries, in its
// payload's key, the subagent's own session, not that of the main loop's call that started it
// (whose input holds subagentMarker): the payload tells a subagent's call by its session only.
func checkSubagentSession(t testing.TB, ws workspace, agent, event, key string) {
	t.Helper()
	log := ws.agenthooks(t, "log", "--json", "--audit", ws.audit, "--agent", agent, "--event", event)
	var main, sub string
	for _, line := range strings.Split(log, "\n") {
		var r struct{ Decision, Payload string }
		var p map[string]any
		if json.Unmarshal([]byte(line), &r) != nil || json.Unmarshal([]byte(r.Payload), &p) != nil {
			continue
		}
		session, _ := p[key].(string)
		switch {
		case strings.Contains(r.Payload, subagentMarker+"rm -rf .git"):
			main = session
		case r.Decision == "deny" && strings.Contains(r.Payload, "rm -rf .git"):
			sub = session
		}
	}
	if main == "" || sub == "" || main == sub {
		t.Errorf("the subagent's deny has %s %q, the main loop's call %q: want two sessions:\n%s", key, sub, main, log)
	}
}

// call is a call: step for tool with args.
func call(tool string, args map[string]any) string {
	b, _ := json.Marshal(args)
	return "call:" + tool + " " + string(b)
}

// newDroidWith is newDroid with another model stand-in.
func newDroidWith(t testing.TB, handler func(*model) http.HandlerFunc, commands ...string) *droidRun {
	d := &droidRun{newAgentRun(t, installAgent(t, "droid", droidVersion, "droid"), handler, commands)}
	d.settings(t, nil)
	return d
}

// useModel makes Droid's custom model model: Droid 0.215.0 offers a GPT model ApplyPatch as its
// only file tool, and any other model Create and Edit.
func (d *droidRun) useModel(t testing.TB, model string) {
	path := filepath.Join(d.ws.home, ".factory", "settings.json")
	s := readFile(path)
	if !strings.Contains(s, `"gpt-4.1"`) {
		t.Fatalf("no custom model in %s:\n%s", path, s)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(s, `"gpt-4.1"`, `"`+model+`"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// droidAirgap is Droid 0.215.0's air-gapped mode, in which its Task tool runs a subagent with
// no Factory login: without it (or a login) the subagent never starts ("Error running task
// subagent: Could not reach the daemon", its log saying "No access token available").
const droidAirgap = "FACTORY_AIRGAP_ENABLED=true"

// TestDroidSubagentGuard: in the real Factory Droid, with the guards agenthooks install
// registers, a subagent (the Task tool's built-in worker, run in air-gapped mode) running rm
// -rf .git is denied inside the subagent: the canary in .git survives and the subagent's
// model is told why; another subagent, a custom droid of ~/.factory/droids, runs an ordinary
// command, which the hooks see too. Droid sends a subagent's PreToolUse with the fields of any
// other (no agent_id), its session_id the subagent's own session.
func TestDroidSubagentGuard(t *testing.T) {
	task := func(droid, cmd string) string {
		return call("Task", map[string]any{"subagent_type": droid, "description": "run a command", "await": true,
			"prompt": subagentMarker + cmd + "\n"})
	}
	d := newDroidWith(t, subagentChatModel, task("worker", "rm -rf .git"), task("e2e-runner", "echo sub > sub.txt"))
	custom := filepath.Join(d.ws.home, ".factory", "droids", "e2e-runner.md")
	if err := os.MkdirAll(filepath.Dir(custom), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(custom, []byte("---\nname: e2e-runner\ndescription: Runs one command.\nmodel: inherit\n---\nRun the command you are given.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	canary := writeCanary(t, d.ws)
	d.ws.agenthooksEnv(t, d.env(), "install", "--agent", "droid")
	d.ws.run(t, []string{droidAirgap}, d.bin, "exec", "--model", "custom:e2e-0", "--skip-permissions-unsafe", "please run it")
	checkSubagentRun(t, "Factory Droid", d.agentRun, canary)
	checkSubagentDeny(t, d.ws, "droid", "PreToolUse", "rm -rf .git", false)
	checkSubagentSession(t, d.ws, "droid", "PreToolUse", "session_id")
	log := d.ws.agenthooks(t, "log", "--json", "--audit", d.ws.audit, "--agent", "droid", "--event", "PreToolUse")
	seen := false
	for _, line := range strings.Split(log, "\n") {
		var r struct{ Payload string }
		if json.Unmarshal([]byte(line), &r) == nil && strings.Contains(r.Payload, `"tool_name":"Execute"`) &&
			strings.Contains(r.Payload, `"command":"echo sub > sub.txt"`) {
			seen = true
		}
	}
	if !seen {
		t.Errorf("no PreToolUse for the custom droid's Execute:\n%s", log)
	}
}

// TestOpenCodeSubagentGuard: in the real OpenCode, with the plugin agenthooks install writes,
// a subagent (the task tool's general agent) running rm -rf .git is denied inside the
// subagent: the canary in .git survives and the subagent's model is told why, and another
// subagent's ordinary command runs. The payload's sessionID is the subagent's own session.
func TestOpenCodeSubagentGuard(t *testing.T) {
	task := func(cmd string) string {
		return call("task", map[string]any{"subagent_type": "general", "description": "run a command",
			"prompt": subagentMarker + cmd + "\n"})
	}
	o := newOpenCodeWith(t, subagentChatModel, task("rm -rf .git"), task("echo sub > sub.txt"))
	canary := writeCanary(t, o.ws)
	o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	o.exec(t, "please run it")
	checkSubagentRun(t, "OpenCode", o.agentRun, canary)
	checkSubagentDeny(t, o.ws, "opencode", "tool.execute.before", "rm -rf .git", false)
	checkSubagentSession(t, o.ws, "opencode", "tool.execute.before", "sessionID")
}

// checkFileToolsGuard checks a run in which the agent's file tools tried to change each of
// protected (a path to its content before the run) and then wrote notes: no protected file
// changed, notes holds want, the model read why, and the audit trail has one deny a protected
// file under agent's event.
func checkFileToolsGuard(t testing.TB, agent, event string, r agentRun, protected map[string]string, notes, want string) {
	t.Helper()
	for path, before := range protected {
		if after := readFile(path); after != before {
			t.Errorf("a file tool changed %s inside %s:\n%s", path, agent, after)
		}
	}
	if got := readFile(notes); got != want {
		t.Errorf("the file tools on an ordinary file left %q, want %q; requests:\n%s", got, want, strings.Join(r.model.sent(), "\n---\n"))
	}
	if !r.model.anySent("a person must make this change outside the agent") {
		t.Errorf("the model never saw why the file tools were denied inside %s", agent)
	}
	log := r.ws.agenthooks(t, "log", "--audit", r.ws.audit, "--agent", string(agent), "--event", event)
	if n := strings.Count(log, "deny"); n != len(protected) {
		t.Errorf("the audit trail has %d denies, want %d:\n%s", n, len(protected), log)
	}
}

// TestDroidFileToolsGuard: in the real Factory Droid 0.215.0, with the guards agenthooks
// install registers, each of its file tools is denied a change to a hooks file and runs on an
// ordinary one. Droid offers a model Create and Edit, or, when the model is a GPT, ApplyPatch
// instead (no MultiEdit in this version): Create planting the project's .factory/hooks.json and
// Edit switching the shell guard off in ~/.factory/settings.json are denied, as are ApplyPatch
// adding the project's hooks.json and deleting the user's settings.json; Create, Edit and
// ApplyPatch on notes.txt run.
func TestDroidFileToolsGuard(t *testing.T) {
	t.Run("Create and Edit", func(t *testing.T) {
		d := newDroid(t)
		d.useModel(t, "e2e-model")
		d.ws.agenthooksEnv(t, d.env(), "install", "--agent", "droid")
		user := filepath.Join(d.ws.home, ".factory", "settings.json")
		project := filepath.Join(d.ws.dir, ".factory", "hooks.json")
		notes := filepath.Join(d.ws.dir, "notes.txt")
		protected := map[string]string{user: readFile(user), project: ""}
		if !strings.Contains(protected[user], `"matcher": "Execute"`) {
			t.Fatalf("install did not register the shell guard on Execute:\n%s", protected[user])
		}
		d.model.commands = []string{
			call("Create", map[string]any{"file_path": project, "content": `{"PreToolUse": []}`}),
			call("Edit", map[string]any{"file_path": user, "old_str": `"matcher": "Execute"`, "new_str": `"matcher": "None"`}),
			call("Create", map[string]any{"file_path": notes, "content": "hello\n"}),
			call("Edit", map[string]any{"file_path": notes, "old_str": "hello", "new_str": "bye"}),
		}
		d.exec(t, "please edit")
		checkFileToolsGuard(t, "droid", "PreToolUse", d.agentRun, protected, notes, "bye\n")
	})
	t.Run("ApplyPatch", func(t *testing.T) {
		d := newDroid(t)
		d.ws.agenthooksEnv(t, d.env(), "install", "--agent", "droid")
		user := filepath.Join(d.ws.home, ".factory", "settings.json")
		project := filepath.Join(d.ws.dir, ".factory", "hooks.json")
		notes := filepath.Join(d.ws.dir, "notes.txt")
		protected := map[string]string{user: readFile(user), project: ""}
		patch := func(body string) string {
			return call("ApplyPatch", map[string]any{"input": "*** Begin Patch\n" + body + "*** End Patch\n"})
		}
		d.model.commands = []string{
			patch("*** Add File: " + project + "\n+{}\n"),
			patch("*** Delete File: " + user + "\n"),
			patch("*** Add File: " + notes + "\n+hello\n"),
		}
		d.exec(t, "please edit")
		checkFileToolsGuard(t, "droid", "PreToolUse", d.agentRun, protected, notes, "hello\n")
	})
}

// useModel makes OpenCode's model model: OpenCode 1.18.33 offers a GPT-5 model (a name with
// "gpt-" but not "gpt-4" or "oss") apply_patch as its only file tool, and any other model edit
// and write.
func (o *openCodeRun) useModel(t testing.TB, model string) {
	path := filepath.Join(o.ws.home, ".config", "opencode", "opencode.json")
	s := readFile(path)
	if !strings.Contains(s, "gpt-4.1") {
		t.Fatalf("no gpt-4.1 in %s:\n%s", path, s)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(s, "gpt-4.1", model)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenCodeFileToolsGuard extends TestOpenCodeEditGuard (write) to OpenCode 1.18.33's other
// file tools (it has no multiedit or patch): with the plugin agenthooks install writes, edit
// switching the shell guard off in the plugin itself is denied, and so are apply_patch
// planting a plugin in the project's .opencode/plugins and deleting agenthooks' plugin; write,
// edit and apply_patch on notes.txt run.
func TestOpenCodeFileToolsGuard(t *testing.T) {
	t.Run("edit", func(t *testing.T) {
		// The plugin in the project: OpenCode's run refuses to read a file outside it
		// (external_directory), and edits only a file it has read.
		o := newOpenCode(t)
		o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode", "--scope", "project")
		plugin := filepath.Join(o.ws.dir, ".opencode", filepath.FromSlash(opencode.PluginFile))
		notes := filepath.Join(o.ws.dir, "notes.txt")
		protected := map[string]string{plugin: readFile(plugin)}
		if !strings.Contains(protected[plugin], `"matcher":"bash"`) {
			t.Fatalf("install did not register the shell guard on bash:\n%s", protected[plugin])
		}
		o.model.commands = []string{
			"read:" + plugin,
			call("edit", map[string]any{"filePath": plugin, "oldString": `"matcher":"bash"`, "newString": `"matcher":"none"`}),
			"write:" + notes + "=hello",
			call("edit", map[string]any{"filePath": notes, "oldString": "hello", "newString": "bye"}),
		}
		o.exec(t, "please edit")
		checkFileToolsGuard(t, "opencode", opencode.BeforeTool, o.agentRun, protected, notes, "bye")
	})
	t.Run("apply_patch", func(t *testing.T) {
		o := newOpenCode(t)
		o.useModel(t, "gpt-5.5")
		o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
		plugin := filepath.Join(o.ws.home, ".config", "opencode", filepath.FromSlash(opencode.PluginFile))
		planted := filepath.Join(o.ws.dir, ".opencode", "plugins", "x.js")
		notes := filepath.Join(o.ws.dir, "notes.txt")
		protected := map[string]string{plugin: readFile(plugin), planted: ""}
		patch := func(body string) string {
			return call("apply_patch", map[string]any{"patchText": "*** Begin Patch\n" + body + "*** End Patch"})
		}
		o.model.commands = []string{
			patch("*** Add File: " + planted + "\n+export default async () => ({})\n"),
			patch("*** Delete File: " + plugin + "\n"),
			patch("*** Add File: " + notes + "\n+hello\n"),
		}
		o.exec(t, "please edit")
		checkFileToolsGuard(t, "opencode", opencode.BeforeTool, o.agentRun, protected, notes, "hello\n")
	})
}

// TestDroidMCPGuard: in the real Factory Droid, the e2e server in ~/.factory/mcp.json (Droid
// names its tools SERVER___TOOL), guard mcp on PreToolUse for the server's tools denies the
// tool its policy denies and lets the one it allows run.
func TestDroidMCPGuard(t *testing.T) {
	d := newDroid(t, "call:e2edb___drop_table {}", "call:e2edb___list_tables {}")
	pol := writeMCPPolicy(t, d.ws.home)
	d.settings(t, map[string]any{"PreToolUse": []any{group("e2edb___.*", "agenthooks guard mcp --policy "+pol)}})
	writeJSONFile(t, filepath.Join(d.ws.home, ".factory", "mcp.json"), map[string]any{"mcpServers": map[string]any{
		mcpServer: mcpServerConfig(t, d.ws.dir)}})
	d.exec(t, "please run it")
	checkMCPGuard(t, "Factory Droid", d.agentRun)
}

// TestOpenCodeMCPGuard: in the real OpenCode, the e2e server in opencode.json, guard mcp in the
// plugin for the server's tools denies the tool its policy denies and lets the one it allows
// run. OpenCode 1.18.33 names an MCP tool SERVER_TOOL and says nothing more of it, so the guard
// judges each way the name splits (e2edb_list_tables: e2edb's list_tables, or e2edb_list's
// tables) and the strictest answer stands: under mcpPolicy's default (ask, a deny inside
// OpenCode) list_tables would be refused, so this policy's default is allow. drop_table is
// denied by its rule whatever the default.
func TestOpenCodeMCPGuard(t *testing.T) {
	o := newOpenCode(t, "call:e2edb_drop_table {}", "call:e2edb_list_tables {}")
	pol := writeMCPPolicy(t, o.ws.home)
	if err := os.WriteFile(pol, []byte(strings.Replace(mcpPolicy, "default: ask", "default: allow", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	o.plugin(t, filepath.Join(agenthooksDir(t), "agenthooks"), dialect.InstallEntry{Event: opencode.BeforeTool, Matcher: "e2edb_.*",
		Args: "guard mcp --policy " + pol})
	path := filepath.Join(o.ws.home, ".config", "opencode", "opencode.json")
	var cfg map[string]any
	if err := json.Unmarshal([]byte(readFile(path)), &cfg); err != nil {
		t.Fatal(err)
	}
	server := mcpServerConfig(t, o.ws.dir)
	cfg["mcp"] = map[string]any{mcpServer: map[string]any{"type": "local", "command": []any{server["command"]},
		"environment": server["env"], "enabled": true}}
	writeJSONFile(t, path, cfg)
	o.exec(t, "please run it")
	checkMCPGuard(t, "OpenCode", o.agentRun)
}
