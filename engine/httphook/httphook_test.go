package httphook_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/engine/httphook"
)

func TestHTTPHooks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var gotBody, gotAuth, gotLeak string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/deny":
			mu.Lock() // the two hooks run at once: only this one's request is checked
			gotBody, gotAuth, gotLeak = string(b), r.Header.Get("Authorization"), r.Header.Get("X-Leak")
			mu.Unlock()
			fmt.Fprint(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}`)
		case "/down":
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	settings := fmt.Sprintf(`{"hooks":{"PreToolUse":[{"hooks":[
		{"type":"http","url":%q,"headers":{"Authorization":"Bearer $TOKEN","X-Leak":"$SECRET"},"allowedEnvVars":["TOKEN"]},
		{"type":"http","url":%q,"failClosed":true}
	]}]}}`, srv.URL+"/deny", srv.URL+"/down")
	dir := t.TempDir()
	file := dir + "/settings.json"
	if err := os.WriteFile(file, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Load(engine.Options{Env: config.Env{Home: dir, EnterpriseDir: dir, ClaudeManagedDir: dir},
		Files: []engine.ConfigFile{{Path: file, Family: dialect.Claude}}, Environ: []string{"TOKEN=t0k", "SECRET=s3cret"},
		HTTP: httphook.Post})
	if err != nil {
		t.Fatal(err)
	}
	d, err := eng.Fire(context.Background(), engine.Event{Agent: dialect.Claude, Name: "PreToolUse",
		Payload: []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/"}`)})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(gotBody, `"tool_name":"Bash"`) || gotAuth != "Bearer t0k" || gotLeak != "" {
		t.Fatalf("request: body %s, auth %q, leak %q", gotBody, gotAuth, gotLeak)
	}
	if d.Permission != decide.Deny || d.Runs[0].Verdict != engine.VerdictDeny || d.Runs[1].Verdict != engine.VerdictFailedClosed {
		t.Fatalf("decision %s, runs %s %s (%v)", d.Permission, d.Runs[0].Verdict, d.Runs[1].Verdict, d.Runs[1].Errors)
	}
	if !strings.Contains(strings.Join(d.Runs[1].Errors, " "), "HTTP status 502") {
		t.Fatalf("errors %v", d.Runs[1].Errors)
	}
}

// fireOne runs one http hook at url on PreToolUse and returns its run.
func fireOne(t *testing.T, url string, timeout int, post engine.HTTPPoster) engine.Run {
	t.Helper()
	dir := t.TempDir()
	file := dir + "/settings.json"
	settings := fmt.Sprintf(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":%q,"timeout":%d}]}]}}`, url, timeout)
	if err := os.WriteFile(file, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Load(engine.Options{Env: config.Env{Home: dir, EnterpriseDir: dir, ClaudeManagedDir: dir},
		Files: []engine.ConfigFile{{Path: file, Family: dialect.Claude}}, HTTP: post})
	if err != nil {
		t.Fatal(err)
	}
	d, err := eng.Fire(context.Background(), engine.Event{Agent: dialect.Claude, Name: "PreToolUse",
		Payload: []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/"}`)})
	if err != nil || len(d.Runs) != 1 {
		t.Fatalf("fire: %v, %d runs", err, len(d.Runs))
	}
	return d.Runs[0]
}

// TestHTTPLimits: a redirect is not followed (an http hook cannot be sent elsewhere), a body
// past the cap is cut, a hook past its timeout is timed out, and without a poster the hook is an
// error, never an allow that looks like an answer.
func TestHTTPLimits(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, "/deny", http.StatusFound)
		case "/deny":
			fmt.Fprint(w, `{"decision":"block","reason":"followed"}`)
		case "/big":
			w.Write([]byte(strings.Repeat(" ", engine.MaxHTTPResponse+10)))
		case "/slow":
			io.Copy(io.Discard, r.Body) // so that the server sees the client go away
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}
	}))
	defer srv.Close()
	if run := fireOne(t, srv.URL+"/redirect", 5, httphook.Post); run.Result.ExitCode != 1 || !strings.Contains(string(run.Result.Stderr), "HTTP status 302") {
		t.Errorf("redirect: exit %d, stderr %q, verdict %s", run.Result.ExitCode, run.Result.Stderr, run.Verdict)
	}
	if run := fireOne(t, srv.URL+"/big", 5, httphook.Post); len(run.Result.Stdout) != engine.MaxHTTPResponse || run.Result.StdoutCut == 0 {
		t.Errorf("big body: %d bytes kept, cut %d", len(run.Result.Stdout), run.Result.StdoutCut)
	}
	if run := fireOne(t, srv.URL+"/slow", 1, httphook.Post); !run.Result.TimedOut {
		t.Errorf("slow: not timed out: %+v", run.Result)
	}
	if run := fireOne(t, srv.URL+"/deny", 5, nil); run.Result.Err == nil || run.Verdict == engine.VerdictAllow {
		t.Errorf("no poster: verdict %s, error %v", run.Verdict, run.Result.Err)
	}
}
