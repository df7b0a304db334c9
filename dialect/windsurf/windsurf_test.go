package windsurf

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

func lookup(t testing.TB, name string) *dialect.Spec {
	t.Helper()
	s, ok := Dialect.Lookup(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	return s
}

// TestEvents checks the table against the documentation: every pre_ hook but none other can
// block, and each has its neutral kind.
func TestEvents(t *testing.T) {
	t.Parallel()
	kinds := map[string]dialect.Kind{"pre_run_command": dialect.BeforeShell, "pre_mcp_tool_use": dialect.BeforeMCP,
		"pre_read_code": dialect.BeforeRead, "pre_write_code": dialect.BeforeEdit, "post_read_code": dialect.AfterRead, "pre_user_prompt": dialect.PromptSubmit, "post_run_command": dialect.AfterShell,
		"post_write_code": dialect.AfterEdit, "post_mcp_tool_use": dialect.AfterMCP, "post_cascade_response": ""}
	for _, name := range Events {
		s := lookup(t, name)
		if s.Dialect != Name || s.Gates != strings.HasPrefix(name, "pre_") || s.Target != dialect.NoTarget {
			t.Errorf("%s: %+v", name, s)
		}
		if k, ok := kinds[name]; ok && s.Kind != k {
			t.Errorf("%s: kind %s, want %s", name, s.Kind, k)
		}
	}
	if len(Dialect.Names()) != len(Events) {
		t.Error("Names and Events differ")
	}
	if _, ok := Dialect.Lookup("PreToolUse"); ok {
		t.Error("Cascade has no PreToolUse")
	}
}

// TestInterpret follows the documentation's exit codes: 2 blocks a pre-hook, 0 lets the action
// run, anything else is a hook error after which the action runs; stdout never decides.
func TestInterpret(t *testing.T) {
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
		{"exit 2 blocks a command", "pre_run_command", "", "rm is not allowed\n", 2, true, false, deny("rm is not allowed")},
		{"exit 2 blocks a read", "pre_read_code", "", "secret", 2, true, false, deny("secret")},
		{"exit 2 blocks a write", "pre_write_code", "", "no", 2, true, false, deny("no")},
		{"exit 2 blocks an MCP call", "pre_mcp_tool_use", "", "no", 2, true, false, deny("no")},
		{"exit 2 blocks a prompt", "pre_user_prompt", "", "no", 2, true, false, deny("no")},
		{"exit 2 with no reason", "pre_run_command", "", "", 2, true, false, deny("blocked by a hook")},
		{"exit 0 allows", "pre_run_command", "", "", 0, true, false, decide.Answer{}},
		{"JSON on stdout does not decide", "pre_run_command", `{"decision":"deny","permission":"deny"}`, "", 0, true, false, decide.Answer{}},
		{"exit 1 is an error; the action runs", "pre_run_command", "", "boom", 1, false, true, decide.Answer{}},
		{"exit 2 on a post-hook is an error", "post_run_command", "", "no", 2, false, true, decide.Answer{}},
		{"exit 0 after the response", "post_cascade_response", "", "", 0, true, false, decide.Answer{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Dialect.Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed || !reflect.DeepEqual(out.Answer, c.want) {
				t.Fatalf("got %+v, want answered %v failed %v %+v", out, c.answered, c.failed, c.want)
			}
		})
	}
	if out := Dialect.Interpret(&dialect.Spec{Name: "nope"}, 2, nil, nil, 0); !out.Failed {
		t.Error("an unknown event must fail")
	}
}

// TestEncodeEveryBlockingEvent: a deny on every event that can block is exit status 2 with the
// reason on stderr, and reads back as the same deny; elsewhere a deny is silence, which Cascade
// cannot be told.
func TestEncodeEveryBlockingEvent(t *testing.T) {
	t.Parallel()
	for _, name := range Events {
		s := lookup(t, name)
		r := Dialect.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"})
		if !s.Gates {
			if r.ExitCode != 0 || len(r.Stdout)+len(r.Stderr) != 0 {
				t.Errorf("%s cannot block, but the deny is %+v", name, r)
			}
			continue
		}
		back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
		if r.ExitCode != 2 || len(r.Stdout) != 0 || back.Answer.Permission != decide.Deny || back.Answer.AgentMessage != "no way" {
			t.Errorf("%s: deny encoded as %+v reads back as %+v", name, r, back)
		}
		if u, m := Dialect.Messages(s, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"}); u != "no way" || m != "no way" {
			t.Errorf("%s: messages %q %q", name, u, m)
		}
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		askAs  dialect.AskAs
		event  string
		d      decide.Decision
		exit   int
		stderr string
	}{
		{dialect.AskAsDeny, "pre_run_command", decide.Decision{}, 0, ""},
		{dialect.AskAsDeny, "pre_run_command", decide.Decision{Permission: decide.Allow}, 0, ""},
		{dialect.AskAsDeny, "pre_run_command", decide.Decision{Permission: decide.Deny}, 2, "blocked by agenthooks"},
		{dialect.AskAsDeny, "pre_run_command", decide.Decision{Permission: decide.Deny, UserMessage: "u", AgentMessage: "a"}, 2, "a"},
		{dialect.AskAsDeny, "pre_run_command", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}, 2,
			"Cascade cannot ask a person, so agenthooks denies (--ask-as deny): sure?"},
		{dialect.AskAsAllow, "pre_run_command", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}, 0,
			"agenthooks: Cascade cannot ask a person; allowed as configured (--ask-as allow)"},
		{dialect.AskAsDeny, "pre_user_prompt", decide.Decision{Halt: true, StopReason: "budget"}, 2, "budget"},
		{dialect.AskAsDeny, "post_run_command", decide.Decision{Halt: true, StopReason: "budget"}, 0, ""},
		{dialect.AskAsDeny, "post_cascade_response", decide.Decision{Followup: "again"}, 0, ""},
	}
	for _, c := range cases {
		r := DialectFor(c.askAs).Encode(lookup(t, c.event), c.d)
		if r.ExitCode != c.exit || strings.TrimSpace(string(r.Stderr)) != c.stderr || len(r.Stdout) != 0 {
			t.Errorf("%s %+v: got exit %d stderr %q stdout %q, want %d %q", c.event, c.d, r.ExitCode, r.Stderr, r.Stdout, c.exit, c.stderr)
		}
	}
	if r := Dialect.Encode(&dialect.Spec{Name: "nope"}, decide.Decision{Permission: decide.Deny}); r.ExitCode != 0 {
		t.Error("an unknown event must not block")
	}
}

func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", "{}", `{"decision":"deny"}`, "text", "{", "\x00\xff"} {
		f.Add(s, 0, uint8(4))
		f.Add(s, 2, uint8(0))
		f.Add(s, 2, uint8(5))
		f.Add(s, 1, uint8(8))
	}
	f.Fuzz(func(t *testing.T, out string, exit int, which uint8) {
		s := lookup(t, Events[int(which)%len(Events)])
		a := Dialect.Interpret(s, exit, []byte(out), []byte(out), 0)
		if a.Failed && len(a.Errors) == 0 || a.Failed && a.Answered || !a.Failed && !a.Answered {
			t.Fatalf("inconsistent outcome %+v", a)
		}
		if a.Answer.Permission == decide.Deny && (exit != 2 || !s.Gates) {
			t.Fatalf("a deny from exit %d on %s", exit, s.Name)
		}
	})
}
