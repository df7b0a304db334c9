package teamsync_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/teamsync"
)

// writeClaudeSession writes a Claude Code transcript under home with a Bash call and a Write
// call made a minute ago, and records the guard's decision on the Bash call only.
func writeClaudeSession(t *testing.T, home string) {
	t.Helper()
	at := time.Now().UTC().Add(-time.Minute).Format(time.RFC3339Nano)
	line := func(id, tool, field, value string) string {
		return fmt.Sprintf(`{"type":"assistant","sessionId":"s1","version":"2.1.328","timestamp":%q,"message":{"role":"assistant","content":[{"type":"tool_use","id":%q,"name":%q,"input":{%q:%q}}]}}`,
			at, id, tool, field, value)
	}
	file := filepath.Join(home, ".claude", "projects", "-work", "s1.jsonl")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	body := line("toolu_1", "Bash", "command", "ls") + "\n" + line("toolu_2", "Write", "file_path", "/work/a.txt") + "\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	store, err := audit.Open(audit.DefaultPath(home))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.Record(context.Background(), &audit.Record{Origin: "guard bash", Agent: "claude", Event: "PreToolUse", Decision: "allow",
		Payload: `{"session_id":"s1","tool_use_id":"toolu_1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`}); err != nil {
		t.Fatal(err)
	}
}

// TestCoverageUpload: a sync reports the machine's unguarded calls to the server, which shows
// them on the team's protection table under the machine, its agent and the agent's version.
func TestCoverageUpload(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	writeClaudeSession(t, home)
	res, err := teamsync.Sync(context.Background(), teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[0], Key: tm.key,
		OS: "linux", Home: home, Machine: "alice", AuditDB: audit.DefaultPath(home), GuardVersion: "v9.9.9", Getenv: func(string) string { return "" },
		NoWiring: true}) // the status from the counts alone (wiring_test.go has the wiring)
	if err != nil {
		t.Fatal(err)
	}
	if res.Problem != "" || res.Unguarded != 1 {
		t.Fatalf("sync: unguarded %d, problem %q", res.Unguarded, res.Problem)
	}
	rows, err := tm.store.Protection(context.Background(), "core")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s %s %s %s %s %d/%d", r.Machine, r.Agent, r.Version, r.GuardVersion, r.Status, r.Unguarded, r.Calls))
	}
	if want := "machine claude 2.1.328 v9.9.9 gaps 1/2"; len(got) != 2 || got[0] != want || !strings.HasSuffix(got[1], "no report 0/0") {
		t.Errorf("protection table:\n%s\nwant %q first and the other member's machine with no report", strings.Join(got, "\n"), want)
	}

	// NoCoverage sends none; a server without the endpoint (404) is no problem.
	res, err = teamsync.Sync(context.Background(), teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[1], Key: tm.key,
		OS: "linux", Home: home, Machine: "bob", AuditDB: audit.DefaultPath(home), NoCoverage: true})
	if err != nil || res.Unguarded != 0 {
		t.Fatalf("NoCoverage: %v %+v", err, res)
	}
	old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/coverage") {
			http.NotFound(w, r)
			return
		}
		forward(w, r, tm.srv.URL)
	}))
	defer old.Close()
	res, err = teamsync.Sync(context.Background(), teamsync.Options{Server: old.URL, Team: "core", Token: tm.members[1], Key: tm.key,
		OS: "linux", Home: home, Machine: "bob", AuditDB: audit.DefaultPath(home)})
	if err != nil || res.Problem != "" || res.Unguarded != 1 {
		t.Fatalf("against a server without coverage: %v, problem %q, unguarded %d", err, res.Problem, res.Unguarded)
	}
}

// forward passes a request on to the server at target and its answer back.
func forward(w http.ResponseWriter, r *http.Request, target string) {
	r2, _ := http.NewRequest(r.Method, target+r.URL.RequestURI(), r.Body)
	r2.Header = r.Header.Clone()
	resp, err := http.DefaultTransport.RoundTrip(r2)
	if err != nil {
		http.Error(w, err.Error(), 502)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}
