package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const copilotVersion = "1.0.102"

type copilotRun struct{ agentRun }

// newCopilot installs GitHub Copilot CLI and points it, in its offline BYOK mode, at a Chat
// Completions stand-in on loopback.
func newCopilot(t testing.TB, commands ...string) *copilotRun {
	return &copilotRun{newAgentRun(t, installAgent(t, "@github/copilot", copilotVersion, "copilot"), chatModel, commands)}
}

// env points Copilot at the stand-in, offline, and keeps the package it extracts on first run
// (5 s) beside the cached install, where every run finds it, instead of in each run's HOME.
func (c *copilotRun) env() []string {
	install := filepath.Dir(filepath.Dir(filepath.Dir(c.bin))) // <cache>/github_copilot-VERSION
	return []string{"XDG_CACHE_HOME=" + filepath.Join(install, "xdg-cache"), "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + c.url + "/v1", "COPILOT_PROVIDER_API_KEY=sk-test",
		"COPILOT_MODEL=gpt-4.1", "COPILOT_AUTO_UPDATE=false", "COPILOT_HOME=" + c.home()}
}

func (c *copilotRun) home() string { return filepath.Join(c.ws.home, ".copilot") }

// userHooks writes a hooks file into the user's hooks folder (~/.copilot/hooks/NAME.json).
func (c *copilotRun) userHooks(t testing.TB, name string, hooks map[string]any) {
	writeJSONFile(t, filepath.Join(c.home(), "hooks", name+".json"), map[string]any{"version": 1, "hooks": hooks})
}

// repoHooks writes a hooks file into the workspace's .github/hooks folder.
func (c *copilotRun) repoHooks(t testing.TB, name string, hooks map[string]any) {
	writeJSONFile(t, filepath.Join(c.ws.dir, ".github", "hooks", name+".json"), map[string]any{"version": 1, "hooks": hooks})
}

// exec runs copilot -p with every tool allowed, so that only hooks decide.
func (c *copilotRun) exec(t testing.TB, prompt string, extra ...string) string {
	return c.ws.run(t, c.env(), c.bin, append([]string{"-p", prompt, "--allow-all-tools", "--no-auto-update", "--disable-builtin-mcps"}, extra...)...)
}

// copilotHook is one entry of a Copilot hooks file: a bash command and its timeout in seconds.
func copilotHook(command string) []any {
	return []any{map[string]any{"type": "command", "bash": command, "timeoutSec": 60}}
}

// TestCopilotHonours runs each way a preToolUse hook can answer inside Copilot CLI and checks
// what Copilot does with it (docs/agents/copilot.md has the table).
func TestCopilotHonours(t *testing.T) {
	checkHonours(t, copilotHonours, func(t *testing.T, script string) (workspace, *model) {
		c := newCopilot(t, markerCommand)
		c.userHooks(t, "honour", map[string]any{"preToolUse": copilotHook(writeHookScript(t, c.ws.home, "hook", script))})
		c.exec(t, "please run it")
		return c.ws, c.model
	})
}

var copilotHonours = []honourCase{
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, false, "hook exited with code 2"}, // stderr never reaches the model
	{"exit 2 empty stderr", `exit 2`, false, ""},
	{"exit 2 stdout {} reason on stderr", `echo '{}'; echo "no way" >&2; exit 2`, false, "hook exited with code 2"},
	{"exit 0 permissionDecision deny", `echo '{"permissionDecision":"deny","permissionDecisionReason":"no way"}'`, false, "no way"},
	{"exit 0 deny without reason", `echo '{"permissionDecision":"deny"}'`, false, "No reason provided"},
	{"exit 0 Claude hookSpecificOutput deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, true, ""}, // Claude Code's form is not read from a camelCase file
	{"exit 0 decision block", `echo '{"decision":"block","reason":"no way"}'`, true, ""},
	{"exit 0 permissionDecision ask", `echo '{"permissionDecision":"ask","permissionDecisionReason":"sure?"}'`, false, "unable to ask user for confirmation"},
	{"exit 0 continue false", `echo '{"continue":false,"stopReason":"no way"}'`, true, ""},
	{"exit 1 text on stderr", `echo "oops" >&2; exit 1`, false, "(hook errored)"}, // fails closed
	{"exit 3 text on stderr", `echo "oops" >&2; exit 3`, false, "(hook errored)"},
	{"exit 0 not JSON", `echo 'hello there'`, true, ""},
	{"exit 0 silent", `exit 0`, true, ""},
	{"exit 0 permissionDecision allow", `echo '{"permissionDecision":"allow"}'`, true, ""},
}

