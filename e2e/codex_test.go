package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

const codexVersion = "0.169.0"

// codexModel speaks OpenAI's Responses API as Codex streams it: each turn it asks for the next
// scripted command through exec_command, then answers with text.
func codexModel(m *model) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.record(r)
		if r.URL.Path != "/v1/responses" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Input []map[string]any `json:"input"`
		}
		_ = json.Unmarshal(body, &req)
		step := 0
		for _, it := range req.Input {
			if it["type"] == "function_call_output" {
				step++
			}
		}
		id := fmt.Sprintf("resp_%d", step)
		var item map[string]any
		if step < len(m.commands) {
			args, _ := json.Marshal(map[string]string{"cmd": m.commands[step]})
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", step), "call_id": fmt.Sprintf("call_%d", step),
				"name": "exec_command", "arguments": string(args), "status": "completed"}
		} else {
			item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
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
}

type codexRun struct{ agentRun }

func newCodex(t testing.TB, commands ...string) *codexRun {
	return newCodexWith(t, codexModel, commands...)
}

// newCodexWith is newCodex with another model stand-in.
func newCodexWith(t testing.TB, handler func(*model) http.HandlerFunc, commands ...string) *codexRun {
	c := &codexRun{newAgentRun(t, installAgent(t, "@openai/codex", codexVersion, "codex"), handler, commands)}
	toml := fmt.Sprintf(`model = "gpt-5-fake"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`, c.url)
	if err := os.MkdirAll(c.home(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.home(), "config.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *codexRun) home() string  { return filepath.Join(c.ws.home, ".codex") }
func (c *codexRun) env() []string { return []string{"CODEX_HOME=" + c.home(), "FAKE_API_KEY=sk-test"} }

func (c *codexRun) hooks(t testing.TB, hooks map[string]any) {
	writeJSONFile(t, filepath.Join(c.home(), "hooks.json"), map[string]any{"hooks": hooks})
}

func (c *codexRun) exec(t testing.TB, prompt string) string {
	return c.ws.run(t, c.env(), c.bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "--json", prompt)
}

func group(matcher string, commands ...string) map[string]any {
	var hs []any
	for _, c := range commands {
		hs = append(hs, map[string]any{"type": "command", "command": c, "timeout": 60})
	}
	g := map[string]any{"hooks": hs}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return g
}

// TestCodexShellGuard: the guard registered by agenthooks install blocks a destructive command
// (it does not run, and the model is told why) and lets an ordinary one run; both decisions are
// in the audit trail and status shows the guard alive.
func TestCodexShellGuard(t *testing.T) {
	c := newCodex(t, destructive, ordinary)
	cmd := c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "codex")
	if !installedGuard.MatchString(cmd) {
		t.Fatalf("install said: %s", cmd)
	}
	c.exec(t, "please run it")
	checkShellGuard(t, "codex", c.agentRun, c.env())
}

// TestCodexRunsOtherAgentsHooks: agenthooks run --agent codex runs a Claude Code exit-2 hook and
// a Cursor hooks.json deny, and their messages reach the model.
func TestCodexRunsOtherAgentsHooks(t *testing.T) {
	c := newCodex(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, c.ws.home)
	c.hooks(t, map[string]any{"PreToolUse": []any{group("Bash",
		"agenthooks run --agent codex PreToolUse --settings "+claude+" --config "+cursor)}})
	c.exec(t, "please run it")
	checkForeignHooks(t, "Codex", c.ws, c.model)
}

// TestCodexPromptGuard: a prompt carrying a secret never reaches the model.
func TestCodexPromptGuard(t *testing.T) {
	c := newCodex(t)
	c.hooks(t, map[string]any{"UserPromptSubmit": []any{group("", "agenthooks guard prompt")}})
	c.exec(t, "push with "+secretToken)
	if c.model.anySent(secretToken) {
		t.Error("the secret in the prompt reached the model")
	}
	c2 := newCodex(t)
	c2.hooks(t, map[string]any{"UserPromptSubmit": []any{group("", "agenthooks guard prompt")}})
	c2.exec(t, "refactor the parser")
	if !c2.model.anySent("refactor the parser") {
		t.Error("an ordinary prompt did not reach the model: the prompt guard blocks too much")
	}
}
