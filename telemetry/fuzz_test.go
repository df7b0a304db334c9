package telemetry_test

import (
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/telemetry"
)

// FuzzSpans: whatever a record holds (its payload and ids come from the spool, which the agent
// can write), it gives one valid span per decision and per run, never a panic, and the
// decision's ids are the recorded ones only when they are valid.
func FuzzSpans(f *testing.F) {
	f.Add(`{"tool_name":"Bash","tool_use_id":"toolu_1"}`, "rm-recursive-danger: x", agentTrace, fireSpan, agentSpan, denySpan)
	f.Add(`{"tool_name":"Ba`+"\x00", "", "", "", "", "")
	f.Add(`"tool_name": "x", "call_id": "y"`, "guard: ", "00000000000000000000000000000000", "0000000000000000", "zz", "00F067AA0BA902B7")
	f.Fuzz(func(t *testing.T, payload, reason, traceID, spanID, parentID, runID string) {
		r := audit.Record{ID: 1, Time: time.Unix(1e9, 0), Origin: "guard bash", Agent: "claude", Event: "PreToolUse", Decision: "deny",
			Reason: reason, Payload: payload, TraceID: traceID, SpanID: spanID, ParentSpanID: parentID,
			Runs: []audit.Run{{Hook: "h", Verdict: "deny", SpanID: runID, Duration: time.Millisecond}}}
		spans := telemetry.Spans(&r, nil)
		if len(spans) != 2 {
			t.Fatalf("%d spans", len(spans))
		}
		for _, s := range spans {
			if !s.SpanContext().IsValid() {
				t.Fatalf("invalid span context %v", s.SpanContext())
			}
		}
		if spans[1].Parent().SpanID() != spans[0].SpanContext().SpanID() || spans[1].SpanContext().TraceID() != spans[0].SpanContext().TraceID() {
			t.Fatal("the run is not the decision's child")
		}
		if p := spans[0].Parent(); p.IsValid() && p.SpanID().String() != parentID {
			t.Fatalf("parent %s from %q", p.SpanID(), parentID)
		}
	})
}
