package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// chatToolsModel is chatModel with the steps of the tool scenarios, for the Cline CLI and Crush:
// "call:NAME ARGS" asks for tool NAME with ARGS as it is, and "spawn:STEP" asks for the agent's
// subagent tool (Cline's spawn_agent, Crush's agent) with a task that carries STEP after
// subagentMarker. In a subagent's own conversation (a user message carries subagentMarker) the
// stand-in asks for its STEP, then answers with text. Any other step is chatModel's.
func chatToolsModel(m *model) http.HandlerFunc {
	plain := chatModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/download" { // what Crush's download tool fetches
			_, _ = w.Write([]byte("downloaded\n"))
			return
		}
		body := m.peek(r)
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			plain(w, r)
			return
		}
		var req struct {
			Model    string           `json:"model"`
			Stream   bool             `json:"stream"`
			Messages []map[string]any `json:"messages"`
			Tools    []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(body, &req)
		var tools []string
		for _, t := range req.Tools {
			tools = append(tools, t.Function.Name)
		}
		step, task := 0, ""
		for _, msg := range req.Messages {
			if msg["role"] == "tool" {
				step++
			}
			if msg["role"] == "user" && task == "" {
				if _, after, ok := strings.Cut(messageText(msg), subagentMarker); ok {
					task, _, _ = strings.Cut(after, "\n")
				}
			}
		}
		cmd := ""
		switch {
		case len(tools) == 0:
		case task != "":
			if step == 0 {
				cmd = strings.TrimSpace(task)
			}
		case step < len(m.commands):
			cmd = m.commands[step]
		}
		if sub, ok := strings.CutPrefix(cmd, "spawn:"); ok {
			cmd = spawnCall(tools, subagentMarker+sub+"\n")
		}
		var call map[string]any
		if cmd != "" {
			name, args, ok := scriptedCall(cmd)
			if !ok {
				name, args = chatToolCall(tools, cmd)
			}
			b, _ := json.Marshal(args)
			call = map[string]any{"index": 0, "id": fmt.Sprintf("call_%02d", step), "type": "function",
				"function": map[string]any{"name": name, "arguments": string(b)}}
		}
		m.record(r)
		chatReply(w, req.Model, req.Stream, step, call)
	}
}

// spawnCall is the call: step that starts the agent's subagent (among tools) with task.
func spawnCall(tools []string, task string) string {
	var b []byte
	name := "agent" // Crush's
	if slices.Contains(tools, "spawn_agent") {
		name = "spawn_agent" // the Cline CLI's
		b, _ = json.Marshal(map[string]any{"systemPrompt": "You run one command.", "task": task})
	} else {
		b, _ = json.Marshal(map[string]any{"prompt": task})
	}
	return "call:" + name + " " + string(b)
}

// toolStep is the call: step that asks for tool with args.
func toolStep(tool string, args map[string]any) string {
	b, _ := json.Marshal(args)
	return "call:" + tool + " " + string(b)
}

