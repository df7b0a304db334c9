package confine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Exit statuses of a command that could not be run, as shells give them.
const (
	ExitCannotRun = 126 // confinement failed, or the command is not executable
	ExitNotFound  = 127 // no such command
)

// Command is one command to run confined.
type Command struct {
	Args   []string
	Env    []string // the child's environment; TMPDIR, TMP and TEMP are replaced
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Run runs c confined by p at abi and returns its exit status (128+N when a signal N ended
// it). It makes a private scratch folder under p.TempRoot, the child's TMPDIR, and removes it
// when the command ends. Only the command is confined, not this process. The protected places
// inside the project (p.Exposed), which Landlock cannot keep read-only, are put back as they
// were when the command ends, with a warning on c.Stderr naming each. An error means the
// command did not run; the status is then ExitCannotRun or ExitNotFound.
func (p *Plan) Run(abi int, c Command) (int, error) {
	if len(c.Args) == 0 {
		return ExitCannotRun, errors.New("no command to run")
	}
	if abi < 1 {
		return ExitCannotRun, errors.New("this kernel has no Landlock: the command cannot be confined")
	}
	p = p.withCreated(c.Env)
	tempDir, err := os.MkdirTemp(p.TempRoot, "agenthooks-confine-")
	if err != nil {
		return ExitCannotRun, fmt.Errorf("make the scratch folder: %w", err)
	}
	defer os.RemoveAll(tempDir)
	cmd := exec.Command(c.Args[0], c.Args[1:]...)
	cmd.Env = withTemp(c.Env, tempDir)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Dir, c.Stdin, c.Stdout, c.Stderr
	if cmd.Err != nil {
		return ExitNotFound, cmd.Err
	}
	saved := saveExposed(p.Exposed)
	// Signals sent to this process are the command's: pass them on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := p.confined(abi, tempDir, cmd.Start); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return ExitNotFound, err
		}
		return ExitCannotRun, err
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	var restored []string
	_ = p.confined(abi, tempDir, func() error { restored = restoreExposed(saved); return nil })
	for _, path := range restored {
		fmt.Fprintf(c.Stderr, "agenthooks confine: %s is protected (Landlock cannot keep it read-only inside the project); the command changed it, and it is put back as it was\n", path)
	}
	if err == nil {
		return 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	return ExitCannotRun, err
}

// withCreated returns p with the Created caches whose toolchain is on env's PATH made and
// granted; one that cannot be made is left out (the toolchain then fails as it would on a
// read-only home).
func (p *Plan) withCreated(env []string) *Plan {
	if len(p.Created) == 0 {
		return p
	}
	var path string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	installed := map[string]bool{}
	has := func(tool string) bool {
		if ok, seen := installed[tool]; seen {
			return ok
		}
		for _, dir := range filepath.SplitList(path) {
			if st, err := os.Stat(filepath.Join(dir, tool)); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				installed[tool] = true
				return true
			}
		}
		installed[tool] = false
		return false
	}
	q := *p
	q.Writable = slices.Clone(p.Writable)
	for _, g := range p.Created {
		if slices.ContainsFunc(g.Tools, has) && os.MkdirAll(g.Path, 0o755) == nil {
			q.Writable = append(q.Writable, g)
		}
	}
	q.Created = nil
	return &q
}

// withTemp returns env with TMPDIR, TMP and TEMP set to dir and AGENTHOOKS_CONFINED=1.
func withTemp(env []string, dir string) []string {
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "TMPDIR", "TMP", "TEMP", "AGENTHOOKS_CONFINED":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TMPDIR="+dir, "TMP="+dir, "TEMP="+dir, "AGENTHOOKS_CONFINED=1")
}

// ShellCommand is the shell command line that runs command, byte for byte, confined to
// project by the agenthooks binary at self: self confine --project PROJECT -- bash -c COMMAND,
// each quoted for bash.
func ShellCommand(self, project, command string) string {
	return shellQuote(self) + " confine --project " + shellQuote(project) + " -- bash -c " + shellQuote(command)
}

// shellQuote quotes s for bash: in single quotes, each single quote in s closing the quotes,
// written escaped, and opening them again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
