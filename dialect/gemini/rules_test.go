package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestGeminiPrefix: a command prefix names a whole word, as Gemini CLI matches it.
func TestGeminiPrefix(t *testing.T) {
	for _, c := range []struct {
		text, prefix string
		want         bool
	}{
		{"git push origin", "git", true}, {"git", "git", true}, {"github", "git", false},
		{"git push", "git push", true}, {"git pushx", "git push", false}, {"ls", "", true},
	} {
		if got := commandPrefix(c.text, c.prefix); got != c.want {
			t.Errorf("commandPrefix(%q, %q) = %v", c.text, c.prefix, got)
		}
	}
}

// FuzzGeminiRules: any policy or settings file is read into a match, no match, or "cannot be
// read"; never a panic.
func FuzzGeminiRules(f *testing.F) {
	for _, s := range []string{
		"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"git push\", \"rm\"]\ndecision = \"deny\"\npriority = 1\n",
		"[[rule]]\ntoolName = [\"*\"]\ncommandRegex = \"l[s\"\ndecision = \"ask_user\"\n",
		"[[rule]]\nargsPattern = '\"command\":\"ls'\ndecision = \"deny\"\n[[rule]]\nmcpName = \"x\"\ndecision = \"deny\"\n",
		`{"tools": {"exclude": ["run_shell_command(ls)", 3, null]}, "excludeTools": ["ShellTool"]}`,
		"{// c\n\"excludeTools\": [\"run_shell_command(\"]}", "[[rule]", "",
	} {
		f.Add([]byte(s))
	}
	texts := []string{`"$(ls ./x.s?)"`, "ls ./x.s?"}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		file := dir + "/p.toml"
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_ = policyFor(file, texts)
		settings := dir + "/settings.json"
		if err := os.WriteFile(settings, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_ = excludeFor(settings, texts)
		if len(dialect.StripJSONComments(data)) != len(data) {
			t.Fatal("stripJSONComments changed the length")
		}
	})
}

// TestGeminiUserRulesInUserDir: the user's settings and policies are read from the user folder
// the query names (where GEMINI_CLI_HOME moves ~/.gemini), not from ~/.gemini.
func TestGeminiUserRulesInUserDir(t *testing.T) {
	home, moved, sys := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(moved, "settings.json"), []byte(`{"tools": {"exclude": ["run_shell_command(terraform destroy)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(moved, "policies"), 0o755); err != nil {
		t.Fatal(err)
	}
	policy := "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 1\n"
	if err := os.WriteFile(filepath.Join(moved, "policies", "p.toml"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "GEMINI_CLI_SYSTEM_SETTINGS_PATH" {
			return filepath.Join(sys, "settings.json")
		}
		return ""
	}
	t.Setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "")
	query := func(cmd string, words ...string) dialect.RulesQuery {
		return dialect.RulesQuery{Command: cmd, Calls: []dialect.RulesCall{{Words: words}}, Home: home, UserDir: moved, Getenv: getenv}
	}
	if got := ownRules(query("terraform destroy -auto-approve", "terraform", "destroy", "-auto-approve")); !strings.Contains(got, filepath.Join(moved, "settings.json")) {
		t.Errorf("the moved settings' exclude: got %q", got)
	}
	if got := ownRules(query("git push origin", "git", "push", "origin")); !strings.Contains(got, filepath.Join(moved, "policies", "p.toml")) {
		t.Errorf("the moved policies: got %q", got)
	}
	q := query("git push origin", "git", "push", "origin")
	q.UserDir = filepath.Join(home, ".gemini")
	if got := ownRules(q); got != "" {
		t.Errorf("the moved folder's rules were read for ~/.gemini: %q", got)
	}
}
