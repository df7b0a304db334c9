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

const claudeVersion = "2.1.328"

// claudeModel speaks Anthropic's Messages API as Claude Code streams it: each turn of the main
// loop (a request with tools) asks for the next scripted call (Bash, or "read:PATH" for Read),
// then answers with text; side requests without tools get text.
func claudeModel(m *model) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.record(r)
		if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
			if strings.HasSuffix(r.URL.Path, "/count_tokens") {
				writeJSONResponse(w, map[string]any{"input_tokens": 10})
				return
			}
			http.NotFound(w, r)
			return
		}
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
		var block map[string]any
		var input string
		stop := "tool_use"
		switch {
		case len(req.Tools) == 0 || step >= len(m.commands):
			block, stop = map[string]any{"type": "text", "text": ""}, "end_turn"
		case strings.HasPrefix(m.commands[step], "write:"):
			// write:PATH=CONTENT: Claude Code's Write tool
			file, content, _ := strings.Cut(strings.TrimPrefix(m.commands[step], "write:"), "=")
			block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", step), "name": "Write", "input": map[string]any{}}
			b, _ := json.Marshal(map[string]string{"file_path": file, "content": content})
			input = string(b)
		case strings.HasPrefix(m.commands[step], "read:"):
			block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", step), "name": "Read", "input": map[string]any{}}
			b, _ := json.Marshal(map[string]string{"file_path": strings.TrimPrefix(m.commands[step], "read:")})
			input = string(b)
		default:
			block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", step), "name": "Bash", "input": map[string]any{}}
			b, _ := json.Marshal(map[string]string{"command": m.commands[step], "description": "run the command"})
			input = string(b)
		}
		usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
		if !req.Stream {
			content := block
			if stop == "end_turn" {
				content = map[string]any{"type": "text", "text": "done"}
			} else {
				var in map[string]any
				_ = json.Unmarshal([]byte(input), &in)
				content["input"] = in
			}
			writeJSONResponse(w, map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": req.Model,
				"content": []any{content}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
			return
		}
		delta := map[string]any{"type": "text_delta", "text": "done"}
		if stop == "tool_use" {
			delta = map[string]any{"type": "input_json_delta", "partial_json": input}
		}
		writeSSE(w,
			map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant",
				"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
			map[string]any{"type": "content_block_start", "index": 0, "content_block": block},
			map[string]any{"type": "content_block_delta", "index": 0, "delta": delta},
			map[string]any{"type": "content_block_stop", "index": 0},
			map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}},
			map[string]any{"type": "message_stop"},
		)
	}
}

type claudeRun struct{ agentRun }

func newClaude(t testing.TB, commands ...string) *claudeRun {
	c := &claudeRun{newAgentRun(t, installAgent(t, "@anthropic-ai/claude-code", claudeVersion, "claude"), claudeModel, commands)}
	return c
}

func (c *claudeRun) env() []string {
	env := []string{"ANTHROPIC_BASE_URL=" + c.url, "ANTHROPIC_API_KEY=sk-test", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1") // bypassPermissions as root
	}
	return env
}

// settings writes the workspace's .claude/settings.json, which Claude Code reads in -p mode.
func (c *claudeRun) settings(t testing.TB, hooks map[string]any) {
	writeJSONFile(t, filepath.Join(c.ws.dir, ".claude", "settings.json"), map[string]any{"hooks": hooks})
}

// exec runs claude -p with its own permission checks off, so that only hooks decide.
func (c *claudeRun) exec(t testing.TB, prompt string) string {
	return c.ws.run(t, c.env(), c.bin, "-p", prompt, "--output-format", "json", "--permission-mode", "bypassPermissions")
}

// TestClaudeShellGuard: the guard registered by agenthooks install blocks a destructive command
// (it does not run, and the model is told why) and lets an ordinary one run.
func TestClaudeShellGuard(t *testing.T) {
	c := newClaude(t, destructive, ordinary)
	if out := c.ws.agenthooks(t, "install", "--agent", "claude"); !installedGuard.MatchString(out) {
		t.Fatalf("install said: %s", out)
	}
	c.exec(t, "please run it")
	checkShellGuard(t, "claude", c.agentRun, c.env())
	checkOneGuardPerCall(t, c.ws, "claude", map[string]string{"destructive": "ran.txt", "ordinary": "hello.txt"})
}

