package copilot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/srcpos"
)

func TestDecodeHooksFile(t *testing.T) {
	t.Parallel()
	src := `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "agenthooks guard bash", "powershell": "agenthooks.exe guard bash", "cwd": ".", "timeoutSec": 10, "env": {"A": "b"}, "comment": "the guard"}
    ],
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./claude-hook.sh"}]}],
    "agentStop": [{"command": "./stop.sh", "timeout": 5}]
  }
}`
	f := DecodeHooksFile("guard.json", []byte(src))
	if len(f.Problems) != 0 || len(f.Hooks) != 3 {
		t.Fatalf("problems %v, hooks %+v", f.Problems, f.Hooks)
	}
	h := f.Hooks[0]
	if h.Event != "preToolUse" || h.CommandFor("linux") != "agenthooks guard bash" || h.CommandFor("windows") != "agenthooks.exe guard bash" ||
		h.Timeout != 10*time.Second || h.Env["A"] != "b" || h.Cwd != "." || h.Pos.String() != "guard.json:5:7" {
		t.Errorf("hook = %+v at %s", h, h.Pos)
	}
	if c := f.Hooks[1]; c.Event != "preToolUse" || !c.ClaudeForm || c.Matcher != "Bash" || c.CommandFor("windows") != "./claude-hook.sh" {
		t.Errorf("PascalCase group = %+v", c)
	}
	if s := f.Hooks[2]; s.Event != "agentStop" || s.Timeout != 5*time.Second {
		t.Errorf("agentStop = %+v", s)
	}
}

// TestDecodeHooksFileErrors: each broken file gives its problem with line and column.
func TestDecodeHooksFileErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{`{"version": 2, "hooks": {}}`, `h.json:1:13: version must be 1`},
		{`{"version": 1, "hooks": []}`, `h.json:1:25: hooks must be an object of events`},
		{`{"hooks": {"preToolUse": {}}}`, `h.json:1:26: hooks for preToolUse must be an array`},
		{`{"hooks": {"preToolUse": [{"type": "command"}]}}`, `h.json:1:27: a command hook needs a bash, powershell or command string`},
		{`{"hooks": {"preToolUse": [{"bash": 1}]}}`, `h.json:1:36: bash must be a string`},
		{`{"hooks": {"preToolUse": [{"bash": "x", "timeoutSec": -1}]}}`, `h.json:1:55: timeoutSec must be a positive number of seconds`},
		{"{\n \"hooks\": {\"agentStop\": [{\"bash\": \"x\", \"env\": {\"A\": true}}]}\n}", `h.json:2:53: env.A must be a string`},
		{`{"hooks": {"preToolUse": [{"matcher": 1, "hooks": []}]}}`, `h.json:1:39: matcher must be a string`},
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
		{`{"hooks": {"beforeShellExecution": []}}`, `h.json:1:12: warning: Unknown Copilot CLI hook event: beforeShellExecution; its hooks are skipped`},
		{`{"hooks": {"preToolUse": [{"bash": "x", "type": "agent"}]}}`, `h.json:1:49: warning: hook type "agent" is not one agenthooks knows`},
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
	f := DecodeHooksFile("h.json", []byte(`{"version": 1, "extra": 1, "hooks": {"preToolUse": [{"powershell": "x", "timeoutSec": 5000, "colour": 1}]}}`))
	if !f.Usable() || len(f.Problems) != 4 {
		t.Errorf("want a usable file with 4 warnings, got %v", f.Problems)
	}
}

func TestDecodeSettings(t *testing.T) {
	t.Parallel()
	f := DecodeSettings("settings.json", []byte(`{"model": "gpt-5", "disableAllHooks": true, "hooks": {"sessionStart": [{"bash": "echo hi"}]}}`))
	if !f.Usable() || len(f.Problems) != 0 || f.DisableAllHooks == nil || !*f.DisableAllHooks || len(f.Hooks) != 1 {
		t.Errorf("settings = %+v", f)
	}
}

func FuzzDecodeHooksFile(f *testing.F) {
	f.Add([]byte(`{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "x", "timeoutSec": 30}]}}`))
	f.Add([]byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "x"}]}]}}`))
	f.Add([]byte(`{"hooks": {"agentStop": [{"type": "http", "url": "u", "headers": {"a": "b"}}]}}`))
	f.Add([]byte(`{"hooks": {"preToolUse": [{"bash": "x", "timeoutSec": 1e999}]}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, file := range []*File{DecodeHooksFile("f.json", data), DecodeSettings("f.json", data)} {
			for _, p := range file.Problems {
				if p.Line == 0 || p.Message == "" {
					t.Fatalf("problem without a place or message: %+v", p)
				}
			}
			if file.Usable() {
				for _, h := range file.Hooks {
					if h.Type == "command" && h.Bash+h.PowerShell+h.Command == "" || h.Timeout <= 0 {
						t.Fatalf("usable file with a bad hook: %+v", h)
					}
					if _, ok := events()[h.Event]; !ok {
						t.Fatalf("hook for an unknown event: %+v", h)
					}
				}
			}
		}
	})
}

