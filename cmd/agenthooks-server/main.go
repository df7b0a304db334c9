// Command agenthooks-server is agenthooks' team server: `agenthooks-server serve` (which
// `agenthooks serve` runs) serves the API and the dashboard that sign and distribute hook
// bundles. It is its own binary so the hook hot path never links it.
package main

import (
	"context"
	"os"

	"github.com/agenthooks/agenthooks/internal/servecli"
)

func main() { os.Exit(servecli.Main(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) }
