package telemetry_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/admincli"
	"github.com/agenthooks/agenthooks/telemetry"
)

// onIngest sets ExportOnIngest with cfg as audit's AfterIngest for the test, its log in the
// returned buffer.
func onIngest(t *testing.T, cfg telemetry.Config, getenv func(string) string) *bytes.Buffer {
	var log bytes.Buffer
	prev := audit.SetAfterIngest(func(ctx context.Context, s *audit.Store, _ int) {
		telemetry.ExportOnIngest(ctx, s, cfg, getenv, &log)
	})
	t.Cleanup(func() { audit.SetAfterIngest(prev) })
	return &log
}

// TestExportOnIngestWebhook: an ingest that brings records in sends them, signed, to the
// webhook, and moves its cursor as export webhook does (which then has nothing to send); an
// ingest with nothing new sends nothing; with on_ingest off nothing is sent. (Not parallel:
// AfterIngest is the process's.)
func TestExportOnIngestWebhook(t *testing.T) {
	rc := &receiver{secret: []byte("s3cret")}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	env := func(k string) string { return map[string]string{"HOOK_SECRET": "s3cret"}[k] }
	cfg := telemetry.Config{OnIngest: true, Webhook: telemetry.WebhookConfig{URL: srv.URL, SecretEnv: "HOOK_SECRET"}}

	off := cfg
	off.OnIngest = false
	onIngest(t, off, env)
	s, _ := openStore(t)
	if n, _, err := s.Ingest(context.Background()); err != nil || n != 2 || rc.tries != 0 {
		t.Fatalf("on_ingest off: ingested %d (%v), %d webhook requests", n, err, rc.tries)
	}

	log := onIngest(t, cfg, env)
	s, db := openStore(t)
	ctx := context.Background()
	if n, _, err := s.Ingest(ctx); err != nil || n != 2 {
		t.Fatalf("ingested %d: %v", n, err)
	}
	if got := rc.records(); len(got) != 2 || rc.bad != 0 || log.Len() != 0 {
		t.Fatalf("the webhook got %d records (%d bad signatures); log: %s", len(got), rc.bad, log.String())
	}
	if n, err := telemetry.Export(ctx, s, &telemetry.Webhook{URL: srv.URL, Secret: rc.secret}, time.Time{}, log); err != nil || n != 0 {
		t.Fatalf("export webhook after the export on ingest sent %d again: %v", n, err)
	}
	if n, _, err := s.Ingest(ctx); err != nil || n != 0 || rc.tries != 1 {
		t.Fatalf("an ingest with nothing new: %d, %v, %d requests", n, err, rc.tries)
	}
	// A new record: only it is sent.
	if _, err := audit.Append(ctx, db, &audit.Record{Origin: "run", Agent: "codex", Event: "Stop", Decision: "none"}); err != nil {
		t.Fatal(err)
	}
	if n, _, err := s.Ingest(ctx); err != nil || n != 1 || len(rc.records()) != 3 {
		t.Fatalf("ingested %d (%v); the webhook has %d records", n, err, len(rc.records()))
	}
}

// TestExportOnIngestNeverFailsTheIngest: a webhook that never answers and one without its
// secret: the ingest still stores every record and says nothing is wrong; the export gives up
// at on_ingest_timeout, says why on the log, and leaves the cursor where it was, so the next
// export sends the records.
func TestExportOnIngestNeverFailsTheIngest(t *testing.T) {
	done := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer hang.Close()
	defer close(done)
	cfg := telemetry.Config{OnIngest: true, OnIngestTimeout: "200ms", Webhook: telemetry.WebhookConfig{URL: hang.URL}}
	log := onIngest(t, cfg, func(k string) string { return map[string]string{telemetry.DefaultSecretEnv: "k"}[k] })
	s, _ := openStore(t)
	ctx := context.Background()
	if n, _, err := s.Ingest(ctx); err != nil || n != 2 {
		t.Fatalf("ingested %d: %v", n, err)
	}
	if !strings.Contains(log.String(), "agenthooks: export on ingest:") || !strings.Contains(log.String(), "deadline exceeded") {
		t.Errorf("log: %s", log.String())
	}
	if recs, err := s.Query(ctx, audit.Filter{}); err != nil || len(recs) != 2 {
		t.Fatalf("stored %d: %v", len(recs), err)
	}
	rc := &receiver{secret: []byte("k")}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	if cur, err := s.Cursor(ctx, (&telemetry.Webhook{URL: hang.URL}).Name()); err != nil || cur != 0 {
		t.Errorf("the cursor moved to %d (%v) though nothing was delivered", cur, err)
	}

	log = onIngest(t, telemetry.Config{OnIngest: true, Webhook: telemetry.WebhookConfig{URL: srv.URL}}, func(string) string { return "" })
	s, _ = openStore(t)
	if n, _, err := s.Ingest(ctx); err != nil || n != 2 || rc.tries != 0 {
		t.Fatalf("ingested %d: %v", n, err)
	}
	if !strings.Contains(log.String(), "signing secret is not set: put it in $"+telemetry.DefaultSecretEnv) {
		t.Errorf("log: %s", log.String())
	}
}

// TestExportOnIngestOTLP: agenthooks-admin log, as a user runs it, ingests the spool; with
// "on_ingest": true in ~/.agenthooks/telemetry.json the records reach the real collector as
// spans and metrics, and log's own output is unchanged. (Not parallel: it sets HOME.)
func TestExportOnIngestOTLP(t *testing.T) {
	col := startCollector(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	if err := os.MkdirAll(filepath.Join(home, ".agenthooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"on_ingest": true, "on_ingest_timeout": "20s", "otlp": {"protocol": "grpc", "endpoint": "` + col.grpc + `", "insecure": true}}`
	if err := os.WriteFile(telemetry.ConfigPath(home), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "audit.db")
	spool(t, db)
	var stdout, stderr bytes.Buffer
	if code := admincli.Main(context.Background(), []string{"log", "--audit", db}, nil, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("log: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "rm-recursive-danger") {
		t.Errorf("log printed:\n%s", stdout.String())
	}
	waitFor(t, "5 spans", func() bool { return len(col.spans(t)) >= 5 })
	waitFor(t, "the metrics", func() bool { return len(col.points(t)) > 0 })
	checkSpans(t, col.spans(t))
	checkMetrics(t, col.points(t))
	stdout.Reset()
	if code := admincli.Main(context.Background(), []string{"export", "otlp", "--audit", db, "--endpoint", col.grpc, "--insecure"},
		nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "exported 0 record(s)") {
		t.Fatalf("export otlp after the export on ingest: exit %d: %s %s", code, stdout.String(), stderr.String())
	}
}
