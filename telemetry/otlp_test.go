package telemetry_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/admincli"
	"github.com/agenthooks/agenthooks/telemetry"
)

// now is the records' time; the deny hook started 100 ms before.
var now = time.Now()

const (
	agentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	agentSpan  = "00f067aa0ba902b7"
	fireSpan   = "b7ad6b7169203331"
	denySpan   = "53995c3f42cd8ad8"
	allowSpan  = "0af7651916cd43dd"
)

// spool appends the records a hook process would: a run with two hooks, in the agent's trace,
// and a guard's decision with no trace context.
func spool(t *testing.T, path string) {
	t.Helper()
	exit2, exit0 := 2, 0
	recs := []*audit.Record{
		{Time: now, Origin: "run", Agent: "claude", Event: "PreToolUse", Session: "sess-1", Decision: "deny",
			Reason:  "deny by hooks.json:3:3: password=hunter2hunter2",
			Payload: `{"session_id":"sess-1","tool_name":"Bash","tool_use_id":"toolu_01","tool_input":{"command":"rm -rf /"}}`,
			TraceID: agentTrace, SpanID: fireSpan, ParentSpanID: agentSpan,
			Runs: []audit.Run{
				{Hook: "/home/u/.claude/settings.json:3:3", Layer: "user", Dialect: "claude", Event: "PreToolUse", Command: "./deny.sh",
					ExitCode: &exit2, Duration: 40 * time.Millisecond, Verdict: "deny", SpanID: denySpan, Time: now.Add(-100 * time.Millisecond)},
				{Hook: "/home/u/.claude/settings.json:4:3", Layer: "user", Dialect: "claude", Event: "PreToolUse", Command: "./ok.sh",
					ExitCode: &exit0, Duration: 10 * time.Millisecond, Verdict: "allow", SpanID: allowSpan},
			}},
		{Time: now, Origin: "guard bash", Agent: "cursor", Event: "beforeShellExecution", Decision: "deny",
			Reason: "rm-recursive-danger: recursive delete of a protected folder: rm -rf ~",
			Runs:   []audit.Run{{Hook: "agenthooks guard bash", Command: "agenthooks guard bash", Duration: time.Millisecond, Verdict: "deny"}}},
	}
	for _, r := range recs {
		if _, err := audit.Append(context.Background(), path, r); err != nil {
			t.Fatal(err)
		}
	}
}

func byID(spans []telemetrySpan) map[string]telemetrySpan {
	m := map[string]telemetrySpan{}
	for _, s := range spans {
		m[s.SpanID] = s
	}
	return m
}

type telemetrySpan = gotSpan

