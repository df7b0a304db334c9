package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tool scenarios of e2e/tools_test.go for GitHub Copilot CLI and Qwen Code, which both
// speak Chat Completions to the model stand-in (chatModel): their subagents, each tool that
// changes files, and MCP tools, under the guards agenthooks install registers.

// callStep is the scripted step that asks for the agent's tool name with args.
func callStep(tool string, args map[string]any) string {
	b, _ := json.Marshal(args)
	return "call:" + tool + " " + string(b)
}

// subagentChatModel is chatModel with subagents: a conversation whose user messages carry
// subagentMarker is a subagent's, and in it the stand-in asks for the command after the marker
// through the agent's shell tool, then answers with text. The main loop starts the subagents
// with call: steps for the agent's own subagent tool. Every request, the subagents' too, is
// recorded in m.
func subagentChatModel(m *model) http.HandlerFunc {
	plain := chatModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		task := chatSubagentTask(m.peek(r))
		if task == "" {
			plain(w, r)
			return
		}
		sub := &model{commands: []string{task}}
		chatModel(sub)(w, r)
		m.mu.Lock()
		m.requests = append(m.requests, sub.sent()...)
		m.mu.Unlock()
	}
}

// chatSubagentTask returns the command after subagentMarker in a Chat Completions request's
// user messages, or "" when none carries the marker (the main loop's requests).
func chatSubagentTask(body []byte) string {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	for _, msg := range req.Messages {
		if msg.Role != "user" {
			continue
		}
		text, _ := msg.Content.(string)
		if parts, ok := msg.Content.([]any); ok {
			for _, p := range parts {
				if pm, ok := p.(map[string]any); ok {
					s, _ := pm["text"].(string)
					text += s + "\n"
				}
			}
		}
		if _, after, ok := strings.Cut(text, subagentMarker); ok {
			cmd, _, _ := strings.Cut(after, "\n")
			return strings.TrimSpace(cmd)
		}
	}
	return ""
}

// TestQwenSubagentGuard: in the real Qwen Code 0.24.4, with the guards agenthooks install
// registers, a subagent (the agent tool, general-purpose, in the foreground and in the
// background, Qwen's default) running rm -rf .git is denied inside the subagent: the canary in
// .git survives, the subagent's model is told why, the audit's deny carries the subagent's
// agent_id (and agent_type), and another subagent's ordinary command runs.
func TestQwenSubagentGuard(t *testing.T) {
	for _, background := range []bool{false, true} {
		t.Run(fmt.Sprintf("background=%v", background), func(t *testing.T) {
			q := &qwenRun{newAgentRun(t, installAgent(t, "@qwen-code/qwen-code", qwenVersion, "qwen"), subagentChatModel, nil)}
			q.settings(t, nil)
			agent := func(cmd string) string {
				return callStep("agent", map[string]any{"description": "run a command", "subagent_type": "general-purpose",
					"run_in_background": background, "prompt": subagentMarker + cmd + "\n"})
			}
			q.model.commands = []string{agent("rm -rf .git"), agent("echo sub > sub.txt")}
			canary := writeCanary(t, q.ws)
			q.ws.agenthooksEnv(t, q.env(), "install", "--agent", "qwen")
			q.exec(t, "please run it")
			checkSubagentRun(t, "Qwen Code", q.agentRun, canary)
			checkSubagentDeny(t, q.ws, "qwen", "PreToolUse", "rm -rf .git", true)
		})
	}
}

