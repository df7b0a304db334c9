package guard_test

import (
	"testing"

	"github.com/agenthooks/agenthooks/guard"
)

// TestWindowsGitLock: removing a lock file git left in .git is what git tells its user to do
// after a command died, and an agent on Windows does it with Remove-Item or del as rm does it in
// bash (a real Claude Code session: `Remove-Item '.git\index.lock' -Force`); every other delete
// inside .git from PowerShell or cmd.exe stays denied.
func TestWindowsGitLock(t *testing.T) {
	t.Parallel()
	g := guard.Default()
	for _, c := range []struct {
		cmd  string
		want guard.Decision
	}{
		{`powershell.exe -Command "cd 'C:\Users\me\repo'; Remove-Item '.git\index.lock' -Force -ErrorAction SilentlyContinue; git status --short"`, guard.Allow},
		{`powershell.exe -Command "if (Test-Path '.git\index.lock') { Remove-Item '.git\index.lock' -Force }"`, guard.Allow},
		{`pwsh -c "Remove-Item .git/refs/heads/main.lock"`, guard.Allow},
		{`cmd /c del .git\index.lock`, guard.Allow},
		{`rm -f .git/index.lock`, guard.Allow},
		{`powershell.exe -Command "Remove-Item '.git\index' -Force"`, guard.Deny},
		{`powershell.exe -Command "Remove-Item '.git\*' -Force"`, guard.Deny},
		{`powershell.exe -Command "Remove-Item '.git\.lock' -Force"`, guard.Deny},
		{`powershell.exe -Command "Remove-Item '.git\refs' -Recurse -Force"`, guard.Deny},
		{`cmd /c rd /s /q .git`, guard.Deny},
	} {
		if v := g.Check(c.cmd, corpusCtx); v.Decision != c.want {
			t.Errorf("%s: got %s (%s), want %s", c.cmd, v.Decision, v.Reason, c.want)
		}
	}
}
