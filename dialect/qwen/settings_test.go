package qwen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/srcpos"
)

func TestDecodeSettings(t *testing.T) {
	t.Parallel()
	src := `{
  "general": {"vimMode": true},
  "disableAllHooks": false,
  "hooksConfig": {"enabled": true, "disabled": ["noisy"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "run_shell_command", "sequential": true, "hooks": [
        {"type": "command", "command": "agenthooks guard bash", "timeout": 10000, "name": "guard", "env": {"A": "b"}, "shell": "bash"}
      ]}
    ],
    "Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/stop"}]}]
  }
}`
	s := DecodeSettings("settings.json", []byte(src))
	if len(s.Problems) != 0 || !s.Usable() {
		t.Fatalf("problems: %v", s.Problems)
	}
	if *s.DisableAllHooks || !*s.Enabled || len(s.Disabled) != 1 || len(s.Hooks) != 2 {
		t.Fatalf("settings = %+v", s)
	}
	h := s.Hooks[0]
	if h.Event != "PreToolUse" || h.Matcher != "run_shell_command" || !h.Sequential || h.Command != "agenthooks guard bash" ||
		h.Timeout != 10*time.Second || h.Env["A"] != "b" || h.Pos.String() != "settings.json:8:9" {
		t.Errorf("hook = %+v at %s", h, h.Pos)
	}
	if s.Hooks[1].Type != "http" || s.Hooks[1].Timeout != DefaultTimeout {
		t.Errorf("http hook = %+v", s.Hooks[1])
	}
}

// TestDecodeSettingsErrors: each broken settings file gives its problems with line and column.
func TestDecodeSettingsErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{`{"hooks": [1]}`, `s.json:1:11: hooks must be an object of events`},
		{`{"hooks": {"PreToolUse": {}}}`, `s.json:1:26: hooks for PreToolUse must be an array of matcher groups`},
		{`{"hooks": {"PreToolUse": [{"matcher": 1, "hooks": []}]}}`, `s.json:1:39: matcher must be a string`},
		{`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}}`, `s.json:1:38: a command hook needs a command string`},
		{`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": "10"}]}]}}`, `s.json:1:85: timeout must be a positive number of milliseconds`},
		{`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "shell": "zsh"}]}]}}`, `s.json:1:83: shell must be bash or powershell`},
		{"{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\", \"env\": {\"A\": 1}}]}]\n  }\n}", `s.json:3:74: env.A must be a string`},
		{`{"hooks": {"Stop": []}`, `s.json:1:23: invalid JSON`},
		{`{"disableAllHooks": "yes"}`, `s.json:1:21: disableAllHooks must be a boolean`},
		{`[]`, `s.json:1:1: settings must be a JSON object`},
	}
	for _, c := range cases {
		s := DecodeSettings("s.json", []byte(c.src))
		if s.Usable() || !strings.HasPrefix(s.Problems.Err().Error(), c.want) {
			t.Errorf("%s:\n got  %v\n want %s", c.src, s.Problems.Err(), c.want)
		}
	}
	// What a newer version of the agent's format may hold (an event, a hook type): a warning that
	// skips that hook or event alone; the file stays usable, so run --fail-closed does not deny.
	for _, c := range []struct{ src, want string }{
		{`{"hooks": {"BeforeTool": []}}`, `s.json:1:12: warning: Unknown Qwen Code hook event: BeforeTool; its hooks are skipped`},
		{`{"hooks": {"PreToolUse": [{"hooks": [{"type": "exec", "command": "x"}]}]}}`, `s.json:1:47: warning: hook type "exec" is not one agenthooks knows`},
	} {
		f := DecodeSettings("s.json", []byte(c.src))
		warned := false
		for _, p := range f.Problems {
			warned = warned || p.Severity == srcpos.Warning && strings.HasPrefix(p.String(), c.want)
		}
		if !f.Usable() || len(f.Hooks) != 0 || f.Problems.HasErrors() || !warned {
			t.Errorf("%s:\n got  %v\n want a usable file, no hooks, the warning %s", c.src, f.Problems, c.want)
		}
	}
	s := DecodeSettings("s.json", []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 500, "colour": 1}], "extra": 1}]}}`))
	if !s.Usable() || len(s.Problems) != 3 {
		t.Errorf("warnings only, want a usable file with 3 warnings: %v", s.Problems)
	}
}

func FuzzDecodeSettings(f *testing.F) {
	f.Add([]byte(`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "x", "timeout": 1000}]}]}}`))
	f.Add([]byte(`{"hooksConfig": {"disabled": ["a"]}, "hooks": {"enabled": true}}`))
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "u", "headers": {"a": "b"}}]}]}}`))
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 1e400}]}]}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := DecodeSettings("f.json", data)
		for _, p := range s.Problems {
			if p.Line == 0 || p.Message == "" {
				t.Fatalf("problem without a place or message: %+v", p)
			}
		}
		if s.Usable() {
			for _, h := range s.Hooks {
				if h.Type == "command" && h.Command == "" || h.Timeout <= 0 {
					t.Fatalf("usable file with a bad hook: %+v", h)
				}
			}
		}
	})
}

