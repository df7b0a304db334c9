package admincli

import (
	"context"
	"fmt"
	"io"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/telemetry"
)

// exportOnIngest is agenthooks-admin's step after every ingest of the spool (log, status, sync,
// export): when ~/.agenthooks/telemetry.json says "on_ingest": true, the new records go to the
// exporters it configures, within its bound; a problem is said on stderr and never changes what
// the command that ingested does or answers.
func exportOnIngest(getenv func(string) string, stderr io.Writer) audit.AfterIngest {
	return func(ctx context.Context, s *audit.Store, _ int) {
		cfg, err := telemetry.LoadConfig(telemetry.ConfigPath(cli.Home(getenv)), true)
		if err != nil {
			fmt.Fprintln(stderr, "agenthooks: export on ingest:", err)
			return
		}
		telemetry.ExportOnIngest(ctx, s, cfg, getenv, stderr)
	}
}
