package admincli

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/engine/httphook"
	"github.com/agenthooks/agenthooks/internal/cli"
)

// Main runs agenthooks-admin's command line: every agenthooks command, with serve and sync, the
// database commands run here and http hooks made with net/http. The program must link the
// "sqlite" database/sql driver. It returns the exit code. Every ingest of the spool it makes is
// followed by the export on ingest the telemetry config may turn on.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	prev := audit.SetAfterIngest(exportOnIngest(os.Getenv, stderr))
	defer audit.SetAfterIngest(prev)
	return cli.MainAdmin(ctx, args, stdin, stdout, stderr, cli.Admin{
		Commands: []*cobra.Command{Serve(stdout, stderr), Sync(stdout, stderr), Export(stdout, stderr)},
		HTTP:     httphook.Post,
	})
}
