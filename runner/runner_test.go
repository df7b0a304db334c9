//go:build unix

package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as a misbehaving hook when RUNNER_HELPER is set.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RUNNER_HELPER"); mode != "" {
		helper(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func writePid(pid int) {
	if f := os.Getenv("RUNNER_PIDFILE"); f != "" {
		fh, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		fmt.Fprintln(fh, pid)
		fh.Close()
	}
}

func helper(mode string) {
	writePid(os.Getpid())
	switch mode {
	case "echo":
		io.Copy(os.Stdout, os.Stdin)
	case "hang":
		time.Sleep(time.Hour)
	case "ignoreterm":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "grandchild":
		// A grandchild that inherits stdout and ignores SIGTERM, then the hook exits at once.
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "RUNNER_HELPER=ignoreterm")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			os.Exit(3)
		}
		fmt.Println(`{"permission":"allow"}`)
		os.Exit(0)
	case "grandchild-hang":
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "RUNNER_HELPER=ignoreterm")
		c.Stdout = os.Stdout
		c.Start()
		time.Sleep(time.Hour)
	case "flood":
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 100 {
			os.Stdout.Write(chunk)
		}
	case "noread":
		fmt.Print("done")
	case "exit":
		code, _ := strconv.Atoi(os.Getenv("RUNNER_CODE"))
		fmt.Fprint(os.Stderr, "bye")
		os.Exit(code)
	}
}

func helperSpec(t *testing.T, mode string) (Spec, string) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pids")
	return Spec{
		Command: "exec " + strconv.Quote(os.Args[0]),
		Env:     append(os.Environ(), "RUNNER_HELPER="+mode, "RUNNER_PIDFILE="+pidfile),
	}, pidfile
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

func pids(t *testing.T, file string) []int {
	t.Helper()
	b, _ := os.ReadFile(file)
	var out []int
	for _, l := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(l)
		out = append(out, n)
	}
	return out
}

