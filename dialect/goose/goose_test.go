package goose

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

func lookup(t testing.TB, name string) *dialect.Spec {
	t.Helper()
	s, ok := Dialect(dialect.AskAsDeny).Lookup(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	return s
}

// TestGooseEvents checks the table against HookEvent in Goose's hooks/mod.rs: twelve events,
// of which PreToolUse and Stop block.
func TestGooseEvents(t *testing.T) {
	t.Parallel()
	d := Dialect(dialect.AskAsDeny)
	if n := len(d.Names()); n != 12 {
		t.Errorf("%d events %v, want HookEvent's twelve", n, d.Names())
	}
	for _, name := range d.Names() {
		if got, want := lookup(t, name).Gates, name == "PreToolUse" || name == "Stop"; got != want {
			t.Errorf("%s gates = %v, want %v", name, got, want)
		}
	}
	if s := lookup(t, "PreToolUse"); s.Kind != dialect.PreTool || s.Dialect != Name {
		t.Errorf("PreToolUse = %+v", s)
	}
	if s := lookup(t, "BeforeShellExecution"); s.Kind != "" || s.Gates {
		t.Errorf("BeforeShellExecution = %+v, want an observing event of Goose's own", s)
	}
	if s := lookup(t, "UserPromptSubmit"); s.Kind == dialect.PromptSubmit {
		t.Errorf("UserPromptSubmit = %+v: Goose reads no answer to it, so no prompt guard may rely on it", s)
	}
	for tool, want := range map[string]dialect.Kind{"developer__shell": dialect.BeforeShell, "shell": dialect.BeforeShell, "developer__write": dialect.PreTool} {
		if got := Agent.ToolKind("PreToolUse", tool); got != want {
			t.Errorf("ToolKind(PreToolUse, %s) = %s, want %s", tool, got, want)
		}
	}
}

// TestInterpretAsGooseDoes follows classify_output in Goose's hooks/mod.rs, boundary by
// boundary, on the two events that block and one that does not.
func TestInterpretAsGooseDoes(t *testing.T) {
	t.Parallel()
	deny := func(r string) decide.Answer {
		return decide.Answer{Permission: decide.Deny, UserMessage: r, AgentMessage: r}
	}
	cases := []struct {
		name, event, stdout, stderr string
		exit                        int
		answered, failed            bool
		want                        decide.Answer
	}{
		{name: "exit 2 denies with stderr", event: "PreToolUse", exit: 2, stderr: "  no rm  \n", answered: true, want: deny("no rm")},
		{name: "exit 2 without stderr", event: "PreToolUse", exit: 2, answered: true, want: deny("denied by plugin hook")},
		{name: "exit 2 wins over an allow on stdout", event: "PreToolUse", exit: 2, stdout: `{"decision":"allow"}`, stderr: "no", answered: true, want: deny("no")},
		{name: "block on exit 0", event: "PreToolUse", stdout: `{"decision":"block","reason":"not here"}`, answered: true, want: deny("not here")},
		{name: "block whatever the exit code", event: "PreToolUse", exit: 1, stdout: ` {"decision":"block"} `, answered: true, want: deny("denied by plugin hook")},
		{name: "block on Stop", event: "Stop", stdout: `{"decision":"block","reason":"tests fail"}`, answered: true, want: deny("tests fail")},
		{name: "empty stdout allows", event: "PreToolUse"},
		{name: "allow decision allows", event: "PreToolUse", stdout: `{"decision":"allow","reason":"fine"}`},
		{name: "allow on exit 1 is no decision", event: "PreToolUse", exit: 1, stdout: `{"decision":"allow"}`, failed: true},
		{name: "a log line is no decision", event: "PreToolUse", stdout: "checking...\n", failed: true},
		{name: "other JSON is no decision", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, failed: true},
		{name: "truncated JSON is no decision", event: "PreToolUse", stdout: `{"decision":"blo`, failed: true},
		{name: "a non-string decision is no decision", event: "PreToolUse", stdout: `{"decision":1}`, failed: true},
		{name: "invalid UTF-8 is no decision", event: "PreToolUse", stdout: "\xff", failed: true},
		{name: "exit 1 is no decision", event: "PreToolUse", exit: 1, stderr: "boom", failed: true},
		{name: "a block on PostToolUse is ignored", event: "PostToolUse", stdout: `{"decision":"block"}`},
		{name: "exit 2 on UserPromptSubmit is ignored", event: "UserPromptSubmit", exit: 2, stderr: "secret"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed {
				t.Fatalf("answered %v failed %v, want %v %v (%+v)", out.Answered, out.Failed, c.answered, c.failed, out)
			}
			if c.answered && (out.Answer.Permission != c.want.Permission || out.Answer.AgentMessage != c.want.AgentMessage) {
				t.Errorf("answer %+v, want %+v", out.Answer, c.want)
			}
		})
	}
	if out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, "PreToolUse"), 0, []byte(`{"decision":"allow"}`), nil, 10); !out.Failed {
		t.Errorf("a cut answer reads as %+v, want a failure", out)
	}
}

