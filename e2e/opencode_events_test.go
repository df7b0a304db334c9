package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/opencode"
)

// openCodeWithPromptGuard is an OpenCode whose plugin holds install's entries and the prompt
// guard on chat.message.
func openCodeWithPromptGuard(t *testing.T) *openCodeRun {
	o := newOpenCode(t)
	entries := append(opencode.Agent.InstallEntries("guard bash --fail-closed"),
		dialect.InstallEntry{Event: opencode.ChatMessage, Args: "guard prompt"})
	o.plugin(t, filepath.Join(agenthooksDir(t), "agenthooks"), entries...)
	return o
}

// TestOpenCodePromptGuard: inside OpenCode, the prompt guard on the plugin's chat.message drops
// a prompt that carries a secret (the model stand-in never receives it), and opencode run tells
// the person why (the guard's reason, not OpenCode's "Unexpected server error"); an ordinary
// prompt goes through.
func TestOpenCodePromptGuard(t *testing.T) {
	o := openCodeWithPromptGuard(t)
	out := o.exec(t, "push with "+secretToken)
	if o.model.anySent(secretToken) {
		t.Errorf("the secret in the prompt reached the model; OpenCode printed:\n%s", out)
	}
	checkOpenCodeShows(t, out, "the prompt carries a secret: github-pat")
	logs, _ := filepath.Glob(filepath.Join(o.ws.home, ".local", "share", "opencode", "log", "*"))
	var found bool
	for _, f := range logs {
		b, _ := os.ReadFile(f)
		found = found || strings.Contains(string(b), "the prompt carries a secret")
		if strings.Contains(string(b), secretToken) {
			t.Errorf("OpenCode's log %s holds the secret", f)
		}
	}
	t.Logf("OpenCode printed:\n%s\nthe guard's reason in OpenCode's log: %v (%d files)", out, found, len(logs))
	o2 := openCodeWithPromptGuard(t)
	o2.exec(t, "refactor the parser")
	if !o2.model.anySent("refactor the parser") {
		t.Error("an ordinary prompt did not reach the model: the prompt guard blocks too much")
	}
}

// TestOpenCodeSessionHooks: with the plugin install writes, a Claude Code SessionStart hook (in
// ~/.claude/settings.json) runs through agenthooks run --agent opencode when OpenCode starts a
// session, and a Stop hook when the session goes idle; each gets Claude Code's payload. A Claude
// Code UserPromptSubmit hook that blocks drops the prompt, and opencode run prints the hook's reason.
func TestOpenCodeSessionHooks(t *testing.T) {
	o := newOpenCode(t)
	o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	writeJSONFile(t, filepath.Join(o.ws.home, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{
		"SessionStart": []any{group("", "cat > "+filepath.Join(o.ws.home, "started.json"))},
		"Stop":         []any{group("", "cat > "+filepath.Join(o.ws.home, "stopped.json"))},
	}})
	o.exec(t, "refactor the parser")
	if !o.model.anySent("refactor the parser") {
		t.Fatal("the prompt did not reach the model")
	}
	for _, c := range []struct{ file, event string }{{"started.json", "SessionStart"}, {"stopped.json", "Stop"}} {
		b, err := os.ReadFile(filepath.Join(o.ws.home, c.file))
		if err != nil {
			t.Errorf("the Claude Code %s hook did not run under OpenCode: %v", c.event, err)
			continue
		}
		if s := string(b); !strings.Contains(s, `"hook_event_name":"`+c.event+`"`) || !strings.Contains(s, `"session_id":"ses_`) {
			t.Errorf("the %s hook read %s", c.event, s)
		}
	}

	o2 := newOpenCode(t)
	o2.ws.agenthooksEnv(t, o2.env(), "install", "--agent", "opencode")
	writeJSONFile(t, filepath.Join(o2.ws.home, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{
		"UserPromptSubmit": []any{group("", `grep -q deploy && { echo "no deploys today" >&2; exit 2; }; exit 0`)},
	}})
	out := o2.exec(t, "deploy the parser")
	if o2.model.anySent("deploy the parser") {
		t.Error("a prompt a Claude Code UserPromptSubmit hook blocked reached the model")
	}
	checkOpenCodeShows(t, out, "no deploys today")
}

