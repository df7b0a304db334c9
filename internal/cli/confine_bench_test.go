package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/confine"
)

// BenchmarkConfineProcess is the extra cost of a confined command: `agenthooks confine -- true`
// beside a bare `true`, both started as an agent starts a command, with agenthooks built as it
// is released (CGO_ENABLED=0); and the guard's own extra cost in deciding to rewrite: `agenthooks
// guard bash` on a command it asks about, answering the rewrite (confine.mode ask: the sandbox
// plan checked, the agent's own rules read; Claude Code's and Codex's payloads) beside answering
// the ask (confine.mode off). Each iteration runs them all, so that drift touches all alike; the
// metrics are the medians in milliseconds and the differences ("extra-ms" for the command,
// "rewrite-extra-ms" and "codex-rewrite-extra-ms" for the guard). ns/op is the sum.
func BenchmarkConfineProcess(b *testing.B) {
	if confine.ABI() < 1 {
		b.Skip("this kernel has no Landlock")
	}
	dir := b.TempDir()
	ah := filepath.Join(dir, "agenthooks")
	build := exec.Command("go", "build", "-o", ah, "../../cmd/agenthooks")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, msg)
	}
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1)")
	}
	env := []string{"HOME=" + filepath.Join(dir, "home"), "TMPDIR=" + dir, "AGENTHOOKS_AUDIT=off", "PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + project}
	off := filepath.Join(dir, "off.yaml")
	if err := os.WriteFile(off, []byte("version: 1\nconfine: {mode: off}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	// A command the guard asks about: the program is computed (ls), so it cannot be judged.
	claudeAsk := []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"\"$(ls ./x.s?)\" --all"},"cwd":"` + project + `"}`)
	codexAsk := []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"\"$(ls ./x.s?)\" --all"},"cwd":"` + project + `","turn_id":"t"}`)
	run := func(stdin []byte, want string, extra []string, argv ...string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = project, append(slices.Clone(env), extra...)
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		if want == "" && (err != nil || len(out) != 0) || !bytes.Contains(out, []byte(want)) {
			b.Fatalf("%v: %v %s", argv, err, out)
		}
		return d
	}
	offPolicy := []string{"AGENTHOOKS_POLICY=" + off}
	var bare, confined, ask, rewrite, codexDeny, codexRewrite []time.Duration
	for b.Loop() {
		bare = append(bare, run(nil, "", nil, truePath))
		confined = append(confined, run(nil, "", nil, ah, "confine", "--", truePath))
		ask = append(ask, run(claudeAsk, `"permissionDecision":"ask"`, offPolicy, ah, "guard", "bash"))
		rewrite = append(rewrite, run(claudeAsk, `"updatedInput"`, nil, ah, "guard", "bash"))
		codexDeny = append(codexDeny, run(codexAsk, "Codex cannot ask a person", offPolicy, ah, "guard", "bash"))
		codexRewrite = append(codexRewrite, run(codexAsk, `"updatedInput"`, nil, ah, "guard", "bash"))
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2]) / float64(time.Millisecond)
	}
	mb, mc := median(bare), median(confined)
	b.ReportMetric(mb, "bare-ms")
	b.ReportMetric(mc, "confined-ms")
	b.ReportMetric(mc-mb, "extra-ms")
	ma, mr := median(ask), median(rewrite)
	b.ReportMetric(ma, "guard-ask-ms")
	b.ReportMetric(mr, "guard-rewrite-ms")
	b.ReportMetric(mr-ma, "rewrite-extra-ms")
	b.ReportMetric(median(codexRewrite)-median(codexDeny), "codex-rewrite-extra-ms")
}
