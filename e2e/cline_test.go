package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/cline"
)

const clineVersion = cline.Version

type clineRun struct{ agentRun }

// newCline installs the Cline CLI and points it at a Chat Completions stand-in on loopback as
// its openai-compatible provider, set with cline auth in the throwaway home: cline then needs
// no Cline account.
func newCline(t testing.TB, commands ...string) *clineRun {
	c := &clineRun{newAgentRun(t, installAgent(t, "cline", clineVersion, "cline"), chatModel, commands)}
	c.ws.run(t, c.env(), c.bin, "auth", "-p", "openai-compatible", "-k", "sk-test", "-m", "gpt-4.1", "-b", c.url+"/v1")
	return c
}

func (c *clineRun) env() []string { return []string{"CLINE_TELEMETRY_DISABLED=1"} }

// exec runs one task headless (a prompt on the command line runs in act mode with every tool
// auto-approved), so that only hooks decide; --json prints its events one a line.
func (c *clineRun) exec(t testing.TB, prompt string) string {
	return c.ws.run(t, c.env(), c.bin, "--json", "-c", c.ws.dir, "-t", "120", prompt)
}

// stopReason is what Cline logged of the runs stopped by a hook's cancel: Cline 3.0.65 shows
// the reason to nobody (the CLI prints "aborted by another client", the model is not asked
// again) and writes it into ~/.cline/data/logs/cline.log as the ControlledStopError's message.
func (c *clineRun) stopReason(t testing.TB) string {
	b, _ := os.ReadFile(filepath.Join(c.ws.home, ".cline", "data", "logs", "cline.log"))
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "ControlledStopError") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// script runs the scripted commands again in a new task, the conversation starting afresh.
func (c *clineRun) script(commands ...string) {
	c.model.mu.Lock()
	c.model.commands = commands
	c.model.mu.Unlock()
}

// hookFile writes one of Cline's hook files, named after its event, in the workspace's
// .clinerules/hooks.
func (c *clineRun) hookFile(t testing.TB, event, body string) {
	t.Helper()
	p := filepath.Join(c.ws.dir, ".clinerules", "hooks", event)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestClineHonours runs each way a PreToolUse hook can answer inside Cline and checks what Cline
// does with it (docs/agents/cline.md has the table).
func TestClineHonours(t *testing.T) {
	checkHonours(t, clineHonours, func(t *testing.T, script string) (workspace, *model) {
		c := newCline(t, markerCommand)
		c.hookFile(t, "PreToolUse", "cat > /dev/null\n"+script)
		c.exec(t, "please run it")
		return c.ws, c.model
	})
}

var clineHonours = []honourCase{
	{"exit 0 cancel with errorMessage", `echo '{"cancel":true,"errorMessage":"no way"}'`, false, ""},
	{"exit 1 cancel", `echo '{"cancel":true,"errorMessage":"no way"}'; exit 1`, false, ""}, // the exit status is ignored
	{"HOOK_CONTROL line after other output", `echo 'checking...'; printf 'HOOK_CONTROL\t{"cancel":true}\n'`, false, ""},
	{"exit 0 cancel with contextModification only", `echo '{"cancel":true,"contextModification":"no way"}'`, false, ""},
	{"exit 0 overrideInput", `echo '{"overrideInput":{"commands":["echo rewritten > other.txt"]}}'`, false, ""},
	{"exit 0 cancel as a string", `echo '{"cancel":"true","errorMessage":"no way"}'`, true, ""},
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, true, ""},
	{"exit 0 Claude hookSpecificOutput deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, true, ""},
	{"exit 0 not JSON", `echo 'hello there'`, true, ""},
	{"exit 0 contextModification", `echo '{"contextModification":"be careful"}'`, true, ""},
	{"exit 0 silent", `exit 0`, true, ""},
}

// TestClineShellGuard: the wrappers agenthooks install --agent cline writes into
// ~/Documents/Cline/Hooks block a destructive command (it does not run; Cline stops the task,
// logs the guard's reason, and the model is not asked again), and an ordinary command runs in
// the next task; both decisions are in the audit trail under "cline", and status shows the
// guard alive.
func TestClineShellGuard(t *testing.T) {
	c := newCline(t, destructive)
	out := c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "cline")
	if !strings.Contains(out, "wrote PreToolUse") {
		t.Fatalf("install did not write the PreToolUse wrapper:\n%s", out)
	}
	c.exec(t, "please run it")
	if c.ws.exists("ran.txt") {
		t.Error("the destructive command ran inside Cline: the guard did not block it")
	}
	if !strings.Contains(c.stopReason(t), "Blocked by agenthooks: pipe-to-shell") {
		t.Errorf("Cline's log does not carry the guard's reason:\n%s", c.stopReason(t))
	}
	if n := len(c.model.sent()); n != 1 {
		t.Errorf("the model was asked %d times; a cancel ends Cline's run after the first", n)
	}
	c.script(ordinary)
	c.exec(t, "please run it")
	if !c.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run inside Cline")
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "cline")
	if !strings.Contains(log, "deny") || !strings.Contains(log, "allow") {
		t.Errorf("audit log lacks cline's deny and allow:\n%s", log)
	}
	checkGuardAlive(t, c.ws, c.env())
}

// TestClineRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny run on
// Cline's run_commands through agenthooks run --agent cline in a Cline hook file, and each
// refusal stops the task, its message in Cline's log.
func TestClineRunsOtherAgentsHooks(t *testing.T) {
	c := newCline(t, "echo one > one.txt")
	claude, cursor := writeForeignHooks(t, c.ws.home)
	c.hookFile(t, "PreToolUse", "exec agenthooks run --agent cline PreToolUse --settings "+claude+" --config "+cursor)
	c.exec(t, "please run it")
	c.script("echo two > two.txt")
	c.exec(t, "please run it")
	res := c.stopReason(t)
	if c.ws.exists("one.txt") || c.ws.exists("two.txt") {
		t.Error("a command another agent's hook denied ran inside Cline")
	}
	for _, msg := range []string{"claude hook refuses one", "cursor hook refuses two"} {
		if !strings.Contains(res, msg) {
			t.Errorf("Cline never logged %q as why it stopped:\n%s", msg, res)
		}
	}
}

// TestClineHonoursTheDialect: the deny dialect/cline writes stops the call inside Cline (its
// reason in Cline's log), and the context it writes reaches the model.
func TestClineHonoursTheDialect(t *testing.T) {
	dl := cline.DialectFor(dialect.AskAsDeny)
	s, _ := dl.Lookup("PreToolUse")
	deny := dl.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "denied by the cline dialect"})
	c := newCline(t, markerCommand)
	c.hookFile(t, "PreToolUse", "cat > /dev/null\nprintf '%s' '"+string(deny.Stdout)+"'")
	c.exec(t, "please run it")
	if c.ws.exists("marker.txt") {
		t.Error("the command ran although the hook answered with dialect/cline's deny")
	}
	if !strings.Contains(c.stopReason(t), "denied by the cline dialect") {
		t.Errorf("Cline's log does not carry the reason:\n%s", c.stopReason(t))
	}

	ctx := dl.Encode(s, decide.Decision{Permission: decide.Allow, AdditionalContext: "context from the cline dialect"})
	c2 := newCline(t, markerCommand)
	c2.hookFile(t, "PreToolUse", "cat > /dev/null\nprintf '%s' '"+string(ctx.Stdout)+"'")
	c2.exec(t, "please run it")
	if !c2.ws.exists("marker.txt") || !c2.model.anySent("context from the cline dialect") {
		t.Errorf("the context did not reach the model (ran=%v)", c2.ws.exists("marker.txt"))
	}
}

// TestClinePayloads runs Cline with a capturing hook file for every event and checks the
// payloads against the goldens that dialect/cline's tests read.
func TestClinePayloads(t *testing.T) {
	c := newCline(t, ordinary)
	dir := t.TempDir()
	for _, ev := range cline.Events {
		c.hookFile(t, ev, captureAs(dir, ev))
	}
	c.exec(t, "please run it")
	time.Sleep(500 * time.Millisecond) // the CLI runs all but PreToolUse and PostToolUse detached
	checkPayloads(t, "cline", dir, c.ws)
}

// Cline in the cost benchmark, its guard in a PreToolUse hook file, as install's wrapper runs it.
func init() {
	costAgents["cline"] = func(b *testing.B, hook string) time.Duration {
		c := newCline(b, costCommands()...)
		if hook != "" {
			c.hookFile(b, "PreToolUse", "exec "+hook)
		}
		return timed(func() { c.exec(b, "please run them") })
	}
}

// TestClineWrapperFailureLetsTaskGoOn: inside the Cline CLI, with the wrappers install writes,
// an agenthooks that crashes on PostToolUse (an event that gates nothing: the tool has run) does
// not stop the user's task: the next command runs, the model is asked again and reads the
// wrapper's note of the failure; while the same crash on PreToolUse still blocks the call.
func TestClineWrapperFailureLetsTaskGoOn(t *testing.T) {
	crash := func(t *testing.T, c *clineRun, event string) {
		t.Helper()
		stand := filepath.Join(c.ws.home, "crashing-agenthooks")
		if err := os.WriteFile(stand, []byte("#!/bin/sh\ncat > /dev/null\necho 'panic: it broke' >&2\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		w := filepath.Join(c.ws.home, "Documents", "Cline", "Hooks", event)
		b, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "prog=") {
				lines[i] = "prog='" + stand + "'"
			}
		}
		if err := os.WriteFile(w, []byte(strings.Join(lines, "\n")), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := newCline(t, "echo one > one.txt", "echo two > two.txt")
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "cline")
	crash(t, c, "PostToolUse")
	out := c.exec(t, "please run them")
	if !c.ws.exists("one.txt") || !c.ws.exists("two.txt") {
		t.Errorf("a crash of agenthooks on PostToolUse stopped the task (one.txt %v, two.txt %v); Cline printed:\n%s\nits log:\n%s",
			c.ws.exists("one.txt"), c.ws.exists("two.txt"), out, c.stopReason(t))
	}
	if n := len(c.model.sent()); n < 3 {
		t.Errorf("the model was asked %d times, want 3 (two calls, then the answer)", n)
	}
	if !c.model.anySent("so this Cline PostToolUse hook lets the task go on") {
		t.Errorf("no request carries the wrapper's note of the failure; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}

	c2 := newCline(t, "echo one > one.txt")
	c2.ws.agenthooksEnv(t, c2.env(), "install", "--agent", "cline")
	crash(t, c2, "PreToolUse")
	c2.exec(t, "please run it")
	if c2.ws.exists("one.txt") {
		t.Error("a crash of agenthooks on PreToolUse let the call run: the wrapper must fail closed there")
	}
	if !strings.Contains(c2.stopReason(t), "so this Cline PreToolUse hook blocks") {
		t.Errorf("Cline's log does not carry the wrapper's reason:\n%s", c2.stopReason(t))
	}
}
