package telemetry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
)

// Config is the telemetry section agenthooks-admin export reads: ~/.agenthooks/telemetry.json
// unless --config names another file. Flags win over it, and it wins over the OTEL_* variables.
type Config struct {
	OTLP    OTLPConfig    `json:"otlp"`
	Webhook WebhookConfig `json:"webhook"`
	// OnIngest exports new records whenever agenthooks-admin ingests the spool (log, status,
	// sync and export do): to OTLP when an endpoint is set (here or in OTEL_EXPORTER_OTLP_*),
	// to the webhook when it has a URL. See ExportOnIngest.
	OnIngest bool `json:"on_ingest,omitempty"`
	// OnIngestTimeout bounds the export on ingest, as a Go duration ("3s"); at most
	// MaxOnIngestTimeout, DefaultOnIngestTimeout when empty.
	OnIngestTimeout string `json:"on_ingest_timeout,omitempty"`
}

// WebhookConfig is where the signed webhook posts. The secret is never in the file: it is read
// from the environment variable SecretEnv names (AGENTHOOKS_WEBHOOK_SECRET by default).
type WebhookConfig struct {
	URL       string `json:"url,omitempty"`
	SecretEnv string `json:"secret_env,omitempty"`
}

// DefaultSecretEnv holds the webhook's signing secret unless the config names another variable.
const DefaultSecretEnv = "AGENTHOOKS_WEBHOOK_SECRET"

// ConfigPath is the telemetry config under home.
func ConfigPath(home string) string { return filepath.Join(home, ".agenthooks", "telemetry.json") }

// maxConfig bounds the config file.
const maxConfig = 1 << 20

// LoadConfig reads the config at path; a missing file is an empty config when optional. An
// unknown field, a value of the wrong type or a syntax error is an error with its line and
// column.
func LoadConfig(path string, optional bool) (Config, error) {
	var c Config
	f, err := os.Open(path)
	if optional && errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil {
		return c, err
	}
	if len(data) > maxConfig {
		return c, fmt.Errorf("%s is larger than %d bytes", path, maxConfig)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %w", path, dialect.JSONError("the telemetry config", data, err))
	}
	switch c.OTLP.Protocol {
	case "", GRPC, HTTPProtobuf:
	default:
		return c, fmt.Errorf("%s: otlp.protocol %q is not grpc or http/protobuf", path, c.OTLP.Protocol)
	}
	if c.OnIngestTimeout != "" {
		d, err := time.ParseDuration(c.OnIngestTimeout)
		if err != nil || d <= 0 || d > MaxOnIngestTimeout {
			return c, fmt.Errorf("%s: on_ingest_timeout %q is not a duration between 0 and %s (\"3s\")", path, c.OnIngestTimeout, MaxOnIngestTimeout)
		}
	}
	return c, nil
}
