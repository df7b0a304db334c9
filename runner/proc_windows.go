//go:build windows

package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"
)

var defaultShell = []string{"cmd.exe", "/C"}

// ntResumeProcess resumes every thread of a process started suspended (exec.Cmd does not hand
// out the main thread's handle that ResumeThread would need).
var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// group is the child's process tree: a Job object the child is put in before it runs a single
// instruction (it starts suspended), so every process it starts is in the job too and is killed
// with it.
type group struct {
	cmd *exec.Cmd
	job windows.Handle
}

// newGroup prepares cmd to start suspended in a new process group. It also passes a cmd.exe
// command line through untouched: Go quotes each argument for programs that split their
// command line as the C runtime does, which cmd.exe does not (echo "x" would print \"x\").
func newGroup(cmd *exec.Cmd) *group {
	attr := &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
	if line, ok := cmdLine(cmd.Args); ok {
		attr.CmdLine = line
	}
	cmd.SysProcAttr = attr
	return &group{cmd: cmd}
}

// cmdLine is the command line for cmd.exe /C COMMAND: cmd.exe /d /s /c "COMMAND", which cmd.exe
// reads as COMMAND exactly (/s: strip the outer quotes and nothing else; /d: no AutoRun
// commands from the registry). ok is false for any other program.
func cmdLine(args []string) (string, bool) {
	if len(args) != 3 || !strings.EqualFold(args[1], "/c") {
		return "", false
	}
	base := strings.ToLower(filepath.Base(args[0]))
	if base != "cmd" && base != "cmd.exe" {
		return "", false
	}
	return syscall.EscapeArg(args[0]) + ` /d /s /c "` + args[2] + `"`, true
}

// started puts the started (suspended) child in a new Job object and lets it run. On an error
// the child is killed.
func (g *group) started() error {
	fail := func(what string, err error) error {
		_ = g.cmd.Process.Kill()
		g.close()
		return fmt.Errorf("%s for the hook's process tree: %w", what, err)
	}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fail("create a Job object", err)
	}
	g.job = job
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_SUSPEND_RESUME, false, uint32(g.cmd.Process.Pid))
	if err != nil {
		return fail("open the process", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		return fail("assign the process to its Job object", err)
	}
	if err := ntResumeProcess.Find(); err != nil {
		return fail("find NtResumeProcess", err)
	}
	if st, _, _ := ntResumeProcess.Call(uintptr(h)); st != 0 {
		return fail("resume the process", windows.NTStatus(st))
	}
	return nil
}

// terminate ends the whole tree: Windows has no SIGTERM for a console program that has no
// console of its own, so it is the same as kill.
func (g *group) terminate() { g.kill() }

// kill ends every process in the child's Job object (the child and all it started), or the
// child alone when it never got one.
func (g *group) kill() {
	if g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 1)
	} else if g.cmd.Process != nil {
		_ = g.cmd.Process.Kill()
	}
}

// close releases the Job object; processes still in it keep running.
func (g *group) close() {
	if g.job != 0 {
		_ = windows.CloseHandle(g.job)
		g.job = 0
	}
}

// detach prepares an async hook's command: its own process group, and cmd.exe's command line
// untouched as in newGroup.
func detach(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	if line, ok := cmdLine(cmd.Args); ok {
		attr.CmdLine = line
	}
	cmd.SysProcAttr = attr
}

func signalOf(*os.ProcessState) string { return "" }