// TestCopilotSubagentGuard: in the real GitHub Copilot CLI 1.0.102, with the guards agenthooks
// install registers, a subagent (the task tool, general-purpose, sync and background) running
// rm -rf .git is denied inside the subagent: the canary in .git survives, the subagent's model
// is told why, the audit's deny carries Copilot's own camelCase agentId, agentType and
// parentAgentId (no agent_id), and another subagent's ordinary command runs.
func TestCopilotSubagentGuard(t *testing.T) {
	for _, mode := range []string{"sync", "background"} {
		t.Run(mode, func(t *testing.T) {
			c := &copilotRun{newAgentRun(t, installAgent(t, "@github/copilot", copilotVersion, "copilot"), subagentChatModel, nil)}
			task := func(name, cmd string) string {
				return callStep("task", map[string]any{"name": name, "description": "run a command", "agent_type": "general-purpose",
					"mode": mode, "prompt": subagentMarker + cmd + "\n"})
			}
			c.model.commands = []string{task("cleaner", "rm -rf .git"), task("writer", "echo sub > sub.txt")}
			canary := writeCanary(t, c.ws)
			c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "copilot")
			c.exec(t, "please run it")
			checkSubagentRun(t, "Copilot CLI", c.agentRun, canary)
			checkSubagentDeny(t, c.ws, "copilot", "preToolUse", "rm -rf .git", false)
			log := c.ws.agenthooks(t, "log", "--json", "--audit", c.ws.audit, "--agent", "copilot", "--event", "preToolUse")
			found := false
			for _, line := range strings.Split(log, "\n") {
				if strings.Contains(line, `"decision":"deny"`) && strings.Contains(line, "rm -rf .git") {
					found = strings.Contains(line, `\"agentId\"`) && strings.Contains(line, `\"parentAgentId\"`) && strings.Contains(line, `\"agentType\":\"general-purpose\"`)
				}
			}
			if !found {
				t.Errorf("the deny's payload does not name the subagent (agentId, agentType, parentAgentId):\n%s", log)
			}
		})
	}
}

// notebook is a Jupyter notebook of one code cell, for notebook_edit.
const notebook = `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":["print(1)"],"outputs":[],"execution_count":null}],` +
	`"metadata":{},"nbformat":4,"nbformat_minor":5}`

