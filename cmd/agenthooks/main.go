// Command agenthooks runs, checks and guards the hooks of AI coding agents.
package main

import (
	"context"
	"os"

	"github.com/agenthooks/agenthooks/internal/cli"
	_ "github.com/agenthooks/agenthooks/internal/prestack" // the stack grown once, before the rest initialises
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
