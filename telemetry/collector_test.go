package telemetry_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// collectorBinary builds (once per machine: scripts/otelcol.sh caches it) the test
// OpenTelemetry Collector: the OTLP receiver and the file exporter, from the collector's Go
// modules.
var collectorBinary = sync.OnceValues(func() (string, error) {
	script, err := filepath.Abs(filepath.Join("..", "scripts", "otelcol.sh"))
	if err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", script)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("scripts/otelcol.sh: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
})

// collector is a running test collector.
type collector struct {
	grpc, http      string // host:port of its OTLP receivers
	traces, metrics string // the files it writes what it received to
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startCollector starts the collector on loopback; it is stopped when the test ends.
func startCollector(t *testing.T) *collector {
	t.Helper()
	bin, err := collectorBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c := &collector{grpc: freeAddr(t), http: freeAddr(t),
		traces: filepath.Join(dir, "traces.jsonl"), metrics: filepath.Join(dir, "metrics.jsonl")}
	config := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %s
      http:
        endpoint: %s
exporters:
  file/traces:
    path: %s
    flush_interval: 100ms
  file/metrics:
    path: %s
    flush_interval: 100ms
service:
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file/traces]
    metrics:
      receivers: [otlp]
      exporters: [file/metrics]
`, c.grpc, c.http, c.traces, c.metrics)
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cmd := exec.Command(bin, "--config", cfg)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("collector log:\n%s", log.String())
		}
	})
	for _, addr := range []string{c.grpc, c.http} {
		deadline := time.Now().Add(60 * time.Second)
		for {
			conn, err := net.Dial("tcp", addr)
			if err == nil {
				conn.Close()
				break
			}
			select {
			case <-done:
				t.Fatalf("the collector exited: %v\n%s", cmd.ProcessState, log.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("the collector does not listen on %s:\n%s", addr, log.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c
}

// OTLP JSON, as the file exporter writes it (one export request a line).
type otlpValue struct {
	StringValue *string          `json:"stringValue"`
	IntValue    *json.RawMessage `json:"intValue"`
	BoolValue   *bool            `json:"boolValue"`
	ArrayValue  *struct {
		Values []otlpValue `json:"values"`
	} `json:"arrayValue"`
}

func (v otlpValue) String() string {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.IntValue != nil:
		return strings.Trim(string(*v.IntValue), `"`)
	case v.BoolValue != nil:
		return fmt.Sprint(*v.BoolValue)
	case v.ArrayValue != nil:
		var s []string
		for _, e := range v.ArrayValue.Values {
			s = append(s, e.String())
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	return ""
}

type otlpAttr struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

func attrMap(attrs []otlpAttr) map[string]string {
	m := map[string]string{}
	for _, a := range attrs {
		m[a.Key] = a.Value.String()
	}
	return m
}

type gotSpan struct {
	TraceID, SpanID, ParentSpanID, Name string
	Start, End                          string
	Status                              string
	Attrs, Resource                     map[string]string
	Scope                               string
}

// readLines calls each with every complete line of path: the collector may be writing the
// last one.
func readLines(t *testing.T, path string, each func([]byte)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for {
		line, rest, ok := bytes.Cut(b, []byte("\n"))
		if !ok {
			return
		}
		if len(bytes.TrimSpace(line)) > 0 {
			each(line)
		}
		b = rest
	}
}

func (c *collector) spans(t *testing.T) []gotSpan {
	t.Helper()
	var out []gotSpan
	readLines(t, c.traces, func(line []byte) {
		var doc struct {
			ResourceSpans []struct {
				Resource struct {
					Attributes []otlpAttr `json:"attributes"`
				} `json:"resource"`
				ScopeSpans []struct {
					Scope struct {
						Name string `json:"name"`
					} `json:"scope"`
					Spans []struct {
						TraceID           string     `json:"traceId"`
						SpanID            string     `json:"spanId"`
						ParentSpanID      string     `json:"parentSpanId"`
						Name              string     `json:"name"`
						StartTimeUnixNano string     `json:"startTimeUnixNano"`
						EndTimeUnixNano   string     `json:"endTimeUnixNano"`
						Attributes        []otlpAttr `json:"attributes"`
						Status            struct {
							Code int `json:"code"`
						} `json:"status"`
					} `json:"spans"`
				} `json:"scopeSpans"`
			} `json:"resourceSpans"`
		}
		if err := json.Unmarshal(line, &doc); err != nil {
			t.Fatalf("the collector wrote a line that is not OTLP JSON: %v\n%s", err, line)
		}
		for _, rs := range doc.ResourceSpans {
			res := attrMap(rs.Resource.Attributes)
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					out = append(out, gotSpan{TraceID: s.TraceID, SpanID: s.SpanID, ParentSpanID: s.ParentSpanID, Name: s.Name,
						Start: s.StartTimeUnixNano, End: s.EndTimeUnixNano, Status: fmt.Sprint(s.Status.Code),
						Attrs: attrMap(s.Attributes), Resource: res, Scope: ss.Scope.Name})
				}
			}
		}
	})
	return out
}

type gotPoint struct {
	Metric      string
	Attrs       map[string]string
	Value       string // a sum's value, or a histogram's count
	Sum         float64
	Start, Time string // unix nanoseconds
}

func (c *collector) points(t *testing.T) []gotPoint {
	t.Helper()
	var out []gotPoint
	readLines(t, c.metrics, func(line []byte) {
		var doc struct {
			ResourceMetrics []struct {
				ScopeMetrics []struct {
					Metrics []struct {
						Name string `json:"name"`
						Sum  *struct {
							DataPoints []struct {
								Attributes []otlpAttr      `json:"attributes"`
								AsInt      json.RawMessage `json:"asInt"`
								Start      string          `json:"startTimeUnixNano"`
								Time       string          `json:"timeUnixNano"`
							} `json:"dataPoints"`
						} `json:"sum"`
						Histogram *struct {
							DataPoints []struct {
								Attributes []otlpAttr      `json:"attributes"`
								Count      json.RawMessage `json:"count"`
								Sum        float64         `json:"sum"`
								Start      string          `json:"startTimeUnixNano"`
								Time       string          `json:"timeUnixNano"`
							} `json:"dataPoints"`
						} `json:"histogram"`
					} `json:"metrics"`
				} `json:"scopeMetrics"`
			} `json:"resourceMetrics"`
		}
		if err := json.Unmarshal(line, &doc); err != nil {
			t.Fatalf("the collector wrote a line that is not OTLP JSON: %v\n%s", err, line)
		}
		for _, rm := range doc.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					if m.Sum != nil {
						for _, p := range m.Sum.DataPoints {
							out = append(out, gotPoint{Metric: m.Name, Attrs: attrMap(p.Attributes), Value: strings.Trim(string(p.AsInt), `"`),
								Start: p.Start, Time: p.Time})
						}
					}
					if m.Histogram != nil {
						for _, p := range m.Histogram.DataPoints {
							out = append(out, gotPoint{Metric: m.Name, Attrs: attrMap(p.Attributes), Value: strings.Trim(string(p.Count), `"`), Sum: p.Sum,
								Start: p.Start, Time: p.Time})
						}
					}
				}
			}
		}
	})
	return out
}

// waitFor polls until ok holds of what the collector wrote (it flushes its files on a timer).
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("the collector never wrote %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
