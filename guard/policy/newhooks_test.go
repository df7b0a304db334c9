package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
)

// A hook, plugin or tool the agent plants where an agent program loads it runs later, outside
// every guard: the folders and patterns are protected for files that do not exist yet, through
// the file tools and the shell alike; reading them, and ordinary files beside them, are not.
func TestNewHookFilesProtected(t *testing.T) {
	ctx, home := protectedHome(t)
	proj := ctx.Project
	g := guard.Default()
	for _, c := range []struct {
		file string
		want policy.Decision
	}{
		{proj + "/.clinerules/hooks/TaskStart", policy.Deny},
		{proj + "/.cline/hooks/PreToolUse", policy.Deny},
		{home + "/Documents/Cline/Hooks/pretooluse.sh", policy.Deny},
		{home + "/.cline/hooks/PreToolUse", policy.Deny},
		{home + "/.kiro/hooks/zz.json", policy.Deny},
		{home + "/.kiro/hooks/zz.kiro.hook", policy.Deny},
		{proj + "/.kiro/agents/default.json", policy.Deny},
		{proj + "/.kiro/hooks/evil.json", policy.Deny},
		{proj + "/.github/hooks/zz.json", policy.Deny},
		{home + "/.copilot/hooks/zz.json", policy.Deny},
		{proj + "/.opencode/plugin/zz.js", policy.Deny},
		{proj + "/.opencode/plugins/zz.ts", policy.Deny},
		{proj + "/.opencode/tool/zz.ts", policy.Deny},
		{proj + "/.opencode/tools/pkg/index.js", policy.Deny},
		{home + "/.config/opencode/plugins/zz.js", policy.Deny},
		{home + "/.config/opencode/tools/zz.js", policy.Deny},
		{home + "/.cursor/managed/team_x/hooks/hooks.json", policy.Deny},
		{home + "/.claude/plugins/cache/m/p/1.0.0/hooks/hooks.json", policy.Deny},
		{home + "/.gemini/extensions/x/gemini-extension.json", policy.Deny},
		{proj + "/.gemini/extensions/x/hooks/hooks.json", policy.Deny},
		// beside them, ordinary files
		{proj + "/.github/workflows/ci.yml", policy.Allow},
		{proj + "/.github/hooks.md", policy.Allow},
		{proj + "/.clinerules/style.md", policy.Allow},
		{proj + "/.opencode/opencode.json.bak", policy.Allow},
		{proj + "/.kiro/steering/product.md", policy.Allow},
		{home + "/.ssh/id_ed25519.pub", policy.Allow},
	} {
		if v := g.CheckEdit("Write", []string{c.file}, ctx); v.Decision != c.want {
			t.Errorf("Write %s: %s (%s), want %s", c.file, v.Decision, v.Reason, c.want)
		}
	}
	for _, c := range []struct {
		cmd  string
		want policy.Decision
	}{
		{"printf x > .kiro/hooks/evil.json", policy.Deny},
		{"> .clinerules/hooks/TaskStart", policy.Deny},
		{"echo 'export default {}' > .opencode/plugin/evil.js", policy.Deny},
		{"printf '{}' > .github/hooks/evil.json", policy.Deny},
		{"cp /tmp/x.sh ~/.cline/hooks/PreToolUse", policy.Deny},
		{"cp /tmp/x.js .opencode/plugins/", policy.Deny},
		{"mv /tmp/evil.json ~/.kiro/hooks/", policy.Deny},
		{"tee ~/Documents/Cline/Hooks/TaskStart < /tmp/x", policy.Deny},
		{"rm -rf .opencode/plugins", policy.Deny},
		{"mkdir -p .opencode/plugins/evil", policy.Deny},
		// reading, making the folder itself, ordinary files and cleanups stay silent
		{"cat .kiro/hooks/agenthooks.json", policy.Allow},
		{"ls .clinerules/hooks .opencode/plugin", policy.Allow},
		{"mkdir -p .opencode/plugins", policy.Allow},
		{"echo x > .github/workflows/ci.yml", policy.Allow},
		{"find . -name '*.pyc' -delete", policy.Allow},
		{"echo x > ~/.ssh/id_rsa.pub", policy.Allow},
	} {
		if v := g.Check(c.cmd, ctx); v.Decision != c.want {
			t.Errorf("%q: %s (%s), want %s", c.cmd, v.Decision, v.Reason, c.want)
		}
	}
}

