package telemetry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/buildinfo"
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

// OTLP sends records as spans and metrics. It is a StatefulSink: its cumulative metrics are
// stored with its export cursor (meters).
type OTLP struct {
	name    string
	res     *sdkresource.Resource
	spans   sdktrace.SpanExporter
	metrics sdkmetric.Exporter

	// meters is what the records delivered so far count; stored the state Resume was given
	// when the metrics are off, kept as it was.
	meters *meters
	stored []byte
	now    func() time.Time
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
	o := &OTLP{res: res, meters: &meters{}, now: time.Now}
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
	return o, nil
}

// Name is the destination, for the export cursor: the protocol and the endpoint.
func (o *OTLP) Name() string { return o.name }

// Send exports the records' spans, then the metrics with them counted (cumulative, from the
// start time stored with the cursor); it returns when the receiver has acknowledged both (or
// failed). The records count only once Send succeeded: a batch that failed is counted when it
// is sent again.
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
	now := o.now()
	next := o.meters.clone()
	if next.Start.IsZero() {
		next.Start = seriesStart(recs, now)
	}
	for i := range recs {
		next.count(&recs[i])
	}
	if err := o.metrics.Export(ctx, next.data(o.res, now)); err != nil {
		return fmt.Errorf("otlp: metrics: %w", err)
	}
	o.meters = next
	return nil
}

// seriesStart is the metrics' start time, when the first batch is counted: the time of its
// earliest record (not now), so that the same batch sent again after a crash, which had stored
// no metrics, starts them at the same time, and a backend sees the same series.
func seriesStart(recs []audit.Record, now time.Time) time.Time {
	start := now
	for i := range recs {
		if t := recs[i].Time; t.Before(start) {
			start = t
		}
	}
	return start
}

// Resume takes up the metrics stored with the cursor (nil: none yet, the series start with
// the next batch). A state it cannot read is an error, and the metrics start again from zero
// with a new start time, which backends take for a reset.
func (o *OTLP) Resume(state []byte) error {
	o.stored = state
	if o.metrics == nil {
		return nil
	}
	m, err := decodeMeters(state)
	if err != nil {
		o.meters, o.stored = &meters{}, nil
		return fmt.Errorf("otlp: %w; the metrics start again from zero", err)
	}
	o.meters = m
	return nil
}

// State is the metrics with every batch Send delivered counted, to store with the cursor.
func (o *OTLP) State() ([]byte, error) {
	if o.metrics == nil || o.meters.Start.IsZero() {
		return o.stored, nil
	}
	return json.Marshal(o.meters)
}

// Close shuts the exporters down.
func (o *OTLP) Close(ctx context.Context) error {
	errs := []error{o.spans.Shutdown(ctx)}
	if o.metrics != nil {
		errs = append(errs, o.metrics.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
