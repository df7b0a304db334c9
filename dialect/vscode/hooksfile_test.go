package vscode

import (
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// TestDecodeHooksFile: VS Code's own format with per-OS overrides (each platform gets its own
// command, command where it has none), a Claude Code matcher group (its matcher ignored, as VS
// Code ignores it), and the timeout in seconds, 30 by default.
func TestDecodeHooksFile(t *testing.T) {
	t.Parallel()
	src := `{
  "hooks": {
    "PreToolUse": [
      {"type": "command", "command": "./guard.sh", "windows": "powershell -File guard.ps1", "osx": "./guard-mac.sh", "timeout": 5}
    ],
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"command": "npx prettier --write ."}]}
    ]
  }
}`
	f := DecodeHooksFile("fmt.json", []byte(src))
	if !f.Usable() || f.CopilotFormat || len(f.Hooks) != 2 {
		t.Fatalf("%+v %v", f, f.Problems)
	}
	h := f.Hooks[0]
	for goos, want := range map[string]string{"linux": "./guard.sh", "darwin": "./guard-mac.sh", "windows": "powershell -File guard.ps1", "freebsd": "./guard.sh"} {
		if got := h.CommandFor(goos); got != want {
			t.Errorf("CommandFor(%s) = %q, want %q", goos, got, want)
		}
	}
	if h.Event != "PreToolUse" || h.Timeout != 5*time.Second || h.Pos.Line != 4 || h.Pos.Col != 7 {
		t.Errorf("%+v", h)
	}
	p := f.Hooks[1]
	if p.Event != "PostToolUse" || p.Matcher != "Edit|Write" || p.Timeout != DefaultTimeout || p.CommandFor("windows") != "npx prettier --write ." {
		t.Errorf("%+v", p)
	}
	if !hasProblem(f.Problems, srcpos.Warning, CodeNoEffect, 7, 19, "VS Code ignores matchers") {
		t.Errorf("no warning on the ignored matcher: %v", f.Problems)
	}
}

// TestDecodeCopilotFormat: with a numeric version the file is Copilot CLI's, as VS Code reads
// it: camelCase events as VS Code's (agentStop is Stop), bash as Linux's and macOS's command and
// powershell as Windows's, timeoutSec in seconds; events VS Code never fires are said.
func TestDecodeCopilotFormat(t *testing.T) {
	t.Parallel()
	src := `{"version": 1, "hooks": {
  "preToolUse": [{"type": "command", "bash": "./a.sh", "powershell": "./a.ps1", "timeoutSec": 7}],
  "agentStop": [{"type": "command", "bash": "./stop.sh"}],
  "sessionEnd": [{"type": "command", "bash": "./end.sh"}],
  "postToolUseFailure": [{"type": "command", "bash": "./f.sh"}]
}}`
	f := DecodeHooksFile("copilot.json", []byte(src))
	if !f.Usable() || !f.CopilotFormat || len(f.Hooks) != 2 {
		t.Fatalf("%+v %v", f.Hooks, f.Problems)
	}
	if h := f.Hooks[0]; h.Event != "PreToolUse" || h.CommandFor("linux") != "./a.sh" || h.CommandFor("darwin") != "./a.sh" ||
		h.CommandFor("windows") != "./a.ps1" || h.Timeout != 7*time.Second {
		t.Errorf("%+v", h)
	}
	if h := f.Hooks[1]; h.Event != "Stop" || h.CommandFor("windows") != "" {
		t.Errorf("%+v", h)
	}
	if !hasProblem(f.Problems, srcpos.Warning, CodeNoEffect, 4, 3, "never fires") ||
		!hasProblem(f.Problems, srcpos.Warning, CodeUnknownEvent, 5, 3, "postToolUseFailure") ||
		!hasProblem(f.Problems, srcpos.Warning, CodeCommand, 3, 17, "no command for windows") {
		t.Errorf("%v", f.Problems)
	}
}

// TestDecodeProblems: each problem has its file, line and column; a file with an error is not
// usable.
func TestDecodeProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src       string
		code      string
		line, col int
		text      string
	}{
		{`{"hooks": {"PreToolUse": [{"type": "command"}]}}`, CodeCommand, 1, 27, "at least one of command"},
		{`{"hooks": {"PreToolUse": [{"command": 3}]}}`, CodeField, 1, 39, "command must be a string"},
		{`{"hooks": {"PreToolUse": [{"command": "x", "timeout": -1}]}}`, CodeField, 1, 55, "timeout must be a positive number"},
		{`{"hooks": {"PreToolUse": {"command": "x"}}}`, CodeHooks, 1, 26, "must be an array"},
		{`{"hooks": {"PreToolUse": [{"command": "x", "env": {"A": 1}}]}}`, CodeField, 1, 57, "env.A must be a string"},
		{`{"hooks": []}`, CodeHooks, 1, 11, "hooks must be an object"},
		{`{"version": "1", "hooks": {}}`, CodeVersion, 1, 13, "version must be a number"},
		{`{"nohooks": {}}`, CodeHooks, 1, 1, `needs a "hooks" object`},
		{"{\n  \"hooks\": {,}\n}", CodeSyntax, 2, 13, "invalid JSON"},
		{`[]`, CodeHooks, 1, 1, "must be a JSON object"},
		{`{"hooks": {"PreToolUse": [{"matcher": 1, "hooks": []}]}}`, CodeField, 1, 39, "matcher must be a string"},
	}
	for _, c := range cases {
		f := DecodeHooksFile("h.json", []byte(c.src))
		if f.Usable() || !hasProblem(f.Problems, srcpos.Error, c.code, c.line, c.col, c.text) {
			t.Errorf("%s: %v", c.src, f.Problems)
		}
		for _, p := range f.Problems {
			if p.Pos.File != "h.json" {
				t.Errorf("%s: problem without its file: %v", c.src, p)
			}
		}
	}
	f := DecodeHooksFile("h.json", []byte(`{"hooks": {"Notification": [{"command": "x"}], "PreToolUse": [{"type": "prompt", "prompt": "p"}]}}`))
	if !f.Usable() || len(f.Hooks) != 0 || !hasProblem(f.Problems, srcpos.Warning, CodeUnknownEvent, 1, 12, "ignores the event Notification") ||
		!hasProblem(f.Problems, srcpos.Warning, CodeNoEffect, 1, 72, "only command hooks") {
		t.Errorf("%v", f.Problems)
	}
}

