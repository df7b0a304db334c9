package telemetry_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/telemetry"
)

// crashing is an OTLP exporter whose process dies after the collector took a batch and before
// the cursor moved: its Send delivers, then fails. It keeps the OTLP sink's Resume and State.
type crashing struct{ *telemetry.OTLP }

func (c crashing) Send(ctx context.Context, recs []audit.Record) error {
	if err := c.OTLP.Send(ctx, recs); err != nil {
		return err
	}
	return errors.New("killed after sending, before the cursor moved")
}

const (
	guardTrace = "0af7651916cd43dd8448eb211c80319c"
	guardAgent = "b9c7c989f97918e1"
)

// TestExportResendAfterCrash: an exporter dies after the collector took its batch and before
// the cursor moved; the next exporter (a new process) sends the batch again. The collector
// then holds every span twice with the same trace, span and parent ids (a guard's decision
// without trace context, one in the agent's trace whose span id is derived, a run with the
// ids its hooks got), so a backend sees one span sent twice, not two; and the metrics sent
// again have the values and start time they had, not the batch counted twice. A restarted
// exporter continues the metrics from the stored state with the same start time.
func TestExportResendAfterCrash(t *testing.T) {
	t.Parallel()
	col := startCollector(t)
	db := filepath.Join(t.TempDir(), "audit.db")
	spool(t, db)
	// A guard run in the agent's trace: it records the agent's trace and span, not one of its own.
	if _, err := audit.Append(context.Background(), db, &audit.Record{Time: now, Origin: "guard read", Agent: "gemini",
		Event: "BeforeTool", Decision: "allow", TraceID: guardTrace, ParentSpanID: guardAgent,
		Runs: []audit.Run{{Hook: "agenthooks guard read", Duration: 2 * time.Millisecond, Verdict: "allow"}}}); err != nil {
		t.Fatal(err)
	}
	s, err := audit.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	exporter := func() *telemetry.OTLP {
		o, err := telemetry.NewOTLP(ctx, telemetry.OTLPConfig{Protocol: telemetry.GRPC, Endpoint: col.grpc, Insecure: true}, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		return o
	}

	first := exporter()
	if n, err := telemetry.Export(ctx, s, crashing{first}, time.Time{}, io.Discard); err == nil || !strings.Contains(err.Error(), "killed") || n != 0 {
		t.Fatalf("the crashing export: %d, %v", n, err)
	}
	first.Close(ctx)
	if cur, err := s.Cursor(ctx, first.Name()); err != nil || cur != 0 {
		t.Fatalf("the cursor moved past a batch whose sending did not finish: %d, %v", cur, err)
	}
	waitFor(t, "the first 7 spans", func() bool { return len(col.spans(t)) >= 7 })
	waitFor(t, "the first metrics", func() bool { return len(col.points(t)) > 0 })
	firstPoints := len(col.points(t))

	second := exporter()
	if n, err := telemetry.Export(ctx, s, second, time.Time{}, io.Discard); err != nil || n != 3 {
		t.Fatalf("the export after the crash sent %d, %v", n, err)
	}
	second.Close(ctx)
	waitFor(t, "the batch sent again", func() bool { return len(col.spans(t)) >= 14 })
	waitFor(t, "the metrics sent again", func() bool { return len(col.points(t)) >= 2*firstPoints })

	spans := col.spans(t)
	if len(spans) != 14 {
		t.Fatalf("the collector has %d spans, want 7 sent twice", len(spans))
	}
	seen := map[string]int{}
	for _, sp := range spans {
		seen[sp.TraceID+" "+sp.SpanID+" "+sp.ParentSpanID+" "+sp.Attrs["agenthooks.record.hash"]]++
	}
	for ids, n := range seen {
		if n != 2 {
			t.Errorf("span (trace span parent record-hash) %s was received %d time(s), want twice with the same ids", ids, n)
		}
	}
	var guard gotSpan
	for _, sp := range spans {
		if sp.Attrs["agenthooks.origin"] == "guard read" {
			guard = sp
		}
		if sp.Attrs["agenthooks.origin"] != "" && len(sp.Attrs["agenthooks.record.hash"]) != 64 {
			t.Errorf("decision span %s has no record hash: %v", sp.Name, sp.Attrs)
		}
	}
	if guard.TraceID != guardTrace || guard.ParentSpanID != guardAgent || guard.SpanID == guardAgent || guard.SpanID == "" {
		t.Errorf("a guard in the agent's trace: trace %s span %s parent %s; want the agent's trace, a span of its own under the agent's",
			guard.TraceID, guard.SpanID, guard.ParentSpanID)
	}

	// The metrics: the batch sent again counted once, from the same start.
	series := func(metric string, attrs map[string]string) []gotPoint {
		var out []gotPoint
		for _, p := range col.points(t) {
			match := p.Metric == metric
			for k, v := range attrs {
				match = match && p.Attrs[k] == v
			}
			if match {
				out = append(out, p)
			}
		}
		return out
	}
	cursorDeny := map[string]string{"gen_ai.agent.name": "cursor", "agenthooks.decision": "deny"}
	guardHook := map[string]string{"agenthooks.hook": "agenthooks guard bash"}
	for _, c := range []struct {
		metric string
		attrs  map[string]string
	}{{"agenthooks.decisions", cursorDeny}, {"agenthooks.hook.duration", guardHook}, {"agenthooks.hook.runs", guardHook}} {
		ps := series(c.metric, c.attrs)
		if len(ps) != 2 || ps[0].Value != "1" || ps[1].Value != "1" || ps[0].Start != ps[1].Start || ps[0].Start == "" {
			t.Errorf("%s %v sent, then sent again: %+v; want 1 both times, from the same start", c.metric, c.attrs, ps)
		}
	}

	// A restart continues the series: a new record counts on top, from the same start.
	if err := s.Record(ctx, &audit.Record{Origin: "guard bash", Agent: "cursor", Event: "beforeShellExecution", Decision: "deny",
		Runs: []audit.Run{{Hook: "agenthooks guard bash", Duration: 3 * time.Millisecond, Verdict: "deny"}}}); err != nil {
		t.Fatal(err)
	}
	third := exporter()
	defer third.Close(ctx)
	if n, err := telemetry.Export(ctx, s, third, time.Time{}, io.Discard); err != nil || n != 1 {
		t.Fatalf("the export after a restart sent %d, %v", n, err)
	}
	waitFor(t, "the restarted exporter's metrics", func() bool { return len(series("agenthooks.decisions", cursorDeny)) >= 3 })
	for _, c := range []struct {
		metric string
		attrs  map[string]string
	}{{"agenthooks.decisions", cursorDeny}, {"agenthooks.hook.duration", guardHook}, {"agenthooks.hook.denies", guardHook}} {
		ps := series(c.metric, c.attrs)
		last := ps[len(ps)-1]
		if last.Value != "2" || last.Start != ps[0].Start {
			t.Errorf("%s %v after a restart: %+v; want 2, from the first start %s", c.metric, c.attrs, last, ps[0].Start)
		}
	}
	// A series the new batch did not touch is still sent, as it was.
	if ps := series("agenthooks.decisions", map[string]string{"gen_ai.agent.name": "gemini"}); len(ps) != 3 || ps[2].Value != "1" || ps[2].Start != ps[0].Start {
		t.Errorf("gemini's decisions after a restart: %+v", ps)
	}
}
