package teamsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/server"
	"github.com/agenthooks/agenthooks/teamsync"
)

// fillAudit records n decisions in home's audit database, in time order (ids follow), each
// with a reason of reasonSize bytes and runs runs.
func fillAudit(t *testing.T, home string, n, reasonSize, runs int) {
	db, err := audit.Open(audit.DefaultPath(home))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now().Add(-time.Duration(n) * time.Minute)
	for i := range n {
		r := &audit.Record{Time: start.Add(time.Duration(i) * time.Minute), Origin: "guard bash", Agent: "claude", Event: "PreToolUse",
			Decision: "deny", Reason: fmt.Sprintf("%05d ", i) + strings.Repeat("r", reasonSize),
			TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpanID: "b7ad6b7169203331", ParentSpanID: "00f067aa0ba902b7"}
		for j := range runs {
			r.Runs = append(r.Runs, audit.Run{Hook: fmt.Sprint("h", j), Command: "agenthooks guard bash", Verdict: "deny", Error: strings.Repeat("e", 15000),
				SpanID: "53995c3f42cd8ad8"})
		}
		if err := db.Record(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

// recorder is a proxy to the team server that notes the uids of every audit batch the server
// acknowledged, in order, and can refuse bodies over a size.
type recorder struct {
	mu       sync.Mutex
	uids     []string
	bodies   []int
	maxBody  int
	onUpload func(n int) // called before the n-th audit upload (from 1) is passed on
	srv      *httptest.Server
	traced   int // uploads that carried trace context, which the server does not keep
}

func newRecorder(t *testing.T, target string) *recorder {
	rec := &recorder{}
	u, _ := url.Parse(target)
	proxy := httputil.NewSingleHostReverseProxy(u)
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/audit") {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, len(body))
		if strings.Contains(string(body), `"trace_id"`) || strings.Contains(string(body), `"span_id"`) {
			rec.traced++
		}
		n, hook, limit := len(rec.bodies), rec.onUpload, rec.maxBody
		rec.mu.Unlock()
		if hook != nil {
			hook(n)
		}
		if limit > 0 && len(body) > limit {
			http.Error(w, `{"error": "too large"}`, http.StatusRequestEntityTooLarge)
			return
		}
		var batch server.AuditBatch
		json.Unmarshal(body, &batch)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		r.ContentLength = int64(len(body))
		rw := httptest.NewRecorder()
		proxy.ServeHTTP(rw, r)
		if rw.Code == 200 {
			rec.mu.Lock()
			for _, x := range batch.Records {
				rec.uids = append(rec.uids, x.UID)
			}
			rec.mu.Unlock()
		}
		for k, v := range rw.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rw.Code)
		w.Write(rw.Body.Bytes())
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// ids are the record ids of the acknowledged uids, in order.
func (rec *recorder) ids(t *testing.T) []int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []int
	for _, u := range rec.uids {
		n, err := strconv.Atoi(u[strings.LastIndex(u, "-")+1:])
		if err != nil {
			t.Fatalf("uid %q", u)
		}
		out = append(out, n)
	}
	return out
}

func stored(t *testing.T, tm *team) int {
	evs, err := tm.store.Audit(context.Background(), "core", server.AuditFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}

// TestAuditFirstSyncLongHistory: a history longer than any window of newest records reaches the
// server whole, from its very first record (the oldest once went missing past the newest 5,000).
func TestAuditFirstSyncLongHistory(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	fillAudit(t, home, 5300, 1, 0)
	rec := newRecorder(t, tm.srv.URL)
	res := tm.sync(t, rec.srv.URL, home, 0)
	if res.AuditSent != 5300 || res.AuditLeft != 0 {
		t.Fatalf("first sync: %+v", res)
	}
	if ids := rec.ids(t); len(ids) == 0 || ids[0] != 1 {
		t.Fatalf("the first record sent is %v, want id 1", ids[:min(len(ids), 3)])
	}
}

// TestAuditFirstSync: the first sync of a machine with history sends all of it, oldest
// first, and counts what it sent.
func TestAuditFirstSync(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	fillAudit(t, home, 450, 10, 1)
	rec := newRecorder(t, tm.srv.URL)
	res := tm.sync(t, rec.srv.URL, home, 0)
	if res.AuditSent != 450 || res.AuditLeft != 0 {
		t.Fatalf("first sync: %+v", res)
	}
	ids := rec.ids(t)
	for i, id := range ids {
		if id != i+1 {
			t.Fatalf("record %d went up as id %d: not every record once, oldest first (%v...)", i, id, ids[:min(len(ids), 10)])
		}
	}
	if n := stored(t, tm); n != 450 {
		t.Fatalf("the server holds %d records", n)
	}
	if rec.traced != 0 {
		t.Fatalf("%d uploads carried trace context: a server from before it refuses them", rec.traced)
	}
}

// TestAuditOversize: records too large to go up 200 at a time go in smaller batches, and a
// server with a smaller limit gets them halved until they fit.
func TestAuditOversize(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	fillAudit(t, home, 40, 16000, 8) // about 140 KB a record: 5.6 MB in all
	rec := newRecorder(t, tm.srv.URL)
	rec.maxBody = 1 << 20
	res := tm.sync(t, rec.srv.URL, home, 0)
	if res.AuditSent != 40 || res.AuditLeft != 0 || res.Problem != "" {
		t.Fatalf("oversize records: %+v", res)
	}
	if n := stored(t, tm); n != 40 {
		t.Fatalf("the server holds %d records", n)
	}
	if ids := rec.ids(t); len(ids) != 40 || ids[39] != 40 {
		t.Fatalf("ids %v", ids)
	}
}

// TestAuditLeftOver: a server that refuses the upload leaves the records counted as left,
// and the next sync sends them.
func TestAuditLeftOver(t *testing.T) {
	tm := newTeam(t)
	home := t.TempDir()
	fillAudit(t, home, 30, 10, 1)
	tm.store.AuditQuota = server.AuditQuota{Records: 10, Bytes: 1 << 20}
	res := tm.sync(t, tm.srv.URL, home, 0)
	if res.AuditLeft == 0 || !strings.Contains(res.Problem, "quota") {
		t.Fatalf("over quota: %+v", res)
	}
	tm.store.AuditQuota = server.AuditQuota{}
	res = tm.sync(t, tm.srv.URL, home, 0)
	if res.AuditLeft != 0 || stored(t, tm) != 30 {
		t.Fatalf("after the quota: %+v, %d stored", res, stored(t, tm))
	}
}

// TestAuditKilled: a sync killed while its second batch is on the way leaves nothing out and
// stores nothing twice when the next sync runs.
func TestAuditKilled(t *testing.T) {
	if os.Getenv("TEAMSYNC_HELPER") != "" {
		var o teamsync.Options
		json.Unmarshal([]byte(os.Getenv("TEAMSYNC_HELPER")), &o)
		teamsync.Sync(context.Background(), o)
		os.Exit(0)
	}
	tm := newTeam(t)
	home := t.TempDir()
	fillAudit(t, home, 450, 10, 1)
	rec := newRecorder(t, tm.srv.URL)
	killed := make(chan struct{})
	var cmd *exec.Cmd
	rec.onUpload = func(n int) {
		if n == 2 {
			close(killed) // before the kill: Wait may return the moment the helper dies
			cmd.Process.Kill()
			time.Sleep(100 * time.Millisecond) // the killed sync never hears back
		}
	}
	opts, _ := json.Marshal(teamsync.Options{Server: rec.srv.URL, Team: "core", Token: tm.members[0], Key: tm.key, OS: "linux",
		Home: home, Machine: "m", AuditDB: audit.DefaultPath(home)})
	cmd = exec.Command(os.Args[0], "-test.run=^TestAuditKilled$")
	cmd.Env = append(os.Environ(), "TEAMSYNC_HELPER="+string(opts))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	select {
	case <-killed:
	default:
		t.Fatal("the helper sync ended before its second batch")
	}
	rec.onUpload = nil
	res := tm.sync(t, rec.srv.URL, home, 0)
	if res.AuditLeft != 0 {
		t.Fatalf("after the kill: %+v", res)
	}
	if n := stored(t, tm); n != 450 {
		t.Fatalf("the server holds %d records after a killed sync and another, want 450", n)
	}
	// The batch in flight at the kill went up again (the server kept it once); otherwise the
	// records went up once each, oldest first.
	seen, next := map[int]bool{}, 1
	for _, id := range rec.ids(t) {
		if seen[id] {
			continue
		}
		if id != next {
			t.Fatalf("record %d went up where %d was due", id, next)
		}
		seen[id] = true
		next++
	}
	if next != 451 {
		t.Fatalf("records 1 to %d went up, want 1 to 450", next-1)
	}
}
