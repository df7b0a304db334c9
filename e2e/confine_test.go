package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/confine"
)

// TestClaudeConfine: in the real Claude Code, with the shell guard registered and the default
// policy (confine.mode ask), a command the guard would ask about (./x.sh, not on
// the allowlist) runs confined instead: its write in the project is done, its write outside
// (a canary in the home folder) fails, and the model sees why; an ordinary command in the same
// session runs as usual.
func TestClaudeConfine(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps asking instead of confining")
	}
	c := newClaude(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(c.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// As agenthooks install registers it: the guard and the runner, which does not run the
	// guard a second time (it would ask in Cursor's form, which cannot rewrite).
	c.ws.agenthooks(t, "install", "--agent", "claude")
	c.exec(t, "please run it")
	if !c.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing); requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if _, err := os.Stat(filepath.Join(c.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the confined command wrote outside the project: %v", err)
	}
	if !c.model.anySent("canary-outside") || !c.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
	log := c.ws.agenthooks(t, "log", "--audit", c.ws.audit, "--agent", "claude", "--json")
	if !strings.Contains(log, "runs confined") {
		t.Errorf("the audit trail does not say the command ran confined:\n%s", log)
	}
}

// TestCodexConfine: the same in the real Codex CLI.
func TestCodexConfine(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	c := newCodex(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(c.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c.hooks(t, map[string]any{"PreToolUse": []any{group("Bash", "agenthooks guard bash")}})
	c.exec(t, "please run it")
	if !c.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing)")
	}
	if _, err := os.Stat(filepath.Join(c.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the command wrote outside the project: %v", err)
	}
	if !c.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed")
	}
	if !c.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}

// TestGeminiConfine: the same in the real Gemini CLI, whose BeforeTool hook rewrites the call
// with hookSpecificOutput.tool_input.
func TestGeminiConfine(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	g := newGemini(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(g.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	g.settings(t, map[string]any{"BeforeTool": []any{geminiGroup("run_shell_command", "agenthooks guard bash")}})
	g.exec(t, "please run it")
	if !g.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing)")
	}
	if _, err := os.Stat(filepath.Join(g.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the command wrote outside the project: %v", err)
	}
	if !g.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed")
	}
	if !g.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}

// askedScript runs ./x.sh by a name the guard cannot know before it runs (ls computes it), so
// the guard asks, and the ask runs confined; ./x.sh written plainly would be read and judged by
// its commands instead.
const askedScript = `"$(ls ./x.s?)"`

// TestCodexConfineOwnRules: a Codex rule (~/.codex/rules) that forbids a command in the call
// keeps the guard from rewriting it: the rewritten command would no longer match the rule. The
// guard keeps its own answer (Codex cannot ask: a deny that names the rule), and ./x.sh does not
// run, confined or not.
func TestCodexConfineOwnRules(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	c := newCodex(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\n"
	if err := os.WriteFile(filepath.Join(c.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(c.home(), "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	rule := "prefix_rule(pattern = [\"ls\"], decision = \"forbidden\", justification = \"no listing here\")\n"
	if err := os.WriteFile(filepath.Join(c.home(), "rules", "default.rules"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	c.hooks(t, map[string]any{"PreToolUse": []any{group("Bash", "agenthooks guard bash")}})
	c.exec(t, "please run it")
	if c.ws.exists("inside-ran") {
		t.Errorf("./x.sh ran although a Codex rule forbids a command in the call")
	}
	if !c.model.anySent("not confined: Codex's own rule prefix_rule ls (forbidden)") {
		t.Errorf("the model never saw why; requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if !c.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}

// TestCodexConfineRunner: with only the runner registered (agenthooks run --agent codex), the
// guard runs inside it, from the embedded default, and the runner answers Codex with the
// rewrite: the command runs confined where it was denied before for want of asking.
func TestCodexConfineRunner(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	c := newCodex(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(c.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c.hooks(t, map[string]any{"PreToolUse": []any{group("", "agenthooks run --agent codex PreToolUse")}})
	c.exec(t, "please run it")
	if !c.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing); requests:\n%s", strings.Join(c.model.sent(), "\n---\n"))
	}
	if _, err := os.Stat(filepath.Join(c.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the command wrote outside the project: %v", err)
	}
	if !c.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed")
	}
	if !c.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}

// TestGeminiConfineRunner: the same as TestCodexConfineRunner in the real Gemini CLI: with only
// the runner registered, the runner answers BeforeTool with the rewrite in tool_input.
func TestGeminiConfineRunner(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	g := newGemini(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(g.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	g.settings(t, map[string]any{"BeforeTool": []any{geminiGroup("", "agenthooks run --agent gemini BeforeTool")}})
	g.exec(t, "please run it")
	if !g.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing); requests:\n%s", strings.Join(g.model.sent(), "\n---\n"))
	}
	if _, err := os.Stat(filepath.Join(g.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the command wrote outside the project: %v", err)
	}
	if !g.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed")
	}
	if !g.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}

// TestDroidConfine: the same in the real Factory Droid, with the guard as agenthooks install
// --agent droid registers it: PreToolUse's allow with updatedInput runs the confined command.
func TestDroidConfine(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	d := newDroid(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(d.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	d.ws.agenthooksEnv(t, d.env(), "install", "--agent", "droid")
	d.exec(t, "please run it")
	if !d.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing); requests:\n%s", strings.Join(d.model.sent(), "\n---\n"))
	}
	if _, err := os.Stat(filepath.Join(d.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the confined command wrote outside the project: %v", err)
	}
	if !d.model.anySent("canary-outside") || !d.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed; requests:\n%s", strings.Join(d.model.sent(), "\n---\n"))
	}
	if !d.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
	log := d.ws.agenthooks(t, "log", "--audit", d.ws.audit, "--agent", "droid", "--json")
	if !strings.Contains(log, "runs confined") {
		t.Errorf("the audit trail does not say the command ran confined:\n%s", log)
	}
}

// TestDroidConfineOwnRules: an entry of Droid's own commandDenylist (~/.factory/settings.json)
// that names a command in the call keeps the guard from rewriting it: the rewrite, an allow,
// would skip the question Droid asks for it. The guard keeps its answer (Droid cannot be asked
// from a hook: a deny that names the entry), and ./x.sh does not run, confined or not.
func TestDroidConfineOwnRules(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	d := newDroid(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\n"
	if err := os.WriteFile(filepath.Join(d.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	d.ws.agenthooksEnv(t, d.env(), "install", "--agent", "droid")
	settings := filepath.Join(d.ws.home, ".factory", "settings.json")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s["commandDenylist"] = []any{"ls"}
	writeJSONFile(t, settings, s)
	d.exec(t, "please run it")
	if d.ws.exists("inside-ran") {
		t.Errorf("./x.sh ran although Droid's commandDenylist names a command in the call")
	}
	if !d.model.anySent("not confined: Droid's own commandDenylist entry") {
		t.Errorf("the model never saw why; requests:\n%s", strings.Join(d.model.sent(), "\n---\n"))
	}
	if !d.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}

// TestOpenCodeConfine: the same in the real OpenCode, with the plugin agenthooks install --agent
// opencode writes: the plugin puts the guard's "args" in place of the bash tool's arguments, and
// OpenCode runs the confined command.
func TestOpenCodeConfine(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	o := newOpenCode(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\ntouch \"$HOME/canary-outside\"\n"
	if err := os.WriteFile(filepath.Join(o.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	o.exec(t, "please run it")
	if !o.ws.exists("inside-ran") {
		t.Errorf("./x.sh did not run (its write in the project is missing); requests:\n%s", strings.Join(o.model.sent(), "\n---\n"))
	}
	if _, err := os.Stat(filepath.Join(o.ws.home, "canary-outside")); !os.IsNotExist(err) {
		t.Errorf("the confined command wrote outside the project: %v", err)
	}
	if !o.model.anySent("canary-outside") || !o.model.anySent("Permission denied") {
		t.Errorf("the model never saw why the write outside failed; requests:\n%s", strings.Join(o.model.sent(), "\n---\n"))
	}
	if !o.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
	log := o.ws.agenthooks(t, "log", "--audit", o.ws.audit, "--agent", "opencode", "--json")
	if !strings.Contains(log, "runs confined") {
		t.Errorf("the audit trail does not say the command ran confined:\n%s", log)
	}
}

// TestOpenCodeConfineOwnRules: an ask rule of OpenCode's own (permission.bash in
// ~/.config/opencode/opencode.json) that names a command in the call keeps the guard from
// rewriting it: OpenCode applies its rules to the command it runs, which a rewrite would no
// longer match. The guard keeps its answer (the plugin cannot ask: a deny that names the rule),
// and ./x.sh does not run, confined or not.
func TestOpenCodeConfineOwnRules(t *testing.T) {
	if abi := confine.ABI(); abi < 1 {
		t.Skip("this kernel has no Landlock: the guard keeps its answer instead of confining")
	}
	o := newOpenCode(t, askedScript, ordinary)
	script := "#!/bin/sh\ntouch inside-ran\n"
	if err := os.WriteFile(filepath.Join(o.ws.dir, "x.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o.ws.agenthooksEnv(t, o.env(), "install", "--agent", "opencode")
	config := filepath.Join(o.ws.home, ".config", "opencode", "opencode.json")
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	c["permission"] = map[string]any{"bash": map[string]any{"*": "allow", "ls *": "ask"}}
	writeJSONFile(t, config, c)
	o.exec(t, "please run it")
	if o.ws.exists("inside-ran") {
		t.Errorf("./x.sh ran although OpenCode's own permission rule names a command in the call")
	}
	if !o.model.anySent("not confined: OpenCode's own permission rule") {
		t.Errorf("the model never saw why; requests:\n%s", strings.Join(o.model.sent(), "\n---\n"))
	}
	if !o.ws.exists("hello.txt") {
		t.Error("the ordinary command did not run")
	}
}
