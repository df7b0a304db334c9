package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeTraceIntoHooks: with Claude Code's own tracing on (its OpenTelemetry traces beta,
// exporting to the model stand-in, which records them) and CLAUDE_CODE_PROPAGATE_TRACEPARENT=1,
// Claude Code gives the hooks it starts a TRACEPARENT naming its interaction span; the guard's
// decision is recorded in that trace, as a child of that span, which is a span Claude Code
// exported. The export uses the recorded ids (telemetry's tests), so agenthooks' spans hang
// under Claude Code's in one trace.
func TestClaudeTraceIntoHooks(t *testing.T) {
	c := newClaude(t, ordinary)
	c.settings(t, map[string]any{"PreToolUse": []any{group("Bash", "agenthooks guard bash --fail-closed", "printenv TRACEPARENT > hook-traceparent.txt")}})
	env := append(c.env(), "CLAUDE_CODE_ENABLE_TELEMETRY=1", "CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1", "CLAUDE_CODE_PROPAGATE_TRACEPARENT=1",
		"OTEL_TRACES_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORTER=none",
		"OTEL_EXPORTER_OTLP_PROTOCOL=http/json", "OTEL_EXPORTER_OTLP_ENDPOINT="+c.url)
	c.ws.run(t, env, c.bin, "-p", "please run it", "--output-format", "json", "--permission-mode", "bypassPermissions")
	if !c.ws.exists("hello.txt") {
		t.Fatal("the ordinary command did not run")
	}

	// What Claude Code exported: its spans by id.
	type span struct{ TraceID, SpanID, ParentSpanID, Name string }
	claude := map[string]span{}
	for _, r := range c.model.sent() {
		head, body, _ := strings.Cut(r, "\n")
		if !strings.HasSuffix(head, "/v1/traces") {
			continue
		}
		var doc struct {
			ResourceSpans []struct{ ScopeSpans []struct{ Spans []span } }
		}
		if err := json.Unmarshal([]byte(body), &doc); err != nil {
			t.Fatalf("Claude Code's OTLP/JSON: %v\n%.2000s", err, body)
		}
		for _, rs := range doc.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					claude[s.SpanID] = s
				}
			}
		}
	}
	if len(claude) == 0 {
		t.Fatal("Claude Code exported no spans: its tracing was not on")
	}

	raw, _ := os.ReadFile(filepath.Join(c.ws.dir, "hook-traceparent.txt"))
	parts := strings.Split(strings.TrimSpace(string(raw)), "-")
	if len(parts) != 4 || len(parts[1]) != 32 || len(parts[2]) != 16 {
		t.Fatalf("a hook's TRACEPARENT: %q, want a W3C traceparent from Claude Code", raw)
	}
	traceID, parent := parts[1], parts[2]
	if s, ok := claude[parent]; !ok || s.TraceID != traceID {
		t.Fatalf("the hooks' TRACEPARENT names span %s of trace %s, which Claude Code did not export (it exported %v)", parent, traceID, claude)
	}

	out := c.ws.agenthooks(t, "log", "--json", "--audit", c.ws.audit, "--event", "PreToolUse")
	var rec struct {
		Origin       string `json:"origin"`
		TraceID      string `json:"trace_id"`
		ParentSpanID string `json:"parent_span_id"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(strings.TrimSpace(out), "\n", 2)[0]), &rec); err != nil {
		t.Fatalf("log --json: %v\n%s", err, out)
	}
	if rec.Origin != "guard bash" || rec.TraceID != traceID || rec.ParentSpanID != parent {
		t.Errorf("the guard's decision: %+v; want it in Claude Code's trace %s under its span %s (%s)", rec, traceID, parent, claude[parent].Name)
	}
}
