package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/droid"
)

const droidVersion = "0.215.0"

type droidRun struct{ agentRun }

// newDroid installs Factory Droid and points it at a Chat Completions stand-in on loopback, as
// a custom model (BYOK): droid exec then needs no Factory login.
func newDroid(t testing.TB, commands ...string) *droidRun {
	d := &droidRun{newAgentRun(t, installAgent(t, "droid", droidVersion, "droid"), chatModel, commands)}
	d.settings(t, nil)
	return d
}

// settings writes ~/.factory/settings.json: the custom model and hooks.
func (d *droidRun) settings(t testing.TB, hooks map[string]any) {
	s := map[string]any{"customModels": []any{map[string]any{"model": "gpt-4.1", "displayName": "e2e", "baseUrl": d.url + "/v1",
		"apiKey": "sk-test", "provider": "generic-chat-completion-api"}}, "cloudSessionSync": false}
	if hooks != nil {
		s["hooks"] = hooks
	}
	writeJSONFile(t, filepath.Join(d.ws.home, ".factory", "settings.json"), s)
}

func (d *droidRun) env() []string { return nil }

// exec runs droid exec with its own approvals off (--skip-permissions-unsafe), so that only
// hooks decide.
func (d *droidRun) exec(t testing.TB, prompt string) string {
	return d.ws.run(t, d.env(), d.bin, "exec", "--model", "custom:e2e-0", "--skip-permissions-unsafe", prompt)
}

// TestDroidHonours runs each way a PreToolUse hook can answer inside Droid and checks what
// Droid does with it (docs/agents/droid.md has the table).
func TestDroidHonours(t *testing.T) {
	checkHonours(t, droidHonours, func(t *testing.T, script string) (workspace, *model) {
		d := newDroid(t, markerCommand)
		d.settings(t, map[string]any{"PreToolUse": []any{group("", writeHookScript(t, d.ws.home, "hook", script))}})
		d.exec(t, "please run it")
		return d.ws, d.model
	})
}

var droidHonours = []honourCase{
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, false, "no way"},
	{"exit 0 permissionDecision deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, false, "no way"},
	{"exit 2 empty stderr", `exit 2`, false, "Tool execution blocked by hook"},
	{"exit 3 aborts the run", `echo "no way" >&2; exit 3`, false, ""},
	{"exit 0 continue false", `echo '{"continue":false,"stopReason":"no way"}'`, false, ""},
	{"exit 0 permissionDecision allow with updatedInput", `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"echo rewritten > marker.txt"}}}'`, true, ""},
	{"exit 0 decision block", `echo '{"decision":"block","reason":"no way"}'`, true, ""}, // not read on PreToolUse
	{"exit 0 permissionDecision ask", `echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`, true, ""},
	{"exit 1", `echo "oops" >&2; exit 1`, true, ""},
	{"exit 0 silent", `exit 0`, true, ""},
}

// TestDroidShellGuard: the shell guard as agenthooks install --agent droid registers it in
// Droid's user settings (beside the custom model already there) blocks a destructive command
// (it does not run, and the model is told why) and lets an ordinary one run; both decisions are
// in the audit trail under "droid".
func TestDroidShellGuard(t *testing.T) {
	d := newDroid(t, destructive, ordinary)
	out := d.ws.agenthooksEnv(t, d.env(), "install", "--agent", "droid")
	if !strings.Contains(out, "added PreToolUse") {
		t.Fatalf("install did not add the guard:\n%s", out)
	}
	d.exec(t, "please run it")
	checkShellGuard(t, "droid", d.agentRun, d.env())
}

// TestDroidRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny run on
// Droid's Execute through agenthooks run --agent droid, and their messages reach the model.
func TestDroidRunsOtherAgentsHooks(t *testing.T) {
	d := newDroid(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, d.ws.home)
	d.settings(t, map[string]any{"PreToolUse": []any{group("Execute",
		"agenthooks run --agent droid PreToolUse --settings "+claude+" --config "+cursor)}})
	d.exec(t, "please run it")
	checkForeignHooks(t, "Factory Droid", d.ws, d.model)
}

// TestDroidHonoursTheDialect: the deny dialect/droid writes blocks inside Droid and its reason
// reaches the model.
func TestDroidHonoursTheDialect(t *testing.T) {
	dl := droid.Dialect(dialect.AskAsDeny)
	s, _ := dl.Lookup("PreToolUse")
	r := dl.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "denied by the droid dialect"})
	d := newDroid(t, markerCommand)
	hook := writeHookScript(t, d.ws.home, "dialect", "printf '%s' '"+string(r.Stdout)+"'")
	d.settings(t, map[string]any{"PreToolUse": []any{group("", hook)}})
	d.exec(t, "please run it")
	if d.ws.exists("marker.txt") {
		t.Error("the command ran although the hook answered with dialect/droid's deny")
	}
	if !strings.Contains(lastToolResult(d.model), "denied by the droid dialect") {
		t.Errorf("the model saw %s", lastToolResult(d.model))
	}
}

// TestDroidPayloads runs Droid with a capturing hook and checks the payloads against the goldens.
func TestDroidPayloads(t *testing.T) {
	d := newDroid(t, ordinary)
	dir := t.TempDir()
	d.settings(t, map[string]any{"PreToolUse": []any{group("", captureCommand(dir))}})
	d.exec(t, "please run it")
	checkPayloads(t, "droid", dir, d.ws)
}

// Droid in the cost benchmark, its guard registered on Execute as install registers it.
func init() {
	costAgents["droid"] = func(b *testing.B, hook string) time.Duration {
		d := newDroid(b, costCommands()...)
		if hook != "" {
			d.settings(b, map[string]any{"PreToolUse": []any{group("Execute", hook)}})
		}
		return timed(func() { d.exec(b, "please run them") })
	}
}

// TestDroidReadsHooksJSON: Droid 0.215.0 reads ~/.factory/hooks.json, a bare map of events,
// and an event it names there replaces that event's hooks in settings.json (Factory-AI/factory#3
// reported hooks.json never read in 0.186.0).
func TestDroidReadsHooksJSON(t *testing.T) {
	d := newDroid(t, markerCommand)
	hook := writeHookScript(t, d.ws.home, "deny", `echo "denied from hooks.json" >&2; exit 2`)
	writeJSONFile(t, filepath.Join(d.ws.home, ".factory", "hooks.json"), map[string]any{"PreToolUse": []any{group("Execute", hook)}})
	d.exec(t, "please run it")
	if d.ws.exists("marker.txt") || !strings.Contains(lastToolResult(d.model), "denied from hooks.json") {
		t.Errorf("the hook in hooks.json did not block; the model saw %s", lastToolResult(d.model))
	}

	d2 := newDroid(t, markerCommand)
	deny := writeHookScript(t, d2.ws.home, "deny", `echo "denied from settings.json" >&2; exit 2`)
	d2.settings(t, map[string]any{"PreToolUse": []any{group("Execute", deny)}})
	writeJSONFile(t, filepath.Join(d2.ws.home, ".factory", "hooks.json"), map[string]any{"PreToolUse": []any{group("Execute", "true")}})
	d2.exec(t, "please run it")
	if !d2.ws.exists("marker.txt") {
		t.Errorf("settings.json's PreToolUse ran although hooks.json names PreToolUse; the model saw %s", lastToolResult(d2.model))
	}
}