// TestCopilotHonoursClaudeForm: a hooks file that names the event in Claude Code's PascalCase
// (PreToolUse) gets VS Code's snake_case payload, and Copilot reads the answer in Claude Code's
// form.
func TestCopilotHonoursClaudeForm(t *testing.T) {
	checkHonours(t, copilotClaudeHonours, func(t *testing.T, script string) (workspace, *model) {
		c := newCopilot(t, markerCommand)
		c.userHooks(t, "honour", map[string]any{"PreToolUse": copilotHook(writeHookScript(t, c.ws.home, "hook", script))})
		c.exec(t, "please run it")
		return c.ws, c.model
	})
}

var copilotClaudeHonours = []honourCase{
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, false, "hook exited with code 2"}, // stderr never reaches the model
	{"exit 0 Claude hookSpecificOutput deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, false, "no way"},
	{"exit 0 permissionDecision deny", `echo '{"permissionDecision":"deny","permissionDecisionReason":"no way"}'`, false, "no way"},
	{"exit 0 decision block", `echo '{"decision":"block","reason":"no way"}'`, true, ""},
	{"exit 1 text on stderr", `echo "oops" >&2; exit 1`, false, "(hook errored)"},
}

// guardCommand is the shell guard as install registers it: by the absolute path of agenthooks,
// fail-closed.
func guardCommand(t testing.TB, args ...string) string {
	return filepath.Join(agenthooksDir(t), "agenthooks") + " guard " + strings.Join(args, " ")
}

// TestCopilotShellGuard: inside Copilot CLI, the shell guard as agenthooks install --agent
// copilot registers it (~/.copilot/hooks/agenthooks.json, its own file) blocks a destructive
// command (it does not run, and the model is told why in Copilot's words, which only the JSON
// deny on exit 0 gets) and lets an ordinary one run; both decisions are in the audit trail under
// "copilot", and status shows the guard alive.
func TestCopilotShellGuard(t *testing.T) {
	c := newCopilot(t, destructive, ordinary)
	out := c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "copilot")
	if !strings.Contains(out, filepath.Join(c.home(), "hooks", "agenthooks.json")+": written") {
		t.Fatalf("install did not write Copilot's hooks file:\n%s", out)
	}
	c.exec(t, "please run it")
	checkShellGuard(t, "copilot", c.agentRun, c.env())
	if !c.model.anySent("Denied by preToolUse hook: Blocked by agenthooks") {
		t.Errorf("the model was not told in Copilot's words that the guard denied the call:\n%s", lastToolResult(c.model))
	}
}

// TestCopilotEditGuard: the guard entry agenthooks install --agent copilot writes, one entry
// for the shell and the file tools (matcher "bash|create|edit|apply_patch", which Copilot matches against
// the whole tool name), runs on Copilot's create tool: a create over agenthooks' own hooks file
// is denied and the model reads why (protected-config), the file is unchanged, and a create of
// an ordinary file runs.
func TestCopilotEditGuard(t *testing.T) {
	c := newCopilot(t)
	own := filepath.Join(c.home(), "hooks", "agenthooks.json")
	c.model.commands = []string{"write:" + own + "={}", "write:" + filepath.Join(c.ws.dir, "notes.txt") + "=hi"}
	c.ws.agenthooksEnv(t, c.env(), "install", "--agent", "copilot")
	before, err := os.ReadFile(own)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(before), `"matcher":"bash|create|edit|apply_patch"`) {
		t.Fatalf("install did not write one guard entry for the shell and file tools:\n%s", before)
	}
	c.exec(t, "please write them")
	if after, _ := os.ReadFile(own); string(after) != string(before) {
		t.Errorf("Copilot's create tool changed agenthooks' hooks file:\n%s", after)
	}
	if !c.model.anySent("Denied by preToolUse hook: Blocked by agenthooks: protected-config") {
		t.Errorf("no model request carries the edit guard's deny; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.ws.exists("notes.txt") {
		t.Error("an ordinary create did not happen")
	}
}

// TestCopilotRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny run on
// Copilot's bash tool through agenthooks run --agent copilot, which reads Copilot's camelCase
// payload and answers in Copilot's JSON, and their messages reach the model.
func TestCopilotRunsOtherAgentsHooks(t *testing.T) {
	c := newCopilot(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, c.ws.home)
	c.userHooks(t, "agenthooks", map[string]any{"preToolUse": copilotHook(
		filepath.Join(agenthooksDir(t), "agenthooks") + " run --agent copilot preToolUse --settings " + claude + " --config " + cursor)})
	c.exec(t, "please run it")
	checkForeignHooks(t, "Copilot CLI", c.ws, c.model)
}

// TestCopilotPromptGuard: a prompt carrying a secret never reaches the model; an ordinary one
// does. The guard tells Copilot's payload by its camelCase fields.
func TestCopilotPromptGuard(t *testing.T) {
	guard := func(c *copilotRun) {
		c.userHooks(t, "agenthooks", map[string]any{"userPromptSubmitted": copilotHook(guardCommand(t, "prompt"))})
	}
	c := newCopilot(t)
	guard(c)
	c.exec(t, "push with "+secretToken)
	if c.model.anySent(secretToken) {
		t.Error("the secret in the prompt reached the model")
	}
	if log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "copilot"); !strings.Contains(log, "deny") {
		t.Errorf("the audit has no deny of Copilot's prompt:\n%s", log)
	}
	c2 := newCopilot(t)
	guard(c2)
	c2.exec(t, "refactor the parser")
	if !c2.model.anySent("refactor the parser") {
		t.Error("an ordinary prompt did not reach the model: the prompt guard blocks too much")
	}
}

// TestCopilotRepoHooksNeedTrust: a repository's .github/hooks do not fire in a -p run of an
// untrusted folder (silently), and do with --trust-folder.
func TestCopilotRepoHooksNeedTrust(t *testing.T) {
	for _, trust := range []bool{false, true} {
		c := newCopilot(t, ordinary)
		dir := t.TempDir()
		c.repoHooks(t, "capture", map[string]any{"preToolUse": copilotHook(captureAs(dir, "preToolUse"))})
		var extra []string
		if trust {
			extra = []string{"--trust-folder"}
		}
		c.exec(t, "please run it", extra...)
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if fired := len(files) > 0; fired != trust {
			t.Errorf("with --trust-folder %v the repository's hook fired = %v", trust, fired)
		}
	}
}

// TestCopilotHonoursPermissionRequest: permissionRequest fires in a -p run with every tool
// allowed, and blocks with a flat {"behavior":"deny"}, not Claude Code's nested decision.
func TestCopilotHonoursPermissionRequest(t *testing.T) {
	checkHonours(t, []honourCase{
		{"exit 0 behavior deny", `echo '{"behavior":"deny","message":"no way"}'`, false, "Permission denied by a PermissionRequest hook: no way"},
		{"exit 0 decision behavior deny", `echo '{"decision":{"behavior":"deny","message":"no way"}}'`, true, ""},
		{"exit 0 Claude hookSpecificOutput decision deny", `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no way"}}}'`, true, ""},
		{"exit 0 permissionDecision deny", `echo '{"permissionDecision":"deny","permissionDecisionReason":"no way"}'`, true, ""},
	}, func(t *testing.T, script string) (workspace, *model) {
		c := newCopilot(t, markerCommand)
		c.userHooks(t, "honour", map[string]any{"permissionRequest": copilotHook(writeHookScript(t, c.ws.home, "hook", script))})
		c.exec(t, "please run it")
		return c.ws, c.model
	})
}
