package policy

import "testing"

// TestWindowsBashPaths: Windows paths are compared in the form bash on Windows gives them, both
// ways, and the rewrite is idempotent.
func TestWindowsBashPaths(t *testing.T) {
	for in, want := range map[string]string{`C:\Users\x\.claude\settings.json`: "/c/Users/x/.claude/settings.json",
		"D:/src/app": "/d/src/app", `C:`: "/c", "/c/Users/x": "/c/Users/x", `rel\dir`: "rel/dir", "": ""} {
		if got := toBash(in); got != want {
			t.Errorf("toBash(%q) = %q, want %q", in, got, want)
		}
	}
	if got := fromBash("/c/Users/x"); got != "C:/Users/x" {
		t.Errorf("fromBash = %q", got)
	}
	ctx := Context{Home: `C:\Users\x`, Cwd: `C:\Users\x\src`, Protected: []Protected{{Path: `C:\Users\x\.claude`}},
		LookPath: func(string) string { return `C:\bin\agenthooks.exe` },
		ReadFile: func(p string) (string, bool) { return p, true }}
	for range 2 {
		ctx = BashPaths(ctx)
		if ctx.Home != "/c/Users/x" || ctx.Cwd != "/c/Users/x/src" || ctx.Protected[0].Path != "/c/Users/x/.claude" ||
			ctx.LookPath("agenthooks") != "/c/bin/agenthooks.exe" {
			t.Fatalf("%+v", ctx)
		}
		if p, _ := ctx.ReadFile("/c/Users/x/run.sh"); p != "C:/Users/x/run.sh" {
			t.Fatalf("ReadFile got %q", p)
		}
	}
}
