//go:build windows

package runner

import (
	"os"
	"os/exec"
)

var defaultShell = []string{"cmd.exe", "/C"}

func setGroup(*exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) { killGroup(cmd) }

// killGroup kills the child; on Windows its descendants are not reached (no job object yet).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func signalOf(*os.ProcessState) string { return "" }
