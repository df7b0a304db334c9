package antigravity

import (
	"strings"
	"testing"
	"time"
)

// TestDecodeHooksFile reads the documented example: named groups, matcher groups on the tool
// events, flat handlers elsewhere, a group switched off.
func TestDecodeHooksFile(t *testing.T) {
	t.Parallel()
	src := `{
  "my-linter-hook": {
    "PostToolUse": [
      {"matcher": "run_command", "hooks": [{"type": "command", "command": "./scripts/lint.sh", "timeout": 10}]}
    ]
  },
  "safety-gate": {
    "enabled": false,
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./scripts/safety-check.sh"}]}]
  },
  "reminder": {
    "preinvocation": [{"type": "command", "command": "./scripts/reminder.sh"}],
    "Stop": [{"type": "prompt", "prompt": "Times are UTC.", "model": "gemini-3-pro"}]
  }
}`
	f := DecodeHooksFile("hooks.json", []byte(src))
	if len(f.Problems) != 0 || len(f.Hooks) != 4 {
		t.Fatalf("problems %v, hooks %+v", f.Problems, f.Hooks)
	}
	if h := f.Hooks[0]; h.Group != "my-linter-hook" || !h.Enabled || h.Event != "PostToolUse" || h.Matcher != "run_command" ||
		h.Timeout != 10*time.Second || h.Pos.String() != "hooks.json:4:44" {
		t.Errorf("hook = %+v at %s", h, h.Pos)
	}
	if h := f.Hooks[1]; h.Enabled || h.Timeout != DefaultTimeout {
		t.Errorf("a switched-off group = %+v", h)
	}
	if h := f.Hooks[2]; h.Event != "PreInvocation" || h.Command != "./scripts/reminder.sh" {
		t.Errorf("event names match without regard to case: %+v", h)
	}
	if h := f.Hooks[3]; h.Type != "prompt" || h.Prompt != "Times are UTC." {
		t.Errorf("prompt hook = %+v", h)
	}
}

// TestDecodeHooksFileErrors: what agy refuses (and then loads nothing of the file) is an error
// with its line and column; what it ignores a warning.
func TestDecodeHooksFileErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{`{"enabled": true}`, `h.json:1:2: enabled belongs inside a named group`},
		{`{"g": []}`, `h.json:1:7: the hook group "g" must be an object of events`},
		{`{"g": {"enabled": "no"}}`, `h.json:1:19: enabled must be a boolean`},
		{`{"g": {"Stop": {}}}`, `h.json:1:16: hooks for Stop must be an array`},
		{`{"g": {"PreToolUse": [{"matcher": 1, "hooks": []}]}}`, `h.json:1:35: matcher must be a string`},
		{`{"g": {"PreToolUse": [{"matcher": "x"}]}}`, `h.json:1:23: a matcher group's hooks must be an array`},
		{`{"g": {"Stop": [{"type": "COMMAND", "command": "x"}]}}`, `h.json:1:26: hook type must be command or prompt`},
		{`{"g": {"Stop": [{"command": "x", "timeout": 1.5}]}}`, `h.json:1:45: timeout must be a whole number of seconds`},
		{`{"g": {"Stop": [{"command": "x", "prompt": "y"}]}}`, `h.json:1:17: a command hook cannot have a prompt or a model`},
		{`{"g": {"Stop": [{"type": "prompt", "command": "x"}]}}`, `h.json:1:17: a prompt hook cannot have a command`},
		{`{"g": `, `h.json:1:7: invalid JSON`},
	}
	for _, c := range cases {
		f := DecodeHooksFile("h.json", []byte(c.src))
		if f.Usable() || !strings.HasPrefix(f.Problems.Err().Error(), c.want) {
			t.Errorf("%s:\n got  %v\n want %s", c.src, f.Problems.Err(), c.want)
		}
	}
	// A type a newer Antigravity may have: a warning that skips that hook; the file stays usable.
	if f := DecodeHooksFile("h.json", []byte(`{"g": {"Stop": [{"type": "agent", "command": "x"}, {"command": "y"}]}}`)); !f.Usable() || len(f.Hooks) != 1 ||
		len(f.Problems) != 1 || !strings.HasPrefix(f.Problems[0].String(), `h.json:1:26: warning: hook type "agent" is not one agenthooks knows`) {
		t.Errorf("a newer type: want one warning and the other hook, got %v %+v", f.Problems, f.Hooks)
	}
	f := DecodeHooksFile("h.json", []byte(`{"g": {"SessionEnd": [], "Stop": [{"command": "x", "cwd": "/"}, {"command": ""}], "PreInvocation": [{"matcher": "x", "command": "y"}]}}`))
	if !f.Usable() || len(f.Problems) != 4 || len(f.Hooks) != 2 {
		t.Errorf("want a usable file with 4 warnings and 2 hooks, got %v %+v", f.Problems, f.Hooks)
	}
}

func FuzzDecodeHooksFile(f *testing.F) {
	f.Add([]byte(`{"g": {"enabled": false, "PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "x", "timeout": 5}]}]}}`))
	f.Add([]byte(`{"g": {"Stop": [{"type": "prompt", "prompt": "p", "model": "m"}], "stop": [{"command": "y"}]}}`))
	f.Add([]byte(`{"g": {"Stop": [{"command": "x", "timeout": 1e999}]}}`))
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
				if h.Type == "command" && strings.TrimSpace(h.Command) == "" || h.Timeout <= 0 {
					t.Fatalf("usable file with a bad hook: %+v", h)
				}
				if _, ok := events()[h.Event]; !ok {
					t.Fatalf("hook for an unknown event: %+v", h)
				}
			}
		}
	})
}
