package teamsync_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/teamsync"
)

// TestWiringReport: each sync reports how the machine's agents run the guard, and the team's
// protection table follows it: Claude Code with agenthooks registered fail-closed is enforcing;
// after someone removes the guard from Claude Code's settings, the next sync shows it not
// wired; with disableAllHooks, disabled by that setting. The sync starts no process: the
// registered agenthooks, a script that leaves a mark, never runs.
func TestWiringReport(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake agenthooks is a shell script")
	}
	tm := newTeam(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "alice")
	prog, mark := filepath.Join(dir, "bin", "agenthooks"), filepath.Join(dir, "ran")
	write := func(file, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(prog, "#!/bin/sh\ntouch "+mark+"\n")
	settings := filepath.Join(home, ".claude", "settings.json")
	guard := `"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"` + prog + ` guard bash --fail-closed"}]}]}`

	sync := func() (*teamsync.Result, map[string]string) {
		t.Helper()
		res, err := teamsync.Sync(context.Background(), teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[0], Key: tm.key,
			OS: "linux", Home: home, Machine: "alice", GuardVersion: "v9.9.9", Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Problem != "" {
			t.Fatalf("sync: %s", res.Problem)
		}
		if _, err := os.Stat(mark); err == nil {
			t.Fatal("the sync ran the registered agenthooks")
		}
		rows, err := tm.store.Protection(context.Background(), "core")
		if err != nil {
			t.Fatal(err)
		}
		status := map[string]string{}
		for _, r := range rows {
			status[r.Machine+" "+r.Agent] = r.Status
			if r.Agent == "claude" && (r.Wiring == nil || r.GuardVersion != "v9.9.9") {
				t.Errorf("claude's row: %+v", r)
			}
		}
		return res, status
	}

	write(settings, `{`+guard+`}`)
	res, status := sync()
	if got := status["machine claude"]; got != "enforcing" {
		t.Errorf("guard registered: claude is %q, want enforcing (%v)", got, status)
	}
	var claude *teamsync.AgentWiring
	for i, w := range res.Wiring {
		if w.Agent == "claude" {
			claude = &res.Wiring[i]
		}
	}
	if claude == nil || !claude.Registered || !claude.FailClosed || !claude.Resolves || claude.Problem() != "" {
		t.Errorf("the sync's result for claude: %+v", claude)
	}
	// The bundle's Cursor team folder is there, with no agenthooks in it: Cursor is not wired.
	if got := status["machine cursor"]; got != "not wired" {
		t.Errorf("cursor: %q (%v)", got, status)
	}
	if got := status["machine gemini"]; got != "" {
		t.Errorf("gemini, not installed, has a row: %q", got)
	}

	write(settings, `{"permissions":{"allow":["Bash(ls)"]}}`)
	if _, status = sync(); status["machine claude"] != "not wired" {
		t.Errorf("guard removed from Claude Code's settings: claude is %q, want not wired (%v)", status["machine claude"], status)
	}

	write(settings, "{\n\"disableAllHooks\":true,"+guard+"}")
	if _, status = sync(); status["machine claude"] != "disabled by disableAllHooks in "+settings+":2" {
		t.Errorf("disableAllHooks: claude is %q (%v)", status["machine claude"], status)
	}

	// With the audit trail and a transcript, the agent's version comes from its newest call,
	// and a call no decision matched makes the wired guard's row "gaps".
	write(settings, `{`+guard+`}`)
	writeClaudeSession(t, home)
	res, err := teamsync.Sync(context.Background(), teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[0], Key: tm.key,
		OS: "linux", Home: home, Machine: "alice", AuditDB: audit.DefaultPath(home), Getenv: func(string) string { return "" }})
	if err != nil || res.Problem != "" {
		t.Fatalf("sync with coverage: %v %+v", err, res)
	}
	rows, _ := tm.store.Protection(context.Background(), "core")
	var got []string
	for _, r := range rows {
		if r.Agent == "claude" {
			got = append(got, r.Version+" "+r.Status+" "+r.Wiring.State)
		}
	}
	if strings.Join(got, ";") != "2.1.328 gaps ok" {
		t.Errorf("claude with coverage: %q", got)
	}
	for _, w := range res.Wiring {
		if w.Agent == "claude" && w.Version != "2.1.328" {
			t.Errorf("claude's version in the wiring report: %q", w.Version)
		}
	}

	// NoWiring sends none: the last report stays.
	res, err = teamsync.Sync(context.Background(), teamsync.Options{Server: tm.srv.URL, Team: "core", Token: tm.members[0], Key: tm.key,
		OS: "linux", Home: home, Machine: "alice", NoWiring: true})
	if err != nil || res.Wiring != nil || res.Problem != "" {
		t.Fatalf("NoWiring: %v %+v", err, res)
	}
}

// TestWiringOldServer: a server that predates the wiring report (404) is no problem for a
// sync; one that refuses it says so in the result.
func TestWiringOldServer(t *testing.T) {
	tm := newTeam(t)
	for _, c := range []struct {
		code    int
		problem string
	}{{http.StatusNotFound, ""}, {http.StatusBadRequest, "wiring report: server answered 400 Bad Request: refused"}} {
		t.Run(fmt.Sprint(c.code), func(t *testing.T) {
			proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/wiring") {
					http.Error(w, `{"error":"refused"}`, c.code)
					return
				}
				forward(w, r, tm.srv.URL)
			}))
			defer proxy.Close()
			home := t.TempDir()
			res, err := teamsync.Sync(context.Background(), teamsync.Options{Server: proxy.URL, Team: "core", Token: tm.members[1], Key: tm.key,
				OS: "linux", Home: home, Machine: "bob", AuditDB: audit.DefaultPath(home)})
			if err != nil || res.Problem != c.problem {
				t.Fatalf("%v, problem %q, want %q", err, res.Problem, c.problem)
			}
		})
	}
}
