package dialect_test

import (
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestOwnArgs: agenthooks-guard's arguments are agenthooks' after "guard"; any other program is
// not agenthooks', even one whose name starts the same.
func TestOwnArgs(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string
		ok   bool
	}{
		{"agenthooks", []string{"run", "--agent", "claude", "PreToolUse"}, []string{"run", "--agent", "claude", "PreToolUse"}, true},
		{"agenthooks-guard", []string{"bash", "--fail-closed"}, []string{"guard", "bash", "--fail-closed"}, true},
		{"agenthooks-guard", nil, []string{"guard"}, true},
		{"agenthooks-admin", []string{"log"}, nil, false},
		{"agenthooks-guardx", []string{"bash"}, nil, false},
		{"my-agenthooks", []string{"run"}, nil, false},
		// a Windows path, as the shell analyser names it (it splits at slashes only), and ".exe"
		{`C:\Users\me\bin\agenthooks.exe`, []string{"run"}, []string{"run"}, true},
		{`C:\Program Files\agenthooks\AGENTHOOKS-GUARD.EXE`, []string{"bash"}, []string{"guard", "bash"}, true},
		{"agenthooks.exe", nil, nil, true},
		{`C:\x\agenthooks-admin.exe`, []string{"log"}, nil, false},
		{"agenthooks.exe.bak", nil, nil, false},
	} {
		got, ok := dialect.OwnArgs(c.name, c.args)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("OwnArgs(%q, %q) = %q, %v; want %q, %v", c.name, c.args, got, ok, c.want, c.ok)
		}
	}
}

// TestInstallEntryCommand: an entry of the shell guard that install gave agenthooks-guard runs
// it with the arguments after "guard"; every other entry runs agenthooks.
func TestInstallEntryCommand(t *testing.T) {
	guard := dialect.InstallEntry{Event: "PreToolUse", Args: "guard bash --fail-closed --format kiro",
		Guard: "'/opt/a b/agenthooks-guard'", GuardPath: "/opt/a b/agenthooks-guard"}
	if got := guard.Command("'/opt/a b/agenthooks'"); got != "'/opt/a b/agenthooks-guard' bash --fail-closed --format kiro" {
		t.Errorf("guard entry: %q", got)
	}
	if p, args := guard.Argv("/opt/a b/agenthooks"); p != "/opt/a b/agenthooks-guard" || !slices.Equal(args, []string{"bash", "--fail-closed", "--format", "kiro"}) {
		t.Errorf("guard entry's argv: %q %q", p, args)
	}
	plain := guard
	plain.Guard, plain.GuardPath = "", ""
	if got := plain.Command("agenthooks"); got != "agenthooks guard bash --fail-closed --format kiro" {
		t.Errorf("without agenthooks-guard: %q", got)
	}
	run := dialect.InstallEntry{Event: "Stop", Args: "run --agent claude Stop", Guard: guard.Guard, GuardPath: guard.GuardPath}
	if got := run.Command("/opt/agenthooks"); got != "/opt/agenthooks run --agent claude Stop" {
		t.Errorf("a runner entry: %q", got)
	}
	if p, args := run.Argv("/opt/agenthooks"); p != "/opt/agenthooks" || !slices.Equal(args, []string{"run", "--agent", "claude", "Stop"}) {
		t.Errorf("a runner entry's argv: %q %q", p, args)
	}
}
