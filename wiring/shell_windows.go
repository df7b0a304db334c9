package wiring

import (
	"io/fs"
	"os/exec"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// canaryShell is the shell agent a runs a hook's command line with on Windows. Claude Code runs
// its hooks, like its Bash tool, with Git for Windows' bash when it finds one; the others run
// them with cmd.exe (nil: the runner's default, cmd.exe /d /s /c).
func canaryShell(a dialect.Name) []string {
	if ag := agents.Get(a); ag != nil && ag.Shell.GitBashOnWindows {
		if bash, err := exec.LookPath("bash.exe"); err == nil {
			return []string{bash, "-c"}
		}
	}
	return nil
}

// executable reports whether Windows runs a file: by its extension, as it has no mode bits.
func executable(fi fs.FileInfo) bool {
	name := strings.ToLower(fi.Name())
	for _, ext := range []string{".exe", ".cmd", ".bat", ".com"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
