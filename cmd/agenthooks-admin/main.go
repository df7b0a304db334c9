// Command agenthooks-admin runs the agenthooks commands that need what the hook hot path must
// not link: log (with stats and prune) and status open the SQLite audit database, sync fetches
// signed team bundles, serve is the team server, and http hooks need net/http and TLS.
// agenthooks passes those on to it, so that the binary agents start before every shell
// command starts fast. Every other command works here too.
package main

import (
	"context"
	"os"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite", for the audit trail

	"github.com/agenthooks/agenthooks/internal/admincli"
)

func main() {
	os.Exit(admincli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
