package teamsync_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/server"
	"github.com/agenthooks/agenthooks/teamsync"
)

// team is a server with team "core" published at version 1 and two member tokens.
type team struct {
	store   *server.Store
	srv     *httptest.Server
	key     string
	members [2]string
}

func newTeam(t *testing.T) *team {
	ctx := context.Background()
	store, err := server.OpenStore(ctx, "sqlite:"+filepath.Join(t.TempDir(), "server.db"))
	if err != nil {
		t.Fatal(err)
	}
	tm := &team{store: store, srv: httptest.NewServer(server.New(store, server.Options{Rate: 1000, Burst: 1000}).Handler())}
	t.Cleanup(func() { tm.srv.Close(); store.Close() })
	tt, err := store.CreateTeam(ctx, "core", "Core", "test")
	if err != nil {
		t.Fatal(err)
	}
	tm.key = tt.PublicKey
	tm.publish(t, map[string]string{
		"hooks.json":       `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./scripts/v1.sh"}]}}`,
		"scripts/v1.sh":    "#!/bin/sh\necho v1\n",
		"policy.yaml":      "version: 1\nshell:\n  unknown: allow\n",
		"scripts/extra.sh": "#!/bin/sh\n",
	})
	for i := range tm.members {
		tm.members[i], _, err = store.CreateToken(ctx, server.Member, "core", "machine", 0, "test")
		if err != nil {
			t.Fatal(err)
		}
	}
	return tm
}

