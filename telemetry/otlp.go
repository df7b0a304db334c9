package telemetry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/buildinfo"
)

// Metric names (agenthooks' own: the GenAI conventions define none for hooks).
const (
	MetricDecisions    = "agenthooks.decisions"
	MetricHookRuns     = "agenthooks.hook.runs"
	MetricHookDenies   = "agenthooks.hook.denies"
	MetricHookDuration = "agenthooks.hook.duration"
)

// Protocols an OTLP exporter speaks.
const (
	GRPC         = "grpc"
	HTTPProtobuf = "http/protobuf"
)

// OTLPConfig says where and how to send OTLP. Empty fields are left to the OpenTelemetry SDK,
// which reads the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT, _TRACES_ENDPOINT,
// _METRICS_ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION, _CERTIFICATE, _INSECURE and their
// per-signal forms); what is set here wins over them.
type OTLPConfig struct {
	// Protocol is grpc or http/protobuf; empty reads OTEL_EXPORTER_OTLP_PROTOCOL, else grpc.
	Protocol string `json:"protocol,omitempty"`
	// Endpoint is a URL (http://host:4318, https://host:4317) or, for gRPC, host:port.
	Endpoint string `json:"endpoint,omitempty"`
	// Insecure sends without TLS (a collector on loopback).
	Insecure bool `json:"insecure,omitempty"`
	// Headers are sent with every request (an API key for a vendor's endpoint).
	Headers map[string]string `json:"headers,omitempty"`
	// Metrics turns the metrics off when false; nil means on.
	Metrics *bool `json:"metrics,omitempty"`
}

// OTLP sends records as spans and metrics.
type OTLP struct {
	name    string
	res     *sdkresource.Resource
	spans   sdktrace.SpanExporter
	metrics sdkmetric.Exporter
	reader  *sdkmetric.ManualReader
	mp      *sdkmetric.MeterProvider

	decisions, runs, denies metric.Int64Counter
	duration                metric.Float64Histogram
}

