package guard_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
)

// TestShellPatch: a patch Codex applies from its shell tool (apply_patch <<'EOF' ... EOF) is
// judged by the files it names, as the apply_patch tool is: a change to an agent's hooks file
// is denied wherever the patch runs from, and an ordinary patch is left to the shell policy.
func TestShellPatch(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	ctx := guard.Context{Home: home, Cwd: ws, Project: ws,
		Protected: []policy.Protected{{Path: filepath.ToSlash(filepath.Join(home, ".claude", "settings.json")), What: "claude hooks configuration (user)"}}}
	patch := func(prefix, header string) string {
		return prefix + "apply_patch <<'EOF'\n*** Begin Patch\n" + header + "\n+{}\n*** End Patch\nEOF\n"
	}
	for _, c := range []struct {
		name, command string
		deny          bool
	}{
		{"the user's settings by an absolute path", patch("", "*** Add File: "+filepath.Join(home, ".claude", "settings.json")), true},
		{"after a cd", patch("cd ~ && ", "*** Update File: .claude/settings.json"), true},
		{"applypatch", strings.Replace(patch("", "*** Delete File: "+filepath.Join(home, ".claude", "settings.json")), "apply_patch", "applypatch", 1), true},
		{"an ordinary file", patch("", "*** Add File: notes.txt"), false},
		{"a heredoc that is no patch", "cat <<'EOF' > notes.txt\n*** Begin Patch\n*** Add File: ~/.claude/settings.json\nEOF\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := guard.Default().Check(c.command, ctx)
			if denied := v.Decision == guard.Deny; denied != c.deny {
				t.Errorf("denied = %v, want %v: %s", denied, c.deny, v.Reason)
			}
			if c.deny && !strings.Contains(v.Reason, "claude hooks configuration") {
				t.Errorf("reason %q does not name the protected file", v.Reason)
			}
		})
	}
}
