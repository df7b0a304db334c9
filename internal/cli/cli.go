package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/helperbin"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

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

// Main runs the agenthooks command line and returns the process exit code. The commands that
// open a database (log, status, sync, serve) are run by the companion binary agenthooks-admin,
// so that agenthooks, which agents start before every shell command, never links SQLite, the
// team server or their start-up cost.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(ctx, args, stdin, stdout, stderr, nil)
}

// Admin is what agenthooks-admin adds to the command line: it runs the database commands itself.
type Admin struct {
	// Commands are the commands only agenthooks-admin links (serve, sync).
	Commands []*cobra.Command
	// HTTP makes the requests of http hooks.
	HTTP engine.HTTPPoster
}

// ExitStatus is an error that ends a command with code, printing nothing more.
func ExitStatus(code int) error { return silentExit{code: code} }

// MainAdmin runs the command line of agenthooks-admin: every command, the database ones in this
// process. The binary must register the "sqlite" database/sql driver.
func MainAdmin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, admin Admin) int {
	return execute(ctx, args, stdin, stdout, stderr, &admin)
}

func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, admin *Admin) int {
	var err error
	if p, ok := fastGuardBash(args); ok {
		// The guard runs before every shell command an agent issues: its plain form skips
		// building the whole command tree and watching signals.
		err = runGuardBash(&env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}, p)
	} else {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		root := newRoot(ctx, stdin, stdout, stderr, admin)
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
	admin          bool // this is agenthooks-admin
	http           engine.HTTPPoster
}

// agenthooks is the path of the agenthooks binary, for the hooks and processes agenthooks
// starts and for recognising itself in configs: this executable, or in agenthooks-admin
// LeanBinary.
func (e *env) agenthooks() string {
	if e.admin {
		return LeanBinary()
	}
	self, _ := os.Executable()
	return self
}

// LeanBinary is the agenthooks that hooks run when agenthooks-admin registers or starts them:
// the one beside it, else the one in PATH, else the bare name. Never agenthooks-admin, which
// is slower to start.
func LeanBinary() string {
	p, err := helperbin.Find(func(string) string { return "" }, "", "agenthooks", "agenthooks")
	if err != nil {
		return "agenthooks"
	}
	return p
}

func (e *env) home() string { return Home(e.getenv) }

// Home is the home folder: $HOME as getenv reads it, else the system's.
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
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

func newRoot(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, admin *Admin) *cobra.Command {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, admin: admin != nil}
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
	root.AddCommand(newRunCmd(e), newLintCmd(e), newListCmd(e), newTrustCmd(e, true), newTrustCmd(e, false), newGuardCmd(e), newInstallCmd(e, false), newInstallCmd(e, true), newConvertCmd(e), newTestCmd(e))
	adminCmds := []*cobra.Command{newLogCmd(e), newStatusCmd(e)}
	if admin == nil {
		e.http = e.postViaAdmin
		adminCmds = append(adminCmds,
			&cobra.Command{Use: "sync --server URL --team ID", Short: "Fetch the team's signed hooks bundle for this machine and upload its audit records"},
			&cobra.Command{Use: "serve [--addr HOST:PORT] [--db URL]", Short: "Run the team server: the API under /api/v1/ and the dashboard at /"})
		for i, c := range adminCmds {
			adminCmds[i] = forwardCmd(e, c)
		}
	} else {
		e.http = admin.HTTP
		adminCmds = append(append(adminCmds, admin.Commands...), newHTTPHookCmd(e))
	}
	root.AddCommand(adminCmds...)
	return root
}
