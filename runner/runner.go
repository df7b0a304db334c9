package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"time"
)

// Defaults used when a Spec leaves a field zero.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultKillGrace = 1 * time.Second
	DefaultStdoutCap = 1 << 20
	DefaultStderrCap = 64 << 10
)

// Spec says what to run and within which bounds.
type Spec struct {
	// Command is a shell command line, run with Shell (default /bin/sh -c).
	Command string
	// Shell is the interpreter and its flag, e.g. []string{"/bin/bash", "-c"}.
	Shell []string
	// Argv, when set, is run directly, without a shell; Command is then ignored.
	Argv []string
	// Dir is the working directory; empty means the current one.
	Dir string
	// Env is the whole environment of the child; nil means the current process's.
	Env []string
	// Stdin is written to the child's stdin, which is then closed.
	Stdin []byte
	// Timeout bounds the run; zero means DefaultTimeout.
	Timeout time.Duration
	// KillGrace is how long a process group has between SIGTERM and SIGKILL.
	KillGrace time.Duration
	// StdoutCap and StderrCap bound what is kept of each stream; the rest is counted and dropped.
	StdoutCap, StderrCap int
}

// Result is what one run did. A run that could not start has Err set and ExitCode -1.
type Result struct {
	ExitCode  int           `json:"exit_code"`
	Stdout    []byte        `json:"-"`
	Stderr    []byte        `json:"-"`
	StdoutCut int64         `json:"stdout_cut,omitempty"`
	StderrCut int64         `json:"stderr_cut,omitempty"`
	Duration  time.Duration `json:"duration"`
	TimedOut  bool          `json:"timed_out,omitempty"`
	Canceled  bool          `json:"canceled,omitempty"`
	Signal    string        `json:"signal,omitempty"`
	Err       error         `json:"-"`
}

// Success reports whether the command ran to completion and exited 0.
func (r Result) Success() bool {
	return r.Err == nil && !r.TimedOut && !r.Canceled && r.ExitCode == 0
}

// Run runs spec.Command and returns once the process has exited (or been killed) and its
// output is collected. It returns within Timeout plus about twice KillGrace, even when the child
// ignores SIGTERM, never reads stdin, or leaves a grandchild holding stdout open.
func Run(ctx context.Context, spec Spec) Result {
	if spec.Timeout <= 0 {
		spec.Timeout = DefaultTimeout
	}
	if spec.KillGrace <= 0 {
		spec.KillGrace = DefaultKillGrace
	}
	if spec.StdoutCap <= 0 {
		spec.StdoutCap = DefaultStdoutCap
	}
	if spec.StderrCap <= 0 {
		spec.StderrCap = DefaultStderrCap
	}
	shell := spec.Shell
	if len(shell) == 0 {
		shell = defaultShell
	}
	runCtx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()

	argv := append(shell[:len(shell):len(shell)], spec.Command)
	if len(spec.Argv) > 0 {
		argv = spec.Argv
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.Stdin = bytes.NewReader(spec.Stdin)
	stdout := &capWriter{max: spec.StdoutCap}
	stderr := &capWriter{max: spec.StderrCap}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	grp := newGroup(cmd)
	defer grp.close()
	// The deadline is enforced here rather than by exec.CommandContext so that the whole
	// process group gets SIGTERM, then SIGKILL after the grace, whatever the leader does.
	cmd.WaitDelay = 2 * spec.KillGrace

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{ExitCode: -1, Err: err, Duration: time.Since(start)}
	}
	if err := grp.started(); err != nil {
		_ = cmd.Wait()
		return Result{ExitCode: -1, Err: err, Duration: time.Since(start)}
	}
	stopWatch := make(chan struct{})
	watchDone := make(chan bool, 1)
	go func() {
		select {
		case <-stopWatch:
			watchDone <- false
		case <-runCtx.Done():
			grp.terminate()
			t := time.NewTimer(spec.KillGrace)
			select {
			case <-stopWatch:
			case <-t.C:
			}
			t.Stop()
			grp.kill()
			watchDone <- true
		}
	}()
	waitErr := cmd.Wait()
	close(stopWatch)
	fired := <-watchDone
	res := Result{
		Duration:  time.Since(start),
		Stdout:    stdout.buf.Bytes(),
		Stderr:    stderr.buf.Bytes(),
		StdoutCut: stdout.cut,
		StderrCut: stderr.cut,
		ExitCode:  cmd.ProcessState.ExitCode(),
		Signal:    signalOf(cmd.ProcessState),
	}
	if fired {
		if errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			res.TimedOut = true
		} else {
			res.Canceled = true
		}
	}
	if errors.Is(waitErr, exec.ErrWaitDelay) {
		// The command exited but something it started still holds our pipes: that group has
		// outlived its welcome.
		grp.kill()
	}
	return res
}

// capWriter keeps the first max bytes written to it and counts the rest.
type capWriter struct {
	buf bytes.Buffer
	max int
	cut int64
}

func (w *capWriter) Write(p []byte) (int, error) {
	room := w.max - w.buf.Len()
	if room >= len(p) {
		return w.buf.Write(p)
	}
	if room > 0 {
		w.buf.Write(p[:room])
	} else {
		room = 0
	}
	w.cut += int64(len(p) - room)
	return len(p), nil
}

// Start starts spec in the background, in its own process group, with stdin from spec.Stdin
// and its output discarded, and does not wait for it: Claude Code's async hooks. The payload
// is handed over through an unlinked temporary file, so nothing is left behind and the child
// can read it after this process has exited.
func Start(spec Spec) error {
	shell := spec.Shell
	if len(shell) == 0 {
		shell = defaultShell
	}
	argv := append(shell[:len(shell):len(shell)], spec.Command)
	if len(spec.Argv) > 0 {
		argv = spec.Argv
	}
	tmp, err := os.CreateTemp("", "agenthooks-async-*")
	if err != nil {
		return err
	}
	defer tmp.Close()
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(spec.Stdin); err != nil {
		return err
	}
	if _, err := tmp.Seek(0, 0); err != nil {
		return err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdin = spec.Dir, spec.Env, tmp
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
