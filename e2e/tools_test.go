package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Scripted steps beyond a shell command, for the tool scenarios:
//
//	call:NAME ARGS    the agent's tool NAME with the JSON object ARGS (an MCP tool, write_file)
//	patch:PATCH       Codex's apply_patch, its input the patch
//
// Codex's MCP tools are named "NAMESPACE/NAME" in a call: step (mcp__e2edb/drop_table).
func scriptedCall(step string) (name string, args map[string]any, ok bool) {
	rest, ok := strings.CutPrefix(step, "call:")
	if !ok {
		return "", nil, false
	}
	name, raw, _ := strings.Cut(rest, " ")
	args = map[string]any{}
	if raw != "" {
		_ = json.Unmarshal([]byte(raw), &args)
	}
	return name, args, true
}

// codexToolsModel is codexModel with Codex's other tools: each turn it asks for the next
// scripted step (a shell command through exec_command, apply_patch with patch:, any function
// with call:), counting every kind of tool output as a step done; then it answers with text.
func codexToolsModel(m *model) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.record(r)
		if r.URL.Path != "/v1/responses" {
			http.NotFound(w, r)
			return
		}
		step, _, _ := codexTurn(body)
		cmd := ""
		if step < len(m.commands) {
			cmd = m.commands[step]
		}
		codexReply(w, step, cmd)
	}
}

// codexTurn reads a Responses API request: how many tool outputs it carries, the last one, and
// the text after subagentMarker in its user messages (a subagent's task), if any.
func codexTurn(body []byte) (outputs int, last, task string) {
	var req struct {
		Input []map[string]any `json:"input"`
	}
	_ = json.Unmarshal(body, &req)
	for _, it := range req.Input {
		if typ, _ := it["type"].(string); strings.HasSuffix(typ, "_call_output") {
			outputs++
			last = fmt.Sprint(it["output"])
		}
		if it["role"] == "user" && task == "" {
			b, _ := json.Marshal(it["content"])
			var parts []struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(b, &parts)
			for _, p := range parts {
				if _, after, ok := strings.Cut(p.Text, subagentMarker); ok {
					task, _, _ = strings.Cut(after, "\n")
				}
			}
		}
	}
	return outputs, last, task
}

// codexReply streams the answer to a turn: the call for step's command cmd, or when cmd is ""
// the text "done".
func codexReply(w http.ResponseWriter, step int, cmd string) {
	id := fmt.Sprintf("resp_%d", step)
	callID := fmt.Sprintf("call_%d", step)
	var item map[string]any
	switch {
	case cmd == "":
		item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
	case strings.HasPrefix(cmd, "patch:"):
		item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", step), "call_id": callID,
			"name": "apply_patch", "input": strings.TrimPrefix(cmd, "patch:"), "status": "completed"}
	default:
		name, args, ok := scriptedCall(cmd)
		if !ok {
			name, args = "exec_command", map[string]any{"cmd": cmd}
		}
		b, _ := json.Marshal(args)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", step), "call_id": callID,
			"name": name, "arguments": string(b), "status": "completed"}
		if ns, tool, found := strings.Cut(name, "/"); found {
			item["namespace"], item["name"] = ns, tool
		}
	}
	writeSSE(w,
		map[string]any{"type": "response.created", "response": map[string]any{"id": id, "object": "response", "status": "in_progress", "output": []any{}}},
		map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item},
		map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item},
		map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "object": "response", "status": "completed", "output": []any{},
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}},
	)
}

