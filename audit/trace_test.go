package audit

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const (
	testTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	testParent = "00f067aa0ba902b7"
	testSpan   = "b7ad6b7169203331"
	testRun    = "53995c3f42cd8ad8"
)

// TestTraceContextIsStoredAndChained: a record's trace context goes through the spool and the
// database whole, is part of what the chain hashes, and an invalid one is dropped.
func TestTraceContextIsStoredAndChained(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.db")
	ctx := context.Background()
	recs := []*Record{
		{Origin: "run", Agent: "claude", Event: "PreToolUse", Decision: "allow", TraceID: testTrace, SpanID: testSpan,
			ParentSpanID: testParent, Runs: []Run{{Hook: "h:1:1", Verdict: "allow", SpanID: testRun}}},
		{Origin: "guard bash", Agent: "claude", Event: "PreToolUse", Decision: "deny",
			TraceID: strings.ToUpper(testTrace), SpanID: "not hex at all!!", ParentSpanID: "0000000000000000",
			Runs: []Run{{Hook: "agenthooks guard bash", Verdict: "deny", SpanID: "xyz"}}},
	}
	for _, r := range recs {
		if _, err := Append(ctx, path, r); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.Query(ctx, Filter{Oldest: true})
	s.Close()
	if err != nil || len(got) != 2 {
		t.Fatalf("%d records, %v", len(got), err)
	}
	if r := got[0]; r.TraceID != testTrace || r.SpanID != testSpan || r.ParentSpanID != testParent || r.Runs[0].SpanID != testRun {
		t.Errorf("trace context not kept: %+v", r)
	}
	if r := got[1]; r.TraceID != "" || r.SpanID != "" || r.ParentSpanID != "" || r.Runs[0].SpanID != "" {
		t.Errorf("invalid trace context kept: %+v", r)
	}
	if rep := verify(t, path); !rep.Intact {
		t.Fatalf("%+v", rep.Break)
	}
	tamper(t, path, `UPDATE decisions SET trace_id = '11111111111111111111111111111111' WHERE id = 1`)
	if rep := verify(t, path); rep.Break == nil || rep.Break.Kind != BreakEdited || rep.Break.ID != 1 {
		t.Fatalf("an edited trace id is not found: %+v", rep.Break)
	}
	tamper(t, path, `UPDATE decisions SET trace_id = '`+testTrace+`' WHERE id = 1`, `UPDATE runs SET span_id = NULL`)
	if rep := verify(t, path); rep.Break == nil || rep.Break.Kind != BreakEdited || rep.Break.ID != 1 {
		t.Fatalf("a removed run span id is not found: %+v", rep.Break)
	}
}

// TestChainOfRecordsWithoutTraceIsUnchanged: records stored by the version before trace
// context (schema 4) still verify once migration 5 has added the columns, and new ones chain on.
func TestChainOfRecordsWithoutTraceIsUnchanged(t *testing.T) {
	t.Parallel()
	path := chainStore(t, 3)
	tamper(t, path, `DROP TABLE export_leases`, `DROP TABLE export_cursors`, `ALTER TABLE decisions DROP COLUMN trace_id`, `ALTER TABLE decisions DROP COLUMN span_id`,
		`ALTER TABLE decisions DROP COLUMN parent_span_id`, `ALTER TABLE runs DROP COLUMN span_id`, `PRAGMA user_version = 4`)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Record(context.Background(), &Record{Origin: "run", Agent: "claude", Event: "Stop", Decision: "none", TraceID: testTrace, SpanID: testSpan}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if rep := verify(t, path); !rep.Intact || rep.Records != 4 {
		t.Fatalf("%+v %+v", rep, rep.Break)
	}
}