// goldenPayloads reads the payloads Qwen Code itself sent (go test ./e2e -run TestQwenPayloads
// -update-payloads).
func goldenPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "qwen", "*.json"))
	if len(files) == 0 {
		t.Fatal("no golden Qwen Code payloads in dialect/testdata/payloads/qwen")
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = b
	}
	return out
}

// TestGoldenPayloads: every payload Qwen Code sent names a known event, rewrites into Claude
// Code's shape with Claude Code's tool names, and back into Qwen's with its own.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	for name, b := range goldenPayloads(t) {
		event, tool, _ := strings.Cut(name, "-")
		if _, ok := events()[event]; !ok {
			t.Errorf("%s: Qwen Code sent an event this package does not know", name)
			continue
		}
		claudeName, cb, _, err := ToClaude(event, b)
		if err != nil || claudeName != event {
			t.Errorf("%s: ToClaude = %q, %v", name, claudeName, err)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(cb, &m); err != nil {
			t.Fatal(err)
		}
		if tool != "" && m["tool_name"] != ClaudeTool(tool) {
			t.Errorf("%s: tool_name %v, want %s", name, m["tool_name"], ClaudeTool(tool))
		}
		if tool == "run_shell_command" {
			in, _ := m["tool_input"].(map[string]any)
			if _, ok := in["command"].(string); !ok {
				t.Errorf("%s: no tool_input.command in %s", name, cb)
			}
		}
		back, _, err := FromClaude(event, cb)
		if err != nil {
			t.Fatal(err)
		}
		var q map[string]any
		_ = json.Unmarshal(back, &q)
		if tool != "" && q["tool_name"] != tool {
			t.Errorf("%s: round trip tool_name %v", name, q["tool_name"])
		}
	}
}

func TestToClaudeErrors(t *testing.T) {
	t.Parallel()
	if _, _, _, err := ToClaude("TodoCreated", []byte(`{}`)); err == nil {
		t.Error("TodoCreated has no Claude Code counterpart, want an error")
	}
	if _, _, _, err := ToClaude("PreToolUse", []byte(`[1]`)); err == nil {
		t.Error("a payload that is not an object, want an error")
	}
	_, _, _, err := ToClaude("PreToolUse", []byte("{\n  \"tool_name\": 1,}"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a broken payload = %v, want its line", err)
	}
}

func FuzzToClaude(f *testing.F) {
	f.Add([]byte(`{"tool_name":"read_file","tool_input":{"absolute_path":"/a"}}`))
	f.Add([]byte(`{"tool_name":"run_shell_command","tool_response":{"llmContent":1,"error":"e"}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, name := range []string{"PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit"} {
			_, b, _, err := ToClaude(name, payload)
			if err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON out: %s", name, b)
			}
			if b, _, err := FromClaude(name, payload); err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON back: %s", name, b)
			}
		}
	})
}