// checkSpans asserts what the collector received for the records spool writes.
func checkSpans(t *testing.T, spans []gotSpan) {
	t.Helper()
	if len(spans) != 5 {
		t.Fatalf("the collector has %d spans, want 5 (2 decisions, 3 hook runs): %+v", len(spans), spans)
	}
	ids := byID(spans)
	fire, ok := ids[fireSpan]
	if !ok {
		t.Fatalf("no span with the decision's recorded span id %s: %+v", fireSpan, spans)
	}
	if fire.TraceID != agentTrace || fire.ParentSpanID != agentSpan {
		t.Errorf("the decision does not join the agent's trace: trace %s parent %s", fire.TraceID, fire.ParentSpanID)
	}
	want := map[string]string{"gen_ai.agent.name": "claude", "gen_ai.conversation.id": "sess-1", "gen_ai.tool.name": "Bash",
		"gen_ai.tool.call.id": "toolu_01", "agenthooks.event": "PreToolUse", "agenthooks.decision": "deny", "agenthooks.origin": "run"}
	for k, v := range want {
		if fire.Attrs[k] != v {
			t.Errorf("decision span: %s = %q, want %q", k, fire.Attrs[k], v)
		}
	}
	if r := fire.Attrs["agenthooks.reason"]; strings.Contains(r, "hunter2") || !strings.Contains(r, "REDACTED") {
		t.Errorf("the reason is not redacted: %q", r)
	}
	if fire.Name != "agenthooks PreToolUse Bash" || fire.Scope != telemetry.Scope || fire.Resource["service.name"] != "agenthooks" {
		t.Errorf("decision span %q scope %q resource %v", fire.Name, fire.Scope, fire.Resource)
	}
	for _, c := range []struct{ id, verdict, exit, command string }{{denySpan, "deny", "2", "./deny.sh"}, {allowSpan, "allow", "0", "./ok.sh"}} {
		run, ok := ids[c.id]
		if !ok {
			t.Fatalf("no span with the run's recorded span id %s (the id its hook process got in TRACEPARENT)", c.id)
		}
		if run.TraceID != agentTrace || run.ParentSpanID != fireSpan {
			t.Errorf("run %s: trace %s parent %s, want the decision's child in the agent's trace", c.id, run.TraceID, run.ParentSpanID)
		}
		for k, v := range map[string]string{"agenthooks.hook.verdict": c.verdict, "agenthooks.hook.exit_code": c.exit,
			"agenthooks.hook.command": c.command, "agenthooks.hook.layer": "user", "gen_ai.tool.call.id": "toolu_01"} {
			if run.Attrs[k] != v {
				t.Errorf("run %s: %s = %q, want %q", c.id, k, run.Attrs[k], v)
			}
		}
	}
	// The deny hook's span is when it ran; the allow hook recorded no start: it ends with the
	// decision; the decision spans its runs.
	started := now.Add(-100*time.Millisecond).UnixMicro() * 1000
	if d := ids[denySpan]; d.Start != strconv.FormatInt(started, 10) || d.End != strconv.FormatInt(started+40e6, 10) {
		t.Errorf("deny run span %s..%s, want %d..%d", d.Start, d.End, started, started+40e6)
	}
	end := strconv.FormatInt(now.UnixMicro()*1000, 10)
	if a := ids[allowSpan]; a.End != end || fire.End != end || fire.Start != strconv.FormatInt(started, 10) {
		t.Errorf("allow run ends %s, decision %s..%s; want the decision from %d to %s", a.End, fire.Start, fire.End, started, end)
	}
	var guard, guardRun gotSpan
	for _, s := range spans {
		switch {
		case s.Attrs["agenthooks.origin"] == "guard bash":
			guard = s
		case s.Attrs["agenthooks.hook"] == "agenthooks guard bash":
			guardRun = s
		}
	}
	if guard.SpanID == "" || guard.ParentSpanID != "" || guard.TraceID == agentTrace || guard.Attrs["agenthooks.rule"] != "rm-recursive-danger" {
		t.Errorf("guard decision span: %+v", guard)
	}
	if guardRun.TraceID != guard.TraceID || guardRun.ParentSpanID != guard.SpanID {
		t.Errorf("guard run span is not the guard decision's child: %+v", guardRun)
	}
}

func checkMetrics(t *testing.T, points []gotPoint) {
	t.Helper()
	find := func(metric, hook string, extra map[string]string) *gotPoint {
		for i := range points {
			p := &points[i]
			if p.Metric != metric || p.Attrs["agenthooks.hook"] != hook {
				continue
			}
			match := true
			for k, v := range extra {
				match = match && p.Attrs[k] == v
			}
			if match {
				return p
			}
		}
		return nil
	}
	deny := "/home/u/.claude/settings.json:3:3"
	if p := find("agenthooks.hook.runs", deny, map[string]string{"agenthooks.hook.verdict": "deny"}); p == nil || p.Value != "1" {
		t.Errorf("agenthooks.hook.runs for %s: %+v (all: %+v)", deny, p, points)
	}
	if p := find("agenthooks.hook.denies", deny, nil); p == nil || p.Value != "1" {
		t.Errorf("agenthooks.hook.denies for %s: %+v", deny, p)
	}
	if p := find("agenthooks.hook.denies", "/home/u/.claude/settings.json:4:3", nil); p != nil {
		t.Errorf("an allowing hook counted as a deny: %+v", p)
	}
	if p := find("agenthooks.hook.duration", deny, nil); p == nil || p.Value != "1" || p.Sum < 0.039 || p.Sum > 0.041 {
		t.Errorf("agenthooks.hook.duration for %s: %+v", deny, p)
	}
	if p := find("agenthooks.decisions", "", map[string]string{"gen_ai.agent.name": "cursor", "agenthooks.decision": "deny"}); p == nil || p.Value != "1" {
		t.Errorf("agenthooks.decisions for cursor deny: %+v", p)
	}
}