// subagentTools are the tools offered in the requests of a subagent's own conversation (a user
// message carries subagentMarker), sorted; nil when no subagent asked the model.
func subagentTools(m *model) []string {
	seen := map[string]bool{}
	for _, r := range m.sent() {
		_, body, _ := strings.Cut(r, "\n")
		var req struct {
			Messages []map[string]any `json:"messages"`
			Tools    []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		if json.Unmarshal([]byte(body), &req) != nil {
			continue
		}
		sub := false
		for _, msg := range req.Messages {
			if msg["role"] == "user" && strings.Contains(messageText(msg), subagentMarker) {
				sub = true
			}
		}
		if sub {
			for _, t := range req.Tools {
				seen[t.Function.Name] = true
			}
		}
	}
	var out []string
	for name := range seen {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// auditTools are the tool names of the audit trail's records of agent on event, one per record.
func auditTools(t testing.TB, ws workspace, agent, event string) []string {
	t.Helper()
	log := ws.agenthooks(t, "log", "--json", "--audit", ws.audit, "--agent", agent, "--event", event)
	var out []string
	for _, line := range strings.Split(log, "\n") {
		var r struct{ Payload string }
		if json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		var p struct {
			ToolName string `json:"tool_name"`
		}
		_ = json.Unmarshal([]byte(r.Payload), &p)
		out = append(out, p.ToolName)
	}
	return out
}

// newCrushWith is newCrush with another model stand-in.
func newCrushWith(t testing.TB, handler func(*model) http.HandlerFunc, commands ...string) *crushRun {
	c := &crushRun{newAgentRun(t, crushBinary(t), handler, commands)}
	c.config(t, nil)
	return c
}

// userConfig is the user's crush.json config() wrote.
func (c *crushRun) userConfig() string {
	return filepath.Join(c.ws.home, ".config", "crush", "crush.json")
}

// addMCPServer adds the e2e MCP server to the user's crush.json.
func (c *crushRun) addMCPServer(t testing.TB) {
	var cfg map[string]any
	if err := json.Unmarshal([]byte(readFile(c.userConfig())), &cfg); err != nil {
		t.Fatal(err)
	}
	server := mcpServerConfig(t, c.ws.dir)
	server["type"] = "stdio"
	cfg["mcp"] = map[string]any{mcpServer: server}
	writeJSONFile(t, c.userConfig(), cfg)
}

// TestCrushSubagentUnhooked shows what Crush (built from 37f36e9, after v0.90.0) does with its
// sub-agent, the agent tool: the call that starts it fires PreToolUse, the sub-agent's own calls
// fire none (coordinator.buildTools wraps only the top-level agent's tools), and the sub-agent has
// only read-only tools (view, glob, grep, ls, sourcegraph, LSP lookups): no bash, no file tool,
// so the rm -rf .git it asks for finds no tool and the canary survives without any guard. With
// the hooks agenthooks install registers, the audit trail has the agent call and not the
// sub-agent's view. dialect/crush's Unhooked says so and status prints it; when this test
// fails, Crush changed its sub-agent: revisit the field and docs/agents/tools.md.
func TestCrushSubagentUnhooked(t *testing.T) {
	c := newCrushWith(t, chatToolsModel)
	notes := filepath.Join(c.ws.dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("read by the sub-agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.model.commands = []string{
		"spawn:" + toolStep("bash", map[string]any{"command": "rm -rf .git", "description": "remove"}),
		"spawn:" + toolStep("view", map[string]any{"file_path": notes}),
	}
	canary := writeCanary(t, c.ws)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "crush")
	c.exec(t, "please run it")
	tools := subagentTools(c.model)
	if !slices.Contains(tools, "view") {
		t.Fatalf("no sub-agent asked the model for its steps (the stand-in's script is broken); it offered %v; requests:\n%s", tools, strings.Join(c.model.sent(), "\n---\n"))
	}
	for _, tool := range tools {
		if !slices.Contains([]string{"glob", "grep", "ls", "lsp_call_hierarchy", "lsp_definition", "lsp_symbols", "sourcegraph", "view"}, tool) {
			t.Errorf("Crush's sub-agent is offered %s, beyond its read-only tools %v: its calls fire no hook, so revisit dialect/crush's Unhooked", tool, tools)
		}
	}
	if readFile(canary) != "alive\n" {
		t.Error("the sub-agent's rm -rf .git ran inside Crush")
	}
	if !c.model.anySent("read by the sub-agent") {
		t.Error("the sub-agent's view of notes.txt did not run: the stand-in's script is broken")
	}
	got := auditTools(t, c.ws, "crush", "PreToolUse")
	if n := len(slices.DeleteFunc(slices.Clone(got), func(s string) bool { return s != "agent" })); n != 2 {
		t.Errorf("the audit trail has %d PreToolUse of the agent tool, want 2 (the calls that start the sub-agents are hooked): %v", n, got)
	}
	if slices.Contains(got, "Read") || slices.Contains(got, "view") || slices.Contains(got, "Bash") || slices.Contains(got, "bash") {
		t.Errorf("a sub-agent's call fired PreToolUse: Crush hooks its sub-agent now; clear dialect/crush's Unhooked: %v", got)
	}
	status := c.ws.agenthooksEnv(t, c.env(), "status", "--audit", c.ws.audit)
	if !strings.Contains(status, "note: Crush fires no hook for a sub-agent's calls") {
		t.Errorf("status does not say that Crush fires no hook for a sub-agent's calls:\n%s", status)
	}
}

// TestCrushFileToolsGuard: in Crush (built from 37f36e9), with the guards agenthooks install
// registers, each of its tools that changes a file (write, edit, multiedit, download,
// lsp_replace_symbol) is refused on the user's crush.json, which holds the guard (the file is
// unchanged, the model is told a person must do it, the audit has a deny each), and write, edit,
// multiedit and download on ordinary files run. (bash is TestCrushShellGuard's; lsp_rename
// names a folder, not its files: see docs/agents/crush.md.)
func TestCrushFileToolsGuard(t *testing.T) {
	c := newCrushWith(t, chatToolsModel)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "crush")
	cfg := c.userConfig()
	before := readFile(cfg)
	if !strings.Contains(before, "download") {
		t.Fatalf("install did not register the guard on download:\n%s", before)
	}
	notes := filepath.Join(c.ws.dir, "notes.txt")
	fetched := filepath.Join(c.ws.dir, "fetched.txt")
	c.model.commands = []string{
		toolStep("write", map[string]any{"file_path": cfg, "content": "{}"}),
		toolStep("edit", map[string]any{"file_path": cfg, "old_string": "PreToolUse", "new_string": "PostToolUse"}),
		toolStep("multiedit", map[string]any{"file_path": cfg, "edits": []any{map[string]any{"old_string": "PreToolUse", "new_string": "PostToolUse"}}}),
		toolStep("download", map[string]any{"url": c.url + "/download", "file_path": cfg}),
		toolStep("lsp_replace_symbol", map[string]any{"symbol": "hooks", "file_path": cfg, "replacement": "{}"}),
		toolStep("write", map[string]any{"file_path": notes, "content": "hello\n"}),
		toolStep("view", map[string]any{"file_path": notes}),
		toolStep("edit", map[string]any{"file_path": notes, "old_string": "hello", "new_string": "bye"}),
		toolStep("multiedit", map[string]any{"file_path": notes, "edits": []any{map[string]any{"old_string": "bye", "new_string": "ciao"}}}),
		toolStep("download", map[string]any{"url": c.url + "/download", "file_path": fetched}),
	}
	c.exec(t, "please edit")
	if after := readFile(cfg); after != before {
		t.Errorf("a file tool changed %s inside Crush:\n%s", cfg, after)
	}
	if got := readFile(notes); got != "ciao\n" {
		t.Errorf("write, edit and multiedit on an ordinary file left %q, want %q; requests:\n%s", got, "ciao\n", strings.Join(c.model.sent(), "\n---\n"))
	}
	if got := readFile(fetched); got != "downloaded\n" {
		t.Errorf("download to an ordinary file left %q", got)
	}
	if !c.model.anySent("a person must make this change outside the agent") {
		t.Errorf("the model never saw why the file tools were refused; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "crush", "--event", "PreToolUse")
	if n := strings.Count(log, "deny"); n != 5 {
		t.Errorf("the audit trail has %d denies, want 5 (write, edit, multiedit, download, lsp_replace_symbol):\n%s", n, log)
	}
}

// TestCrushMCPGuard: in Crush, guard mcp on PreToolUse for its MCP tools (mcp_<server>_<tool>)
// denies the MCP tool its policy denies and lets the one it allows run. Crush's name does not
// say where the server's name ends (mcp_e2edb_list_tables could be server e2edb_list's tool
// tables), so the guard judges every reading and the strictest stands: under mcpPolicy's
// default (ask) the reading no rule names would refuse list_tables, so this policy's default
// is allow.
func TestCrushMCPGuard(t *testing.T) {
	c := newCrushWith(t, chatToolsModel, "call:mcp_e2edb_drop_table {}", "call:mcp_e2edb_list_tables {}")
	pol := filepath.Join(c.ws.home, "mcp-policy.yaml")
	if err := os.WriteFile(pol, []byte(strings.Replace(mcpPolicy, "default: ask", "default: allow", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.config(t, map[string]any{"PreToolUse": []any{crushHook("^mcp_", "agenthooks guard mcp --policy "+pol)}})
	c.addMCPServer(t)
	c.exec(t, "please run it")
	checkMCPGuard(t, "Crush", c.agentRun)
}

// newClineWith is newCline with another model stand-in, and model as the model's id: Cline
// 3.0.65 gives a model whose id names gpt or codex apply_patch in place of its editor tool.
func newClineWith(t testing.TB, handler func(*model) http.HandlerFunc, modelID string, commands ...string) *clineRun {
	c := &clineRun{newAgentRun(t, installAgent(t, "cline", clineVersion, "cline"), handler, commands)}
	c.ws.run(t, c.env(), c.bin, "auth", "-p", "openai-compatible", "-k", "sk-test", "-m", modelID, "-b", c.url+"/v1")
	return c
}

// TestClineSubagentGuard: in the Cline CLI 3.0.65, with the wrappers agenthooks install writes,
// a subagent (spawn_agent) running rm -rf .git is stopped inside the subagent: the canary in .git
// survives, Cline logs the guard's reason, and the audit's deny carries the subagent's own
// agent_id and its parent's; another subagent's ordinary command runs, in the next task (a
// cancel ends Cline's whole run).
func TestClineSubagentGuard(t *testing.T) {
	c := newClineWith(t, chatToolsModel, "gpt-4.1", "spawn:rm -rf .git")
	canary := writeCanary(t, c.ws)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "cline")
	c.exec(t, "please run it")
	if tools := subagentTools(c.model); !slices.Contains(tools, "run_commands") {
		t.Fatalf("no subagent asked the model for its command (the stand-in's script is broken); requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if readFile(canary) != "alive\n" {
		t.Error("the subagent's rm -rf .git ran inside Cline: the guard did not see the subagent's call")
	}
	if !strings.Contains(c.stopReason(t), "Blocked by agenthooks") {
		t.Errorf("Cline's log does not carry the guard's reason:\n%s", c.stopReason(t))
	}
	c.script("spawn:echo sub > sub.txt")
	c.exec(t, "please run it")
	if !c.ws.exists("sub.txt") {
		t.Errorf("the subagent's ordinary command did not run inside Cline; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	checkSubagentDeny(t, c.ws, "cline", "PreToolUse", "rm -rf .git", true)
	log := c.ws.agenthooks(t, "log", "--json", "--audit", c.ws.audit, "--agent", "cline", "--event", "PreToolUse")
	if !strings.Contains(log, `\"parent_agent_id\":\"`) {
		t.Errorf("no PreToolUse in the audit names a parent agent (a subagent's call):\n%s", log)
	}
}

// TestClineFileToolsGuard: in the Cline CLI 3.0.65, with the wrappers agenthooks install writes,
// each of its file tools is refused on a hook file: apply_patch (the tool Cline gives a gpt
// model) adding the project's .clinerules/hooks/PreToolUse, and editor (any other model's)
// creating it and rewriting the user's wrapper in ~/Documents/Cline/Hooks. Neither file changes
// and Cline logs the guard's reason (a cancel ends the task: the model does not read it); the
// same tools on an ordinary file run, in the next task.
func TestClineFileToolsGuard(t *testing.T) {
	patch := func(header, body string) string {
		return toolStep("apply_patch", map[string]any{"input": "*** Begin Patch\n" + header + "\n" + body + "\n*** End Patch\n"})
	}
	check := func(c *clineRun, refused []string, files map[string]string, ordinary []string, want map[string]string) {
		t.Helper()
		for _, step := range refused {
			c.script(step)
			c.exec(t, "please edit")
		}
		for f, before := range files {
			if after := readFile(f); after != before {
				t.Errorf("a file tool changed %s inside Cline:\n%s", f, after)
			}
		}
		if n := strings.Count(c.stopReason(t), "a person must make this change outside the agent"); n != len(refused) {
			t.Errorf("Cline logged the guard's reason %d times, want %d:\n%s", n, len(refused), c.stopReason(t))
		}
		c.script(ordinary...)
		c.exec(t, "please edit")
		for f, content := range want {
			if got := readFile(f); got != content {
				t.Errorf("the file tools left %q in %s, want %q; requests:\n%s", got, f, content, strings.Join(c.model.sent(), "\n---\n"))
			}
		}
	}

	c := newClineWith(t, chatToolsModel, "gpt-4.1")
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "cline")
	project := filepath.Join(c.ws.dir, ".clinerules", "hooks", "PreToolUse")
	notes := filepath.Join(c.ws.dir, "notes.txt")
	check(c, []string{patch("*** Add File: "+project, "+#!/bin/sh")}, map[string]string{project: ""},
		[]string{patch("*** Add File: "+notes, "+hello"), patch("*** Update File: "+notes, "@@\n-hello\n+bye")},
		map[string]string{notes: "bye"}) // Cline's apply_patch ends the file without a newline

	c = newClineWith(t, chatToolsModel, "e2e-model")
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "cline")
	project = filepath.Join(c.ws.dir, ".clinerules", "hooks", "PreToolUse")
	user := filepath.Join(c.ws.home, "Documents", "Cline", "Hooks", "PreToolUse")
	wrapper := readFile(user)
	if wrapper == "" {
		t.Fatalf("install wrote no wrapper at %s", user)
	}
	notes = filepath.Join(c.ws.dir, "notes.txt")
	check(c, []string{
		toolStep("editor", map[string]any{"path": project, "new_text": "#!/bin/sh\n"}),
		toolStep("editor", map[string]any{"path": user, "old_text": "agenthooks", "new_text": "true"}),
	}, map[string]string{project: "", user: wrapper},
		[]string{toolStep("editor", map[string]any{"path": notes, "new_text": "hello\n"}),
			toolStep("editor", map[string]any{"path": notes, "old_text": "hello", "new_text": "bye"})},
		map[string]string{notes: "bye\n"})
}

// TestClineMCPGuard: in the Cline CLI 3.0.65, which offers an MCP server's tools to the model as
// <server>__<tool>, guard mcp in a PreToolUse hook file stops the MCP tool its policy denies
// (the server never runs it; Cline logs why) and lets the one it allows run, in the next task.
func TestClineMCPGuard(t *testing.T) {
	c := newClineWith(t, chatToolsModel, "gpt-4.1", "call:e2edb__drop_table {}")
	writeJSONFile(t, filepath.Join(c.ws.home, ".cline", "data", "settings", "cline_mcp_settings.json"),
		map[string]any{"mcpServers": map[string]any{mcpServer: mcpServerConfig(t, c.ws.dir)}})
	pol := writeMCPPolicy(t, c.ws.home)
	c.hookFile(t, "PreToolUse", "exec agenthooks guard mcp --policy "+pol)
	c.exec(t, "please run it")
	c.script("call:e2edb__list_tables {}")
	c.exec(t, "please run it")
	if c.ws.exists("drop_table.txt") {
		t.Errorf("the MCP tool the policy denies ran inside Cline: the guard did not see the MCP call; audit:\n%s",
			c.ws.agenthooks(t, "log", "--json", "--audit", c.ws.audit))
	}
	if !c.ws.exists("list_tables.txt") {
		t.Errorf("the MCP tool the policy allows did not run inside Cline; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !strings.Contains(c.stopReason(t), "dropping tables needs a person") {
		t.Errorf("Cline's log does not carry why the MCP call was stopped:\n%s", c.stopReason(t))
	}
}

// TestClineTeammateGuard: the Cline CLI 3.0.65's other way to delegate, agent teams: a teammate
// (team_spawn_teammate, then team_run_task) running rm -rf .git is stopped inside the teammate,
// as a subagent's call is: the canary survives and Cline logs the guard's reason; another
// teammate's ordinary command runs, in the next task.
func TestClineTeammateGuard(t *testing.T) {
	team := func(command string) []string {
		return []string{toolStep("team_spawn_teammate", map[string]any{"agentId": "mate", "rolePrompt": "You run one command."}),
			toolStep("team_run_task", map[string]any{"agentId": "mate", "task": subagentMarker + command + "\n", "runMode": "sync"})}
	}
	c := newClineWith(t, chatToolsModel, "gpt-4.1", team("rm -rf .git")...)
	canary := writeCanary(t, c.ws)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "cline")
	c.exec(t, "please run it")
	if tools := subagentTools(c.model); !slices.Contains(tools, "run_commands") {
		t.Fatalf("no teammate asked the model for its command (the stand-in's script is broken); requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if readFile(canary) != "alive\n" {
		t.Error("the teammate's rm -rf .git ran inside Cline: the guard did not see the teammate's call")
	}
	if !strings.Contains(c.stopReason(t), "Blocked by agenthooks") {
		t.Errorf("Cline's log does not carry the guard's reason:\n%s", c.stopReason(t))
	}
	c.script(team("echo sub > sub.txt")...)
	c.exec(t, "please run it")
	if !c.ws.exists("sub.txt") {
		t.Errorf("the teammate's ordinary command did not run inside Cline; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	checkSubagentDeny(t, c.ws, "cline", "PreToolUse", "rm -rf .git", true)
}
