package telemetry

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"

	"github.com/agenthooks/agenthooks/audit"
)

// Metric names (agenthooks' own: the GenAI conventions define none for hooks).
const (
	MetricDecisions    = "agenthooks.decisions"
	MetricHookRuns     = "agenthooks.hook.runs"
	MetricHookDenies   = "agenthooks.hook.denies"
	MetricHookDuration = "agenthooks.hook.duration"
)

// metricInfo describes each metric as it is exported, in this order.
var metricInfo = []struct{ name, unit, desc string }{
	{MetricDecisions, "{decision}", "Decisions agenthooks recorded, by agent, event and decision"},
	{MetricHookRuns, "{run}", "Hook runs, by hook and verdict"},
	{MetricHookDenies, "{run}", "Hook runs that denied (deny or failed-closed), by hook"},
	{MetricHookDuration, "s", "How long each hook ran, by hook"},
}

// durationBuckets are the hook latency histogram's bounds, in seconds: a guard answers in
// milliseconds, a hook that calls a model in seconds, and the default timeout is 10 s.
var durationBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// meters is the OTLP destination's metrics, cumulative since Start: what every record that
// was exported to it added up to. It is stored beside the destination's export cursor, moved
// in the same transaction (audit.Store.MoveCursorState), so a restarted exporter continues
// the series with the same start time instead of starting them again from zero, and a batch
// sent a second time after a crash (its cursor had not moved) is counted as it was the first
// time: the points it sends have the values and start time they had.
type meters struct {
	Start time.Time `json:"start"`
	// Points by series: the metric's name and its attributes (seriesKey).
	Points map[string]*point `json:"points,omitempty"`
}

// point is one series: a counter's value, or a histogram's count, sum, extremes and buckets.
type point struct {
	Metric  string      `json:"metric"`
	Attrs   [][2]string `json:"attrs"`
	Value   int64       `json:"value,omitempty"`
	Count   uint64      `json:"count,omitempty"`
	Sum     float64     `json:"sum,omitempty"`
	Min     float64     `json:"min,omitempty"`
	Max     float64     `json:"max,omitempty"`
	Buckets []uint64    `json:"buckets,omitempty"`
}

// decodeMeters reads a stored state; nil is none yet.
func decodeMeters(b []byte) (*meters, error) {
	m := &meters{}
	if len(b) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("the metrics stored with the export cursor: %w", err)
	}
	for k, p := range m.Points {
		if p == nil || p.Metric == "" || (p.Metric == MetricHookDuration && len(p.Buckets) != len(durationBuckets)+1) {
			return nil, fmt.Errorf("the metrics stored with the export cursor: series %q is malformed", k)
		}
	}
	return m, nil
}

func (m *meters) clone() *meters {
	c := &meters{Start: m.Start, Points: make(map[string]*point, len(m.Points))}
	for k, p := range m.Points {
		q := *p
		q.Buckets = slices.Clone(p.Buckets)
		c.Points[k] = &q
	}
	return c
}

func seriesKey(metric string, attrs [][2]string) string {
	var b strings.Builder
	b.WriteString(metric)
	for _, kv := range attrs {
		b.WriteString("\x00" + kv[0] + "=" + kv[1])
	}
	return b.String()
}

func (m *meters) series(metric string, attrs ...[2]string) *point {
	k := seriesKey(metric, attrs)
	p := m.Points[k]
	if p == nil {
		if m.Points == nil {
			m.Points = map[string]*point{}
		}
		p = &point{Metric: metric, Attrs: attrs}
		if metric == MetricHookDuration {
			p.Buckets = make([]uint64, len(durationBuckets)+1)
		}
		m.Points[k] = p
	}
	return p
}

// count adds a record: its decision, and each run that was not skipped.
func (m *meters) count(r *audit.Record) {
	m.series(MetricDecisions, [2]string{AttrAgentName, r.Agent}, [2]string{AttrEvent, r.Event}, [2]string{AttrDecision, r.Decision}).Value++
	for _, run := range r.Runs {
		if run.Verdict == "skipped" {
			continue
		}
		hook, agent := [2]string{AttrHook, run.Hook}, [2]string{AttrAgentName, r.Agent}
		m.series(MetricHookRuns, hook, agent, [2]string{AttrHookVerdict, run.Verdict}).Value++
		if run.Verdict == "deny" || run.Verdict == "failed-closed" {
			m.series(MetricHookDenies, hook, agent).Value++
		}
		h, v := m.series(MetricHookDuration, hook, agent), run.Duration.Seconds()
		if h.Count == 0 || v < h.Min {
			h.Min = v
		}
		if h.Count == 0 || v > h.Max {
			h.Max = v
		}
		h.Count++
		h.Sum += v
		h.Buckets[sort.SearchFloat64s(durationBuckets, v)]++ // a bucket holds values up to its bound
	}
}

// data is the metrics as OTLP exports them: cumulative from Start, as of now.
func (m *meters) data(res *sdkresource.Resource, now time.Time) *metricdata.ResourceMetrics {
	var out []metricdata.Metrics
	for _, info := range metricInfo {
		var sums []metricdata.DataPoint[int64]
		var hists []metricdata.HistogramDataPoint[float64]
		for _, k := range slices.Sorted(maps.Keys(m.Points)) {
			p := m.Points[k]
			if p.Metric != info.name {
				continue
			}
			kvs := make([]attribute.KeyValue, len(p.Attrs))
			for i, kv := range p.Attrs {
				kvs[i] = attribute.String(kv[0], kv[1])
			}
			attrs := attribute.NewSet(kvs...)
			if info.name == MetricHookDuration {
				hists = append(hists, metricdata.HistogramDataPoint[float64]{Attributes: attrs, StartTime: m.Start, Time: now,
					Count: p.Count, Bounds: durationBuckets, BucketCounts: slices.Clone(p.Buckets),
					Min: metricdata.NewExtrema(p.Min), Max: metricdata.NewExtrema(p.Max), Sum: p.Sum})
			} else {
				sums = append(sums, metricdata.DataPoint[int64]{Attributes: attrs, StartTime: m.Start, Time: now, Value: p.Value})
			}
		}
		metric := metricdata.Metrics{Name: info.name, Description: info.desc, Unit: info.unit}
		switch {
		case len(hists) > 0:
			metric.Data = metricdata.Histogram[float64]{DataPoints: hists, Temporality: metricdata.CumulativeTemporality}
		case len(sums) > 0:
			metric.Data = metricdata.Sum[int64]{DataPoints: sums, Temporality: metricdata.CumulativeTemporality, IsMonotonic: true}
		default:
			continue
		}
		out = append(out, metric)
	}
	return &metricdata.ResourceMetrics{Resource: res,
		ScopeMetrics: []metricdata.ScopeMetrics{{Scope: instrumentation.Scope{Name: Scope}, Metrics: out}}}
}