// TestExportOverGRPC: the records go to a real collector over OTLP/gRPC, which receives the
// spans (ids, parents, attributes) and metrics; exporting again sends nothing twice, and a new
// record alone goes next.
func TestExportOverGRPC(t *testing.T) {
	t.Parallel()
	col := startCollector(t)
	db := filepath.Join(t.TempDir(), "audit.db")
	spool(t, db)
	s, err := audit.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	o, err := telemetry.NewOTLP(ctx, telemetry.OTLPConfig{Protocol: telemetry.GRPC, Endpoint: col.grpc, Insecure: true}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close(ctx)
	var log bytes.Buffer
	if n, err := telemetry.Export(ctx, s, o, time.Time{}, &log); err != nil || n != 2 {
		t.Fatalf("exported %d, %v; %s", n, err, log.String())
	}
	waitFor(t, "5 spans", func() bool { return len(col.spans(t)) >= 5 })
	waitFor(t, "the metrics", func() bool { return len(col.points(t)) > 0 })
	checkSpans(t, col.spans(t))
	checkMetrics(t, col.points(t))

	if n, err := telemetry.Export(ctx, s, o, time.Time{}, &log); err != nil || n != 0 {
		t.Fatalf("a second export sent %d, %v", n, err)
	}
	if err := s.Record(ctx, &audit.Record{Origin: "run", Agent: "codex", Event: "Stop", Decision: "none"}); err != nil {
		t.Fatal(err)
	}
	if n, err := telemetry.Export(ctx, s, o, time.Time{}, &log); err != nil || n != 1 {
		t.Fatalf("the export after a new record sent %d, %v", n, err)
	}
	waitFor(t, "the new record's span", func() bool { return len(col.spans(t)) >= 6 })
	time.Sleep(300 * time.Millisecond) // anything sent twice would be flushed by now
	if got := len(col.spans(t)); got != 6 {
		t.Fatalf("the collector has %d spans, want 6: a record was sent twice", got)
	}
}

// TestExportOverHTTP: agenthooks-admin export otlp, over OTLP/HTTP, as a user runs it.
func TestExportOverHTTP(t *testing.T) {
	t.Parallel()
	col := startCollector(t)
	db := filepath.Join(t.TempDir(), "audit.db")
	spool(t, db)
	var stdout, stderr bytes.Buffer
	code := admincli.Main(context.Background(), []string{"export", "otlp", "--audit", db, "--protocol", "http/protobuf",
		"--endpoint", "http://" + col.http, "--insecure", "--config", filepath.Join(t.TempDir(), "none.json")}, nil, &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "none.json") {
		t.Fatalf("a --config that does not exist: exit %d, %s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	code = admincli.Main(context.Background(), []string{"export", "otlp", "--audit", db, "--protocol", "http/protobuf",
		"--endpoint", "http://" + col.http, "--insecure"}, nil, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "exported 2 record(s) to otlp http/protobuf http://"+col.http) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	waitFor(t, "5 spans", func() bool { return len(col.spans(t)) >= 5 })
	waitFor(t, "the metrics", func() bool { return len(col.points(t)) > 0 })
	checkSpans(t, col.spans(t))
	checkMetrics(t, col.points(t))
	stdout.Reset()
	if code := admincli.Main(context.Background(), []string{"export", "otlp", "--audit", db, "--protocol", "http/protobuf",
		"--endpoint", "http://" + col.http, "--insecure"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "exported 0 record(s)") {
		t.Fatalf("run again: exit %d: %s %s", code, stdout.String(), stderr.String())
	}
}
