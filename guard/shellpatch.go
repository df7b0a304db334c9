package guard

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/guard/shell"
)

// checkShellPatch judges an apply_patch run through the shell tool: Codex applies a patch
// itself when the model runs `apply_patch <<'EOF' ... EOF` (or applypatch, or after a cd)
// through its shell tool, and its hook sees a shell command, not the apply_patch tool. The
// files the patch names are judged as the apply_patch tool's are; ok is false when the command
// runs no patch or changes no protected file, and the shell policy decides.
func checkShellPatch(command string, s *shell.Script, ctx Context) (Verdict, bool) {
	if !strings.Contains(command, "*** Begin Patch") {
		return Verdict{}, false
	}
	files := patchFiles(command)
	for _, inv := range s.Invocations {
		if inv.Name != "apply_patch" && inv.Name != "applypatch" {
			continue
		}
		c := ctx
		if inv.Cwd != "" {
			c.Cwd = inv.Cwd
		}
		if v := policy.CheckEdit("apply_patch", files, c); v.Decision != Allow {
			return v, true
		}
	}
	return Verdict{}, false
}
