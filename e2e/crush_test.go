package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/crush"
)

// crushBinary is a Crush binary to run, or the test is skipped: npm's @charmland/crush fetches
// its binary from GitHub when installed and the Go module proxy refuses the module, so the
// suite runs the one named by AGENTHOOKS_E2E_CRUSH, else the one built from Crush's source into
// ~/.cache/agenthooks-e2e/crush-build (docs/agents/crush.md says how).
func crushBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end suite skipped in -short mode")
	}
	bin := os.Getenv("AGENTHOOKS_E2E_CRUSH")
	if bin == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			bin = filepath.Join(dir, "agenthooks-e2e", "crush-build", "crush")
		}
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Crush binary (%v): its npm package cannot be installed here; build Crush from source into %s or set AGENTHOOKS_E2E_CRUSH", err, bin)
	}
	return bin
}

type crushRun struct{ agentRun }

// newCrush points Crush at a Chat Completions stand-in on loopback.
func newCrush(t testing.TB, commands ...string) *crushRun {
	c := &crushRun{newAgentRun(t, crushBinary(t), chatModel, commands)}
	c.config(t, nil)
	return c
}

// config writes the user's crush.json: an OpenAI-compatible provider on loopback as the large
// and small model, and hooks.
func (c *crushRun) config(t testing.TB, hooks map[string]any) {
	cfg := map[string]any{
		"providers": map[string]any{"e2e": map[string]any{"type": "openai-compat", "base_url": c.url + "/v1", "api_key": "sk-test",
			"models": []any{map[string]any{"id": "gpt-4.1", "name": "gpt-4.1", "context_window": 128000, "default_max_tokens": 4096}}}},
		"models": map[string]any{"large": map[string]any{"model": "gpt-4.1", "provider": "e2e"},
			"small": map[string]any{"model": "gpt-4.1", "provider": "e2e"}},
		"options": map[string]any{"disable_metrics": true},
	}
	if hooks != nil {
		cfg["hooks"] = hooks
	}
	writeJSONFile(t, filepath.Join(c.ws.home, ".config", "crush", "crush.json"), cfg)
}

func (c *crushRun) env() []string {
	return []string{"CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1", "CRUSH_DISABLE_METRICS=1", "XDG_CONFIG_HOME=", "XDG_DATA_HOME="}
}

// exec runs one prompt with crush run, which approves the session's tools itself, so that only
// hooks decide.
func (c *crushRun) exec(t testing.TB, prompt string) string {
	return c.ws.run(t, c.env(), c.bin, "run", "--quiet", prompt)
}

// crushHook is one entry of Crush's hooks.
func crushHook(matcher, command string) map[string]any {
	h := map[string]any{"command": command, "timeout": 60}
	if matcher != "" {
		h["matcher"] = matcher
	}
	return h
}

// TestCrushHonours runs each way a PreToolUse hook can answer inside Crush and checks what
// Crush does with it (docs/agents/crush.md has the table).
func TestCrushHonours(t *testing.T) {
	checkHonours(t, crushHonours, func(t *testing.T, script string) (workspace, *model) {
		c := newCrush(t, markerCommand)
		c.config(t, map[string]any{"PreToolUse": []any{crushHook("", writeHookScript(t, c.ws.home, "hook", script))}})
		c.exec(t, "please run it")
		return c.ws, c.model
	})
}

var crushHonours = []honourCase{
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, false, "no way"},
	{"exit 2 empty stderr", `exit 2`, false, "blocked by hook"},
	{"exit 49 halts", `echo "no way" >&2; exit 49`, false, ""}, // the turn ends: the model is not called again
	{"exit 0 decision deny", `echo '{"decision":"deny","reason":"no way"}'`, false, "no way"},
	{"exit 0 Claude hookSpecificOutput deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, false, "no way"},
	{"exit 0 halt", `echo '{"halt":true,"reason":"no way"}'`, false, ""},
	{"exit 0 Claude ask", `echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`, true, ""},    // no opinion; crush run approves
	{"exit 1 deny JSON on stdout", `echo '{"decision":"deny","reason":"no way"}'; exit 1`, true, ""}, // a failed hook is no opinion
	{"exit 0 wrong type", `echo '{"decision":"deny","halt":"yes"}'`, true, ""},
	{"exit 0 not JSON", `echo 'hello there'`, true, ""},
	{"exit 0 silent", `exit 0`, true, ""},
}