// VS Code's settings switch its hooks off (chat.useHooks, chat.useClaudeHooks) or move them
// (chat.hookFilesLocations). An agent's file tool may change a settings file whose text before
// and after names none of them; one that names one, before or after, is denied, and so is any
// change the guard cannot see (an edit whose result is unknown, a shell write).
func TestVSCodeHookSwitches(t *testing.T) {
	ctx, home := protectedHome(t)
	proj := ctx.Project
	ws := proj + "/.vscode/settings.json"
	user := home + "/.config/Code/User/settings.json"
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte(`{"chat.useHooks": true, "editor.tabSize": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A profile's settings and a .code-workspace are read once a person picks them: those that
	// exist are protected.
	profile := home + "/.config/VSCodium/User/profiles/1a2b/settings.json"
	for _, f := range []string{profile, proj + "/app.code-workspace"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(`{}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(ws), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ws, []byte(`{"editor.rulers": [80], "a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx.Protected = config.ProtectedPaths(config.Env{Home: home, Workspaces: []string{proj}, GOOS: "linux"}, nil, nil) // the Linux settings layout, on every OS
	read := func(f string) ([]byte, error) { return os.ReadFile(f) }
	for _, c := range []struct {
		name  string
		file  string
		input map[string]any
		want  policy.Decision
	}{
		{"a new workspace file moving the hooks", ws, map[string]any{"content": `{"chat.hookFilesLocations": {"~/.copilot/hooks": false}}`}, policy.Deny},
		{"switching them off", home + "/.config/Code - Insiders/User/settings.json", map[string]any{"content": `{"chat.useHooks": false}`}, policy.Deny},
		{"Claude Code's hooks off", user, map[string]any{"content": `{"chat.useClaudeHooks": false}`}, policy.Deny},
		{"in a profile", profile, map[string]any{"content": `{"chat.useHooks": false}`}, policy.Deny},
		{"in a .code-workspace", proj + "/app.code-workspace", map[string]any{"content": `{"settings": {"chat.useHooks": false}}`}, policy.Deny},
		{"a key spelled with escapes", ws, map[string]any{"content": `{"chat.use\u0048ooks": false}`}, policy.Deny},
		{"a value changed beside the key", user, map[string]any{"old_string": "true", "new_string": "false"}, policy.Deny},
		{"an ordinary edit of a file that names a key", user, map[string]any{"old_string": "2", "new_string": "4"}, policy.Deny},
		{"an edit the guard cannot follow", ws, map[string]any{"command": "insert", "insert_line": 1.0, "new_str": "x"}, policy.Deny},
		{"an ordinary workspace setting", ws, map[string]any{"content": `{"editor.formatOnSave": true}`}, policy.Allow},
		{"an ordinary edit", ws, map[string]any{"old_string": "a", "new_string": "b"}, policy.Allow},
		{"an edit of a user settings file that is not there", home + "/.config/VSCodium/User/settings.json", map[string]any{"old_string": "a", "new_string": "b"}, policy.Deny},
		{"another JSON file", proj + "/.vscode/launch.json", map[string]any{"content": `{"chat.useHooks": false}`}, policy.Allow},
		{"a new .code-workspace, read only once a person opens it", proj + "/new.code-workspace", map[string]any{"content": `{"folders": [{"path": "."}]}`}, policy.Allow},
	} {
		v := g().CheckEditText("Write", []string{c.file}, guard.EditText(c.input, read), ctx)
		if v.Decision != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Decision, v.Reason, c.want)
		}
	}
	// Without the call's text (CheckEdit) every change is denied, as it is from the shell.
	if v := g().CheckEdit("Write", []string{ws}, ctx); v.Decision != policy.Deny {
		t.Errorf("CheckEdit of %s: %s, want deny", ws, v.Decision)
	}
	for _, cmd := range []string{`printf '{"chat.useHooks":false}' > .vscode/settings.json`, "sed -i s/true/false/ ~/.config/Code/User/settings.json",
		"rm .vscode/settings.json", "cp /tmp/s.json ~/.config/Code/User/settings.json"} {
		if v := g().Check(cmd, ctx); v.Decision != policy.Deny {
			t.Errorf("%q: %s (%s), want deny", cmd, v.Decision, v.Reason)
		}
	}
	for _, cmd := range []string{"cat .vscode/settings.json", "code .vscode/settings.json"} {
		if v := g().Check(cmd, ctx); v.Decision != policy.Allow {
			t.Errorf("%q: %s (%s), want allow", cmd, v.Decision, v.Reason)
		}
	}
}

func g() *guard.Guard { return guard.Default() }