func (tm *team) publish(t *testing.T, files map[string]string) {
	d := &server.Draft{}
	for p, c := range files {
		d.Files = append(d.Files, server.DraftFile{Path: p, Content: c})
	}
	ctx := context.Background()
	if err := tm.store.SaveDraft(ctx, "core", d, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.store.Publish(ctx, "core", "", 0, "test"); err != nil {
		t.Fatal(err)
	}
}

func (tm *team) sync(t *testing.T, url, home string, member int) *teamsync.Result {
	t.Helper()
	res, err := teamsync.Sync(context.Background(), teamsync.Options{Server: url, Team: "core", Token: tm.members[member],
		Key: tm.key, OS: "linux", Home: home, Machine: filepath.Base(home), AuditDB: audit.DefaultPath(home)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func read(t *testing.T, home, p string) string {
	data, err := os.ReadFile(filepath.Join(teamsync.HooksDir(home, "core"), p))
	if err != nil {
		return "<missing>"
	}
	return string(data)
}

// TestTwoMachines is the end-to-end run: two members sync, an admin publishes a new version,
// both have it after their next sync; a tampered or replayed bundle and a server that is down
// leave the last good bundle in place.
func TestTwoMachines(t *testing.T) {
	tm := newTeam(t)
	homes := []string{t.TempDir(), t.TempDir()}
	for i, h := range homes {
		res := tm.sync(t, tm.srv.URL, h, i)
		if !res.Changed || res.Version != 1 || res.Kept {
			t.Fatalf("first sync: %+v", res)
		}
		if got := read(t, h, "scripts/v1.sh"); got != "#!/bin/sh\necho v1\n" {
			t.Fatalf("v1.sh = %q", got)
		}
		if st, _ := os.Stat(filepath.Join(teamsync.HooksDir(h, "core"), "scripts", "v1.sh")); st.Mode()&0o111 == 0 {
			t.Fatal("script not executable")
		}
		if res := tm.sync(t, tm.srv.URL, h, i); res.Changed || res.Kept || res.Version != 1 {
			t.Fatalf("unchanged sync: %+v", res)
		}
	}

	tm.publish(t, map[string]string{
		"hooks.json":    `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./scripts/v2.sh"}]}}`,
		"scripts/v2.sh": "#!/bin/sh\necho v2\n",
	})
	for i, h := range homes {
		res := tm.sync(t, tm.srv.URL, h, i)
		if !res.Changed || res.Version != 2 {
			t.Fatalf("sync after publish: %+v", res)
		}
		if read(t, h, "scripts/v2.sh") != "#!/bin/sh\necho v2\n" || read(t, h, "scripts/v1.sh") != "<missing>" || read(t, h, "policy.yaml") != "<missing>" {
			t.Fatal("version 2 not installed exactly: files of version 1 left behind or v2.sh missing")
		}
	}

	// A man in the middle: every bundle the server sends is altered on the way, or replaced by
	// the version 1 archive it recorded earlier.
	var mode atomic.Value
	var v1 []byte
	mitm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequest(r.Method, tm.srv.URL+r.URL.RequestURI(), r.Body)
		req.Header = r.Header.Clone()
		req.Header.Del("If-None-Match")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Contains(r.URL.Path, "/bundle") {
			switch mode.Load() {
			case "flip":
				body[len(body)/2] ^= 0xff
			case "replay":
				body = v1
			}
		}
		w.WriteHeader(res.StatusCode)
		w.Write(body)
	}))
	defer mitm.Close()
	v1, _ = tm.store.Bundle(context.Background(), "core", 1, "linux")

	for _, m := range []string{"flip", "replay"} {
		mode.Store(m)
		res := tm.sync(t, mitm.URL, homes[0], 0)
		if !res.Kept || res.Version != 2 || !strings.Contains(res.Problem, "bundle refused") {
			t.Fatalf("%s: %+v", m, res)
		}
		if read(t, homes[0], "scripts/v2.sh") != "#!/bin/sh\necho v2\n" {
			t.Fatalf("%s: the last good bundle was not kept", m)
		}
	}

	// Someone edits an installed file: the next sync puts it back.
	os.WriteFile(filepath.Join(teamsync.HooksDir(homes[1], "core"), "scripts", "v2.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
	if res := tm.sync(t, tm.srv.URL, homes[1], 1); !res.Repaired || read(t, homes[1], "scripts/v2.sh") != "#!/bin/sh\necho v2\n" {
		t.Fatalf("tampered file not restored: %+v", res)
	}

	// The server is down.
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()
	if res := tm.sync(t, downURL, homes[0], 0); !res.Kept || !strings.Contains(res.Problem, "unreachable") || read(t, homes[0], "scripts/v2.sh") == "<missing>" {
		t.Fatalf("server down: %+v", res)
	}
}

func TestKeyPinning(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	o := teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[0], OS: "linux", Home: home}
	if _, err := teamsync.Sync(context.Background(), o); err == nil || !strings.Contains(err.Error(), "not enrolled") {
		t.Fatalf("first sync without --key: %v", err)
	}
	// Enrolling with the wrong key: nothing verifies, nothing is installed.
	o.Key = strings.Repeat("ab", 32)
	res, err := teamsync.Sync(context.Background(), o)
	if err != nil || !res.Kept || !strings.Contains(res.Problem, "signature") {
		t.Fatalf("wrong key: %+v %v", res, err)
	}
	if _, err := os.Stat(teamsync.HooksDir(home, "core")); !os.IsNotExist(err) {
		t.Fatal("a bundle was installed under a wrong key")
	}
	o.Key = tm.key
	if _, err := teamsync.Sync(context.Background(), o); err == nil || !strings.Contains(err.Error(), "differs from the key pinned") {
		t.Fatalf("changing the pinned key: %v", err)
	}
}

func TestAuditUpload(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	db, err := audit.Open(audit.DefaultPath(home))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 450 {
		decision := "allow"
		if i%10 == 0 {
			decision = "deny"
		}
		db.Record(context.Background(), &audit.Record{Time: time.Now().Add(-time.Duration(i) * time.Minute), Origin: "guard bash", Agent: "claude",
			Event: "PreToolUse", Decision: decision, Payload: `{"command":"secret stuff"}`,
			Runs: []audit.Run{{Hook: "guard", Command: "agenthooks guard bash", Verdict: decision}}})
	}
	db.Close()
	if res := tm.sync(t, tm.srv.URL, home, 0); res.AuditSent != 450 {
		t.Fatalf("sent %d, want 450 (%+v)", res.AuditSent, res)
	}
	if res := tm.sync(t, tm.srv.URL, home, 0); res.AuditSent != 0 {
		t.Fatalf("the second sync sent %d again", res.AuditSent)
	}
	evs, err := tm.store.Audit(context.Background(), "core", server.AuditFilter{Decision: "deny", Limit: 1000})
	if err != nil || len(evs) != 45 {
		t.Fatalf("denies on the server: %d %v", len(evs), err)
	}
	raw, _ := json.Marshal(evs)
	if bytes.Contains(raw, []byte("secret stuff")) {
		t.Fatal("a payload left the machine")
	}
}

func TestClaudeDropIn(t *testing.T) {
	tm := newTeam(t)
	home, claude := t.TempDir(), t.TempDir()
	_, err := teamsync.Sync(context.Background(), teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[0], Key: tm.key,
		OS: "linux", Home: home, ClaudeDir: claude, Agenthooks: "/opt/agenthooks"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(teamsync.ClaudeDropIn(claude, "core"))
	if err != nil {
		t.Fatal(err)
	}
	want := "/opt/agenthooks run --agent claude --from cursor --config team=" + filepath.Join(teamsync.HooksDir(home, "core"), "hooks.json") + " PreToolUse"
	if !strings.Contains(string(data), want) {
		t.Fatalf("drop-in:\n%s\nwant a handler running %q", data, want)
	}
}
