package telemetry

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// The bounds of an export on ingest.
const (
	DefaultOnIngestTimeout = 3 * time.Second
	MaxOnIngestTimeout     = time.Minute
)

// onIngestTimeout is the config's bound on an export on ingest (LoadConfig checked it).
func (c Config) onIngestTimeout() time.Duration {
	if d, err := time.ParseDuration(c.OnIngestTimeout); err == nil && d > 0 && d <= MaxOnIngestTimeout {
		return d
	}
	return DefaultOnIngestTimeout
}

// OTLPConfigured says whether the config, or the standard variables getenv reads, name an
// OTLP endpoint to export to.
func (c Config) OTLPConfigured(getenv func(string) string) bool {
	return c.OTLP.Endpoint != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// ExportOnIngest is the export step of an ingest, when the config turns it on: it sends what is
// new to each destination the config sets up (OTLP when an endpoint is set, the webhook when it
// has a URL), from each one's cursor as export otlp and export webhook keep them, so a record
// is sent once whichever of them sends it. It never fails the command that ingested: all of it
// (the exporters' set-up and flush included) ends within the config's on_ingest_timeout, and
// what goes wrong is said on log and sent by the next export. It returns how many records it
// delivered.
func ExportOnIngest(ctx context.Context, s *audit.Store, c Config, getenv func(string) string, log io.Writer) int {
	if !c.OnIngest {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, c.onIngestTimeout())
	defer cancel()
	say := func(err error) { fmt.Fprintln(log, "agenthooks: export on ingest:", err) }
	sent := 0
	send := func(sink Sink) {
		n, err := Export(ctx, s, sink, time.Time{}, log)
		sent += n
		if err != nil {
			say(err)
		}
	}
	if c.OTLPConfigured(getenv) {
		if o, err := NewOTLP(ctx, c.OTLP, getenv); err != nil {
			say(err)
		} else {
			send(o)
			if err := o.Close(ctx); err != nil {
				say(fmt.Errorf("%s: %w", o.Name(), err))
			}
		}
	}
	if c.Webhook.URL != "" {
		env := c.Webhook.SecretEnv
		if env == "" {
			env = DefaultSecretEnv
		}
		if secret := getenv(env); secret == "" {
			say(fmt.Errorf("the webhook's signing secret is not set: put it in $%s", env))
		} else {
			send(&Webhook{URL: c.Webhook.URL, Secret: []byte(secret)})
		}
	}
	return sent
}