// TestCrushShellGuard: the shell guard as agenthooks install --agent crush registers it in
// Crush's user crush.json (beside the provider settings already there) blocks a destructive
// command (it does not run, and the model is told why) and lets an ordinary one run; both
// decisions are in the audit trail under "crush", and status shows the guard alive.
func TestCrushShellGuard(t *testing.T) {
	c := newCrush(t, destructive, ordinary)
	out := c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "crush")
	if !strings.Contains(out, "added PreToolUse") {
		t.Fatalf("install did not add the guard:\n%s", out)
	}
	c.exec(t, "please run it")
	checkShellGuard(t, "crush", c.agentRun, c.env())
}

// TestCrushRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny, written
// for Bash and beforeShellExecution, run on Crush's bash through agenthooks run --agent crush,
// and their messages reach the model.
func TestCrushRunsOtherAgentsHooks(t *testing.T) {
	c := newCrush(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, c.ws.home)
	c.config(t, map[string]any{"PreToolUse": []any{crushHook("^bash$",
		"agenthooks run --agent crush PreToolUse --settings "+claude+" --config "+cursor)}})
	c.exec(t, "please run it")
	checkForeignHooks(t, "Crush", c.ws, c.model)
}

// TestCrushHonoursTheDialect: the deny dialect/crush writes (JSON on stdout, exit 0) blocks
// inside Crush and its reason reaches the model; its rewrite runs the rewritten command.
func TestCrushHonoursTheDialect(t *testing.T) {
	d := crush.Dialect(dialect.AskAsDeny)
	s, _ := d.Lookup("PreToolUse")
	r := d.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "denied by the crush dialect"})
	if r.ExitCode != 0 || strings.Contains(string(r.Stdout), "'") {
		t.Fatalf("unexpected answer %+v", r)
	}
	c := newCrush(t, markerCommand)
	hook := writeHookScript(t, c.ws.home, "dialect", "printf '%s' '"+string(r.Stdout)+"'")
	c.config(t, map[string]any{"PreToolUse": []any{crushHook("", hook)}})
	c.exec(t, "please run it")
	if c.ws.exists("marker.txt") {
		t.Error("the command ran although the hook answered with dialect/crush's deny")
	}
	if !strings.Contains(lastToolResult(c.model), "denied by the crush dialect") {
		t.Errorf("the model saw %s", lastToolResult(c.model))
	}

	rw := crush.Agent.Answer.Rewrite(map[string]any{"command": "echo rewritten > rewritten.txt"}, "rewritten by agenthooks")
	c2 := newCrush(t, markerCommand)
	hook = writeHookScript(t, c2.ws.home, "rewrite", "printf '%s' '"+string(rw.Stdout)+"'")
	c2.config(t, map[string]any{"PreToolUse": []any{crushHook("^bash$", hook)}})
	c2.exec(t, "please run it")
	if c2.ws.exists("marker.txt") || !c2.ws.exists("rewritten.txt") {
		t.Error("Crush did not run the rewritten command in place of the model's")
	}
}

// TestCrushPayloads runs Crush with a capturing hook and checks the payloads against the
// goldens that dialect/crush's tests read. Crush runs hooks in its own shell interpreter, where
// $$ is Crush's process for every hook, so a payload is saved under its tool's name.
func TestCrushPayloads(t *testing.T) {
	c := newCrush(t, ordinary, "read:README.md")
	if err := os.WriteFile(filepath.Join(c.ws.dir, "README.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.model.commands[1] = "read:" + filepath.Join(c.ws.dir, "README.md")
	dir := t.TempDir()
	c.config(t, map[string]any{"PreToolUse": []any{crushHook("", "cat > "+dir+"/PreToolUse-$CRUSH_TOOL_NAME.json")}})
	c.exec(t, "please run it")
	checkPayloads(t, "crush", dir, c.ws)
}

// Crush in the cost benchmark, its guard registered on bash as install registers it.
func init() {
	costAgents["crush"] = func(b *testing.B, hook string) time.Duration {
		c := newCrush(b, costCommands()...)
		if hook != "" {
			c.config(b, map[string]any{"PreToolUse": []any{crushHook("^bash$", hook)}})
		}
		return timed(func() { c.exec(b, "please run them") })
	}
}