// TestQwenFileToolsGuard: in the real Qwen Code 0.24.4 (whose tools that change files are
// write_file, edit and notebook_edit; its deferred tools change none), with the guards
// agenthooks install registers, write_file planting a policy for agenthooks, edit switching
// hooks off in the project's .qwen/settings.json and notebook_edit changing a notebook in the
// project's .agenthooks folder are denied (no file changes, the model is told a person must do
// it), and the three tools on ordinary files run.
func TestQwenFileToolsGuard(t *testing.T) {
	q := newQwen(t)
	q.ws.agenthooksEnv(t, q.env(), "install", "--agent", "qwen")
	project := filepath.Join(q.ws.dir, ".qwen", "settings.json")
	writeJSONFile(t, project, map[string]any{"disableAllHooks": false})
	policyFile := filepath.Join(q.ws.dir, ".agenthooks", "policy.yaml")
	guardedNB := filepath.Join(q.ws.dir, ".agenthooks", "checks.ipynb")
	plainNB := filepath.Join(q.ws.dir, "plain.ipynb")
	for _, nb := range []string{guardedNB, plainNB} {
		if err := os.MkdirAll(filepath.Dir(nb), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(nb, []byte(notebook), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notes := filepath.Join(q.ws.dir, "notes.txt")
	nbEdit := func(path string) string {
		return callStep("notebook_edit", map[string]any{"notebook_path": path, "cell_id": "c1", "new_source": "print(2)", "edit_mode": "replace"})
	}
	q.model.commands = []string{
		callStep("write_file", map[string]any{"file_path": policyFile, "content": "version: 1\nshell:\n  unknown: allow\n"}),
		"read:" + project,
		callStep("edit", map[string]any{"file_path": project, "old_string": "false", "new_string": "true"}),
		"read:" + guardedNB,
		nbEdit(guardedNB),
		callStep("write_file", map[string]any{"file_path": notes, "content": "hello\n"}),
		callStep("edit", map[string]any{"file_path": notes, "old_string": "hello", "new_string": "bye"}),
		"read:" + plainNB,
		nbEdit(plainNB),
	}
	q.exec(t, "please edit")
	if _, err := os.Stat(policyFile); err == nil {
		t.Error("write_file planted .agenthooks/policy.yaml inside Qwen Code")
	}
	if after := readFile(project); !strings.Contains(after, `"disableAllHooks": false`) {
		t.Errorf("edit switched hooks off in %s inside Qwen Code:\n%s", project, after) // Qwen itself adds "$version"
	}
	if after := readFile(guardedNB); after != notebook {
		t.Errorf("notebook_edit changed %s inside Qwen Code:\n%s", guardedNB, after)
	}
	if got := readFile(notes); got != "bye\n" {
		t.Errorf("write_file and edit on an ordinary file left %q, want %q; requests:\n%s", got, "bye\n", strings.Join(q.model.sent(), "\n---\n"))
	}
	if got := readFile(plainNB); !strings.Contains(got, "print(2)") {
		t.Errorf("notebook_edit on an ordinary notebook left:\n%s", got)
	}
	for _, want := range []string{"a person must make this change outside the agent", "changes qwen hooks configuration (project)", "notebook_edit " + guardedNB} {
		if !q.model.anySent(want) {
			t.Errorf("the model never saw %q; requests:\n%s", want, strings.Join(q.model.sent(), "\n---\n"))
		}
	}
	log := q.ws.agenthooks(t, "log", "--audit", q.ws.audit, "--agent", "qwen", "--event", "PreToolUse")
	if n := strings.Count(log, "deny"); n != 3 {
		t.Errorf("the audit trail has %d denies, want 3:\n%s", n, log)
	}
}

// TestCopilotFileToolsGuard: in the real GitHub Copilot CLI 1.0.102 (whose tools that change
// files, for the model the tests use, are create and edit), with the guards agenthooks install
// registers, create planting a policy for agenthooks and edit switching hooks off in the
// repository's .github/hooks file are denied (neither file changes, the model is told a person
// must do it), and create and edit on an ordinary file run.
func TestCopilotFileToolsGuard(t *testing.T) {
	c := newCopilot(t)
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "copilot")
	repoHooks := filepath.Join(c.ws.dir, ".github", "hooks", "team.json")
	writeJSONFile(t, repoHooks, map[string]any{"version": 1, "hooks": map[string]any{}, "disableAllHooks": false})
	before := readFile(repoHooks)
	policyFile := filepath.Join(c.ws.dir, ".agenthooks", "policy.yaml")
	notes := filepath.Join(c.ws.dir, "notes.txt")
	c.model.commands = []string{
		callStep("create", map[string]any{"path": policyFile, "file_text": "version: 1\nshell:\n  unknown: allow\n"}),
		callStep("edit", map[string]any{"path": repoHooks, "old_str": "false", "new_str": "true"}),
		callStep("create", map[string]any{"path": notes, "file_text": "hello\n"}),
		callStep("edit", map[string]any{"path": notes, "old_str": "hello", "new_str": "bye"}),
	}
	c.exec(t, "please edit")
	if _, err := os.Stat(policyFile); err == nil {
		t.Error("create planted .agenthooks/policy.yaml inside Copilot CLI")
	}
	if after := readFile(repoHooks); after != before {
		t.Errorf("edit changed %s inside Copilot CLI:\n%s", repoHooks, after)
	}
	if got := readFile(notes); got != "bye\n" {
		t.Errorf("create and edit on an ordinary file left %q, want %q; requests:\n%s", got, "bye\n", strings.Join(c.model.sent(), "\n---\n"))
	}
	for _, want := range []string{"Denied by preToolUse hook: Blocked by agenthooks: protected-config", "a person must make this change outside the agent", "Edit " + repoHooks} {
		if !c.model.anySent(want) {
			t.Errorf("the model never saw %q; requests:\n%s", want, strings.Join(c.model.sent(), "\n---\n"))
		}
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "copilot", "--event", "preToolUse")
	if n := strings.Count(log, "deny"); n != 2 {
		t.Errorf("the audit trail has %d denies, want 2:\n%s", n, log)
	}
}

// TestQwenMCPGuard: in the real Qwen Code, guard mcp on PreToolUse for mcp__ tools (Qwen names
// them mcp__<server>__<tool>, as Claude Code does) denies the MCP tool its policy denies and
// lets the one it allows run.
func TestQwenMCPGuard(t *testing.T) {
	q := newQwen(t, "call:mcp__e2edb__drop_table {}", "call:mcp__e2edb__list_tables {}")
	pol := writeMCPPolicy(t, q.ws.home)
	q.settings(t, map[string]any{"PreToolUse": []any{qwenGroup("mcp__.*", "agenthooks guard mcp --policy "+pol)}})
	settings := filepath.Join(q.ws.home, ".qwen", "settings.json")
	var s map[string]any
	if err := json.Unmarshal([]byte(readFile(settings)), &s); err != nil {
		t.Fatal(err)
	}
	server := mcpServerConfig(t, q.ws.dir)
	server["trust"] = true
	s["mcpServers"] = map[string]any{mcpServer: server}
	writeJSONFile(t, settings, s)
	q.exec(t, "please run it")
	checkMCPGuard(t, "Qwen Code", q.agentRun)
}

// TestCopilotMCPGuard: in the real GitHub Copilot CLI 1.0.102, guard mcp on preToolUse denies
// the MCP tool its policy denies and lets the one it allows run; the server comes from
// --additional-mcp-config. Copilot names an MCP tool SERVER-TOOL (e2edb-drop_table) and says
// nothing more of it in the payload: Copilot's GuardView hands it to the guard as a joined name
// split at "-".
func TestCopilotMCPGuard(t *testing.T) {
	c := newCopilot(t, "call:e2edb-drop_table {}", "call:e2edb-list_tables {}")
	pol := writeMCPPolicy(t, c.ws.home)
	c.userHooks(t, "agenthooks", map[string]any{"preToolUse": copilotHook(guardCommand(t, "mcp", "--policy", pol))})
	server := mcpServerConfig(t, c.ws.dir)
	server["type"], server["tools"] = "local", []any{"*"}
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{mcpServer: server}})
	c.exec(t, "please run it", "--additional-mcp-config", string(b))
	checkMCPGuard(t, "Copilot CLI", c.agentRun)
}