// goldenPayloads reads the payloads Copilot CLI itself sent (go test ./e2e -run
// TestCopilotPayloads -update-payloads), named EVENT or EVENT-TOOL.
func goldenPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "copilot", "*.json"))
	if len(files) == 0 {
		t.Fatal("no golden Copilot CLI payloads in dialect/testdata/payloads/copilot")
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

// TestGoldenPayloads: every payload Copilot sent rewrites into Claude Code's shape (the shell
// command in tool_input.command, a file tool's path in tool_input.file_path, Claude Code's
// tool names) and back into Copilot's camelCase shape.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	for name, b := range goldenPayloads(t) {
		event, tool, _ := strings.Cut(name, "-")
		if c := FromClaudeEvent(event); c != "" {
			event = c // a PascalCase registration: VS Code's snake_case payload
		}
		if _, ok := events()[event]; !ok {
			t.Errorf("%s: Copilot sent an event this package does not know", name)
			continue
		}
		claudeName, cb, _, err := ToClaude(event, b)
		if err != nil || claudeName != ClaudeEvent(event) {
			t.Errorf("%s: ToClaude = %q, %v", name, claudeName, err)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(cb, &m); err != nil {
			t.Fatal(err)
		}
		if m["session_id"] == nil || m["cwd"] == nil || m["hook_event_name"] != claudeName {
			t.Errorf("%s: common fields missing in %s", name, cb)
		}
		if tool == "" {
			continue
		}
		if m["tool_name"] != ClaudeTool(tool) {
			t.Errorf("%s: tool_name %v, want %s", name, m["tool_name"], ClaudeTool(tool))
		}
		in, _ := m["tool_input"].(map[string]any)
		switch ClaudeTool(tool) {
		case "Bash":
			if _, ok := in["command"].(string); !ok {
				t.Errorf("%s: no tool_input.command in %s", name, cb)
			}
		case "Read":
			if _, ok := in["file_path"].(string); !ok {
				t.Errorf("%s: no tool_input.file_path in %s", name, cb)
			}
		}
		back, _, err := FromClaude(event, cb)
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]any
		_ = json.Unmarshal(back, &c)
		if c["toolName"] != CopilotTool(ClaudeTool(tool)) || c["sessionId"] == nil || c["hook_event_name"] != nil {
			t.Errorf("%s: round trip = %s", name, back)
		}
	}
}

func TestToClaudeErrors(t *testing.T) {
	t.Parallel()
	if _, _, _, err := ToClaude("errorOccurred", []byte(`{}`)); err == nil {
		t.Error("errorOccurred has no Claude Code counterpart, want an error")
	}
	if _, _, _, err := ToClaude("preToolUse", []byte(`"x"`)); err == nil {
		t.Error("a payload that is not an object, want an error")
	}
	if _, _, _, err := ToClaude("preToolUse", []byte("{\n\"toolName\": }")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a broken payload = %v, want its line", err)
	}
}

func FuzzToClaude(f *testing.F) {
	f.Add([]byte(`{"sessionId":"s","toolName":"view","toolArgs":{"path":"/a"}}`))
	f.Add([]byte(`{"toolName":"bash","toolResult":{"resultType":"success","textResultForLlm":1}}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`))
	f.Add([]byte(`{"sessionId":"s","toolName":"my-db-list_tables","toolArgs":{},"agentId":"a2","agentType":"general-purpose","parentAgentId":"a1"}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, name := range []string{"preToolUse", "postToolUse", "agentStop", "sessionStart", "permissionRequest"} {
			_, b, _, err := ToClaude(name, payload)
			if err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON out: %s", name, b)
			}
			var m map[string]any
			if err == nil && json.Unmarshal(b, &m) == nil && (m["agentId"] != nil || m["agentType"] != nil) {
				t.Errorf("%s: a Claude Code hook reads Copilot's agentId/agentType: %s", name, b)
			}
			if b, _, err := FromClaude(name, payload); err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON back: %s", name, b)
			}
		}
	})
}
