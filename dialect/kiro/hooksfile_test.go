package kiro

import (
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// TestDecodeHooksFile reads the v3 hooks page's example: a command hook on PostFileSave with a
// path matcher, a timeout and enabled, and an agent prompt on PreToolUse.
func TestDecodeHooksFile(t *testing.T) {
	t.Parallel()
	src := `{
  "version": "v1",
  "hooks": [
    {"name": "lint-on-save", "trigger": "PostFileSave", "matcher": "\\.ts$",
     "action": {"type": "command", "command": "npm run lint"}, "timeout": 30, "enabled": true},
    {"name": "remind-tests", "trigger": "PreToolUse", "matcher": "fs_write|str_replace",
     "action": {"type": "agent", "prompt": "Ensure tests are updated for this change"}},
    {"name": "build", "description": "after a task", "trigger": "PostTaskExec", "enabled": false,
     "action": {"type": "command", "command": "npm run build", "timeout": 120}}
  ]
}`
	f := DecodeHooksFile("h.json", []byte(src))
	if len(f.Problems) != 0 || len(f.Hooks) != 3 {
		t.Fatalf("problems %v, hooks %+v", f.Problems, f.Hooks)
	}
	if h := f.Hooks[0]; h.Name != "lint-on-save" || h.Event != "PostFileSave" || h.Matcher != `\.ts$` || h.Type != "command" ||
		h.Command != "npm run lint" || h.Timeout != 30*time.Second || !h.Enabled || h.Agent || h.Pos.String() != "h.json:4:5" {
		t.Errorf("hook 0 = %+v at %s", h, h.Pos)
	}
	if h := f.Hooks[1]; h.Type != "agent" || h.Prompt != "Ensure tests are updated for this change" || h.Timeout != DefaultTimeout {
		t.Errorf("hook 1 = %+v", h)
	}
	if h := f.Hooks[2]; h.Enabled || h.Timeout != 120*time.Second {
		t.Errorf("hook 2 = %+v", h)
	}
}

// TestDecodeHooksFileErrors: what breaks the file is an error at its line and column; what Kiro
// ignores is a warning.
func TestDecodeHooksFileErrors(t *testing.T) {
	t.Parallel()
	hook := func(s string) string { return `{"version": "v1", "hooks": [` + s + `]}` }
	cases := []struct{ src, want string }{
		{`{"hooks": []}`, `h.json:1:1: a hooks file needs "version": "v1"`},
		{`{"version": 1, "hooks": []}`, `h.json:1:13: version must be "v1"`},
		{`{"version": "v1"}`, `h.json:1:1: a hooks file needs a hooks array`},
		{`{"version": "v1", "hooks": {}}`, `h.json:1:28: hooks must be an array of hooks`},
		{hook(`3`), `h.json:1:29: a hook must be an object with a trigger and an action`},
		{hook(`{"trigger": "preToolUse", "action": {"type": "command", "command": "x"}}`), `h.json:1:41: Unknown Kiro hook trigger: preToolUse. Valid triggers are: SessionStart`},
		{hook(`{"action": {"type": "command", "command": "x"}}`), `h.json:1:29: a hook needs a trigger`},
		{hook(`{"trigger": "Stop"}`), `h.json:1:29: a hook needs an action`},
		{hook(`{"trigger": "Stop", "action": {"command": "x"}}`), `h.json:1:59: an action needs a type: command or agent`},
		{hook(`{"trigger": "Stop", "action": {"type": "command"}}`), `h.json:1:59: a command action needs a command`},
		{hook(`{"trigger": "Stop", "action": {"type": "agent", "prompt": "p", "command": "x"}}`), `h.json:1:59: an agent action cannot have a command`},
		{hook(`{"trigger": "Stop", "action": {"type": "command", "command": "x"}, "timeout": 1.5}`), `h.json:1:107: timeout must be a whole number of seconds`},
		{hook(`{"trigger": "Stop", "action": {"type": "command", "command": "x"}, "enabled": "yes"}`), `h.json:1:107: enabled must be a boolean`},
		{hook(`{"trigger": "Stop", "matcher": 7, "action": {"type": "command", "command": "x"}}`), `h.json:1:60: matcher must be a string`},
		{`{"version": "v1", `, `h.json:1:19: invalid JSON`},
		{`[]`, `h.json:1:1: a hooks file must be a JSON object`},
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
		{hook(`{"trigger": "Nope", "action": {"type": "command", "command": "x"}}`), `h.json:1:41: warning: Unknown Kiro hook trigger: Nope; this hook is skipped`},
		{hook(`{"trigger": "Stop", "action": {"type": "runCommand", "command": "x"}}`), `h.json:1:68: warning: action type "runCommand" is not one agenthooks knows`},
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
	f := DecodeHooksFile("h.json", []byte(hook(`{"trigger": "Stop", "when": {}, "timeout": 0, "action": {"type": "command", "command": "x", "cwd": "/"}}`)))
	if !f.Usable() || len(f.Problems) != 4 || len(f.Hooks) != 1 || f.Hooks[0].Timeout != DefaultTimeout {
		t.Errorf("want a usable file with 4 warnings (when, timeout 0, cwd, no name), got %v %+v", f.Problems, f.Hooks)
	}
}

// TestDecodeAgentFile reads the hooks of a kiro-cli agent configuration as the agent
// configuration reference shows them: camelCase events given as their triggers, matcher,
// timeout_ms and cache_ttl_seconds; the agent's other fields are its own.
func TestDecodeAgentFile(t *testing.T) {
	t.Parallel()
	src := `{
  "name": "secure-dev",
  "tools": ["*"],
  "hooks": {
    "agentSpawn": [{"command": "git status"}],
    "preToolUse": [{"matcher": "execute_bash", "command": "./scripts/security-check.sh", "timeout_ms": 10000, "cache_ttl_seconds": 300}],
    "stop": [{"command": "npm test"}]
  }
}`
	f := DecodeAgentFile("a.json", []byte(src))
	if len(f.Problems) != 0 || len(f.Hooks) != 3 {
		t.Fatalf("problems %v, hooks %+v", f.Problems, f.Hooks)
	}
	if h := f.Hooks[0]; h.Event != "SessionStart" || h.Name != "secure-dev" || !h.Agent || h.Timeout != AgentDefaultTimeout || h.Pos.String() != "a.json:5:20" {
		t.Errorf("hook 0 = %+v at %s", h, h.Pos)
	}
	if h := f.Hooks[1]; h.Event != "PreToolUse" || h.Matcher != "execute_bash" || h.Timeout != 10*time.Second || h.Type != "command" {
		t.Errorf("hook 1 = %+v", h)
	}
	if f := DecodeAgentFile("a.json", []byte(`{"name": "plain", "tools": []}`)); len(f.Hooks)+len(f.Problems) != 0 {
		t.Errorf("an agent without hooks: %+v", f)
	}
	cases := []struct{ src, want string }{
		{`{"hooks": []}`, `a.json:1:11: hooks must be an object of events`},
		{`{"hooks": {"stop": {}}}`, `a.json:1:20: hooks for stop must be an array`},
		{`{"hooks": {"stop": [{"matcher": "x"}]}}`, `a.json:1:21: a hook needs a command`},
		{`{"hooks": {"stop": [{"command": "x", "timeout_ms": -1}]}}`, `a.json:1:52: timeout_ms must be a whole number of milliseconds`},
		{`{"hooks": {"stop": [{"command": "x", "cache_ttl_seconds": "1"}]}}`, `a.json:1:59: cache_ttl_seconds must be a number`},
		{`{"hooks": {"stop": [1]}}`, `a.json:1:21: a hook must be an object with a command`},
	}
	for _, c := range cases {
		f := DecodeAgentFile("a.json", []byte(c.src))
		if f.Usable() || !strings.HasPrefix(f.Problems.Err().Error(), c.want) {
			t.Errorf("%s:\n got  %v\n want %s", c.src, f.Problems.Err(), c.want)
		}
	}
	// What a newer version of the agent's format may hold (an event, a hook type): a warning that
	// skips that hook or event alone; the file stays usable, so run --fail-closed does not deny.
	for _, c := range []struct{ src, want string }{
		{`{"hooks": {"PreToolUse": []}}`, `a.json:1:12: warning: Unknown kiro-cli hook event: PreToolUse; its hooks are skipped`},
	} {
		f := DecodeAgentFile("a.json", []byte(c.src))
		warned := false
		for _, p := range f.Problems {
			warned = warned || p.Severity == srcpos.Warning && strings.HasPrefix(p.String(), c.want)
		}
		if !f.Usable() || len(f.Hooks) != 0 || f.Problems.HasErrors() || !warned {
			t.Errorf("%s:\n got  %v\n want a usable file, no hooks, the warning %s", c.src, f.Problems, c.want)
		}
	}
	if f := DecodeAgentFile("a.json", []byte(`{"hooks": {"stop": [{"command": "x", "matcher": "y", "shell": 1}]}}`)); !f.Usable() || len(f.Problems) != 2 {
		t.Errorf("want 2 warnings (matcher on stop, unknown field), got %v", f.Problems)
	}
}

// TestInstallFile: the file install writes is a valid hooks file with the entries it was given,
// each named, and a second rendering is the same bytes.
func TestInstallFile(t *testing.T) {
	t.Parallel()
	entries := []dialect.InstallEntry{{Event: "PreToolUse", Matcher: "shell|execute_bash", Args: "guard bash --fail-closed"},
		{Event: "Stop", Args: "run --agent kiro Stop"}, {Event: "PreToolUse", Matcher: "write|fs_write", Args: "guard bash --fail-closed"}}
	b := hooksFile("'/opt/agent hooks/agenthooks'", "/opt/agent hooks/agenthooks", entries)
	f := DecodeHooksFile("agenthooks.json", b)
	if len(f.Problems) != 0 || len(f.Hooks) != 3 {
		t.Fatalf("%s\nproblems %v", b, f.Problems)
	}
	names := map[string]bool{}
	for i, h := range f.Hooks {
		if h.Event != entries[i].Event || h.Matcher != entries[i].Matcher || h.Command != "'/opt/agent hooks/agenthooks' "+entries[i].Args ||
			h.Timeout != DefaultTimeout || !h.Enabled || names[h.Name] {
			t.Errorf("hook %d = %+v", i, h)
		}
		names[h.Name] = true
	}
	if string(hooksFile("'/opt/agent hooks/agenthooks'", "", entries)) != string(b) {
		t.Error("two renderings differ")
	}
	if Agent.Install.ShellMatcher != Matcher([]string{"shell"}) || Agent.Install.EditMatcher != Matcher([]string{"write"}) {
		t.Errorf("install's matchers %q, %q miss a name of the tool", Agent.Install.ShellMatcher, Agent.Install.EditMatcher)
	}
}

func FuzzDecodeHooksFile(f *testing.F) {
	f.Add([]byte(`{"version":"v1","hooks":[{"name":"a","trigger":"PreToolUse","matcher":"shell","action":{"type":"command","command":"x"},"timeout":5,"enabled":true}]}`))
	f.Add([]byte(`{"version":"v1","hooks":[{"trigger":"Manual","action":{"type":"agent","prompt":"p","timeout":1e999}}]}`))
	f.Add([]byte(`{"version":"v2","hooks":{}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFile(t, DecodeHooksFile("f.json", data))
	})
}

func FuzzDecodeAgentFile(f *testing.F) {
	f.Add([]byte(`{"name":"a","hooks":{"preToolUse":[{"matcher":"execute_bash","command":"x","timeout_ms":100,"cache_ttl_seconds":0}]}}`))
	f.Add([]byte(`{"hooks":{"stop":[{"command":""}],"agentSpawn":[]}}`))
	f.Add([]byte(`{"hooks":{"stop":[{"command":"x","timeout_ms":1e30}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFile(t, DecodeAgentFile("f.json", data))
	})
}

func checkFile(t *testing.T, file *File) {
	for _, p := range file.Problems {
		if p.Line == 0 || p.Message == "" {
			t.Fatalf("problem without a place or message: %+v", p)
		}
	}
	for _, h := range file.Hooks {
		if h.Type == "command" && strings.TrimSpace(h.Command) == "" || h.Type == "agent" && strings.TrimSpace(h.Prompt) == "" || h.Timeout <= 0 {
			t.Fatalf("a bad hook decoded: %+v", h)
		}
		if Trigger(h.Event) != h.Event || h.Event == "" {
			t.Fatalf("hook for an unknown trigger: %+v", h)
		}
	}
}
