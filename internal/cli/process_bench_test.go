package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkGuardProcess is the cost of the whole shell guard process per call as install writes
// it, `agenthooks-guard bash`, beside a Go program that only decodes the same payload and exits
// (testdata/decodeonly), without and with the audit record (a spooled line); and of `agenthooks
// guard bash`, the same guard in the whole command line, which the hooks run where
// agenthooks-guard is not installed. All are built as they are released: CGO_ENABLED=0, a static
// binary.
//
// Each iteration runs the four one after another, so that a machine's drift during the run
// (frequency, other load) touches all alike; the metrics are the medians of each, in
// milliseconds, and the guard's median over the decode-only one ("guard/decode", the target is
// at most 1.5; "full/decode" for agenthooks guard bash). ns/op is the sum of the four.
func BenchmarkGuardProcess(b *testing.B) {
	dir := b.TempDir()
	build := func(out, pkg string) string {
		bin := filepath.Join(dir, out)
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", pkg, err, msg)
		}
		return bin
	}
	decode := build("decodeonly", "./testdata/decodeonly")
	ah := build("agenthooks", "../../cmd/agenthooks")
	guardBin := build("agenthooks-guard", "../../cmd/agenthooks-guard")
	// The workspace is a project folder of its own, as an agent's is: the guard reads the names
	// at its top (a VS Code .code-workspace there is protected), so a shared /tmp with
	// thousands of entries would measure the machine, not the guard.
	project := filepath.Join(dir, "project")
	for _, f := range []string{"package.json", "README.md", "web/package.json", "web/src/index.ts", ".git/HEAD"} {
		p := filepath.Join(project, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cwd, _ := json.Marshal(project)
	payload := []byte(`{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":` + string(cwd) + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm ci && npm run build -- --prod > build.log 2>&1"}}`)
	run := func(env string, argv ...string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = []string{"HOME=" + dir, env}
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		if err != nil || len(out) != 0 {
			b.Fatalf("%v: %v %s", argv, err, out)
		}
		return d
	}
	var dec, grd, aud, full []time.Duration
	for b.Loop() {
		dec = append(dec, run("", decode))
		grd = append(grd, run("AGENTHOOKS_AUDIT=off", guardBin, "bash"))
		aud = append(aud, run("", guardBin, "bash"))
		full = append(full, run("AGENTHOOKS_AUDIT=off", ah, "guard", "bash"))
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2]) / float64(time.Millisecond)
	}
	md, mg, ma, mf := median(dec), median(grd), median(aud), median(full)
	b.ReportMetric(md, "decode-ms")
	b.ReportMetric(mg, "guard-ms")
	b.ReportMetric(ma, "audited-ms")
	b.ReportMetric(mf, "full-ms")
	b.ReportMetric(mg/md, "guard/decode")
	b.ReportMetric(ma/md, "audited/decode")
	b.ReportMetric(mf/md, "full/decode")
}