func hasProblem(list srcpos.List, sev srcpos.Severity, code string, line, col int, text string) bool {
	for _, p := range list {
		if p.Severity == sev && p.Code == code && p.Pos.Line == line && p.Pos.Col == col && strings.Contains(p.Message, text) {
			return true
		}
	}
	return false
}

func FuzzDecodeHooksFile(f *testing.F) {
	for _, s := range []string{
		`{"hooks":{"PreToolUse":[{"type":"command","command":"./a.sh","windows":"a.ps1","linux":"l","osx":"o","timeout":5,"env":{"A":"b"},"cwd":"x"}]}}`,
		`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"b","powershell":"p","timeoutSec":3}],"agentStop":[{"bash":"s"}]}}`,
		`{"hooks":{"PostToolUse":[{"matcher":"Edit","hooks":[{"command":"fmt"}]}]}}`,
		`{"hooks":{"PreToolUse":[{"command":1}],"Nope":[]}}`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := DecodeHooksFile("f.json", data)
		if !out.Usable() {
			return
		}
		for _, h := range out.Hooks {
			if ClaudeEvent(h.Event) == "" {
				t.Fatalf("hook of an unknown event %q", h.Event)
			}
			if strings.TrimSpace(h.Command+h.Windows+h.Linux+h.OSX) == "" || h.Timeout <= 0 {
				t.Fatalf("usable hook without a command or timeout: %+v", h)
			}
		}
	})
}

func FuzzInterpret(f *testing.F) {
	f.Add("PreToolUse", 0, []byte(`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}`), []byte(""))
	f.Add("Stop", 0, []byte(`{"hookSpecificOutput":{"decision":"block","reason":"x"}}`), []byte(""))
	f.Add("UserPromptSubmit", 2, []byte(""), []byte("no"))
	f.Add("PostToolUse", 1, []byte(`{"decision":"block"}`), []byte("err"))
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr []byte) {
		s, ok := Dialect.Lookup(event)
		if !ok {
			s = &dialect.Spec{Dialect: Name, Name: event}
		}
		o := Dialect.Interpret(s, exit, stdout, stderr, 0)
		if o.Failed && o.Answered {
			t.Fatalf("failed and answered: %+v", o)
		}
		if exit != 0 && exit != 2 && o.Answered {
			t.Fatalf("exit %d decided: %+v", exit, o)
		}
		if exit == 2 && o.Answer.Permission == decide.Deny && strings.TrimSpace(o.Answer.AgentMessage) == "" {
			t.Fatalf("an exit-2 block without a reason for the model: %+v", o)
		}
		if ok {
			Dialect.Encode(s, decide.Decision{Permission: o.Answer.Permission, AgentMessage: o.Answer.AgentMessage, Followup: o.Answer.Followup})
		}
	})
}

func FuzzGuardView(f *testing.F) {
	f.Add([]byte(`{"hookEventName":"PreToolUse","sessionId":"s","tool_name":"read_file","tool_input":{"filePath":"/a"}}`))
	f.Add([]byte(`{"tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := GuardView(data)
		if err != nil {
			return
		}
		m, err := dialect.DecodePayload(v)
		if err != nil {
			t.Fatalf("GuardView wrote what it cannot read: %s", v)
		}
		if _, ok := m["hookEventName"]; ok {
			if _, both := m["hook_event_name"]; !both {
				t.Fatalf("hookEventName left without hook_event_name: %s", v)
			}
		}
	})
}
