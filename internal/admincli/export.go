package admincli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/telemetry"
)

type exportParams struct {
	audit  string
	config string
	since  string
	watch  bool
	every  time.Duration
	out    string
	otlp   telemetry.OTLPConfig
	noMet  bool
	url    string
}

// Export is the export command: the audit trail to OpenTelemetry (OTLP), to JSON lines for a
// SIEM, and to a signed webhook. It reads the audit database, never a hook process.
func Export(stdout, stderr io.Writer) *cobra.Command {
	e := &env{stdout: stdout, stderr: stderr, getenv: os.Getenv}
	c := &cobra.Command{
		Use:   "export",
		Short: "Export the audit trail: OTLP spans and metrics, JSON lines for a SIEM, a signed webhook",
		Long: `Export the audit trail from the audit database (after ingesting the spool hook processes
append to): agenthooks-admin does the work, so hooks and guards pay nothing for it.

otlp and webhook remember, per destination, the newest record delivered, in the database: run
them again (from cron) or with --watch, and each record is sent once. jsonl writes every record
that matches --since.

Settings come from flags, then ~/.agenthooks/telemetry.json (or --config), then the standard
OTEL_EXPORTER_OTLP_* variables. docs/telemetry.md lists every span, attribute and metric.`,
	}
	var po exportParams
	otlp := &cobra.Command{
		Use:   "otlp",
		Short: "Send each decision and hook run as OpenTelemetry spans, and hook metrics, over OTLP",
		Example: `  # Once (from cron), or following new records
  agenthooks export otlp --endpoint https://otel.example.com:4317
  agenthooks export otlp --watch --every 10s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExportOTLP(cmd.Context(), e, po) },
	}
	po.register(otlp, true)
	otlp.Flags().StringVar(&po.otlp.Protocol, "protocol", "", "grpc or http/protobuf (default $OTEL_EXPORTER_OTLP_PROTOCOL, else grpc)")
	otlp.Flags().StringVar(&po.otlp.Endpoint, "endpoint", "", "the collector's `URL` (default $OTEL_EXPORTER_OTLP_ENDPOINT)")
	otlp.Flags().BoolVar(&po.otlp.Insecure, "insecure", false, "send without TLS (a collector on loopback)")
	otlp.Flags().BoolVar(&po.noMet, "no-metrics", false, "send spans only")
	var pj exportParams
	jsonl := &cobra.Command{
		Use:   "jsonl",
		Short: "Write the audit records as JSON lines (redacted), for a SIEM",
		Example: `  agenthooks export jsonl --since 7d -o audit.jsonl
  agenthooks export jsonl --since 1h -o /var/log/agenthooks/last-hour.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExportJSONL(cmd.Context(), e, pj) },
	}
	pj.register(jsonl, false)
	jsonl.Flags().StringVarP(&pj.out, "output", "o", "-", "write to this `FILE` (- is stdout)")
	var pw exportParams
	webhook := &cobra.Command{
		Use:     "webhook",
		Short:   "POST the audit records as JSON lines, signed with HMAC-SHA256, to a URL",
		Example: `  AGENTHOOKS_WEBHOOK_SECRET=s3cret agenthooks export webhook --url https://siem.example.com/agenthooks --watch`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runExportWebhook(cmd.Context(), e, pw) },
	}
	pw.register(webhook, true)
	webhook.Flags().StringVar(&pw.url, "url", "", "the webhook's `URL` (default the config's webhook.url); the secret is $AGENTHOOKS_WEBHOOK_SECRET")
	c.AddCommand(otlp, jsonl, webhook)
	return c
}

func (p *exportParams) register(c *cobra.Command, follow bool) {
	c.Flags().StringVar(&p.audit, "audit", "", "the audit database (default $AGENTHOOKS_AUDIT, else ~/.agenthooks/audit.db)")
	c.Flags().StringVar(&p.since, "since", "", "leave out records older than this (30m, 24h, 7d, or an RFC 3339 time)")
	if !follow {
		return
	}
	c.Flags().StringVar(&p.config, "config", "", "the telemetry config `FILE` (default ~/.agenthooks/telemetry.json, when it exists)")
	c.Flags().BoolVar(&p.watch, "watch", false, "keep running: export new records as they are recorded")
	c.Flags().DurationVar(&p.every, "every", 5*time.Second, "with --watch, how often to look for new records")
}