// checkOpenCodeShows fails unless what opencode run printed after the plugin dropped a prompt
// holds reason, and not the "Unexpected server error" OpenCode prints for an error it does not
// know.
func checkOpenCodeShows(t *testing.T, out, reason string) {
	t.Helper()
	if !strings.Contains(out, reason) || strings.Contains(out, "Unexpected server error") {
		t.Errorf("OpenCode did not show the person why the prompt was dropped (want %q); it printed:\n%s", reason, out)
	}
}

// TestOpenCodePromptFailsClosed: inside OpenCode, a plugin whose agenthooks is missing drops the
// prompt on chat.message (nothing reaches the model: fail closed, and opencode run says why), while the same failure on the
// session events alone changes nothing (the prompt reaches the model).
func TestOpenCodePromptFailsClosed(t *testing.T) {
	o := newOpenCode(t)
	missing := filepath.Join(o.ws.home, "no-such-agenthooks")
	o.plugin(t, missing, dialect.InstallEntry{Event: opencode.ChatMessage, Args: "run --agent opencode --fail-closed chat.message"})
	out := o.exec(t, "refactor the parser")
	if o.model.anySent("refactor the parser") {
		t.Error("the prompt reached the model although the plugin's agenthooks is missing")
	}
	checkOpenCodeShows(t, out, "the OpenCode plugin fails closed): agenthooks could not be run")
	o2 := newOpenCode(t)
	o2.plugin(t, filepath.Join(o2.ws.home, "no-such-agenthooks"),
		dialect.InstallEntry{Event: opencode.SessionCreated, Args: "run --agent opencode session.created"},
		dialect.InstallEntry{Event: opencode.SessionIdle, Args: "run --agent opencode session.idle"})
	o2.exec(t, "refactor the parser")
	if !o2.model.anySent("refactor the parser") {
		t.Error("a failure on the session events kept the prompt from the model")
	}
}

// TestOpenCodePromptGuardTUI: in OpenCode's TUI (run in tmux), a prompt the prompt guard drops
// shows the guard's reason in the "Failed to send prompt" toast, not "Unexpected server error",
// and the secret does not reach the model.
func TestOpenCodePromptGuardTUI(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: the TUI is not driven")
	}
	o := openCodeWithPromptGuard(t)
	var script strings.Builder
	script.WriteString("#!/bin/sh\ncd " + shellQuote(o.ws.dir) + " || exit 1\nexec env -i")
	for _, e := range append(append(o.ws.baseEnv(t), o.env()...), "TERM=xterm-256color") {
		script.WriteString(" " + shellQuote(e))
	}
	script.WriteString(" " + shellQuote(o.bin) + "\n")
	start := filepath.Join(o.ws.home, "start-opencode.sh")
	if err := os.WriteFile(start, []byte(script.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(t.TempDir(), "tmux")
	tm := func(args ...string) string {
		out, _ := exec.Command(tmux, append([]string{"-S", socket}, args...)...).CombinedOutput()
		return string(out)
	}
	screen := func() string { return tm("capture-pane", "-p", "-t", "oc") }
	// wait polls the screen for up to d until it holds s.
	wait := func(s string, d time.Duration) bool {
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
			if strings.Contains(screen(), s) {
				return true
			}
		}
		return false
	}
	t.Cleanup(func() { tm("kill-server") })
	tm("new-session", "-d", "-s", "oc", "-x", "150", "-y", "40", start)
	if !wait("Ask anything", 90*time.Second) {
		t.Fatalf("OpenCode's TUI did not start; the screen:\n%s", screen())
	}
	prompt := "push with " + secretToken
	tm("send-keys", "-t", "oc", "-l", prompt)
	if !wait(secretToken, 10*time.Second) {
		t.Fatalf("the prompt was not typed; the screen:\n%s", screen())
	}
	// an Enter that comes while the TUI still takes in the typed text can be lost: press it
	// again until the prompt is sent (an Enter in an empty box does nothing)
	for i := 0; i < 3; i++ {
		tm("send-keys", "-t", "oc", "Enter")
		if wait("Failed to send prompt", 5*time.Second) {
			break
		}
	}
	got := screen()
	if !strings.Contains(got, "Blocked by agenthooks: the prompt carries a secret") || strings.Contains(got, "Unexpected server error") {
		t.Errorf("OpenCode's TUI did not show why the prompt was dropped; the screen:\n%s", got)
	}
	if o.model.anySent(secretToken) {
		t.Error("the secret in the prompt reached the model")
	}
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
