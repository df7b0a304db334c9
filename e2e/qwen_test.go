package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect/qwen"
)

const qwenVersion = "0.24.4"

type qwenRun struct{ agentRun }

// newQwen installs Qwen Code and points it at a Chat Completions stand-in on loopback.
func newQwen(t testing.TB, commands ...string) *qwenRun {
	q := &qwenRun{newAgentRun(t, installAgent(t, "@qwen-code/qwen-code", qwenVersion, "qwen"), chatModel, commands)}
	q.settings(t, nil)
	return q
}

// settings writes the user settings (~/.qwen/settings.json): the OpenAI-compatible endpoint as
// auth, no telemetry or update checks, folder trust off (so project files are read), and hooks.
func (q *qwenRun) settings(t testing.TB, hooks map[string]any) {
	s := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "openai"}, "folderTrust": map[string]any{"enabled": false}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"enableAutoUpdate": false, "disableAutoUpdate": true, "disableUpdateNag": true},
		"model":     map[string]any{"name": "gpt-4.1"},
	}
	if hooks != nil {
		s["hooks"] = hooks
	}
	writeJSONFile(t, filepath.Join(q.ws.home, ".qwen", "settings.json"), s)
}

func (q *qwenRun) env() []string {
	return []string{"OPENAI_BASE_URL=" + q.url + "/v1", "OPENAI_API_KEY=sk-test", "OPENAI_MODEL=gpt-4.1"}
}

// exec runs qwen headless with its own approvals off (--yolo), so that only hooks decide.
func (q *qwenRun) exec(t testing.TB, prompt string) string {
	return q.ws.run(t, q.env(), q.bin, "-p", prompt, "--yolo", "--output-format", "json")
}

// qwenGroup is one matcher group of Qwen Code's hooks (Claude Code's shape; timeout in ms).
func qwenGroup(matcher string, commands ...string) map[string]any {
	var hs []any
	for _, c := range commands {
		hs = append(hs, map[string]any{"type": "command", "command": c, "timeout": 60000})
	}
	g := map[string]any{"hooks": hs}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return g
}

// TestQwenHonours runs each way a PreToolUse hook can answer inside Qwen Code and checks what
// Qwen does with it (docs/agents/qwen.md has the table).
func TestQwenHonours(t *testing.T) {
	checkHonours(t, qwenHonours, func(t *testing.T, script string) (workspace, *model) {
		q := newQwen(t, markerCommand)
		q.settings(t, map[string]any{"PreToolUse": []any{qwenGroup("", writeHookScript(t, q.ws.home, "hook", script))}})
		q.exec(t, "please run it")
		return q.ws, q.model
	})
}

var qwenHonours = []honourCase{
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, false, "no way"},
	{"exit 2 empty stderr", `exit 2`, true, ""}, // no text, no decision: fails open
	{"exit 2 stdout {} reason on stderr", `echo '{}'; echo "no way" >&2; exit 2`, false, "no way"},
	{"exit 0 Claude hookSpecificOutput deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, false, "no way"},
	{"exit 0 decision block", `echo '{"decision":"block","reason":"no way"}'`, false, "no way"},
	{"exit 0 decision deny", `echo '{"decision":"deny","reason":"no way"}'`, false, "no way"},
	{"exit 0 permissionDecision ask", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}'`, false, "sure?"}, // headless: an ask is a deny
	{"exit 0 continue false", `echo '{"continue":false,"stopReason":"no way"}'`, false, "no way"},
	{"exit 1 text on stderr", `echo "oops" >&2; exit 1`, true, ""}, // a non-blocking error
	{"exit 3 text on stderr", `echo "oops" >&2; exit 3`, true, ""},
	{"exit 1 deny JSON on stdout", `echo '{"decision":"block","reason":"no way"}'; exit 1`, false, "no way"}, // JSON decides on any exit but 2
	{"exit 0 not JSON", `echo 'hello there'`, true, ""},
	{"exit 0 silent", `exit 0`, true, ""},
}

// TestQwenShellGuard: the shell guard as agenthooks install --agent qwen registers it in Qwen
// Code's user settings (beside the settings already there) blocks a destructive command (it
// does not run, and the model is told why) and lets an ordinary one run; both decisions are in
// the audit trail under "qwen", and status shows the guard alive.
func TestQwenShellGuard(t *testing.T) {
	q := newQwen(t, destructive, ordinary)
	out := q.ws.agenthooksEnv(t, q.env(), "install", "--agent", "qwen")
	if !strings.Contains(out, "added PreToolUse") {
		t.Fatalf("install did not add the guard:\n%s", out)
	}
	q.exec(t, "please run it")
	checkShellGuard(t, "qwen", q.agentRun, q.env())
}

// TestQwenRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny, written
// for Bash and beforeShellExecution, run on Qwen Code's run_shell_command through agenthooks run
// --agent qwen, and their messages reach the model.
func TestQwenRunsOtherAgentsHooks(t *testing.T) {
	q := newQwen(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, q.ws.home)
	q.settings(t, map[string]any{"PreToolUse": []any{qwenGroup("run_shell_command",
		"agenthooks run --agent qwen PreToolUse --settings "+claude+" --config "+cursor)}})
	q.exec(t, "please run it")
	checkForeignHooks(t, "Qwen Code", q.ws, q.model)
}

// TestQwenPromptGuard: a prompt carrying a secret never reaches the model; an ordinary one does.
func TestQwenPromptGuard(t *testing.T) {
	q := newQwen(t)
	q.settings(t, map[string]any{"UserPromptSubmit": []any{qwenGroup("", "agenthooks guard prompt")}})
	q.exec(t, "push with "+secretToken)
	if q.model.anySent(secretToken) {
		t.Error("the secret in the prompt reached the model")
	}
	if log := q.ws.agenthooks(t, "log", "--audit", q.ws.audit, "--agent", "qwen"); !strings.Contains(log, "deny") {
		t.Errorf("the audit has no deny of Qwen's prompt:\n%s", log)
	}
	q2 := newQwen(t)
	q2.settings(t, map[string]any{"UserPromptSubmit": []any{qwenGroup("", "agenthooks guard prompt")}})
	q2.exec(t, "refactor the parser")
	if !q2.model.anySent("refactor the parser") {
		t.Error("an ordinary prompt did not reach the model: the prompt guard blocks too much")
	}
}

// TestQwenHonoursTheDialect: the deny dialect/qwen writes for PreToolUse (JSON on stdout, exit
// 0) blocks inside Qwen Code and its reason reaches the model.
func TestQwenHonoursTheDialect(t *testing.T) {
	s, _ := qwen.Dialect.Lookup("PreToolUse")
	r := qwen.Dialect.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "denied by the qwen dialect"})
	if r.ExitCode != 0 || strings.Contains(string(r.Stdout), "'") {
		t.Fatalf("unexpected answer %+v", r)
	}
	q := newQwen(t, markerCommand)
	hook := writeHookScript(t, q.ws.home, "dialect", "printf '%s' '"+string(r.Stdout)+"'")
	q.settings(t, map[string]any{"PreToolUse": []any{qwenGroup("", hook)}})
	q.exec(t, "please run it")
	if q.ws.exists("marker.txt") {
		t.Error("the command ran although the hook answered with dialect/qwen's deny")
	}
	if !strings.Contains(lastToolResult(q.model), "denied by the qwen dialect") {
		t.Errorf("the model saw %s", lastToolResult(q.model))
	}
}
