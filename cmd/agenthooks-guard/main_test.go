package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenthooks/agenthooks/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agenthooks": func() {
			os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		"agenthooks-guard": func() {
			os.Exit(cli.GuardMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs agenthooks-guard as agents run it, beside agenthooks on PATH: JSON on stdin,
// the exit status and the answer checked; and agenthooks install, doctor and uninstall with
// it there.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("AGENTHOOKS_ENTERPRISE_DIR", filepath.Join(env.WorkDir, "enterprise"))
			env.Setenv("AGENTHOOKS_CLAUDE_MANAGED_DIR", filepath.Join(env.WorkDir, "claude-managed"))
			env.Setenv("CURSOR_PROJECT_DIR", "")
			return os.MkdirAll(home, 0o755)
		},
		RequireExplicitExec: true,
	})
}

// TestLinksOnlyTheGuard builds agenthooks-guard as it is released and checks that the linker
// kept none of agenthooks' command line: what the binary holds beyond the guard is what every
// guard process pays to start (docs/performance.md).
func TestLinksOnlyTheGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agenthooks-guard")
	}
	bin := filepath.Join(t.TempDir(), "agenthooks-guard")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "tool", "nm", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool nm: %v\n%s", err, out)
	}
	syms := string(out)
	if !strings.Contains(syms, "internal/cli.runGuardBash") {
		t.Fatalf("go tool nm lists no runGuardBash: %.500s", syms)
	}
	for _, sym := range []string{
		"internal/cli.newRoot",            // the command tree
		"internal/cli.runRun",             // the runner
		"internal/cli.newInstallCmd",      // install
		"spf13/cobra.(*Command).ExecuteC", // cobra's execution
		"internal/cli.runDoctor",          // doctor
	} {
		if strings.Contains(syms, sym) {
			t.Errorf("agenthooks-guard links %s: keep GuardMain's path off the rest of the command line", sym)
		}
	}
}
