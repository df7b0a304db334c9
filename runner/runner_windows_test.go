package runner

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// TestMain lets the test binary act as a hook when RUNNER_HELPER is set: "tree" starts a
// grandchild ("sleep") that inherits stdout, writes its pid to RUNNER_PIDFILE and sleeps;
// "orphan" does the same but exits at once, leaving the grandchild holding stdout; "cat"
// copies stdin to stdout.
func TestMain(m *testing.M) {
	switch os.Getenv("RUNNER_HELPER") {
	case "":
		os.Exit(m.Run())
	case "tree", "orphan":
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "RUNNER_HELPER=sleep")
		c.Stdout = os.Stdout
		if err := c.Start(); err != nil {
			os.Exit(7)
		}
		if err := os.WriteFile(os.Getenv("RUNNER_PIDFILE"), []byte(strconv.Itoa(c.Process.Pid)), 0o600); err != nil {
			os.Exit(8)
		}
		if os.Getenv("RUNNER_HELPER") == "orphan" {
			os.Exit(0)
		}
		time.Sleep(time.Minute)
	case "sleep":
		time.Sleep(time.Minute)
	case "cat":
		_, _ = io.Copy(os.Stdout, os.Stdin)
	}
	os.Exit(0)
}

// helper is the command line that runs this test binary in mode, through cmd.exe as a hook's
// command is run, with the pid file the helper writes.
func helper(t *testing.T, mode string) (Spec, string) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pid")
	return Spec{
		Command: `"` + os.Args[0] + `"`,
		Env:     append(os.Environ(), "RUNNER_HELPER="+mode, "RUNNER_PIDFILE="+pidfile),
	}, pidfile
}

// waitGone fails the test unless the process whose pid is in pidfile ends within a few
// seconds.
func waitGone(t *testing.T, pidfile string) {
	t.Helper()
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the helper wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return // no such process any more
	}
	defer windows.CloseHandle(h)
	if ev, _ := windows.WaitForSingleObject(h, 5000); ev != windows.WAIT_OBJECT_0 {
		windows.TerminateProcess(h, 1)
		t.Fatalf("the grandchild %d outlived the hook", pid)
	}
}

func TestCmdExeReadsTheCommandAsWritten(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ command, want string }{
		// Go's own quoting would hand cmd.exe \"...\" here.
		{`echo {"permission":"deny","agent_message":"no"}`, `{"permission":"deny","agent_message":"no"}`},
		{`echo "a  b" & echo c`, "\"a  b\" \r\nc"},
		{`if "x"=="x" (echo same) else (echo differ)`, "same"},
	} {
		r := Run(context.Background(), Spec{Command: c.command, Timeout: 20 * time.Second})
		if !r.Success() || strings.TrimRight(string(r.Stdout), "\r\n") != c.want {
			t.Errorf("%s: %+v, stdout %q, want %q", c.command, r, r.Stdout, c.want)
		}
	}
}

func TestExitCodeAndStdin(t *testing.T) {
	t.Parallel()
	if r := Run(context.Background(), Spec{Command: "exit /b 3", Timeout: 20 * time.Second}); r.ExitCode != 3 || r.Err != nil {
		t.Errorf("exit /b 3: %+v", r)
	}
	spec, _ := helper(t, "cat")
	spec.Stdin, spec.Timeout = []byte(`{"hook_event_name":"beforeShellExecution"}`), 20*time.Second
	if r := Run(context.Background(), spec); !r.Success() || string(r.Stdout) != string(spec.Stdin) {
		t.Errorf("stdin to stdout: %+v %q", r, r.Stdout)
	}
}

func TestTimeoutKillsTheWholeTree(t *testing.T) {
	t.Parallel()
	spec, pidfile := helper(t, "tree")
	spec.Timeout, spec.KillGrace = 3*time.Second, 500*time.Millisecond
	start := time.Now()
	r := Run(context.Background(), spec)
	if !r.TimedOut || r.Success() {
		t.Fatalf("a hook that sleeps past its timeout: %+v", r)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("Run returned after %v", d)
	}
	waitGone(t, pidfile)
}

func TestGrandchildHoldingStdoutIsKilled(t *testing.T) {
	t.Parallel()
	spec, pidfile := helper(t, "orphan")
	spec.Timeout, spec.KillGrace = 20*time.Second, 500*time.Millisecond
	r := Run(context.Background(), spec)
	if r.TimedOut || r.ExitCode != 0 {
		t.Fatalf("a hook that exits at once: %+v", r)
	}
	waitGone(t, pidfile)
}
