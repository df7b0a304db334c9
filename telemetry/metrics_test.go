package telemetry

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/agenthooks/agenthooks/audit"
)

// TestMetersHistogram: a run's duration goes to the bucket whose upper bound holds it (bounds
// are inclusive, as OpenTelemetry's explicit buckets are), and a clone counts apart.
func TestMetersHistogram(t *testing.T) {
	t.Parallel()
	rec := func(d time.Duration, verdict string) *audit.Record {
		return &audit.Record{Agent: "claude", Event: "PreToolUse", Decision: "allow",
			Runs: []audit.Run{{Hook: "h", Duration: d, Verdict: verdict}}}
	}
	m := &meters{Start: time.Unix(100, 0)}
	for _, r := range []*audit.Record{rec(time.Millisecond, "allow"), rec(1500*time.Microsecond, "deny"),
		rec(2*time.Minute, "allow"), rec(time.Second, "skipped")} {
		m.count(r)
	}
	c := m.clone()
	c.count(rec(time.Millisecond, "allow"))
	h := m.Points[seriesKey(MetricHookDuration, [][2]string{{AttrHook, "h"}, {AttrAgentName, "claude"}})]
	if h == nil || h.Count != 3 || h.Buckets[0] != 1 || h.Buckets[1] != 1 || h.Buckets[len(durationBuckets)] != 1 || h.Min != 0.001 || h.Max != 120 {
		t.Fatalf("histogram after 1 ms, 1.5 ms, 2 min and a skipped run: %+v", h)
	}
	rm := m.data(nil, time.Unix(200, 0))
	var decisions int64
	for _, metric := range rm.ScopeMetrics[0].Metrics {
		if s, ok := metric.Data.(metricdata.Sum[int64]); ok && metric.Name == MetricDecisions {
			if s.Temporality != metricdata.CumulativeTemporality || !s.IsMonotonic || !s.DataPoints[0].StartTime.Equal(m.Start) {
				t.Errorf("decisions: %+v", s)
			}
			decisions = s.DataPoints[0].Value
		}
	}
	if decisions != 4 {
		t.Errorf("decisions counted %d, want 4 (the clone's record is not the original's)", decisions)
	}
}

// TestResumeBadState: a stored state that does not read starts the metrics anew, and says so.
func TestResumeBadState(t *testing.T) {
	t.Parallel()
	o := &OTLP{meters: &meters{}, metrics: nopExporter{}}
	for _, bad := range []string{`{`, `{"start":"2026-01-01T00:00:00Z","points":{"x":null}}`,
		`{"start":"2026-01-01T00:00:00Z","points":{"x":{"metric":"agenthooks.hook.duration","attrs":[],"buckets":[1]}}}`} {
		o.meters.Start = time.Now()
		err := o.Resume([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), "start again from zero") || !o.meters.Start.IsZero() {
			t.Errorf("Resume(%s): %v, start %v", bad, err, o.meters.Start)
		}
	}
	if err := o.Resume([]byte(`{"start":"2026-01-01T00:00:00Z","points":{"k":{"metric":"agenthooks.decisions","attrs":[["a","b"]],"value":7}}}`)); err != nil || o.meters.Points["k"].Value != 7 {
		t.Errorf("a good state: %v, %+v", err, o.meters)
	}
}

// nopExporter stands for a metrics exporter that is never called.
type nopExporter struct{ sdkmetric.Exporter }

// BenchmarkMetersBatch: what the exporter spends on the metrics of one full batch (BatchSize
// records of one hook run each, over 40 hooks): the stored state copied, the records counted,
// the OTLP data built and the state encoded for the cursor.
func BenchmarkMetersBatch(b *testing.B) {
	recs := make([]audit.Record, BatchSize)
	for i := range recs {
		recs[i] = audit.Record{Agent: "claude", Event: "PreToolUse", Decision: "allow",
			Runs: []audit.Run{{Hook: "hooks.json:" + strconv.Itoa(i%40) + ":3", Duration: time.Duration(i) * time.Millisecond, Verdict: "allow"}}}
	}
	m := &meters{Start: time.Now()}
	for i := range recs {
		m.count(&recs[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		next := m.clone()
		for i := range recs {
			next.count(&recs[i])
		}
		_ = next.data(nil, time.Now())
		if _, err := json.Marshal(next); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*BatchSize), "ns/record")
}