func assertGone(t *testing.T, pidfile string, want int) {
	t.Helper()
	ps := pids(t, pidfile)
	if len(ps) < want {
		t.Fatalf("helper wrote %d pids, want %d", len(ps), want)
	}
	deadline := time.Now().Add(2 * time.Second)
	for _, p := range ps {
		for alive(p) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(p) {
			t.Errorf("process %d is still running after Run returned", p)
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

func TestRunEchoesStdin(t *testing.T) {
	spec, _ := helperSpec(t, "echo")
	spec.Stdin = []byte(`{"hook_event_name":"stop"}`)
	res := Run(context.Background(), spec)
	if !res.Success() || string(res.Stdout) != string(spec.Stdin) {
		t.Fatalf("got %+v stdout %q", res, res.Stdout)
	}
}

func TestTimeoutKillsHangingHook(t *testing.T) {
	spec, pidfile := helperSpec(t, "hang")
	spec.Timeout = 300 * time.Millisecond
	spec.KillGrace = 200 * time.Millisecond
	res := Run(context.Background(), spec)
	if !res.TimedOut || res.Success() {
		t.Fatalf("want a timed out result, got %+v", res)
	}
	if res.Duration > spec.Timeout+3*spec.KillGrace+2*time.Second {
		t.Errorf("Run took %v, want within timeout plus grace", res.Duration)
	}
	assertGone(t, pidfile, 1)
}

func TestTimeoutKillsHookIgnoringSIGTERM(t *testing.T) {
	spec, pidfile := helperSpec(t, "ignoreterm")
	spec.Timeout = 300 * time.Millisecond
	spec.KillGrace = 200 * time.Millisecond
	res := Run(context.Background(), spec)
	if !res.TimedOut || res.Signal != "killed" {
		t.Fatalf("want timed out and killed, got %+v", res)
	}
	if res.Duration > spec.Timeout+3*spec.KillGrace+2*time.Second {
		t.Errorf("Run took %v", res.Duration)
	}
	assertGone(t, pidfile, 1)
}

func TestGrandchildHoldingStdoutDoesNotHang(t *testing.T) {
	spec, pidfile := helperSpec(t, "grandchild")
	spec.Timeout = 5 * time.Second
	spec.KillGrace = 200 * time.Millisecond
	res := Run(context.Background(), spec)
	if res.ExitCode != 0 || !strings.Contains(string(res.Stdout), `"allow"`) {
		t.Fatalf("got %+v stdout %q", res, res.Stdout)
	}
	// The grandchild sleeps for an hour: returning well before the timeout, not timed out,
	// shows Run did not wait for it.
	if res.TimedOut || res.Duration >= spec.Timeout {
		t.Errorf("Run waited %v for a grandchild holding stdout", res.Duration)
	}
	assertGone(t, pidfile, 2)
}

func TestTimeoutWithGrandchildHoldingStdout(t *testing.T) {
	spec, pidfile := helperSpec(t, "grandchild-hang")
	spec.Timeout = 300 * time.Millisecond
	spec.KillGrace = 200 * time.Millisecond
	res := Run(context.Background(), spec)
	if !res.TimedOut {
		t.Fatalf("want timed out, got %+v", res)
	}
	if res.Duration > spec.Timeout+3*spec.KillGrace+2*time.Second {
		t.Errorf("Run took %v", res.Duration)
	}
	assertGone(t, pidfile, 2)
}

func TestCancelStopsHook(t *testing.T) {
	spec, pidfile := helperSpec(t, "hang")
	spec.KillGrace = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res := Run(ctx, spec)
	if !res.Canceled || res.TimedOut {
		t.Fatalf("want canceled, got %+v", res)
	}
	assertGone(t, pidfile, 1)
}

func TestHugeOutputIsCappedAndCounted(t *testing.T) {
	spec, _ := helperSpec(t, "flood")
	spec.Timeout = 30 * time.Second
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := Run(context.Background(), spec)
	runtime.ReadMemStats(&after)
	if res.ExitCode != 0 {
		t.Fatalf("flood exited %d: %v", res.ExitCode, res.Err)
	}
	if len(res.Stdout) != DefaultStdoutCap || res.StdoutCut != 100<<20-DefaultStdoutCap {
		t.Fatalf("kept %d bytes and cut %d", len(res.Stdout), res.StdoutCut)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("capturing 100 MiB allocated %d MiB", grew>>20)
	}
}

func TestLargeStdinToHookThatNeverReads(t *testing.T) {
	spec, _ := helperSpec(t, "noread")
	spec.Stdin = bytes.Repeat([]byte("a"), 10<<20)
	spec.Timeout = 5 * time.Second
	res := Run(context.Background(), spec)
	if res.ExitCode != 0 || string(res.Stdout) != "done" || res.TimedOut {
		t.Fatalf("got %+v stdout %q", res, res.Stdout)
	}
	if res.Duration > 3*time.Second {
		t.Errorf("Run took %v", res.Duration)
	}
}

func TestExitCodesAndMissingCommands(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "hook.sh")
	os.WriteFile(noexec, []byte("#!/bin/sh\necho hi\n"), 0o644)
	cases := []struct {
		name    string
		command string
		code    int
	}{
		{"exit 2", "echo reason >&2; exit 2", 2},
		{"exit 1", "exit 1", 1},
		{"missing command", "definitely-not-a-command-agenthooks", 127},
		{"not executable", strconv.Quote(noexec), 126},
		{"missing file", strconv.Quote(filepath.Join(dir, "nope.sh")), 127},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := Run(context.Background(), Spec{Command: c.command})
			if res.ExitCode != c.code || res.Success() {
				t.Fatalf("exit %d, want %d (%+v)", res.ExitCode, c.code, res)
			}
		})
	}
}

func TestStderrCap(t *testing.T) {
	res := Run(context.Background(), Spec{Command: "head -c 100000 /dev/zero >&2", StderrCap: 1000})
	if len(res.Stderr) != 1000 || res.StderrCut != 99000 {
		t.Fatalf("kept %d, cut %d", len(res.Stderr), res.StderrCut)
	}
}

func TestStartFailure(t *testing.T) {
	res := Run(context.Background(), Spec{Command: "true", Shell: []string{"/nonexistent/shell", "-c"}})
	if res.Err == nil || res.ExitCode != -1 || res.Success() {
		t.Fatalf("want a start error, got %+v", res)
	}
}

func TestConcurrentRunsLeakNoDescriptors(t *testing.T) {
	count := func() int {
		ents, _ := os.ReadDir("/proc/self/fd")
		return len(ents)
	}
	before := count()
	done := make(chan Result)
	for range 200 {
		go func() {
			done <- Run(context.Background(), Spec{Command: "cat", Stdin: []byte("x")})
		}()
	}
	for range 200 {
		if r := <-done; !r.Success() {
			t.Fatalf("run failed: %+v", r)
		}
	}
	if after := count(); after > before+2 {
		t.Fatalf("open descriptors grew from %d to %d", before, after)
	}
}
