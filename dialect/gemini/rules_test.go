package gemini

import (
	"os"
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
