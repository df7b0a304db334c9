package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
)

// newEngine writes hooksJSON as the user layer of a fresh home and loads it.
func newEngine(t testing.TB, hooksJSON string, opts Options) *Engine {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(hooksJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Env = config.Env{Home: home, EnterpriseDir: filepath.Join(home, "no-enterprise")}
	eng, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if errs := eng.Config().Problems().Errors(); len(errs) > 0 {
		t.Fatalf("config problems: %v", errs)
	}
	return eng
}

func hooksOf(event string, commands ...string) string {
	var entries []string
	for _, c := range commands {
		entries = append(entries, fmt.Sprintf(`{"command": %q}`, c))
	}
	return fmt.Sprintf(`{"version": 1, "hooks": {%q: [%s]}}`, event, strings.Join(entries, ","))
}

func TestFireOrdersResultsByHookNotCompletion(t *testing.T) {
	t.Parallel()
	eng := newEngine(t, hooksOf("beforeShellExecution",
		`sleep 0.3; echo '{"permission":"deny","user_message":"first"}'`,
		`echo '{"permission":"deny","user_message":"second"}'`), Options{})
	d, err := eng.Fire(context.Background(), Event{Name: "beforeShellExecution", Payload: []byte(`{"command":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if d.UserMessage != "first\nsecond" || len(d.DecidedBy) != 2 || d.DecidedBy[0] != 0 {
		t.Fatalf("messages %q decided by %v", d.UserMessage, d.DecidedBy)
	}
}

// spans runs n hooks that each record when they start and end, and returns the spans.
func spans(t *testing.T, n int, opts Options) [][2]int64 {
	t.Helper()
	dir := t.TempDir()
	var cmds []string
	for i := range n {
		cmds = append(cmds, fmt.Sprintf(`date +%%s%%N > %[1]s/start%[2]d; sleep 0.2; date +%%s%%N > %[1]s/end%[2]d`, dir, i))
	}
	eng := newEngine(t, hooksOf("afterFileEdit", cmds...), opts)
	if _, err := eng.Fire(context.Background(), Event{Name: "afterFileEdit", Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	out := make([][2]int64, n)
	for i := range n {
		for j, name := range []string{"start", "end"} {
			b, err := os.ReadFile(filepath.Join(dir, fmt.Sprint(name, i)))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Sscan(string(b), &out[i][j])
		}
	}
	return out
}

// TestHooksOfOneEventRunConcurrently: four hooks each wait (up to 10 s) until all four have
// started; they can only all get there if they run at the same time. A barrier, not a timing: a
// busy machine makes it slower, never wrong.
func TestHooksOfOneEventRunConcurrently(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var cmds []string
	for i := range 4 {
		cmds = append(cmds, fmt.Sprintf(`touch %[1]s/start%[2]d; n=0; `+
			`while [ "$(ls %[1]s | grep -c '^start')" -lt 4 ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; `+
			`[ $n -lt 200 ] && touch %[1]s/met%[2]d`, dir, i))
	}
	eng := newEngine(t, hooksOf("afterFileEdit", cmds...), Options{})
	if _, err := eng.Fire(context.Background(), Event{Name: "afterFileEdit", Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprint("met", i))); err != nil {
			t.Fatalf("hook %d never saw the four hooks running at once", i)
		}
	}
}

func TestSequentialHooksRunOneAfterAnother(t *testing.T) {
	t.Parallel()
	s := spans(t, 3, Options{Sequential: true})
	for i := 1; i < len(s); i++ {
		if s[i][0] < s[i-1][1] {
			t.Fatalf("hook %d started before hook %d ended: %v", i, i-1, s)
		}
	}
}

func TestMaxParallelBoundsTheFanOut(t *testing.T) {
	t.Parallel()
	s := spans(t, 3, Options{MaxParallel: 1})
	for i := 1; i < len(s); i++ {
		if s[i][0] < s[i-1][1] {
			t.Fatalf("with MaxParallel 1, hook %d overlapped hook %d: %v", i, i-1, s)
		}
	}
}

func TestTwoHundredConcurrentFiresLeakNoDescriptors(t *testing.T) {
	// A long timeout: 400 shells at once on a loaded 2-core machine can take longer than the
	// default, and a hook that timed out gives no answer; this test is about what leaks.
	eng := newEngine(t, `{"version": 1, "hooks": {"beforeShellExecution": [
		{"command": "cat >/dev/null; echo '{\"permission\":\"allow\"}'", "timeout": 300},
		{"command": "echo '{\"permission\":\"ask\"}'", "timeout": 300}]}}`, Options{})
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd on this system")
		}
		return len(ents)
	}
	before, goroutines := fds(), runtime.NumGoroutine()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for range 200 {
		wg.Go(func() {
			d, err := eng.Fire(context.Background(), Event{Name: "beforeShellExecution", Payload: []byte(`{"command":"ls"}`)})
			if err == nil && d.Permission != decide.Ask {
				err = fmt.Errorf("permission %q, want ask", d.Permission)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if after := fds(); after > before+2 {
		t.Errorf("open descriptors grew from %d to %d", before, after)
	}
	time.Sleep(50 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > goroutines+5 {
		t.Errorf("goroutines grew from %d to %d", goroutines, after)
	}
}

func TestFailClosedNeverLooksLikeAllow(t *testing.T) {
	t.Parallel()
	eng := newEngine(t, `{"version":1,"hooks":{"beforeMCPExecution":[
		{"command":"exit 3","failClosed":true},
		{"command":"sleep 5","timeout":0.2}
	]}}`, Options{KillGrace: 100 * time.Millisecond})
	d, err := eng.Fire(context.Background(), Event{Name: "beforeMCPExecution", Payload: []byte(`{"tool_name":"t"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != decide.Deny || d.Runs[0].Verdict != VerdictFailedClosed || d.Runs[1].Verdict != VerdictError {
		t.Fatalf("got %s with runs %s, %s", d.Permission, d.Runs[0].Verdict, d.Runs[1].Verdict)
	}
	if !strings.Contains(d.ClientMessage, "MCP tool execution was blocked by a hook: the guard") ||
		!strings.Contains(d.UserMessage, "hook exited with status 3") {
		t.Fatalf("messages: %q / %q", d.ClientMessage, d.UserMessage)
	}
}

func TestCanceledFireStopsHooks(t *testing.T) {
	t.Parallel()
	eng := newEngine(t, hooksOf("stop", "sleep 30"), Options{KillGrace: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	d, err := eng.Fire(ctx, Event{Name: "stop", Payload: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Runs[0]; !r.Result.Canceled || r.Verdict != VerdictError {
		t.Fatalf("run: %+v", r)
	}
}

func TestFireRejectsBadInput(t *testing.T) {
	t.Parallel()
	eng := newEngine(t, hooksOf("stop", "true"), Options{})
	if _, err := eng.Fire(context.Background(), Event{Name: "Stop", Payload: []byte(`{}`)}); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown event: %v", err)
	}
	for _, p := range []string{`[]`, `null`, `"x"`, `{"a":`, `{} {}`} {
		if _, err := eng.Fire(context.Background(), Event{Name: "stop", Payload: []byte(p)}); err == nil {
			t.Errorf("payload %s accepted", p)
		}
	}
}

func TestValidateExecutionContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		name     string
		ec       ExecContext
		errs     []string
		warnings []string
	}{
		{"valid", ExecContext{Event: "beforeShellExecution", ProjectDir: dir, ToolName: "Shell", Cwd: dir}, nil, nil},
		{"missing", ExecContext{}, []string{"event is required", "projectDir is required"}, nil},
		{"bad event", ExecContext{Event: "before shell;", ProjectDir: dir}, []string{`event "before shell;" is not a well-formed event name`}, nil},
		{"unknown event", ExecContext{Event: "PreToolUse", ProjectDir: dir}, nil, []string{`event "PreToolUse" is not one of Cursor's hook events`}},
		{"missing dir", ExecContext{Event: "stop", ProjectDir: filepath.Join(dir, "nope")}, []string{"is not accessible"}, nil},
		{"file as dir", ExecContext{Event: "stop", ProjectDir: file}, []string{"is not a directory"}, nil},
		{"relative dir", ExecContext{Event: "stop", ProjectDir: "."}, nil, []string{"is not an absolute path"}},
		{"odd tool", ExecContext{Event: "stop", ProjectDir: dir, ToolName: "rm -rf"}, nil, []string{"is not a usual tool name"}},
		{"mcp tool", ExecContext{Event: "stop", ProjectDir: dir, ToolName: "mcp__github__create_issue"}, nil, nil},
		{"bad cwd", ExecContext{Event: "stop", ProjectDir: dir, Cwd: file}, []string{"is not an accessible directory"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ValidateExecutionContext(c.ec)
			if r.Valid != (len(c.errs) == 0) || len(r.Errors) != len(c.errs) || len(r.Warnings) != len(c.warnings) {
				t.Fatalf("got %+v", r)
			}
			for i, want := range c.errs {
				if !strings.Contains(r.Errors[i], want) {
					t.Errorf("error %q does not say %q", r.Errors[i], want)
				}
			}
			for i, want := range c.warnings {
				if !strings.Contains(r.Warnings[i], want) {
					t.Errorf("warning %q does not say %q", r.Warnings[i], want)
				}
			}
		})
	}
}

func TestBuildJSONInput(t *testing.T) {
	t.Parallel()
	b, err := BuildJSONInput(InputContext{
		ExecContext: ExecContext{Event: "PostToolUse", ProjectDir: "/p", ToolName: "Bash"},
		SessionID:   "s1", ToolInput: map[string]string{"command": "ls"}, ToolResponse: "ok", SubagentType: "explore",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"cwd":"/p","hook_event_name":"PostToolUse","session_id":"s1","subagent_type":"explore","tool_input":{"command":"ls"},"tool_name":"Bash","tool_response":"ok"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	b, _ = BuildJSONInput(InputContext{})
	if string(b) != `{}` {
		t.Fatalf("empty context gave %s", b)
	}
}

func TestExecuteCommands(t *testing.T) {
	t.Parallel()
	ec := ExecContext{Event: "stop", ProjectDir: t.TempDir()}
	res, err := ExecuteCommands(context.Background(), []string{"true", "exit 4", "true"}, ec, ExecOptions{})
	if err != nil || len(res) != 2 || res[1].ExitCode != 4 {
		t.Fatalf("stop on failure: %v %+v", err, res)
	}
	res, err = ExecuteCommands(context.Background(), []string{"true", "exit 4", "echo $HOOK_PROJECT_DIR"}, ec, ExecOptions{ContinueOnFailure: true})
	if err != nil || len(res) != 3 || strings.TrimSpace(string(res[2].Stdout)) != ec.ProjectDir {
		t.Fatalf("continue on failure: %v %+v", err, res)
	}
	res, err = ExecuteCommands(context.Background(), []string{"true", "mkfs.ext4 /dev/sda", "true"}, ec, ExecOptions{ContinueOnFailure: true})
	if !errors.Is(err, ErrUnsafeCommand) || len(res) != 1 {
		t.Fatalf("unsafe command: %v %+v", err, res)
	}
	_, err = ExecuteCommand(context.Background(), "true", ExecContext{Event: "stop"}, ExecOptions{})
	if !errors.Is(err, ErrInvalidContext) {
		t.Fatalf("invalid context: %v", err)
	}
	r, err := ExecuteCommand(context.Background(), "sleep 5", ec, ExecOptions{Timeout: 100 * time.Millisecond})
	if err != nil || !r.TimedOut {
		t.Fatalf("timeout: %v %+v", err, r)
	}
}

func writeFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o644) }
