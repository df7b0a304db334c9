package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestProjectDistrustWorktree: a linked worktree's project is trusted through its main checkout's
// entry only when the main checkout registers the worktree; a .git file that merely names a
// trusted checkout borrows nothing.
func TestProjectDistrustWorktree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	main, wt, codexHome := filepath.Join(dir, "main"), filepath.Join(dir, "wt"), filepath.Join(dir, "codex")
	for _, d := range []string{filepath.Join(main, ".git", "worktrees", "wt"), filepath.Join(wt, ".codex"), codexHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(main, ".git", "worktrees", "wt")+"\n")
	write(filepath.Join(wt, ".codex", "hooks.json"), `{"hooks":{}}`)
	write(filepath.Join(codexHome, "config.toml"), "[projects.'"+main+"']\ntrust_level = \"trusted\"\n")
	env := dialect.DoctorEnv{Home: dir, Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return codexHome
		}
		return ""
	}}
	file := filepath.Join(wt, ".codex", "hooks.json")
	if why := projectDistrust(env, file); !strings.Contains(why, "is not trusted") {
		t.Fatalf("an unregistered worktree borrowed its main checkout's trust: %q", why)
	}
	write(filepath.Join(main, ".git", "worktrees", "wt", "gitdir"), filepath.Join(wt, ".git")+"\n")
	if why := projectDistrust(env, file); why != "" {
		t.Fatalf("a registered worktree of a trusted checkout: %q", why)
	}
	if why := projectDistrust(env, filepath.Join(codexHome, "hooks.json")); why != "" {
		t.Fatalf("the user's own file: %q", why)
	}
}