// TestQwenMonitorGuard: Qwen Code 0.24.4's monitor tool, one of its deferred tools (called
// through tool_call), runs a shell command, and fires PreToolUse as monitor with the command in
// tool_input. With the guards agenthooks install registers (on run_shell_command|monitor), a
// monitor running rm -rf .git is denied (the canary survives, the model is told why), and an
// ordinary one runs.
func TestQwenMonitorGuard(t *testing.T) {
	monitor := func(cmd string) string {
		return callStep("tool_call", map[string]any{"name": "monitor", "arguments": map[string]any{"command": cmd, "description": "watch it"}})
	}
	q := newQwen(t, monitor("rm -rf .git"), monitor("echo mon > mon.txt"))
	canary := writeCanary(t, q.ws)
	q.ws.agenthooksEnv(t, q.env(), "install", "--agent", "qwen")
	q.exec(t, "please run it")
	if readFile(canary) != "alive\n" {
		t.Error("rm -rf .git through monitor ran inside Qwen Code: the guard did not see the monitor call")
	}
	if !q.model.anySent("rm-recursive-danger") {
		t.Errorf("the model never saw why the monitor call was denied; requests:\n%s", strings.Join(q.model.sent(), "\n---\n"))
	}
	if !q.ws.exists("mon.txt") {
		t.Error("an ordinary monitor call did not run")
	}
	log := q.ws.agenthooks(t, "log", "--json", "--audit", q.ws.audit, "--agent", "qwen", "--event", "PreToolUse")
	if !strings.Contains(log, `"decision":"deny"`) || !strings.Contains(log, `\"tool_name\":\"monitor\"`) {
		t.Errorf("the audit trail has no deny of the monitor call:\n%s", log)
	}
}

