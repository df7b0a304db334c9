package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
)

// TestEmptyHomeIgnoresAPlantedTrustStore: an embedder that leaves Env.Home empty, running in a
// repository that carries its own .agenthooks/trust.json (trusting itself, with the right
// digests), does not run the repository's hooks: the store is the user's, never the working
// directory's.
func TestEmptyHomeIgnoresAPlantedTrustStore(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // os.UserHomeDir's variable on Windows
	t.Chdir(repo)
	marker := filepath.Join(t.TempDir(), "repo-hook-ran")
	hooks := []byte(hooksOf("beforeShellExecution", "touch "+marker))
	if err := os.MkdirAll(filepath.Join(repo, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".cursor", "hooks.json"), hooks, 0o644); err != nil {
		t.Fatal(err)
	}
	canon, _ := config.Canonical(repo)
	dir, _ := json.Marshal(canon) // a Windows path's backslashes, escaped
	planted := `{"version":2,"trusted":[{"dir":` + string(dir) + `,"at":"2025-01-01T00:00:00Z","files":{".cursor/hooks.json":"` + config.Digest(hooks) + `"}}]}`
	if err := os.MkdirAll(filepath.Join(repo, ".agenthooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".agenthooks", "trust.json"), []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err := Load(Options{Env: config.Env{EnterpriseDir: filepath.Join(home, "none"), ClaudeManagedDir: filepath.Join(home, "none"), Workspaces: []string{repo}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Fire(context.Background(), Event{Name: "beforeShellExecution", Payload: []byte(`{"command":"ls"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's hook ran under its own planted trust store")
	}
	if u := eng.Config().Untrusted(); len(u) != 1 || u[0].Source.Untrusted.Code != config.UntrustWorkspace {
		t.Fatalf("untrusted files: %+v", u)
	}

	// The same file in the user's own store is trusted: the default home is the user's.
	if err := os.MkdirAll(filepath.Join(home, ".agenthooks"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".agenthooks", "trust.json"), []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err = Load(Options{Env: config.Env{EnterpriseDir: filepath.Join(home, "none"), ClaudeManagedDir: filepath.Join(home, "none"), Workspaces: []string{repo}}})
	if err != nil || len(eng.Config().Untrusted()) != 0 {
		t.Fatalf("the user's store: %v %+v", err, eng.Config().Untrusted())
	}
}

func TestRelativeHomeIsRefused(t *testing.T) {
	t.Parallel()
	_, err := Load(Options{Env: config.Env{Home: "home"}})
	if err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("got %v", err)
	}
}
