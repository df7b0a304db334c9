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
	"io/fs"
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
	return exitCode(err, stderr)
}

// exitCode is the exit status a command's error ends the process with, having said the error
// on stderr unless it asks for silence.
func exitCode(err error, stderr io.Writer) int {
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
		case (name == "--format" || name == "--policy" || name == "--audit" || name == "--ask-as" || name == "--agent") && !hasValue && i+1 < len(rest):
			i++
			value, hasValue = rest[i], true
			fallthrough
		case (name == "--format" || name == "--policy" || name == "--audit" || name == "--ask-as" || name == "--agent") && hasValue:
			switch name {
			case "--format":
				p.format = value
			case "--agent":
				p.agent = value
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
	guardOnly      bool // this is agenthooks-guard
	http           engine.HTTPPoster
}

// agenthooks is the path of the agenthooks binary, for the hooks and processes agenthooks
// starts and for recognising itself in configs: this executable, or in agenthooks-admin and
// agenthooks-guard LeanBinary.
func (e *env) agenthooks() string {
	if e.admin || e.guardOnly {
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
	}
	versionFlag(root, admin != nil)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})
	root.AddCommand(newRunCmd(e), newLintCmd(e), newListCmd(e), newTrustCmd(e, true), newTrustCmd(e, false), newGuardCmd(e), newInstallCmd(e, false), newInstallCmd(e, true), newConvertCmd(e), newTestCmd(e), newConfineCmd(e), newDoctorCmd(e), newAgentsCmd(e))
	adminCmds := []*cobra.Command{newLogCmd(e), newStatusCmd(e)}
	if admin == nil {
		e.http = e.postViaAdmin
		adminCmds = append(adminCmds,
			&cobra.Command{Use: "sync --server URL --team ID", Short: "Fetch the team's signed hooks bundle for this machine and upload its audit records"},
			&cobra.Command{Use: "serve [--addr HOST:PORT] [--db URL]", Short: "Run the team server: the API under /api/v1/ and the dashboard at /"},
			&cobra.Command{Use: "export", Short: "Export the audit trail: OTLP spans and metrics, JSON lines for a SIEM, a signed webhook"})
		for i, c := range adminCmds {
			adminCmds[i] = forwardCmd(e, c)
		}
	} else {
		e.http = admin.HTTP
		adminCmds = append(append(adminCmds, admin.Commands...), newHTTPHookCmd(e))
	}
	root.AddCommand(adminCmds...)
	plainArgs(root)
	setExamples(root)
	return root
}

// stdinIsTerminal reports whether a command that reads a hook payload on stdin would wait on a
// person's terminal: stdin is a character device other than /dev/null. Only then is
// /dev/null looked up, so a hook call pays one fstat.
func stdinIsTerminal(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		return false
	}
	devNull, _ := os.Stat(os.DevNull)
	return isTerminal(fi, devNull)
}

// isTerminal decides on stdin's file info (and /dev/null's, which may be nil): a character
// device that is not /dev/null is taken for a terminal.
func isTerminal(fi, devNull fs.FileInfo) bool {
	return fi.Mode()&fs.ModeCharDevice != 0 && (devNull == nil || !os.SameFile(fi, devNull))
}

// refuseTerminal is the error of a command that reads a hook payload on stdin when stdin is a
// terminal: instead of waiting silently, it says what it reads and how to give it one.
func refuseTerminal(e *env, command, example string) error {
	if !stdinIsTerminal(e.stdin) {
		return nil
	}
	return fmt.Errorf("%s reads a hook payload (JSON) on stdin, and stdin is a terminal; agents pipe the payload in. To try it by hand:\n  echo '%s' | agenthooks %s", command, example, command)
}

// plainArgs makes every command's argument check say, in words, what the command takes and
// its usage line, instead of cobra's "accepts 1 arg(s), received 0".
func plainArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if check(cmd, args) == nil {
				return nil
			}
			return argsError(cmd, check, args)
		}
	}
	for _, sub := range c.Commands() {
		plainArgs(sub)
	}
}

// argsError says how many arguments cmd takes, found by asking its check about 0 to 4 blank
// arguments, and what it was given.
func argsError(cmd *cobra.Command, check cobra.PositionalArgs, args []string) error {
	var ok []int
	for n := range 5 {
		if check(cmd, make([]string, n)) == nil {
			ok = append(ok, n)
		}
	}
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") // printed after "agenthooks: "
	return fmt.Errorf("%s takes %s, but was given %s\nusage: %s (see %s --help)",
		name, wantArgs(ok, cmd), gotArgs(args), cmd.UseLine(), cmd.CommandPath())
}

func wantArgs(ok []int, cmd *cobra.Command) string {
	// The argument names of the usage line, without its flags: "run EVENT" -> "EVENT".
	var argNames []string
	words := strings.Fields(cmd.Use)[1:]
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[-") {
			if !strings.Contains(w, "=") && !strings.HasSuffix(w, "]") && i+1 < len(words) {
				i++ // the flag's value
			}
			continue
		}
		argNames = append(argNames, w)
	}
	names := strings.Join(argNames, " ")
	plural := func(n int) string {
		if n == 1 {
			return "1 argument"
		}
		return fmt.Sprintf("%d arguments", n)
	}
	var want string
	switch {
	case len(ok) == 0:
		return "arguments it could not check" // not a count check: cannot happen with cobra's checks
	case len(ok) == 1 && ok[0] == 0:
		return "no arguments"
	case len(ok) == 1:
		want = "exactly " + plural(ok[0])
	case ok[len(ok)-1] == 4 && len(ok) == 5-ok[0]:
		want = "at least " + plural(ok[0])
	case ok[0] == 0 && len(ok) == ok[len(ok)-1]+1:
		want = "at most " + plural(ok[len(ok)-1])
	default:
		want = fmt.Sprintf("between %d and %d arguments", ok[0], ok[len(ok)-1])
	}
	if names != "" {
		want += " (" + names + ")"
	}
	return want
}

func gotArgs(args []string) string {
	if len(args) == 0 {
		return "none"
	}
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, " ")
}