// installedGuard is what install says when it registers the shell guard: by the absolute path
// of agenthooks-guard, which the suite builds beside agenthooks, fail-closed.
var installedGuard = regexp.MustCompile(`added (PreToolUse|BeforeTool): /\S*/agenthooks-guard bash --fail-closed`)

// checkOneGuardPerCall reads the audit trail of a run right after install (no other config):
// each Bash call (named by a word of its command) evaluated the shell guard once, and started
// at most two agenthooks processes on PreToolUse (the guard and the runner; each process
// records one decision). Before, the runner's embedded default ran the guard twice more and
// the agent printed the reason twice.
func checkOneGuardPerCall(t testing.TB, w workspace, agent string, calls map[string]string) {
	t.Helper()
	out := w.agenthooks(t, "log", "--json", "--audit", w.audit, "--agent", agent, "--event", "PreToolUse", "--limit", "1000")
	type record struct {
		Origin  string `json:"origin"`
		Payload string `json:"payload"`
		Runs    []struct {
			Command  string `json:"command"`
			ExitCode *int   `json:"exit_code"`
			Verdict  string `json:"verdict"`
		} `json:"runs"`
	}
	var recs []record
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log --json: %v\n%s", err, line)
		}
		recs = append(recs, r)
	}
	for name, word := range calls {
		processes, guards := 0, 0
		for _, r := range recs {
			if !strings.Contains(r.Payload, word) {
				continue
			}
			processes++
			if r.Origin == "guard bash" {
				guards++
				continue
			}
			for _, run := range r.Runs {
				if strings.Contains(run.Command, "guard bash") && run.ExitCode != nil {
					guards++
				}
			}
		}
		if guards != 1 {
			t.Errorf("the %s Bash call evaluated the shell guard %d times, want once; audit:\n%s", name, guards, out)
		}
		if processes > 2 {
			t.Errorf("the %s Bash call started %d agenthooks processes on PreToolUse, want at most 2 (the guard and the runner); audit:\n%s", name, processes, out)
		}
	}
}

// TestClaudeRunsCursorHooks: a Cursor hooks.json deny runs under Claude Code through
// agenthooks run --agent claude, and its message reaches the model.
func TestClaudeRunsCursorHooks(t *testing.T) {
	c := newClaude(t, "echo two > two.txt", ordinary)
	_, cursor := writeForeignHooks(t, c.ws.home)
	c.settings(t, map[string]any{"PreToolUse": []any{group("Bash", "agenthooks run --agent claude PreToolUse --from cursor --config "+cursor)}})
	c.exec(t, "please run it")
	if c.ws.exists("two.txt") {
		t.Error("a command a Cursor hook denied ran inside Claude Code")
	}
	if !c.ws.exists("hello.txt") {
		t.Error("a command the Cursor hook allowed did not run")
	}
	if !c.model.anySent("cursor hook refuses two") {
		t.Error("the model never saw the Cursor hook's message")
	}
}

