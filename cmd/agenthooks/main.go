// Command agenthooks runs, checks and guards the hooks of AI coding agents.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agenthooks/agenthooks/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
