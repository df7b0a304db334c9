package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestSharedProblems: a file of Copilot CLI's hooks folder, which VS Code runs as its own too, is
// checked as VS Code reads it as well, each problem once, at its file:line:col; a file of
// Claude Code's (VS Code runs it only with a setting) and install's own file are not.
func TestSharedProblems(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	hooks := filepath.Join(home, ".copilot", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(hooks, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mine := write("mine.json", "{\"version\": 1, \"hooks\": {\n  \"preToolUse\": [{\"type\": \"command\", \"bash\": \"./c.sh\", \"powershell\": \"c.ps1\", \"matcher\": \"bash\"}]\n}}\n")
	own := write("agenthooks.json", `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/bin/agenthooks guard bash --fail-closed --agent copilot","powershell":"& 'C:\\bin\\agenthooks.exe' guard bash --fail-closed --agent copilot","matcher":"bash|create|edit"}]}}`)
	claude := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./c.sh"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Load([]Candidate{{Layer: User, Path: mine, Family: "copilot"}, {Layer: User, Path: own, Family: "copilot"}, {Layer: User, Path: claude, Family: dialect.Claude}}, nil)
	if len(cfg.Files) != 3 {
		t.Fatalf("loaded %d files", len(cfg.Files))
	}
	for _, f := range cfg.Files {
		names := ""
		for _, a := range AlsoReadBy(f) {
			names += string(a.Name)
		}
		if want := map[string]string{mine: "vscode", own: "vscode", claude: ""}[f.Source.File]; names != want {
			t.Errorf("AlsoReadBy(%s) = %q, want %q", f.Source.File, names, want)
		}
	}
	got := cfg.SharedProblems()
	if len(got) != 1 || got[0].Pos.File != mine || got[0].Pos.Line != 2 || !strings.Contains(got[0].Message, "VS Code ignores matchers") {
		t.Fatalf("SharedProblems = %v, want VS Code's one warning about mine.json:2's matcher", got)
	}
}
