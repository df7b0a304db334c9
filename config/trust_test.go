package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// trustFixture is a workspace with a Cursor and a Claude Code project file, and a store.
func trustFixture(t *testing.T) (ws string, store *TrustStore, env Env) {
	t.Helper()
	dir := t.TempDir()
	ws = filepath.Join(dir, "ws")
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".cursor/hooks.json", `{"version":1,"hooks":{"stop":[{"command":"project"}]}}`)
	write(".claude/settings.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"claude-project"}]}]}}`)
	store = &TrustStore{Path: filepath.Join(dir, "home", ".agenthooks", "trust.json")}
	return ws, store, Env{Home: filepath.Join(dir, "home"), EnterpriseDir: filepath.Join(dir, "ent"), ClaudeManagedDir: filepath.Join(dir, "ent"), Workspaces: []string{ws}}
}

// untrusted returns the untrusted files' names relative to ws with their codes.
func untrusted(cfg *Config, ws string) []string {
	var out []string
	for _, f := range cfg.Untrusted() {
		out = append(out, relKey(ws, f.Source.File)+"="+f.Source.Untrusted.Code)
	}
	slices.Sort(out)
	return out
}

func TestTrustIsBoundToContent(t *testing.T) {
	t.Parallel()
	ws, store, env := trustFixture(t)
	cands := CandidatesOf(env)
	if got := untrusted(Load(cands, store.Check()), ws); strings.Join(got, " ") != ".claude/settings.json=workspace_not_trusted .cursor/hooks.json=workspace_not_trusted" {
		t.Fatalf("before trust: %v", got)
	}
	if changed, err := store.Trust(ws); err != nil || !changed {
		t.Fatal(changed, err)
	}
	if got := untrusted(Load(cands, store.Check()), ws); len(got) != 0 {
		t.Fatalf("after trust: %v", got)
	}
	if st, err := os.Stat(store.Path); err != nil || !private(st) {
		t.Fatalf("store mode: %v %v", st.Mode(), err)
	}

	// An agent rewrites one file and adds another: both stop being used, the rest still runs.
	if err := os.WriteFile(filepath.Join(ws, ".cursor", "hooks.json"), []byte(`{"version":1,"hooks":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".claude", "settings.local.json"), []byte(`{"disableAllHooks":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Load(cands, store.Check())
	if got := untrusted(cfg, ws); strings.Join(got, " ") != ".claude/settings.local.json=file_new .cursor/hooks.json=file_changed" {
		t.Fatalf("after tampering: %v", got)
	}
	if got := cfg.HooksFor("claude", "Stop", ""); len(got) != 1 || got[0].Command != "claude-project" {
		t.Fatalf("the unchanged file must still run, and the new disableAllHooks must not: %+v", got)
	}
	for _, f := range cfg.Untrusted() {
		if f.Source.Untrusted.Quiet() || !strings.Contains(f.Source.Untrusted.Message, "agenthooks trust "+ws) {
			t.Fatalf("message: %+v", f.Source.Untrusted)
		}
	}

	// The review shows each change; recording it trusts the new content.
	if err := os.Remove(filepath.Join(ws, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	r, err := store.Review(ws)
	if err != nil {
		t.Fatal(err)
	}
	var changes []string
	for _, c := range r.Changes {
		kind := "changed"
		switch {
		case c.Old == "":
			kind = "new"
		case c.New == "":
			kind = "removed"
		}
		changes = append(changes, c.File+"="+kind)
	}
	if strings.Join(changes, " ") != ".cursor/hooks.json=changed .claude/settings.local.json=new .claude/settings.json=removed" {
		t.Fatalf("changes: %v", changes)
	}
	if changed, err := store.Record(r); err != nil || !changed {
		t.Fatal(changed, err)
	}
	if got := untrusted(Load(cands, store.Check()), ws); len(got) != 0 {
		t.Fatalf("after trusting again: %v", got)
	}
	if changed, err := store.Trust(ws); err != nil || changed {
		t.Fatalf("trusting an unchanged workspace again changed the store: %v %v", changed, err)
	}
}

func TestTrustStoreVersion1IsPerFolder(t *testing.T) {
	t.Parallel()
	ws, store, env := trustFixture(t)
	c, _ := Canonical(ws)
	v1 := `{"version":1,"trusted":[{"dir":` + quote(c) + `,"at":"2025-01-01T00:00:00Z"}]}`
	if err := WriteFileAtomic(store.Path, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	got := untrusted(Load(CandidatesOf(env), store.Check()), c)
	if strings.Join(got, " ") != ".claude/settings.json=trust_per_folder .cursor/hooks.json=trust_per_folder" {
		t.Fatalf("a version 1 record must trust no file: %v", got)
	}
	r, err := store.Review(ws)
	if err != nil || !r.Trusted || !r.Legacy || len(r.Changes) != 2 {
		t.Fatalf("review of a version 1 record: %+v %v", r, err)
	}
	if changed, err := store.Record(r); err != nil || !changed {
		t.Fatal(changed, err)
	}
	data, _ := os.ReadFile(store.Path)
	if !strings.Contains(string(data), `"version": 2`) || !strings.Contains(string(data), `".cursor/hooks.json": "sha256:`) {
		t.Fatalf("store after trusting again:\n%s", data)
	}
	if st, _ := os.Stat(store.Path); !private(st) {
		t.Fatalf("store mode %v", st.Mode())
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

func TestBrokenTrustStoreTrustsNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		plant func(path string) error
		want  string
	}{
		{"corrupt", func(p string) error { return os.WriteFile(p, []byte(`{"version":2,"trusted":[{`), 0o600) }, "corrupt"},
		{"newer", func(p string) error { return os.WriteFile(p, []byte(`{"version":3,"trusted":[]}`), 0o600) }, "version 3"},
		{"fifo", mkfifo, "not a regular file"},
		{"device", linkDevice, "not a regular file"},
		{"folder", func(p string) error { return os.Mkdir(p, 0o700) }, "not a regular file"},
		{"sparse", func(p string) error {
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				return err
			}
			return os.Truncate(p, 100<<20)
		}, "too large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ws, store, env := trustFixture(t)
			if _, err := store.Trust(ws); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(store.Path); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(store.Path); errors.Is(err, errNoSpecialFile) {
				t.Skip(err)
			} else if err != nil {
				t.Fatal(err)
			}
			done := make(chan *Config)
			go func() { done <- Load(CandidatesOf(env), store.Check()) }()
			var cfg *Config
			select {
			case cfg = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("loading blocked on the trust store")
			}
			u := cfg.Untrusted()
			if len(u) != 2 || u[0].Source.Untrusted.Code != UntrustStore || !strings.Contains(u[0].Source.Untrusted.Message, c.want) {
				t.Fatalf("got %d untrusted, first %+v", len(u), u[0].Source.Untrusted)
			}
			if _, err := store.Trust(ws); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("trust over a broken store: %v", err)
			}
		})
	}
}

func TestTrustStoreRefusesRelativePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(filepath.Join(ws, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(ws, ".cursor", "hooks.json"), []byte(`{"version":1,"hooks":{}}`), 0o644)
	for _, store := range []*TrustStore{NewTrustStore(""), NewTrustStore("rel"), {Path: ".agenthooks/trust.json"}} {
		if _, err := store.Trust(ws); err == nil || !strings.Contains(err.Error(), "not absolute") {
			t.Fatalf("%q: trust with a relative store: %v", store.Path, err)
		}
		if u := store.Check()(ws, filepath.Join(ws, ".cursor", "hooks.json"), []byte(`{"version":1,"hooks":{}}`)); u == nil || u.Code != UntrustStore {
			t.Fatalf("%q: check with a relative store: %+v", store.Path, u)
		}
	}
}

// TestProjectFilesFollowTheLoaders: the files trust covers are exactly the project and local
// candidates of every kind of config file, and the project policy.
func TestProjectFilesFollowTheLoaders(t *testing.T) {
	t.Parallel()
	ws := "/w"
	var want []string
	for _, c := range CandidatesOf(Env{Home: "/h", EnterpriseDir: "/e", ClaudeManagedDir: "/m", Workspaces: []string{ws}}) {
		if c.Workspace != "" {
			want = append(want, c.Path)
		}
	}
	want = append(want, filepath.Join(ws, ".agenthooks", "policy.yaml"))
	if got := ProjectFiles(ws); strings.Join(got, ",") != strings.Join(want, ",") || len(got) < 7 {
		t.Fatalf("ProjectFiles = %v, want %v", got, want)
	}
}

// FuzzTrustStore: any bytes in the store's place give an answer (trusted or a reason), never a
// panic, and trust a file only under a version 2 record of its digest.
func FuzzTrustStore(f *testing.F) {
	f.Add([]byte(`{"version":2,"trusted":[{"dir":"/w","at":"2025-01-01T00:00:00Z","files":{".cursor/hooks.json":"sha256:x"}}]}`))
	f.Add([]byte(`{"version":1,"trusted":[{"dir":"/w","files":{".cursor/hooks.json":"sha256:x"}}]}`))
	f.Add([]byte(`{"version":2,"trusted":null}`))
	f.Add([]byte(`[]`))
	content := []byte(`{"version":1,"hooks":{}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		store := &TrustStore{Path: filepath.Join(t.TempDir(), "trust.json")}
		if err := os.WriteFile(store.Path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		u := store.Check()("/w", "/w/.cursor/hooks.json", content)
		if u == nil {
			tf, err := store.read()
			if err != nil || tf.Version != trustVersion || tf.find("/w") == nil || tf.find("/w").Files[".cursor/hooks.json"] != Digest(content) {
				t.Fatalf("trusted under %q", data)
			}
		} else if u.Code == "" || u.Message == "" {
			t.Fatalf("reason without code or message: %+v", u)
		}
	})
}
