package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/buildinfo"
)

// GuardMain runs the command line of agenthooks-guard (dialect.GuardProgram), the shell guard
// in a binary of its own: `agenthooks-guard bash FLAGS` is `agenthooks guard bash FLAGS`, run by
// the same code, and `agenthooks-guard --version` says which build it is. The binary links
// only what the guard runs, so that the process an agent starts before every shell command
// starts faster than agenthooks (docs/performance.md).
//
// Anything else (--help, a flag the guard's plain form does not take) goes to agenthooks, beside
// this binary or in PATH, as `agenthooks guard ARGS`, so that the answer is agenthooks' own.
// When agenthooks cannot be started, a call with --fail-closed is denied in the agent's form, as
// any failure of a fail-closed guard is; without it the exit status is 1, never 2.
func GuardMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, guardOnly: true}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Fprint(stdout, buildinfo.Get().Text(dialect.GuardProgram))
		return 0
	}
	var err error
	if p, ok := fastGuardBash(append([]string{"guard"}, args...)); ok {
		err = runGuardBash(e, p)
	} else {
		err = guardForward(e, args)
	}
	return exitCode(err, stderr)
}

// guardForward runs `agenthooks guard ARGS` with e's streams and ends with its exit status.
func guardForward(e *env, args []string) error {
	path := LeanBinary()
	cmd := exec.Command(path, append([]string{"guard"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return silentExit{code: max(ee.ExitCode(), 1)}
	}
	cause := fmt.Errorf("%s guard %s: agenthooks, which runs every form but `bash` with the flags install writes, could not be started (install it beside %s): %w",
		path, strings.Join(args, " "), dialect.GuardProgram, err)
	if !slices.Contains(args, "--fail-closed") {
		return cause // exit 1: an error of the guard is never a block
	}
	format := flagValue(args, "--format")
	if _, ok := agents.Lookup(format); !ok {
		format = "" // told from the payload
	}
	call, _ := readShellCall(e, format)
	return answerShell(e, call.format, dialect.AskAsDeny, guard.Deny, "agenthooks guard failed, and it is fail-closed, so this is denied: "+cause.Error())
}

// flagValue is the value of the flag name in args (--name VALUE or --name=VALUE), "" when
// absent.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
