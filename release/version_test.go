package release

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestVersionStamps builds the four programs as goreleaser does (-X on internal/buildinfo) and
// as `go build` in a clean clone does (no -X, the go command's version-control stamp), and checks
// what --version prints: the release's version, commit and date; or the pseudo-version, commit and
// commit time git gives, not "dev".
func TestVersionStamps(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binaries")
	}
	root := repoRoot(t)
	bin := t.TempDir()
	const pkg = "github.com/agenthooks/agenthooks/internal/buildinfo"
	ldflags := "-X " + pkg + ".version=1.2.3 -X " + pkg + ".commit=0123456789abcdef0123456789abcdef01234567 -X " + pkg + ".date=2026-12-01T10:00:00Z"
	env := []string{"CGO_ENABLED=0"}
	for _, b := range []string{"agenthooks", "agenthooks-admin", "agenthooks-scan", "agenthooks-guard"} {
		out := filepath.Join(bin, exe(b))
		mustRun(t, 10*time.Minute, root, env, "go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, "./cmd/"+b)
		got := mustRun(t, time.Minute, bin, nil, out, "--version")
		want := b + " version 1.2.3\ncommit: 0123456789abcdef0123456789abcdef01234567\ndate:   2026-12-01T10:00:00Z\ngo:     go1."
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s --version:\n%s\nwant it to start with\n%s", b, got, want)
		}
	}

	t.Run("go build in a clone", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git is not installed")
		}
		head := strings.TrimSpace(mustRun(t, time.Minute, root, nil, "git", "rev-parse", "HEAD"))
		when := strings.TrimSpace(mustRun(t, time.Minute, root, []string{"TZ=UTC"}, "git", "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ"))
		clone := filepath.Join(t.TempDir(), "src")
		mustRun(t, 5*time.Minute, root, nil, "git", "clone", "--quiet", "--no-checkout", root, clone)
		mustRun(t, time.Minute, clone, nil, "git", "checkout", "--quiet", head)
		out := filepath.Join(t.TempDir(), exe("agenthooks"))
		// GOFLAGS may say -buildvcs=false (this machine's does); the flag on the command line wins.
		mustRun(t, 10*time.Minute, clone, env, "go", "build", "-trimpath", "-buildvcs=true", "-o", out, "./cmd/agenthooks")
		got := mustRun(t, time.Minute, clone, nil, out, "--version")
		want := regexp.MustCompile(`\Aagenthooks version v\d+\.\d+\.\d+-(\S+\.)?\d{14}-` + head[:12] + `\ncommit: ` + head + `\ndate:   ` + regexp.QuoteMeta(when) + `\ngo:     go1\.`)
		if !want.MatchString(got) {
			t.Errorf("--version of a go build in a clean clone:\n%s\nwant it to match %s", got, want)
		}
	})
}
