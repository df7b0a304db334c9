package engine

import (
	"context"
	"strings"
	"testing"
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
