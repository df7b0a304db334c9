package telemetry_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/telemetry"
)

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"otlp": {"protocol": "http/protobuf", "endpoint": "https://otel.example:4318", "headers": {"x-api-key": "k"}},
  "webhook": {"url": "https://siem.example/hook", "secret_env": "SIEM_SECRET"}}`)
	c, err := telemetry.LoadConfig(good, false)
	if err != nil {
		t.Fatal(err)
	}
	if c.OTLP.Protocol != "http/protobuf" || c.OTLP.Headers["x-api-key"] != "k" || c.Webhook.SecretEnv != "SIEM_SECRET" {
		t.Errorf("%+v", c)
	}
	if c, err := telemetry.LoadConfig(filepath.Join(dir, "missing.json"), true); err != nil || c.OTLP.Endpoint != "" {
		t.Errorf("a missing optional config: %+v %v", c, err)
	}
	if _, err := telemetry.LoadConfig(filepath.Join(dir, "missing.json"), false); err == nil {
		t.Error("a missing config named with --config was accepted")
	}
	for _, c := range []struct{ name, body, want string }{
		{"syntax.json", "{\n  \"otlp\": {\"endpoint\": }\n}", "line 2, column "},
		{"type.json", `{"otlp": {"insecure": "yes"}}`, `field "otlp.insecure" must be a boolean, not a string (line 1, column 27)`},
		{"unknown.json", `{"otlp": {"endpont": "x"}}`, `unknown field "endpont"`},
		{"protocol.json", `{"otlp": {"protocol": "udp"}}`, `otlp.protocol "udp" is not grpc or http/protobuf`},
		{"oningest.json", `{"on_ingest": "yes"}`, `field "on_ingest" must be a boolean`},
		{"timeout.json", `{"on_ingest": true, "on_ingest_timeout": "2h"}`, `on_ingest_timeout "2h" is not a duration between 0 and 1m0s`},
		{"timeout0.json", `{"on_ingest_timeout": "0s"}`, `on_ingest_timeout "0s"`},
	} {
		_, err := telemetry.LoadConfig(write(c.name, c.body), false)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
