package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
)

// fireTraceparents fires two hooks that print their TRACEPARENT on stderr, with environ as the
// hooks' base environment, and returns the decision and what each hook saw.
func fireTraceparents(t *testing.T, environ []string) (*Decision, []string) {
	t.Helper()
	eng := newEngine(t, hooksOf("beforeShellExecution", `echo "$TRACEPARENT" >&2`, `echo "$TRACEPARENT" >&2; true`),
		Options{Environ: environ})
	d, err := eng.Fire(context.Background(), Event{Name: "beforeShellExecution", Payload: []byte(`{"command":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, r := range d.Runs {
		if r.Result == nil {
			t.Fatalf("hook did not run: %+v", r)
		}
		seen = append(seen, strings.TrimSpace(string(r.Result.Stderr)))
	}
	return d, seen
}

func TestHooksJoinTheAgentsTrace(t *testing.T) {
	t.Parallel()
	agent := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	d, seen := fireTraceparents(t, []string{"PATH=/usr/bin:/bin", "TRACEPARENT=" + agent})
	if d.Trace.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || d.Trace.ParentSpanID != "00f067aa0ba902b7" {
		t.Fatalf("trace %+v does not continue the agent's %s", d.Trace, agent)
	}
	if d.Trace.SpanID == "" || d.Trace.SpanID == d.Trace.ParentSpanID {
		t.Fatalf("the fire has no span of its own: %+v", d.Trace)
	}
	for i, tp := range seen {
		if d.Runs[i].Start.IsZero() {
			t.Errorf("hook %d has no start time", i)
		}
		want := "00-4bf92f3577b34da6a3ce929d0e0e4736-" + d.Runs[i].SpanID + "-01"
		if tp != want {
			t.Errorf("hook %d saw TRACEPARENT=%q, want %q (its own span, in the agent's trace)", i, tp, want)
		}
	}
	if d.Runs[0].SpanID == d.Runs[1].SpanID || d.Runs[0].SpanID == d.Trace.SpanID {
		t.Errorf("hook spans are not distinct: %s %s (fire %s)", d.Runs[0].SpanID, d.Runs[1].SpanID, d.Trace.SpanID)
	}
}

func TestHooksGetANewTraceWithoutTheAgents(t *testing.T) {
	t.Parallel()
	for _, environ := range [][]string{
		{"PATH=/usr/bin:/bin"},
		{"PATH=/usr/bin:/bin", "TRACEPARENT=00-00000000000000000000000000000000-00f067aa0ba902b7-01"}, // invalid: ignored
	} {
		d, seen := fireTraceparents(t, environ)
		if len(d.Trace.TraceID) != 32 || d.Trace.ParentSpanID != "" || d.Trace.TraceID == strings.Repeat("0", 32) {
			t.Fatalf("trace %+v", d.Trace)
		}
		for i, tp := range seen {
			if want := "00-" + d.Trace.TraceID + "-" + d.Runs[i].SpanID + "-01"; tp != want {
				t.Errorf("hook %d saw TRACEPARENT=%q, want %q", i, tp, want)
			}
		}
	}
}

// TestHTTPHooksGetTraceparent: an http hook's request carries the run's span as its
// traceparent header, unless the hook sets one itself.
func TestHTTPHooksGetTraceparent(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(home, ".claude"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"hooks": {"PreToolUse": [{"hooks": [
		{"type": "http", "url": "http://127.0.0.1:1/a"},
		{"type": "http", "url": "http://127.0.0.1:1/b", "headers": {"TraceParent": "mine"}}]}]}}`), 0o644))
	var mu sync.Mutex
	got := map[string]string{}
	eng, err := Load(Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none"), ClaudeManagedDir: filepath.Join(home, "none")},
		Environ: []string{"TRACEPARENT=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
		HTTP: func(ctx context.Context, r HTTPRequest) (HTTPResponse, error) {
			mu.Lock()
			defer mu.Unlock()
			for k, v := range r.Header {
				if strings.EqualFold(k, "traceparent") {
					got[r.URL] = v
				}
			}
			return HTTPResponse{Status: 200}, nil
		}})
	must(t, err)
	d, err := eng.Fire(context.Background(), Event{Agent: dialect.Claude, Name: "PreToolUse",
		Payload: []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)})
	must(t, err)
	if len(d.Runs) != 2 {
		t.Fatalf("%d runs", len(d.Runs))
	}
	if want := "00-4bf92f3577b34da6a3ce929d0e0e4736-" + d.Runs[0].SpanID + "-01"; got["http://127.0.0.1:1/a"] != want {
		t.Errorf("http hook got traceparent %q, want %q", got["http://127.0.0.1:1/a"], want)
	}
	if got["http://127.0.0.1:1/b"] != "mine" {
		t.Errorf("the hook's own traceparent header was replaced: %q", got["http://127.0.0.1:1/b"])
	}
}
