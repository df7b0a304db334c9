package crush

import (
	"strings"
	"testing"
	"time"
)

func TestDecodeConfig(t *testing.T) {
	t.Parallel()
	src := `{
  "options": {"debug": true},
  "hooks": {
    "PreToolUse": [
      {"name": "guard", "matcher": "^bash$", "command": "agenthooks guard bash", "timeout": 10},
      {"command": "./log.sh"}
    ],
    "pre_tool_use": [{"command": "echo snake"}]
  }
}`
	f := DecodeConfig("crush.json", []byte(src))
	if !f.Usable() || len(f.Problems) != 0 {
		t.Fatalf("problems: %v", f.Problems)
	}
	if len(f.Hooks) != 3 {
		t.Fatalf("%d hooks, want 3", len(f.Hooks))
	}
	h := f.Hooks[0]
	if h.Event != "PreToolUse" || h.Name != "guard" || h.Matcher != "^bash$" || h.Command != "agenthooks guard bash" ||
		h.Timeout != 10*time.Second || h.Pos.Line != 5 || h.Pos.Col != 7 {
		t.Errorf("first hook %+v", h)
	}
	if f.Hooks[1].Timeout != DefaultTimeout || f.Hooks[2].Event != "PreToolUse" {
		t.Errorf("defaults and snake case: %+v %+v", f.Hooks[1], f.Hooks[2])
	}
	if f := DecodeConfig("crush.json", []byte(`{"providers":{}}`)); !f.Usable() || len(f.Hooks) != 0 {
		t.Errorf("a crush.json without hooks: %+v", f)
	}
}

// TestDecodeConfigProblems: every problem is positioned; what makes Crush refuse the file (its
// ValidateHooks: no command, a matcher that does not compile; its strict JSON) is an error.
func TestDecodeConfigProblems(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"comments", "{\n  // jsonc\n  \"hooks\": {}\n}", "crush.json:2:3: invalid JSON"},
		{"not an object", `[]`, "crush.json:1:1: crush.json must be a JSON object"},
		{"hooks not an object", `{"hooks": []}`, "crush.json:1:11: hooks must be an object of events"},
		{"event not an array", `{"hooks": {"PreToolUse": {}}}`, "crush.json:1:26: hooks for PreToolUse must be an array"},
		{"entry not an object", `{"hooks": {"PreToolUse": ["ls"]}}`, "crush.json:1:27: a hook must be an object with a command"},
		{"no command", `{"hooks": {"PreToolUse": [{"matcher": "bash"}]}}`, "crush.json:1:27: hook PreToolUse[0]: command is required"},
		{"bad matcher", `{"hooks": {"PreToolUse": [{"matcher": "(", "command": "x"}]}}`, "crush.json:1:39: hook PreToolUse[0]: invalid matcher regex"},
		{"timeout in fractions", `{"hooks": {"PreToolUse": [{"command": "x", "timeout": 1.5}]}}`, "crush.json:1:55: timeout must be a whole number of seconds"},
		{"command not a string", `{"hooks": {"PreToolUse": [{"command": 1}]}}`, "crush.json:1:39: command must be a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := DecodeConfig("crush.json", []byte(c.src))
			if f.Usable() || len(f.Problems) == 0 || !strings.HasPrefix(f.Problems[0].String(), c.want) {
				t.Errorf("problems %v, want %q", f.Problems, c.want)
			}
		})
	}
	warn := DecodeConfig("crush.json", []byte(`{"hooks": {"PostToolUse": [{"command": "x"}], "PreToolUse": [{"command": "y", "type": "command"}]}}`))
	if !warn.Usable() || len(warn.Problems) != 2 || len(warn.Hooks) != 1 {
		t.Fatalf("warnings %v, hooks %d", warn.Problems, len(warn.Hooks))
	}
	if !strings.Contains(warn.Problems[0].String(), "Crush has no hook event PostToolUse") ||
		!strings.Contains(warn.Problems[1].String(), `unknown field "type"`) {
		t.Errorf("warnings %v", warn.Problems)
	}
}

func FuzzDecodeConfig(f *testing.F) {
	for _, seed := range []string{`{"hooks":{"PreToolUse":[{"matcher":"^bash$","command":"x","timeout":5}]}}`,
		`{"hooks":{"pre_tool_use":[{"command":""}]}}`, `{"hooks":null}`, `{"hooks":{"X":[1,{"matcher":"("}]}}`, `[`, ``} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf := DecodeConfig("crush.json", data)
		for _, h := range cf.Hooks {
			if h.Command == "" || h.Event != "PreToolUse" || h.Timeout <= 0 {
				t.Fatalf("hook %+v", h)
			}
		}
		for _, p := range cf.Problems {
			if p.Line < 1 {
				t.Fatalf("unpositioned problem %v", p)
			}
		}
	})
}
