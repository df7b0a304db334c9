package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenthooks/agenthooks/confine"
)

// TestConfineScripts runs agenthooks confine end to end. The condition [landlock] holds where
// the kernel offers Landlock; scripts that confine skip without it, saying so.
func TestConfineScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "confine"),
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("AGENTHOOKS_ENTERPRISE_DIR", filepath.Join(env.WorkDir, "enterprise"))
			env.Setenv("AGENTHOOKS_AUDIT", "off")
			env.Setenv("CURSOR_PROJECT_DIR", "")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("TMPDIR", filepath.Join(env.WorkDir, "tmp"))
			env.Setenv("ABI", fmt.Sprint(confine.ABI()))
			// The agents' system folders, where their own rules may be: never the machine's.
			env.Setenv("AGENTHOOKS_CLAUDE_MANAGED_DIR", filepath.Join(env.WorkDir, "sys", "claude"))
			env.Setenv("AGENTHOOKS_CODEX_SYSTEM_DIR", filepath.Join(env.WorkDir, "sys", "codex"))
			env.Setenv("AGENTHOOKS_GEMINI_SYSTEM_DIR", filepath.Join(env.WorkDir, "sys", "gemini"))
			env.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "")
			env.Setenv("CODEX_HOME", "")
			env.Setenv("AGENTHOOKS_RUN_DEPTH", "")
			env.Setenv("AGENTHOOKS_AGENT", "")
			for _, d := range []string{home, filepath.Join(env.WorkDir, "tmp")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "landlock" {
				return confine.ABI() > 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// rewritten FILE runs the command of a guard answer's updatedInput with bash -c, as
			// Claude Code runs a Bash call, in the script's working directory.
			"rewritten": func(ts *testscript.TestScript, neg bool, args []string) {
				var answer struct {
					HookSpecificOutput struct {
						UpdatedInput struct {
							Command string `json:"command"`
						} `json:"updatedInput"`
					} `json:"hookSpecificOutput"`
				}
				if len(args) != 1 {
					ts.Fatalf("usage: rewritten FILE")
				}
				ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &answer))
				command := answer.HookSpecificOutput.UpdatedInput.Command
				if command == "" {
					ts.Fatalf("%s has no updatedInput.command", args[0])
				}
				err := ts.Exec("bash", "-c", command)
				if (err != nil) != neg {
					ts.Fatalf("rewritten command: %v", err)
				}
			},
		},
		RequireExplicitExec: true,
	})
}
