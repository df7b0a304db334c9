package windsurf

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// TestDecodeHooksFile reads the documentation's own example, with the fields it lists.
func TestDecodeHooksFile(t *testing.T) {
	t.Parallel()
	src := `{
  "hooks": {
    "pre_read_code": [
      {"command": "python3 /path/to/your/script.py", "show_output": true}
    ],
    "pre_run_command": [
      {"command": "agenthooks guard bash", "powershell": "agenthooks.exe guard bash", "working_directory": "."}
    ]
  }
}`
	f := DecodeHooksFile("hooks.json", []byte(src))
	if len(f.Problems) != 0 || len(f.Hooks) != 2 {
		t.Fatalf("problems %v, hooks %+v", f.Problems, f.Hooks)
	}
	if h := f.Hooks[0]; h.Event != "pre_read_code" || !h.ShowOutput || h.Pos.String() != "hooks.json:4:7" {
		t.Errorf("hook = %+v at %s", h, h.Pos)
	}
	h := f.Hooks[1]
	if h.CommandFor("linux") != "agenthooks guard bash" || h.CommandFor("windows") != "agenthooks.exe guard bash" || h.WorkingDirectory != "." {
		t.Errorf("hook = %+v", h)
	}
}

// TestDecodeHooksFileErrors: each broken file gives its problem with line and column.
func TestDecodeHooksFileErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{`{"hooks": []}`, `h.json:1:11: hooks must be an object of events`},
		{`{"hooks": {"pre_run_command": {}}}`, `h.json:1:31: hooks for pre_run_command must be an array`},
		{`{"hooks": {"pre_run_command": [{}]}}`, `h.json:1:32: a hook needs a command or powershell string`},
		{`{"hooks": {"pre_run_command": ["x"]}}`, `h.json:1:32: a hook must be an object with a command string`},
		{`{"hooks": {"pre_run_command": [{"command": 1}]}}`, `h.json:1:44: command must be a string`},
		{"{\n \"hooks\": {\"pre_read_code\": [{\"command\": \"x\", \"show_output\": \"yes\"}]}\n}", `h.json:2:62: show_output must be a boolean`},
		{`{"hooks": `, `h.json:1:11: invalid JSON`},
		{`"hooks"`, `h.json:1:1: a hooks file must be a JSON object`},
	}
	for _, c := range cases {
		f := DecodeHooksFile("h.json", []byte(c.src))
		if f.Usable() || !strings.HasPrefix(f.Problems.Err().Error(), c.want) {
			t.Errorf("%s:\n got  %v\n want %s", c.src, f.Problems.Err(), c.want)
		}
	}
	// What a newer version of the agent's format may hold (an event, a hook type): a warning that
	// skips that hook or event alone; the file stays usable, so run --fail-closed does not deny.
	for _, c := range []struct{ src, want string }{
		{`{"hooks": {"PreToolUse": []}}`, `h.json:1:12: warning: Unknown Cascade hook event: PreToolUse; its hooks are skipped`},
	} {
		f := DecodeHooksFile("h.json", []byte(c.src))
		warned := false
		for _, p := range f.Problems {
			warned = warned || p.Severity == srcpos.Warning && strings.HasPrefix(p.String(), c.want)
		}
		if !f.Usable() || len(f.Hooks) != 0 || f.Problems.HasErrors() || !warned {
			t.Errorf("%s:\n got  %v\n want a usable file, no hooks, the warning %s", c.src, f.Problems, c.want)
		}
	}
	f := DecodeHooksFile("h.json", []byte(`{"version": 1, "hooks": {"pre_user_prompt": [{"powershell": "x", "show_output": true, "timeout": 5}]}}`))
	if !f.Usable() || len(f.Problems) != 4 || len(f.Hooks) != 1 {
		t.Errorf("want a usable file with 4 warnings, got %v", f.Problems)
	}
}

func FuzzDecodeHooksFile(f *testing.F) {
	f.Add([]byte(`{"hooks": {"pre_run_command": [{"command": "x", "show_output": true, "working_directory": "."}]}}`))
	f.Add([]byte(`{"hooks": {"post_write_code": [{"powershell": "x"}], "nope": 1}}`))
	f.Add([]byte(`{"hooks": {"pre_user_prompt": [{"command": 1e999}]}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := DecodeHooksFile("f.json", data)
		for _, p := range file.Problems {
			if p.Line == 0 || p.Message == "" {
				t.Fatalf("problem without a place or message: %+v", p)
			}
		}
		if file.Usable() {
			for _, h := range file.Hooks {
				if strings.TrimSpace(h.Command+h.PowerShell) == "" {
					t.Fatalf("usable file with a hook that runs nothing: %+v", h)
				}
				if _, ok := events()[h.Event]; !ok {
					t.Fatalf("hook for an unknown event: %+v", h)
				}
			}
		}
	})
}