// TestEncodeEveryBlockingEvent: a deny on PreToolUse and Stop is decision "block" on exit 0,
// which Interpret reads back as the deny; an ask becomes the configured deny; an allow, and a
// deny where Goose cannot block, are silence, the one answer Goose reads as an allow.
func TestEncodeEveryBlockingEvent(t *testing.T) {
	t.Parallel()
	d := Dialect(dialect.AskAsDeny)
	for _, name := range d.Names() {
		s := lookup(t, name)
		for _, perm := range []decide.Permission{decide.Deny, decide.Ask, decide.Allow} {
			r := d.Encode(s, decide.Decision{Permission: perm, AgentMessage: "rule says no", AdditionalContext: "ctx"})
			if r.ExitCode != 0 {
				t.Errorf("%s %s: exit %d", name, perm, r.ExitCode)
			}
			if perm == decide.Allow || !s.Gates {
				if len(r.Stdout) != 0 {
					t.Errorf("%s %s: stdout %q, want silence", name, perm, r.Stdout)
				}
				continue
			}
			var v map[string]any
			if err := json.Unmarshal(r.Stdout, &v); err != nil || v["decision"] != "block" || !strings.Contains(v["reason"].(string), "rule says no") {
				t.Errorf("%s %s: stdout %q", name, perm, r.Stdout)
			}
			out := d.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
			if out.Failed || out.Answer.Permission != decide.Deny {
				t.Errorf("%s %s: reads back as %+v", name, perm, out)
			}
		}
	}
	if r := d.Encode(lookup(t, "Stop"), decide.Decision{Halt: true, StopReason: "done"}); !strings.Contains(string(r.Stdout), `"block"`) {
		t.Errorf("a halt on Stop: %q, want a block", r.Stdout)
	}
}

// TestHooksFile: the plugin's hooks.json install writes is Claude Code's matcher-group shape
// with Goose's on_failure "block" on the PreToolUse entries that ask for it, and nowhere else.
func TestHooksFile(t *testing.T) {
	t.Parallel()
	b := hooksFile("'/bin/agenthooks'", "/bin/agenthooks", Agent.InstallEntries("guard bash"))
	var f struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type, Command, OnFailure string
				Timeout                  int
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var raw map[string]map[string][]map[string]any
	_ = json.Unmarshal(b, &raw)
	pre := raw["hooks"]["PreToolUse"]
	if len(pre) < 3 || pre[0]["matcher"] != "^(developer__shell|shell)$" {
		t.Fatalf("PreToolUse = %v", pre)
	}
	for _, g := range pre {
		h := g["hooks"].([]any)[0].(map[string]any)
		if h["on_failure"] != "block" || h["type"] != "command" || h["timeout"] != float64(30) {
			t.Errorf("PreToolUse entry %v: want a command with on_failure block and timeout 30", h)
		}
	}
	for ev, groups := range raw["hooks"] {
		if ev == "PreToolUse" {
			continue
		}
		for _, g := range groups {
			if h := g["hooks"].([]any)[0].(map[string]any); h["on_failure"] != nil {
				t.Errorf("%s entry %v has on_failure, which Goose honours on PreToolUse only", ev, h)
			}
		}
	}
	if !strings.Contains(string(b), `"'/bin/agenthooks' guard bash"`) {
		t.Errorf("the guard's command is not there:\n%s", b)
	}
}

// TestDetect: Goose's payload is told from Crush's (the other with an "event" field) by its
// namespaced tools and its events Crush has not.
func TestDetect(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    dialect.Probe
		want bool
	}{
		{dialect.Probe{Event: "PreToolUse", Tool: "developer__shell"}, true},
		{dialect.Probe{Event: "Stop"}, true},
		{dialect.Probe{Event: "PreToolUse", Tool: "bash"}, false},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "developer__shell"}, false},
		{dialect.Probe{Event: "beforeShellExecution"}, false},
	} {
		if got := detect(c.p); got != c.want {
			t.Errorf("detect(%+v) = %v, want %v", c.p, got, c.want)
		}
	}
}

// FuzzInterpret: no output of a hook makes Interpret panic, and only a deny on an event that
// blocks is ever an answer.
func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", `{"decision":"block","reason":"x"}`, `{"decision":"allow"}`, `{"decision":null}`, "[1]", "\xff", `{"decision":"block"`} {
		f.Add("PreToolUse", 0, s, "")
		f.Add("Stop", 2, s, "reason")
	}
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr string) {
		d := Dialect(dialect.AskAsDeny)
		s, ok := d.Lookup(event)
		if !ok {
			s = &dialect.Spec{Name: event}
		}
		out := d.Interpret(s, exit, []byte(stdout), []byte(stderr), 0)
		if out.Answered && (out.Answer.Permission != decide.Deny || !s.Gates) {
			t.Fatalf("%s exit %d %q: %+v", event, exit, stdout, out)
		}
		if out.Answered && out.Failed {
			t.Fatalf("both answered and failed: %+v", out)
		}
	})
}

// FuzzToClaude: no payload makes the rewrite to Claude Code's shape, or back, panic.
func FuzzToClaude(f *testing.F) {
	f.Add("PreToolUse", `{"event":"PreToolUse","tool_name":"developer__edit","tool_input":{"path":"a","before":"b","after":"c"},"working_dir":"/"}`)
	f.Add("UserPromptSubmit", `{"event":"UserPromptSubmit","message":"hi"}`)
	f.Add("Stop", `[]`)
	f.Fuzz(func(t *testing.T, event, payload string) {
		_, out, _, err := ToClaude(event, []byte(payload))
		if err != nil || out == nil {
			return
		}
		_, _, _ = FromClaude(event, out)
		_, _ = GuardView([]byte(payload))
	})
}