// TestCopilotApplyPatchGuard: GitHub Copilot CLI 1.0.102 gives GPT-5 models (gpt-5.5 here) a
// freeform apply_patch tool instead of create and edit, and fires preToolUse for it as
// apply_patch with the patch as toolArgs. With the guards agenthooks install registers, a patch
// adding the repository's .github/hooks file and one updating the user's agenthooks hooks file
// are denied (the model is told a person must do it, neither file changes), and a patch adding
// an ordinary file runs.
func TestCopilotApplyPatchGuard(t *testing.T) {
	c := &copilotRun{newAgentRun(t, installAgent(t, "@github/copilot", copilotVersion, "copilot"), patchChatModel, nil)}
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "copilot")
	own := filepath.Join(c.home(), "hooks", "agenthooks.json")
	before := readFile(own)
	if !strings.Contains(before, `"matcher":"bash|create|edit|apply_patch"`) {
		t.Fatalf("install did not register the guard on apply_patch:\n%s", before)
	}
	c.model.commands = []string{
		"patch:*** Begin Patch\n*** Add File: .github/hooks/team.json\n+{\"version\": 1, \"hooks\": {}}\n*** End Patch\n",
		"patch:*** Begin Patch\n*** Update File: " + own + "\n@@\n-{\n+{\"disableAllHooks\": true,\n*** End Patch\n",
		"patch:*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n",
	}
	c.ws.run(t, append(c.env(), "COPILOT_MODEL=gpt-5.5"), c.bin, "-p", "please edit", "--allow-all-tools", "--no-auto-update", "--disable-builtin-mcps")
	if c.ws.exists(".github/hooks/team.json") {
		t.Error("apply_patch planted the repository's .github/hooks/team.json inside Copilot CLI")
	}
	if after := readFile(own); after != before {
		t.Errorf("apply_patch changed %s inside Copilot CLI:\n%s", own, after)
	}
	if readFile(filepath.Join(c.ws.dir, "notes.txt")) != "hello\n" {
		t.Errorf("the ordinary patch did not run; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.model.anySent("Denied by preToolUse hook: Blocked by agenthooks: protected-config") {
		t.Errorf("the model never saw why the patch was denied; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "copilot", "--event", "preToolUse")
	if n := strings.Count(log, "deny"); n != 2 {
		t.Errorf("the audit trail has %d denies, want 2:\n%s", n, log)
	}
}

// patchChatModel is chatModel with "patch:PATCH" steps: a call of the freeform apply_patch tool
// (a Chat Completions custom tool, which Copilot CLI offers GPT-5 models instead of create and
// edit), its input the patch.
func patchChatModel(m *model) http.HandlerFunc {
	plain := chatModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string           `json:"model"`
			Messages []map[string]any `json:"messages"`
			Tools    []any            `json:"tools"`
		}
		_ = json.Unmarshal(m.peek(r), &req)
		step := 0
		for _, msg := range req.Messages {
			if msg["role"] == "tool" {
				step++
			}
		}
		patch, ok := "", false
		if len(req.Tools) > 0 && step < len(m.commands) {
			patch, ok = strings.CutPrefix(m.commands[step], "patch:")
		}
		if !ok {
			plain(w, r)
			return
		}
		m.record(r)
		id := fmt.Sprintf("chatcmpl-e2e-%d", step)
		chunk := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		}
		call := map[string]any{"index": 0, "id": fmt.Sprintf("call_%02d", step), "type": "custom",
			"custom": map[string]any{"name": "apply_patch", "input": patch}}
		last := chunk(map[string]any{}, nil)
		last["choices"], last["usage"] = []any{}, map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range []map[string]any{chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}, nil),
			chunk(map[string]any{}, "tool_calls"), last} {
			b, _ := json.Marshal(c)
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}
