package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"github.com/agenthooks/agenthooks/dialect"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// DefaultHooks is the hooks.json used when no layer has one: a working example that guards
// shell commands with the built-in guard.
//
//go:embed default-hooks.json
var DefaultHooks []byte

// Version is set at build time with -ldflags "-X github.com/agenthooks/agenthooks/internal/cli.Version=...".
var Version = "dev"

// exitError carries an exit code other than 1 through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// silentExit ends the command with code and prints nothing more.
type silentExit struct{ code int }

func (e silentExit) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs the agenthooks command line and returns the process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	if p, ok := fastGuardBash(args); ok {
		// The guard runs before every shell command an agent issues: its plain form skips
		// building the whole command tree.
		err = runGuardBash(&env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}, p)
	} else {
		root := newRoot(ctx, stdin, stdout, stderr)
		root.SetArgs(args)
		err = root.ExecuteContext(ctx)
	}
	if err == nil {
		return 0
	}
	var se silentExit
	if errors.As(err, &se) {
		return se.code
	}
	fmt.Fprintln(stderr, "agenthooks:", err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

// fastGuardBash recognises `guard bash` with only the flags it understands exactly; anything
// else (help, a typo) goes through the full command line.
func fastGuardBash(args []string) (guardBashParams, bool) {
	p := guardBashParams{askAs: string(dialect.AskAsDeny)}
	if len(args) < 2 || args[0] != "guard" || args[1] != "bash" {
		return p, false
	}
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--fail-closed":
			p.failClosed = true
		case (name == "--format" || name == "--policy" || name == "--audit" || name == "--ask-as") && !hasValue && i+1 < len(rest):
			i++
			value, hasValue = rest[i], true
			fallthrough
		case (name == "--format" || name == "--policy" || name == "--audit" || name == "--ask-as") && hasValue:
			switch name {
			case "--format":
				p.format = value
			case "--policy":
				p.policy = value
			case "--ask-as":
				p.askAs = value
			default:
				p.audit = value
			}
		default:
			return p, false
		}
	}
	return p, true
}

// env is what every subcommand may read of the process: its streams and environment.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

func (e *env) home() string {
	if h := e.getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func (e *env) logger(verbose bool) *slog.Logger {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

func newRoot(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	root := &cobra.Command{
		Use:           "agenthooks",
		Short:         "Run, check and guard the hooks of AI coding agents",
		Long:          "agenthooks runs the hooks of AI coding agents (Cursor's hooks.json) from every config layer,\nvalidates their answers, merges them into one decision and answers in the agent's own format.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})
	root.AddCommand(newRunCmd(e), newLintCmd(e), newListCmd(e), newTrustCmd(e, true), newTrustCmd(e, false), newGuardCmd(e), newInstallCmd(e, false), newInstallCmd(e, true), newConvertCmd(e), newLogCmd(e), newStatusCmd(e), newTestCmd(e), newServeCmd(e), newSyncCmd(e))
	return root
}