// open opens the audit database and reads the config.
func (p *exportParams) open(e *env) (*audit.Store, telemetry.Config, time.Time, error) {
	since, err := audit.ParseSince(p.since, time.Now())
	if err != nil {
		return nil, telemetry.Config{}, since, err
	}
	var cfg telemetry.Config
	if p.config != "" {
		cfg, err = telemetry.LoadConfig(p.config, false)
	} else {
		cfg, err = telemetry.LoadConfig(telemetry.ConfigPath(cli.Home(e.getenv)), true)
	}
	if err != nil {
		return nil, cfg, since, err
	}
	path := cmp.Or(p.audit, e.getenv("AGENTHOOKS_AUDIT"), audit.DefaultPath(cli.Home(e.getenv)))
	if path == "off" || path == "0" || path == "false" {
		return nil, cfg, since, fmt.Errorf("auditing is off (AGENTHOOKS_AUDIT=off): there is nothing to export")
	}
	s, err := audit.Open(path)
	return s, cfg, since, err
}

func (p *exportParams) run(ctx context.Context, e *env, s *audit.Store, sink telemetry.Sink, since time.Time) error {
	if p.watch {
		if p.every <= 0 {
			return fmt.Errorf("--every must be positive")
		}
		return telemetry.Watch(ctx, s, sink, p.every, e.stderr)
	}
	n, err := telemetry.Export(ctx, s, sink, since, e.stderr)
	fmt.Fprintf(e.stdout, "exported %d record(s) to %s\n", n, sink.Name())
	return err
}

func runExportOTLP(ctx context.Context, e *env, p exportParams) error {
	s, cfg, since, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	c := cfg.OTLP
	c.Protocol = cmp.Or(p.otlp.Protocol, c.Protocol)
	c.Endpoint = cmp.Or(p.otlp.Endpoint, c.Endpoint)
	c.Insecure = c.Insecure || p.otlp.Insecure
	if p.noMet {
		off := false
		c.Metrics = &off
	}
	o, err := telemetry.NewOTLP(ctx, c, e.getenv)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = o.Close(sctx)
	}()
	return p.run(ctx, e, s, o, since)
}

func runExportWebhook(ctx context.Context, e *env, p exportParams) error {
	s, cfg, since, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	url := cmp.Or(p.url, cfg.Webhook.URL)
	if url == "" {
		return fmt.Errorf("say where to post: --url, or webhook.url in the telemetry config")
	}
	secretEnv := cmp.Or(cfg.Webhook.SecretEnv, telemetry.DefaultSecretEnv)
	secret := e.getenv(secretEnv)
	if secret == "" {
		return fmt.Errorf("the webhook's signing secret is not set: put it in $%s", secretEnv)
	}
	return p.run(ctx, e, s, &telemetry.Webhook{URL: url, Secret: []byte(secret)}, since)
}

func runExportJSONL(ctx context.Context, e *env, p exportParams) error {
	s, _, since, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, _, err := s.Ingest(ctx); err != nil {
		fmt.Fprintln(e.stderr, "agenthooks: audit: ingesting the spool:", err)
	}
	w := e.stdout
	var f *os.File
	if p.out != "-" {
		if f, err = os.OpenFile(p.out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			return err
		}
		w = f
	}
	var after int64
	for {
		recs, err := s.Query(ctx, audit.Filter{AfterID: after, Oldest: true, Since: since, Limit: telemetry.BatchSize})
		if err == nil && len(recs) > 0 {
			err = telemetry.WriteJSONL(w, recs)
		}
		if err != nil || len(recs) == 0 {
			if f != nil {
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			return err
		}
		after = recs[len(recs)-1].ID
	}
}
