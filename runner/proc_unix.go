//go:build unix

package runner

import (
	"os"
	"os/exec"
	"syscall"
)

var defaultShell = []string{"/bin/sh", "-c"}

// group is the child's process group.
type group struct{ cmd *exec.Cmd }

// newGroup prepares cmd to start as the leader of a new process group.
func newGroup(cmd *exec.Cmd) *group {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &group{cmd: cmd}
}

// started has nothing to do: the group exists from the child's first instruction.
func (g *group) started() error { return nil }

// terminate sends SIGTERM to the child's whole process group.
func (g *group) terminate() {
	if g.cmd.Process != nil {
		_ = syscall.Kill(-g.cmd.Process.Pid, syscall.SIGTERM)
	}
}

// kill sends SIGKILL to the child's whole process group. The group id stays reserved while
// any member lives, so this never reaches an unrelated process.
func (g *group) kill() {
	if g.cmd.Process != nil {
		_ = syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
	}
}

func (g *group) close() {}

// detach prepares an async hook's command: a process group of its own.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func signalOf(ps *os.ProcessState) string {
	if ps == nil {
		return ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
