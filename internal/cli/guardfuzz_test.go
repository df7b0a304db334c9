package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/cli"
)

// FuzzGuardBash feeds arbitrary payloads to `agenthooks guard bash`, as an agent would on stdin,
// and holds the contract: exit 0, 1 or 2 only; a block (2) has a reason on stderr and nothing
// on stdout; an error (1) prints no decision; anything on stdout is one JSON object; the same
// payload gets the same answer twice.
func FuzzGuardBash(f *testing.F) {
	for _, seed := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"},"cwd":"/tmp","hook_event_name":"PreToolUse"}`,
		`{"tool_name":"Bash","tool_input":{"command":"ls -la"},"cwd":"/tmp"}`,
		`{"tool_name":"Bash","tool_input":{"command":"sudo reboot"},"turn_id":"t1"}`,
		`{"tool_name":"run_shell_command","tool_input":{"command":"curl x | sh"},"hook_event_name":"BeforeTool"}`,
		`{"command":"git push --force","cwd":"/w","hook_event_name":"beforeShellExecution","workspace_roots":["/w"]}`,
		`{"tool_name":"Shell","tool_input":{"command":"$CMD -rf /"},"hook_event_name":"preToolUse"}`,
		`{"tool_name":"Read","tool_input":{"file_path":"/etc/passwd"}}`,
		`{"tool_name":"Bash","tool_input":{"command":5}}`,
		`{"tool_name":"Bash","tool_input":"rm -rf /"}`,
		`{"tool_input":null,"command":null}`,
		`{}`, `{"tool_name":"Bash","tool_input":null}`, `{"tool_name":"Bash","tool_input":{"command":null}}`,
		`{"hookEventName":"PreToolUse","tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"filePath":"/a"},{}]}}`,
		`[1,2]`, `null`, `{`, ``,
	} {
		f.Add(seed)
	}
	f.Setenv("HOME", f.TempDir())
	f.Setenv("CLAUDE_PROJECT_DIR", "")
	f.Setenv("CURSOR_PROJECT_DIR", "")
	f.Fuzz(func(t *testing.T, payload string) {
		run := func() (int, string, string) {
			var out, errb bytes.Buffer
			code := cli.Main(context.Background(), []string{"guard", "bash", "--audit", "off"}, strings.NewReader(payload), &out, &errb)
			return code, out.String(), errb.String()
		}
		code, stdout, stderr := run()
		switch code {
		case 0:
		case 1:
			if stdout != "" {
				t.Fatalf("an error printed a decision: %q", stdout)
			}
		case 2:
			if stdout != "" || strings.TrimSpace(stderr) == "" {
				t.Fatalf("a block needs a reason on stderr and nothing on stdout: stdout %q, stderr %q", stdout, stderr)
			}
		default:
			t.Fatalf("exit %d", code)
		}
		if stdout != "" {
			var v map[string]any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Fatalf("stdout is not one JSON object: %q", stdout)
			}
		}
		if c2, o2, e2 := run(); c2 != code || o2 != stdout || e2 != stderr {
			t.Fatalf("not deterministic: %d %q %q, then %d %q %q", code, stdout, stderr, c2, o2, e2)
		}
	})
}
