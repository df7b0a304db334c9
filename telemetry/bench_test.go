package telemetry_test

import (
	"io"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/telemetry"
)

func benchRecord() audit.Record {
	exit := 0
	return audit.Record{ID: 42, Time: time.Now(), Origin: "run", Agent: "claude", Event: "PreToolUse", Session: "sess-1", Decision: "allow",
		Reason:  "no hook expressed a permission; the default is allow",
		Payload: `{"session_id":"sess-1","tool_name":"Bash","tool_use_id":"toolu_01","tool_input":{"command":"go test ./..."}}`,
		TraceID: agentTrace, SpanID: fireSpan, ParentSpanID: agentSpan,
		Runs: []audit.Run{{Hook: "/home/u/.claude/settings.json:3:3", Layer: "user", Dialect: "claude", Event: "PreToolUse",
			Command: "agenthooks guard bash", ExitCode: &exit, Duration: 2 * time.Millisecond, Verdict: "allow", SpanID: denySpan}}}
}

// BenchmarkSpans: what agenthooks-admin spends turning one record (a decision with one hook
// run) into its spans, redaction included; the hook process spends nothing on it.
func BenchmarkSpans(b *testing.B) {
	r := benchRecord()
	b.ReportAllocs()
	for b.Loop() {
		if len(telemetry.Spans(&r, nil)) != 2 {
			b.Fatal("spans")
		}
	}
}

// BenchmarkJSONL: one record as a JSON line, redaction included.
func BenchmarkJSONL(b *testing.B) {
	recs := []audit.Record{benchRecord()}
	b.ReportAllocs()
	for b.Loop() {
		if err := telemetry.WriteJSONL(io.Discard, recs); err != nil {
			b.Fatal(err)
		}
	}
}
