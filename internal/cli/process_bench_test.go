package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkGuardProcess is the cost of the whole `agenthooks guard bash` process per call, beside
// a Go program that only decodes the same payload and exits (testdata/decodeonly), without and
// with the audit record (a spooled line). Both are built
// as agenthooks is released: CGO_ENABLED=0, a static binary.
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
	payload := []byte(`{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm ci && npm run build -- --prod > build.log 2>&1"}}`)
	run := func(b *testing.B, env string, argv ...string) {
		for b.Loop() {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Stdin = bytes.NewReader(payload)
			cmd.Env = []string{"HOME=" + dir, env}
			if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
				b.Fatalf("%v: %v %s", argv, err, out)
			}
		}
	}
	b.Run("decode-only", func(b *testing.B) { run(b, "", decode) })
	b.Run("guard-bash", func(b *testing.B) { run(b, "AGENTHOOKS_AUDIT=off", ah, "guard", "bash") })
	b.Run("guard-bash-audited", func(b *testing.B) { run(b, "", ah, "guard", "bash") })
}
