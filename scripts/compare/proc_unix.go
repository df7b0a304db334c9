//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// killTreeOnCancel puts cmd in a process group of its own and kills the whole group when its
// context ends, so a tool's children cannot outlive the timeout.
func killTreeOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