// geminiToolsModel is geminiModel with call: steps, for Gemini CLI's file and MCP tools.
func geminiToolsModel(m *model) http.HandlerFunc {
	plain := geminiModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.peek(r)
		if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
			plain(w, r)
			return
		}
		var req struct {
			Contents []struct {
				Parts []map[string]any `json:"parts"`
			} `json:"contents"`
		}
		_ = json.Unmarshal(body, &req)
		step := 0
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if _, ok := p["functionResponse"]; ok {
					step++
				}
			}
		}
		if step >= len(m.commands) {
			plain(w, r)
			return
		}
		name, args, ok := scriptedCall(m.commands[step])
		if !ok {
			plain(w, r)
			return
		}
		m.record(r)
		w.Header().Set("Content-Type", "text/event-stream")
		b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"name": name, "args": args}}}},
			"finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}})
		_, _ = w.Write([]byte("data: " + string(b) + "\r\n\r\n"))
	}
}

// readFile returns a file's content, or "" when it cannot be read.
func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// useModel makes Codex ask for model (its tools depend on the model: apply_patch is offered to
// the models Codex knows, such as gpt-5.5, not to an unknown one).
func (c *codexRun) useModel(t testing.TB, model string) {
	path := filepath.Join(c.home(), "config.toml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), `model = "gpt-5-fake"`, fmt.Sprintf("model = %q", model), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCodexApplyPatchGuard: in the real Codex, with the guards agenthooks install registers,
// apply_patch adding the project's .codex/hooks.json and deleting the user's hooks.json is
// denied (neither file changes, and the model is told a person must do it), and a patch adding
// an ordinary file runs.
func TestCodexApplyPatchGuard(t *testing.T) {
	c := newCodexWith(t, codexToolsModel)
	c.useModel(t, "gpt-5.5")
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "codex")
	userHooks := filepath.Join(c.home(), "hooks.json")
	before := readFile(userHooks)
	if !strings.Contains(before, `"apply_patch"`) {
		t.Fatalf("install did not register the guard on apply_patch:\n%s", before)
	}
	c.model.commands = []string{
		"patch:*** Begin Patch\n*** Add File: .codex/hooks.json\n+{\"hooks\": {}}\n*** End Patch\n",
		"patch:*** Begin Patch\n*** Delete File: " + userHooks + "\n*** End Patch\n",
		"patch:*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n",
	}
	c.exec(t, "please edit")
	if c.ws.exists(".codex/hooks.json") {
		t.Error("apply_patch planted the project's .codex/hooks.json inside Codex")
	}
	if after := readFile(userHooks); after != before || after == "" {
		t.Errorf("apply_patch changed %s inside Codex:\n%s", userHooks, after)
	}
	if readFile(filepath.Join(c.ws.dir, "notes.txt")) != "hello\n" {
		t.Errorf("the ordinary patch did not run; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.model.anySent("a person must make this change outside the agent") {
		t.Errorf("the model never saw why the patch was denied; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "codex")
	if n := strings.Count(log, "deny"); n != 2 {
		t.Errorf("the audit trail has %d denies, want 2 (one a patch):\n%s", n, log)
	}
}

// newGeminiWith is newGemini with another model stand-in.
func newGeminiWith(t testing.TB, handler func(*model) http.HandlerFunc, commands ...string) *geminiRun {
	g := &geminiRun{newAgentRun(t, installAgent(t, "@google/gemini-cli", geminiVersion, "gemini"), handler, commands)}
	g.settings(t, nil)
	return g
}

// TestGeminiFileToolsGuard: in the real Gemini CLI, with the guards agenthooks install
// registers, write_file planting a policy for agenthooks and replace switching hooks off in the
// project's .gemini/settings.json are denied (neither file changes, and the model is told a
// person must do it), and write_file and replace on an ordinary file run. (Gemini CLI itself
// refuses its file tools outside the workspace, so the user's settings never reach the hook.)
func TestGeminiFileToolsGuard(t *testing.T) {
	g := newGeminiWith(t, geminiToolsModel)
	g.ws.agenthooks(t, "install", "--agent", "gemini")
	if s := readFile(g.settingsFile()); !strings.Contains(s, "write_file") {
		t.Fatalf("install did not register the guard on write_file:\n%s", s)
	}
	project := filepath.Join(g.ws.dir, ".gemini", "settings.json")
	writeJSONFile(t, project, map[string]any{"hooksConfig": map[string]any{"enabled": true}})
	before := readFile(project)
	policyFile := filepath.Join(g.ws.dir, ".agenthooks", "policy.yaml")
	notes := filepath.Join(g.ws.dir, "notes.txt")
	call := func(tool string, args map[string]any) string {
		b, _ := json.Marshal(args)
		return "call:" + tool + " " + string(b)
	}
	g.model.commands = []string{
		call("write_file", map[string]any{"file_path": policyFile, "content": "version: 1\nshell:\n  unknown: allow\n"}),
		call("replace", map[string]any{"file_path": project, "old_string": "true", "new_string": "false", "instruction": "switch hooks off"}),
		call("write_file", map[string]any{"file_path": notes, "content": "hello\n"}),
		call("replace", map[string]any{"file_path": notes, "old_string": "hello", "new_string": "bye", "instruction": "say bye"}),
	}
	g.exec(t, "please edit")
	if _, err := os.Stat(policyFile); err == nil {
		t.Error("write_file planted .agenthooks/policy.yaml inside Gemini CLI")
	}
	if after := readFile(project); after != before {
		t.Errorf("replace changed %s inside Gemini CLI:\n%s", project, after)
	}
	if got := readFile(notes); got != "bye\n" {
		t.Errorf("write_file and replace on an ordinary file left %q, want %q", got, "bye\n")
	}
	for _, want := range []string{"a person must make this change outside the agent", "changes gemini hooks configuration (project)"} {
		if !g.model.anySent(want) {
			t.Errorf("the model never saw %q; requests:\n%s", want, strings.Join(g.model.sent(), "\n---\n"))
		}
	}
	log := g.ws.agenthooks(t, "log", "--audit", g.ws.audit, "--agent", "gemini", "--event", "BeforeTool")
	if n := strings.Count(log, "deny"); n != 2 {
		t.Errorf("the audit trail has %d denies, want 2:\n%s", n, log)
	}
}

// TestClaudeSubagentGuard: in the real Claude Code, with the guards agenthooks install
// registers, a subagent (the Agent tool) running rm -rf .git is denied inside the subagent: the
// canary in .git survives, the model is told why, the audit's deny carries the subagent's
// agent_id, and another subagent's ordinary command runs.
func TestClaudeSubagentGuard(t *testing.T) {
	c := &claudeRun{newAgentRun(t, installAgent(t, "@anthropic-ai/claude-code", claudeVersion, "claude"), claudeTaskModel,
		[]string{"task:rm -rf .git", "task:echo sub > sub.txt"})}
	canary := writeCanary(t, c.ws)
	c.ws.agenthooks(t, "install", "--agent", "claude")
	c.exec(t, "please run it")
	checkSubagentRun(t, "Claude Code", c.agentRun, canary)
	checkSubagentDeny(t, c.ws, "claude", "PreToolUse", "rm -rf .git", true)
}

// claudeToolsModel is claudeModel with call: steps, for Claude Code's MCP tools.
func claudeToolsModel(m *model) http.HandlerFunc {
	plain := claudeModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.peek(r)
		var req struct {
			Stream   bool             `json:"stream"`
			Tools    []any            `json:"tools"`
			Model    string           `json:"model"`
			Messages []map[string]any `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		step := 0
		for _, msg := range req.Messages {
			if blocks, ok := msg["content"].([]any); ok {
				for _, b := range blocks {
					if bm, ok := b.(map[string]any); ok && bm["type"] == "tool_result" {
						step++
					}
				}
			}
		}
		if !strings.HasSuffix(r.URL.Path, "/v1/messages") || len(req.Tools) == 0 || step >= len(m.commands) {
			plain(w, r)
			return
		}
		name, input, ok := scriptedCall(m.commands[step])
		if !ok {
			plain(w, r)
			return
		}
		m.record(r)
		id := fmt.Sprintf("toolu_%02d", step)
		usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
		if !req.Stream {
			writeJSONResponse(w, map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": req.Model,
				"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}, "stop_reason": "tool_use",
				"stop_sequence": nil, "usage": usage})
			return
		}
		in, _ := json.Marshal(input)
		writeSSE(w,
			map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant",
				"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
			map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}},
			map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}},
			map[string]any{"type": "content_block_stop", "index": 0},
			map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}},
			map[string]any{"type": "message_stop"},
		)
	}
}

// mcpPolicy is a policy whose mcp rules deny the e2e server's drop_table and allow its
// list_tables; writeMCPPolicy writes it into dir and returns its path.
const mcpPolicy = `version: 1
mcp:
  default: ask
  rules:
    - server: e2edb
      tool: drop_table
      decision: deny
      message: dropping tables needs a person
    - server: e2edb
      tool: list_tables
      decision: allow
`

func writeMCPPolicy(t testing.TB, dir string) string {
	p := filepath.Join(dir, "mcp-policy.yaml")
	if err := os.WriteFile(p, []byte(mcpPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// mcpServerConfig is the e2e MCP server's entry in an agent's mcpServers: the test binary,
// leaving its markers in dir.
func mcpServerConfig(t testing.TB, dir string) map[string]any {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"command": self, "args": []any{}, "env": map[string]any{mcpServerEnv: dir}}
}

// checkMCPGuard checks a run that called the e2e server's drop_table, then list_tables, under
// guard mcp with mcpPolicy: the first did not run and the model was told why, the second ran.
func checkMCPGuard(t testing.TB, agent string, r agentRun) {
	t.Helper()
	if r.ws.exists("drop_table.txt") {
		t.Errorf("the MCP tool the policy denies ran inside %s: the guard did not see the MCP call; audit:\n%s", agent,
			r.ws.agenthooks(t, "log", "--json", "--audit", r.ws.audit))
	}
	if !r.ws.exists("list_tables.txt") {
		t.Errorf("the MCP tool the policy allows did not run inside %s; requests:\n%s", agent, strings.Join(r.model.sent(), "\n---\n"))
	}
	if !r.model.anySent("dropping tables needs a person") {
		t.Errorf("the model never saw why the MCP call was denied inside %s", agent)
	}
}

// TestClaudeMCPGuard: in the real Claude Code, guard mcp on PreToolUse for mcp__ tools denies
// the MCP tool its policy denies and lets the one it allows run.
func TestClaudeMCPGuard(t *testing.T) {
	c := &claudeRun{newAgentRun(t, installAgent(t, "@anthropic-ai/claude-code", claudeVersion, "claude"), claudeToolsModel,
		[]string{"call:mcp__e2edb__drop_table {}", "call:mcp__e2edb__list_tables {}"})}
	pol := writeMCPPolicy(t, c.ws.home)
	c.settings(t, map[string]any{"PreToolUse": []any{group("mcp__.*", "agenthooks guard mcp --policy "+pol)}})
	mcpConfig := filepath.Join(c.ws.home, "mcp.json")
	writeJSONFile(t, mcpConfig, map[string]any{"mcpServers": map[string]any{mcpServer: mcpServerConfig(t, c.ws.dir)}})
	c.ws.run(t, c.env(), c.bin, "-p", "please run it", "--output-format", "json", "--permission-mode", "bypassPermissions",
		"--mcp-config", mcpConfig, "--strict-mcp-config")
	checkMCPGuard(t, "Claude Code", c.agentRun)
}

// TestCodexMCPGuard: the same in the real Codex, the server in config.toml.
func TestCodexMCPGuard(t *testing.T) {
	c := newCodexWith(t, codexToolsModel, "call:mcp__e2edb/drop_table {}", "call:mcp__e2edb/list_tables {}")
	pol := writeMCPPolicy(t, c.ws.home)
	c.hooks(t, map[string]any{"PreToolUse": []any{group("mcp__.*", "agenthooks guard mcp --policy "+pol)}})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(c.home(), "config.toml")
	toml := readFile(path) + fmt.Sprintf("[mcp_servers.%s]\ncommand = %q\nenv = { %s = %q }\n", mcpServer, self, mcpServerEnv, c.ws.dir)
	if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	c.exec(t, "please run it")
	checkMCPGuard(t, "Codex", c.agentRun)
}

// TestGeminiMCPGuard: the same in the real Gemini CLI, the server in settings.json, its tools
// named mcp_<server>_<tool>.
func TestGeminiMCPGuard(t *testing.T) {
	g := newGeminiWith(t, geminiToolsModel, "call:mcp_e2edb_drop_table {}", "call:mcp_e2edb_list_tables {}")
	pol := writeMCPPolicy(t, g.ws.home)
	g.settings(t, map[string]any{"BeforeTool": []any{geminiGroup("mcp_.*", "agenthooks guard mcp --policy "+pol)}})
	g.addMCPServer(t)
	g.exec(t, "please run it")
	checkMCPGuard(t, "Gemini CLI", g.agentRun)
}

// codexSubagentModel is codexToolsModel with Codex's subagents (the multi_agent_v1 tools):
// "spawn:COMMAND" spawns a subagent whose task carries the command, and "wait" waits for the
// subagent the step before spawned. In a subagent's own conversation (its task starts with
// subagentMarker) the stand-in asks for the command through exec_command, then answers with
// text.
func codexSubagentModel(m *model) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.record(r)
		if r.URL.Path != "/v1/responses" {
			http.NotFound(w, r)
			return
		}
		step, last, task := codexTurn(body)
		cmd := ""
		switch {
		case task != "": // a subagent: one command, then text
			if step == 0 {
				cmd = strings.TrimSpace(task)
			}
		case step >= len(m.commands):
		case strings.HasPrefix(m.commands[step], "spawn:"):
			b, _ := json.Marshal(map[string]any{"message": subagentMarker + strings.TrimPrefix(m.commands[step], "spawn:") + "\n"})
			cmd = "call:multi_agent_v1/spawn_agent " + string(b)
		case m.commands[step] == "wait":
			var out struct {
				AgentID string `json:"agent_id"`
			}
			_ = json.Unmarshal([]byte(last), &out)
			b, _ := json.Marshal(map[string]any{"targets": []string{out.AgentID}, "timeout_ms": 60000})
			cmd = "call:multi_agent_v1/wait_agent " + string(b)
		default:
			cmd = m.commands[step]
		}
		codexReply(w, step, cmd)
	}
}

// checkSubagentDeny checks the audit trail of a run in which a subagent ran command under the
// installed guard: a deny of it, whose payload carries the subagent's agent_id where the agent
// sends one (Claude Code and Codex do; Gemini CLI 0.61 sends a subagent's calls with the main
// session's fields and nothing more).
func checkSubagentDeny(t testing.TB, ws workspace, agent, event, command string, agentID bool) {
	t.Helper()
	log := ws.agenthooks(t, "log", "--json", "--audit", ws.audit, "--agent", agent, "--event", event)
	denied := false
	for _, line := range strings.Split(log, "\n") {
		var r struct {
			Decision, Payload string
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Decision == "deny" && strings.Contains(r.Payload, command) {
			denied = true
			if has := strings.Contains(r.Payload, `"agent_id"`); has != agentID {
				t.Errorf("the deny's payload has agent_id = %v, want %v:\n%s", has, agentID, r.Payload)
			}
		}
	}
	if !denied {
		t.Errorf("the audit trail has no deny of the subagent's %s:\n%s", command, log)
	}
}

// TestCodexSubagentGuard: in the real Codex, with the guards agenthooks install registers, a
// subagent (multi_agent_v1's spawn_agent) running rm -rf .git is denied inside the subagent:
// the canary in .git survives, the subagent's model is told why, the audit's deny carries the
// subagent's agent_id, and another subagent's ordinary command runs.
func TestCodexSubagentGuard(t *testing.T) {
	c := newCodexWith(t, codexSubagentModel, "spawn:rm -rf .git", "wait", "spawn:echo sub > sub.txt", "wait")
	canary := writeCanary(t, c.ws)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "codex")
	c.exec(t, "please run it")
	checkSubagentRun(t, "Codex", c.agentRun, canary)
	checkSubagentDeny(t, c.ws, "codex", "PreToolUse", "rm -rf .git", true)
}

// writeCanary writes .git/canary in the workspace, for a subagent's rm -rf .git.
func writeCanary(t testing.TB, ws workspace) string {
	canary := filepath.Join(ws.dir, ".git", "canary")
	if err := os.MkdirAll(filepath.Dir(canary), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(canary, []byte("alive\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return canary
}

// checkSubagentRun checks a run of a subagent's rm -rf .git and another's echo sub > sub.txt:
// the canary survived, the model was told why, and the ordinary command ran.
func checkSubagentRun(t testing.TB, agent string, r agentRun, canary string) {
	t.Helper()
	if readFile(canary) != "alive\n" {
		t.Errorf("the subagent's rm -rf .git ran inside %s: the guard did not see the subagent's call", agent)
	}
	if !r.ws.exists("sub.txt") {
		t.Errorf("the subagent's ordinary command did not run inside %s; requests:\n%s", agent, strings.Join(r.model.sent(), "\n---\n"))
	}
	if !r.model.anySent("rm-recursive-danger") {
		t.Errorf("the model never saw why the subagent's command was denied inside %s", agent)
	}
}

// geminiSubagentModel is geminiToolsModel with Gemini CLI's subagents: "agent:COMMAND" asks
// invoke_agent for the generalist subagent with a task carrying the command. In the subagent's
// own conversation (its task starts with subagentMarker) the stand-in asks for the command
// through run_shell_command, then ends the subagent with complete_task.
func geminiSubagentModel(m *model) http.HandlerFunc {
	plain := geminiToolsModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.peek(r)
		if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
			plain(w, r)
			return
		}
		var req struct {
			Contents []struct {
				Role  string           `json:"role"`
				Parts []map[string]any `json:"parts"`
			} `json:"contents"`
		}
		_ = json.Unmarshal(body, &req)
		step, task := 0, ""
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if _, ok := p["functionResponse"]; ok {
					step++
				}
				if text, _ := p["text"].(string); c.Role == "user" && task == "" {
					if _, after, ok := strings.Cut(text, subagentMarker); ok {
						task, _, _ = strings.Cut(after, "\n")
					}
				}
			}
		}
		var call map[string]any
		switch {
		case task != "" && step == 0:
			call = map[string]any{"name": "run_shell_command", "args": map[string]any{"command": strings.TrimSpace(task), "description": "run the command"}}
		case task != "":
			call = map[string]any{"name": "complete_task", "args": map[string]any{"result": map[string]any{"response": "done"}}}
		case step < len(m.commands) && strings.HasPrefix(m.commands[step], "agent:"):
			call = map[string]any{"name": "invoke_agent", "args": map[string]any{"agent_name": "generalist",
				"prompt": subagentMarker + strings.TrimPrefix(m.commands[step], "agent:") + "\n"}}
		default:
			plain(w, r)
			return
		}
		m.record(r)
		w.Header().Set("Content-Type", "text/event-stream")
		b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": call}}},
			"finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}})
		_, _ = w.Write([]byte("data: " + string(b) + "\r\n\r\n"))
	}
}

// TestGeminiSubagentGuard: in the real Gemini CLI, with the guards agenthooks install
// registers, a subagent (invoke_agent, the generalist) running rm -rf .git is denied inside
// the subagent: the canary in .git survives and the subagent's model is told why, and another
// subagent's ordinary command runs.
func TestGeminiSubagentGuard(t *testing.T) {
	g := newGeminiWith(t, geminiSubagentModel, "agent:rm -rf .git", "agent:echo sub > sub.txt")
	canary := writeCanary(t, g.ws)
	g.ws.agenthooks(t, "install", "--agent", "gemini")
	g.exec(t, "please run it")
	checkSubagentRun(t, "Gemini CLI", g.agentRun, canary)
	checkSubagentDeny(t, g.ws, "gemini", "BeforeTool", "rm -rf .git", false)
}

// TestCodexShellApplyPatchGuard: Codex applies a patch itself when the model runs apply_patch
// through its shell tool (as it does for a model offered no apply_patch tool), and its hook sees
// a Bash command. The guard judges the files the patch names: a patch planting the project's
// .codex/hooks.json is denied (the file is not created, the model is told why), an ordinary
// one runs.
func TestCodexShellApplyPatchGuard(t *testing.T) {
	shellPatch := func(header string) string {
		return "apply_patch <<'EOF'\n*** Begin Patch\n" + header + "\n+{}\n*** End Patch\nEOF\n"
	}
	c := newCodexWith(t, codexToolsModel, shellPatch("*** Add File: .codex/hooks.json"), shellPatch("*** Add File: notes.txt"))
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "codex")
	c.exec(t, "please edit")
	if c.ws.exists(".codex/hooks.json") {
		t.Error("apply_patch through the shell tool planted the project's .codex/hooks.json inside Codex")
	}
	if !c.ws.exists("notes.txt") {
		t.Errorf("the ordinary patch through the shell tool did not run; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.model.anySent("changes codex hooks configuration (project)") {
		t.Errorf("the model never saw why the patch was denied")
	}
}

// TestClaudeFileToolsGuard: in the real Claude Code (whose file tools in 2.1.328 are Write and
// Edit; NotebookEdit is deferred behind ToolSearch), with the guards agenthooks install
// registers, Edit switching hooks off in the project's .claude/settings.json is denied (the
// file is unchanged, the model is told why), and Write and Edit on an ordinary file run.
func TestClaudeFileToolsGuard(t *testing.T) {
	c := &claudeRun{newAgentRun(t, installAgent(t, "@anthropic-ai/claude-code", claudeVersion, "claude"), claudeToolsModel, nil)}
	c.ws.agenthooks(t, "install", "--agent", "claude")
	project := filepath.Join(c.ws.dir, ".claude", "settings.json")
	writeJSONFile(t, project, map[string]any{"disableAllHooks": false})
	before := readFile(project)
	notes := filepath.Join(c.ws.dir, "notes.txt")
	edit := func(file, old, new string) string {
		b, _ := json.Marshal(map[string]any{"file_path": file, "old_string": old, "new_string": new})
		return "call:Edit " + string(b)
	}
	c.model.commands = []string{
		"read:" + project, // Claude Code edits only a file it has read
		edit(project, "false", "true"),
		"write:" + notes + "=hello",
		edit(notes, "hello", "bye"),
	}
	c.exec(t, "please edit")
	if after := readFile(project); after != before {
		t.Errorf("Edit changed %s inside Claude Code:\n%s", project, after)
	}
	if got := readFile(notes); got != "bye" {
		t.Errorf("Write and Edit on an ordinary file left %q, want %q; requests:\n%s", got, "bye", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.model.anySent("changes claude hooks configuration (project)") {
		t.Errorf("the model never saw why the Edit was denied")
	}
}

// codexStdinModel asks Codex, through exec_command with a terminal, for an interactive bash,
// then, through write_stdin to the session that call left running, types line into it.
func codexStdinModel(line string) func(m *model) http.HandlerFunc {
	session := regexp.MustCompile(`session ID (\d+)`)
	return func(m *model) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			step, last, _ := codexTurn(m.record(r))
			cmd := ""
			switch step {
			case 0:
				cmd = `call:exec_command {"cmd":"bash","tty":true,"yield_time_ms":500}`
			case 1:
				if id := session.FindStringSubmatch(last); id != nil {
					b, _ := json.Marshal(map[string]any{"session_id": json.Number(id[1]), "chars": line + "\n", "yield_time_ms": 1000})
					cmd = "call:write_stdin " + string(b)
				}
			}
			codexReply(w, step, cmd)
		}
	}
}

// TestCodexWriteStdinUnhooked shows the one tool Codex 0.169 fires no hook for: write_stdin.
// With the guards agenthooks install registers, the model starts an interactive bash through
// exec_command (a PreToolUse the guard allows) and types rm -rf .git into it through
// write_stdin: no hook fires, the command runs and the canary is gone. dialect/codex's
// Unhooked says so and status prints it; when this test fails, Codex hooks write_stdin: clear
// the field and docs/agents/tools.md.
func TestCodexWriteStdinUnhooked(t *testing.T) {
	c := newCodexWith(t, codexStdinModel("touch typed.txt; rm -rf .git"))
	canary := writeCanary(t, c.ws)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "codex")
	c.exec(t, "please run it")
	if !c.ws.exists("typed.txt") {
		t.Fatalf("the line typed through write_stdin did not run: the model stand-in's script is broken; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if readFile(canary) != "" {
		t.Error("rm -rf .git typed through write_stdin did not run: does Codex hook write_stdin now? Then clear dialect/codex's Unhooked and update docs/agents/tools.md")
	}
	log := c.ws.agenthooks(t, "log", "--json", "--audit", c.ws.audit, "--agent", "codex", "--event", "PreToolUse")
	if strings.Contains(log, "typed.txt") {
		t.Errorf("a PreToolUse carried the line typed through write_stdin: Codex hooks write_stdin now; clear dialect/codex's Unhooked:\n%s", log)
	}
	if !strings.Contains(log, `\"command\":\"bash\"`) {
		t.Errorf("no PreToolUse for the exec_command that started bash:\n%s", log)
	}
	status := c.ws.agenthooksEnv(t, c.env(), "status", "--audit", c.ws.audit)
	if !strings.Contains(status, "note: Codex fires no hook for write_stdin") {
		t.Errorf("status does not say that Codex fires no hook for write_stdin:\n%s", status)
	}
}

// TestGeminiRunsClaudeMCPHook: a Claude Code hook on an MCP tool, written with Claude Code's
// name for it (mcp__e2edb__drop_table), runs under Gemini CLI through agenthooks run --agent
// gemini, whose payload names the tool mcp_e2edb_drop_table: the call is blocked and the
// hook's message reaches the model; the server's other tool runs.
func TestGeminiRunsClaudeMCPHook(t *testing.T) {
	g := newGeminiWith(t, geminiToolsModel, "call:mcp_e2edb_drop_table {}", "call:mcp_e2edb_list_tables {}")
	claude := filepath.Join(g.ws.home, "claude-settings.json")
	writeJSONFile(t, claude, map[string]any{"hooks": map[string]any{"PreToolUse": []any{
		group("mcp__e2edb__drop_table", `echo "dropping tables needs a person" >&2; exit 2`)}}})
	g.settings(t, map[string]any{"BeforeTool": []any{geminiGroup("mcp_.*", "agenthooks run --agent gemini BeforeTool --settings "+claude)}})
	g.addMCPServer(t)
	g.exec(t, "please run it")
	checkMCPGuard(t, "Gemini CLI", g.agentRun)
}

// addMCPServer adds the e2e MCP server, trusted, to the user settings settings() wrote.
func (g *geminiRun) addMCPServer(t testing.TB) {
	var s map[string]any
	if err := json.Unmarshal([]byte(readFile(g.settingsFile())), &s); err != nil {
		t.Fatal(err)
	}
	server := mcpServerConfig(t, g.ws.dir)
	server["trust"] = true
	s["mcpServers"] = map[string]any{mcpServer: server}
	writeJSONFile(t, g.settingsFile(), s)
}