// TestClaudePromptAndReadGuards: a prompt carrying a secret never reaches the model, and a Read
// of a file holding a token is denied without the token reaching the model.
func TestClaudePromptAndReadGuards(t *testing.T) {
	c := newClaude(t)
	c.settings(t, map[string]any{"UserPromptSubmit": []any{group("", "agenthooks guard prompt")}})
	c.exec(t, "push with "+secretToken)
	if c.model.anySent(secretToken) {
		t.Error("the secret in the prompt reached the model")
	}

	r := newClaude(t)
	notes := filepath.Join(r.ws.dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("deploy with GITHUB_TOKEN="+secretToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.model.commands = []string{"read:" + notes}
	r.settings(t, map[string]any{"PreToolUse": []any{group("Read", "agenthooks guard read")}})
	r.exec(t, "show me the notes")
	if r.model.anySent(secretToken) {
		t.Error("the secret in notes.txt reached the model")
	}
	if !r.model.anySent("holds a secret: github-pat") {
		t.Error("the model never saw why the read was denied")
	}
}

// TestClaudeGuardCannotBeSwitchedOff: inside the real Claude Code, with the guard as agenthooks
// install registers it, the agent tries to switch its own guard off by every road a worm or a
// careless agent takes: shell commands on the user's and the project's settings, agenthooks'
// policy, trust store and audit trail, the agenthooks binary, agenthooks' own commands, its
// variables, a nested Claude Code started with its configuration moved away, and Claude Code's
// Write tool planting a settings file. Every file is unchanged,
// the model is told a person must do it, and an ordinary command still runs.
func TestClaudeGuardCannotBeSwitchedOff(t *testing.T) {
	c := newClaude(t)
	if out := c.ws.agenthooks(t, "install", "--agent", "claude"); !strings.Contains(out, "agenthooks-guard bash") {
		t.Fatalf("install said: %s", out)
	}
	userSettings := filepath.Join(c.ws.home, ".claude", "settings.json")
	project := filepath.Join(c.ws.dir, ".claude", "settings.json")
	policyFile := filepath.Join(c.ws.dir, ".agenthooks", "policy.yaml")
	writeJSONFile(t, project, map[string]any{"permissions": map[string]any{"allow": []any{}}})
	if err := os.MkdirAll(filepath.Dir(policyFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(policyFile, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(agenthooksDir(t), "agenthooks")
	guardBin := filepath.Join(agenthooksDir(t), "agenthooks-guard") // what the installed guard entry runs
	watched := []string{userSettings, project, policyFile, bin, guardBin}
	before := map[string]string{}
	for _, f := range watched {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		before[f] = string(b)
	}
	c.model.commands = []string{
		"echo {} > ~/.claude/settings.json",
		"jq 'del(.hooks)' ~/.claude/settings.json > t && mv t ~/.claude/settings.json",
		"sed -i 's/guard/true/' .claude/settings.json",
		"rm -f .claude/settings.json",
		"printf 'version: 1\\nshell:\\n  unknown: allow\\n' > .agenthooks/policy.yaml",
		"rm -f \"$AGENTHOOKS_AUDIT\"*",
		"cp /bin/true \"$(command -v agenthooks)\"",
		"cp /bin/true " + guardBin,
		"agenthooks trust .",
		"export AGENTHOOKS_POLICY=/tmp/none.yaml",
		"CLAUDE_CONFIG_DIR=/tmp/unguarded claude -p 'rm -rf ~' > nested.txt",
		"write:" + filepath.Join(c.ws.dir, ".claude", "settings.local.json") + `={"disableAllHooks": true}`,
		ordinary,
	}
	c.exec(t, "please run it")
	for _, f := range watched {
		if b, err := os.ReadFile(f); err != nil || string(b) != before[f] {
			t.Errorf("%s was changed from inside Claude Code (err %v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(c.ws.dir, ".claude", "settings.local.json")); err == nil {
		t.Error("Claude Code's Write tool planted .claude/settings.local.json")
	}
	if _, err := os.Stat(c.ws.audit + ".spool"); err != nil {
		if _, err2 := os.Stat(c.ws.audit); err2 != nil {
			t.Errorf("the audit trail is gone: %v, %v", err, err2)
		}
	}
	if !c.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
	if c.ws.exists("nested.txt") {
		t.Error("a nested Claude Code with its configuration moved away was started")
	}
	for _, want := range []string{"protected-config", "agenthooks-self", "agenthooks-env", "agent-env: a person, not the agent, starts an agent without its hooks",
		"a person must make this change outside the agent",
		"changes claude hooks configuration (local)"} { // the last from the Write tool
		if !c.model.anySent(want) {
			t.Errorf("no model request carries %q", want)
		}
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "claude")
	if n := strings.Count(log, "deny"); n < 10 {
		t.Errorf("the audit trail has %d denies, want one for each of the 10 attempts:\n%s", n, log)
	}
}