// NewOTLP makes the exporters. getenv reads the OTLP protocol variable (the SDK reads the
// others from the process's environment).
func NewOTLP(ctx context.Context, c OTLPConfig, getenv func(string) string) (*OTLP, error) {
	proto := c.Protocol
	if proto == "" {
		proto = firstOf(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), getenv("OTEL_EXPORTER_OTLP_PROTOCOL"), GRPC)
	}
	res, err := sdkresource.New(ctx,
		sdkresource.WithAttributes(attribute.String("service.name", "agenthooks"), attribute.String("service.version", buildinfo.Version())),
		sdkresource.WithFromEnv(), // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
		sdkresource.WithHost(),
		sdkresource.WithTelemetrySDK(),
	)
	if err != nil && res == nil {
		return nil, fmt.Errorf("otlp: resource: %w", err)
	}
	o := &OTLP{res: res}
	withMetrics := c.Metrics == nil || *c.Metrics
	switch proto {
	case GRPC:
		var opts []otlptracegrpc.Option
		var mopts []otlpmetricgrpc.Option
		if c.Endpoint != "" {
			if strings.Contains(c.Endpoint, "://") {
				opts, mopts = append(opts, otlptracegrpc.WithEndpointURL(c.Endpoint)), append(mopts, otlpmetricgrpc.WithEndpointURL(c.Endpoint))
			} else {
				opts, mopts = append(opts, otlptracegrpc.WithEndpoint(c.Endpoint)), append(mopts, otlpmetricgrpc.WithEndpoint(c.Endpoint))
			}
		}
		if c.Insecure {
			opts, mopts = append(opts, otlptracegrpc.WithInsecure()), append(mopts, otlpmetricgrpc.WithInsecure())
		}
		if len(c.Headers) > 0 {
			opts, mopts = append(opts, otlptracegrpc.WithHeaders(c.Headers)), append(mopts, otlpmetricgrpc.WithHeaders(c.Headers))
		}
		if o.spans, err = otlptracegrpc.New(ctx, opts...); err != nil {
			return nil, fmt.Errorf("otlp: %w", err)
		}
		if withMetrics {
			if o.metrics, err = otlpmetricgrpc.New(ctx, mopts...); err != nil {
				return nil, fmt.Errorf("otlp: %w", err)
			}
		}
	case HTTPProtobuf, "http":
		proto = HTTPProtobuf
		var opts []otlptracehttp.Option
		var mopts []otlpmetrichttp.Option
		if c.Endpoint != "" {
			// A base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is: the signal's path is added.
			base := strings.TrimSuffix(c.Endpoint, "/")
			if !strings.Contains(base, "://") {
				base = "https://" + base
				if c.Insecure {
					base = "http://" + c.Endpoint
				}
			}
			opts = append(opts, otlptracehttp.WithEndpointURL(base+"/v1/traces"))
			mopts = append(mopts, otlpmetrichttp.WithEndpointURL(base+"/v1/metrics"))
		}
		if c.Insecure {
			opts, mopts = append(opts, otlptracehttp.WithInsecure()), append(mopts, otlpmetrichttp.WithInsecure())
		}
		if len(c.Headers) > 0 {
			opts, mopts = append(opts, otlptracehttp.WithHeaders(c.Headers)), append(mopts, otlpmetrichttp.WithHeaders(c.Headers))
		}
		if o.spans, err = otlptracehttp.New(ctx, opts...); err != nil {
			return nil, fmt.Errorf("otlp: %w", err)
		}
		if withMetrics {
			if o.metrics, err = otlpmetrichttp.New(ctx, mopts...); err != nil {
				return nil, fmt.Errorf("otlp: %w", err)
			}
		}
	default:
		return nil, fmt.Errorf("otlp: protocol %q is not grpc or http/protobuf", proto)
	}
	o.name = "otlp " + proto + " " + firstOf(c.Endpoint, getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), getenv("OTEL_EXPORTER_OTLP_ENDPOINT"), "default")
	if o.metrics != nil {
		if err := o.meters(); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// durationBuckets are the hook latency histogram's bounds, in seconds: a guard answers in
// milliseconds, a hook that calls a model in seconds, and the default timeout is 10 s.
var durationBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

func (o *OTLP) meters() error {
	o.reader = sdkmetric.NewManualReader()
	o.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(o.reader), sdkmetric.WithResource(o.res))
	m := o.mp.Meter(Scope)
	var errs []error
	var err error
	o.decisions, err = m.Int64Counter(MetricDecisions, metric.WithUnit("{decision}"), metric.WithDescription("Decisions agenthooks recorded, by agent, event and decision"))
	errs = append(errs, err)
	o.runs, err = m.Int64Counter(MetricHookRuns, metric.WithUnit("{run}"), metric.WithDescription("Hook runs, by hook and verdict"))
	errs = append(errs, err)
	o.denies, err = m.Int64Counter(MetricHookDenies, metric.WithUnit("{run}"), metric.WithDescription("Hook runs that denied (deny or failed-closed), by hook"))
	errs = append(errs, err)
	o.duration, err = m.Float64Histogram(MetricHookDuration, metric.WithUnit("s"), metric.WithDescription("How long each hook ran, by hook"),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	errs = append(errs, err)
	return errors.Join(errs...)
}

// Name is the destination, for the export cursor: the protocol and the endpoint.
func (o *OTLP) Name() string { return o.name }

// Send exports the records' spans, then the metrics with them counted; it returns when the
// receiver has acknowledged both (or failed).
func (o *OTLP) Send(ctx context.Context, recs []audit.Record) error {
	var spans []sdktrace.ReadOnlySpan
	for i := range recs {
		spans = append(spans, Spans(&recs[i], o.res)...)
	}
	if err := o.spans.ExportSpans(ctx, spans); err != nil {
		return fmt.Errorf("otlp: spans: %w", err)
	}
	if o.metrics == nil {
		return nil
	}
	for i := range recs {
		o.count(ctx, &recs[i])
	}
	var rm metricdata.ResourceMetrics
	if err := o.reader.Collect(ctx, &rm); err != nil {
		return fmt.Errorf("otlp: metrics: %w", err)
	}
	if err := o.metrics.Export(ctx, &rm); err != nil {
		return fmt.Errorf("otlp: metrics: %w", err)
	}
	return nil
}

func (o *OTLP) count(ctx context.Context, r *audit.Record) {
	o.decisions.Add(ctx, 1, metric.WithAttributes(attribute.String(AttrAgentName, r.Agent), attribute.String(AttrEvent, r.Event),
		attribute.String(AttrDecision, r.Decision)))
	for _, run := range r.Runs {
		if run.Verdict == "skipped" {
			continue
		}
		hook := metric.WithAttributes(attribute.String(AttrHook, run.Hook), attribute.String(AttrAgentName, r.Agent))
		o.runs.Add(ctx, 1, metric.WithAttributes(attribute.String(AttrHook, run.Hook), attribute.String(AttrAgentName, r.Agent),
			attribute.String(AttrHookVerdict, run.Verdict)))
		if run.Verdict == "deny" || run.Verdict == "failed-closed" {
			o.denies.Add(ctx, 1, hook)
		}
		o.duration.Record(ctx, run.Duration.Seconds(), hook)
	}
}

// Close shuts the exporters down.
func (o *OTLP) Close(ctx context.Context) error {
	errs := []error{o.spans.Shutdown(ctx)}
	if o.metrics != nil {
		errs = append(errs, o.mp.Shutdown(ctx), o.metrics.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
