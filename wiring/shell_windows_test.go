package wiring

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestWindowsLookPath: a bare "agenthooks" resolves to agenthooks.exe in a folder of the agent's
// PATH, as cmd.exe finds it; a file without an executable's extension does not.
func TestWindowsLookPath(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agenthooks.exe"), []byte("MZ"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "agenthooks"), []byte("#!/bin/sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := lookPathIn("agenthooks", other+string(os.PathListSeparator)+dir)
	if err != nil || !strings.EqualFold(got, filepath.Join(dir, "agenthooks.exe")) {
		t.Fatalf("lookPathIn: %q %v", got, err)
	}
	if got, err := lookPathIn("agenthooks", other); err == nil {
		t.Fatalf("found %q, which Windows does not run", got)
	}
	for prog, want := range map[string]bool{`C:\tools\agenthooks.exe`: true, `bin\agenthooks`: true, "./agenthooks": true, "agenthooks": false} {
		if isPath(prog) != want {
			t.Errorf("isPath(%q) = %v", prog, !want)
		}
	}
}

// TestWindowsCanaryWithoutSh: the canary runs a hook's command line the way agents on Windows
// do, through cmd.exe (no sh), with the agent's environment and the payload on stdin.
func TestWindowsCanaryWithoutSh(t *testing.T) {
	if sh := canaryShell(dialect.Cursor); sh != nil {
		t.Fatalf("Cursor's shell on Windows: %q, want cmd.exe (the runner's default)", sh)
	}
	ctx := context.Background()
	environ := setEnv(os.Environ(), "AGENT_SAYS", "block")
	code, stdout, _, _, err := runCanaryHook(ctx, `if "%AGENT_SAYS%"=="block" (echo {"permission":"deny"} & exit /b 2) else (exit /b 0)`, nil, environ, []byte(`{}`))
	if err != nil || code != 2 || strings.TrimSpace(string(stdout)) != `{"permission":"deny"}` {
		t.Fatalf("canary through cmd.exe: exit %d, stdout %q, %v", code, stdout, err)
	}
	if code, _, _, _, err := runCanaryHook(ctx, `exit /b 0`, nil, os.Environ(), []byte(`{}`)); err != nil || code != 0 {
		t.Fatalf("exit /b 0: %d %v", code, err)
	}
}
