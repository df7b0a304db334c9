package kimi

import (
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

// TestKimiEvents checks the table against Kimi Code's hooks page: twenty events, of which
// PreToolUse, UserPromptSubmit and Stop block.
func TestKimiEvents(t *testing.T) {
	t.Parallel()
	d := Dialect(dialect.AskAsDeny)
	if n := len(d.Names()); n != 20 {
		t.Errorf("%d events %v, want the hooks page's twenty", n, d.Names())
	}
	for _, name := range d.Names() {
		if got, want := lookup(t, name).Gates, name == "PreToolUse" || name == "UserPromptSubmit" || name == "Stop"; got != want {
			t.Errorf("%s gates = %v, want %v", name, got, want)
		}
	}
	if s := lookup(t, "PreToolUse"); s.Kind != dialect.PreTool || s.MatchField != "tool_name" || s.Dialect != Name {
		t.Errorf("PreToolUse = %+v", s)
	}
	if s := lookup(t, "SessionHeartbeat"); s.Kind != "" || s.Gates {
		t.Errorf("SessionHeartbeat = %+v, want an event of Kimi Code's own that cannot block", s)
	}
	if _, ok := d.Lookup("BeforeTool"); ok {
		t.Error("Kimi Code has no BeforeTool")
	}
	for tool, want := range map[string]dialect.Kind{"Bash": dialect.BeforeShell, "Read": dialect.BeforeRead, "Write": dialect.PreTool} {
		if got := Agent.ToolKind("PreToolUse", tool); got != want {
			t.Errorf("ToolKind(PreToolUse, %s) = %s, want %s", tool, got, want)
		}
	}
}

// TestInterpretAsKimiDoes follows Kimi Code's hook runner (resultFromExitCode and
// structuredOutput in agent-core's session/hooks/runner.ts) on each event that can block.
func TestInterpretAsKimiDoes(t *testing.T) {
	t.Parallel()
	deny := func(r string) decide.Answer {
		return decide.Answer{Permission: decide.Deny, UserMessage: r, AgentMessage: r}
	}
	cases := []struct {
		name, stdout, stderr string
		exit                 int
		answered, failed     bool
		want                 decide.Answer
	}{
		{"exit 2 blocks with stderr", "", "  no way \n", 2, true, false, deny("no way")},
		{"exit 2 without stderr", "", "", 2, true, false, deny("blocked by hook")},
		{"exit 2 wins over an allow on stdout", `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, "no", 2, true, false, deny("no")},
		{"permissionDecision deny", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"use rg"}}`, "", 0, true, false, deny("use rg")},
		{"deny with a message", `{"message":"shown","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"why"}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Deny, UserMessage: "shown", AgentMessage: "why"}},
		{"deny JSON on exit 1 is not read", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "boom", 1, false, true, decide.Answer{}},
		{"ask is no decision", `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "", 0, false, false, decide.Answer{}},
		{"allow is no decision", `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"}}}`, "", 0, false, false, decide.Answer{}},
		{"other exit fails open", "", "crash", 1, false, true, decide.Answer{}},
		{"empty", "", "", 0, false, false, decide.Answer{}},
		{"JSON array is ignored", `[1]`, "", 0, false, false, decide.Answer{}},
	}
	for _, ev := range []string{"PreToolUse", "UserPromptSubmit", "Stop"} {
		for _, c := range cases {
			out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, ev), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed || out.Answer.Permission != c.want.Permission ||
				out.Answer.UserMessage != c.want.UserMessage || out.Answer.AgentMessage != c.want.AgentMessage || out.Answer.UpdatedInput != nil {
				t.Errorf("%s, %s: %+v", ev, c.name, out)
			}
		}
	}
	// A block on an event that cannot block is ignored, as Kimi Code ignores it.
	if out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, "PostToolUse"), 2, nil, []byte("no"), 0); out.Answered || len(out.Notes) == 0 {
		t.Errorf("PostToolUse exit 2 = %+v, want no decision and a note", out)
	}
	// Plain text on exit 0 is context on UserPromptSubmit only.
	if out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, "UserPromptSubmit"), 0, []byte("branch: main\n"), nil, 0); out.Answer.AdditionalContext != "branch: main" {
		t.Errorf("UserPromptSubmit text = %+v", out)
	}
	if out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, "PreToolUse"), 0, []byte("hello"), nil, 0); out.Answered {
		t.Errorf("PreToolUse text = %+v, want no decision", out)
	}
}

// TestEncodeReadBack writes each decision on each event that can block and reads it back the
// way Kimi Code does.
func TestEncodeReadBack(t *testing.T) {
	t.Parallel()
	for _, ev := range []string{"PreToolUse", "UserPromptSubmit", "Stop"} {
		s := lookup(t, ev)
		r := Dialect(dialect.AskAsDeny).Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "not here"})
		if r.ExitCode != 0 || !strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`) {
			t.Errorf("%s deny = %+v", ev, r)
		}
		back := Dialect(dialect.AskAsDeny).Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
		if back.Answer.Permission != decide.Deny || back.Answer.AgentMessage != "not here" {
			t.Errorf("%s deny read back = %+v", ev, back)
		}
		if r := Dialect(dialect.AskAsDeny).Encode(s, decide.Decision{Permission: decide.Allow}); len(r.Stdout) != 0 || r.ExitCode != 0 {
			t.Errorf("%s allow = %+v, want silence", ev, r)
		}
		ask := Dialect(dialect.AskAsDeny).Encode(s, decide.Decision{Permission: decide.Ask, AgentMessage: "sure?"})
		if back := Dialect(dialect.AskAsDeny).Interpret(s, ask.ExitCode, ask.Stdout, ask.Stderr, 0); back.Answer.Permission != decide.Deny {
			t.Errorf("%s ask with --ask-as deny = %+v", ev, back)
		}
		if r := Dialect(dialect.AskAsAllow).Encode(s, decide.Decision{Permission: decide.Ask}); len(r.Stdout) != 0 {
			t.Errorf("%s ask with --ask-as allow = %+v, want no block", ev, r)
		}
	}
	if r := Dialect(dialect.AskAsDeny).Encode(lookup(t, "PostToolUse"), decide.Decision{Permission: decide.Deny, AgentMessage: "x"}); len(r.Stdout) != 0 {
		t.Errorf("PostToolUse deny = %+v, want nothing (Kimi Code ignores it)", r)
	}
	r := Dialect(dialect.AskAsDeny).Encode(lookup(t, "UserPromptSubmit"), decide.Decision{AdditionalContext: "on main"})
	if back := Dialect(dialect.AskAsDeny).Interpret(lookup(t, "UserPromptSubmit"), r.ExitCode, r.Stdout, r.Stderr, 0); back.Answer.AdditionalContext != "on main" {
		t.Errorf("context read back = %+v from %q", back, r.Stdout)
	}
	if g := Agent.Answer.Guard(dialect.BeforeShell, decide.Deny, "rm"); !strings.Contains(string(g.Stdout), "Blocked by agenthooks: rm") {
		t.Errorf("guard deny = %+v", g)
	}
	if g := Agent.Answer.Guard(dialect.BeforeShell, decide.Allow, ""); len(g.Stdout)+len(g.Stderr) != 0 || g.ExitCode != 0 {
		t.Errorf("guard allow = %+v, want silence", g)
	}
}

// FuzzInterpret: no output makes Interpret panic, and a decision it reads is only ever a deny
// on an event that can block.
func FuzzInterpret(f *testing.F) {
	f.Add("PreToolUse", 0, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}`, "")
	f.Add("Stop", 2, "", "keep going")
	f.Add("UserPromptSubmit", 0, "context", "")
	f.Add("PostToolUse", 0, `{"message":1,"hookSpecificOutput":[]}`, "")
	f.Add("Notification", 1, `{`, "x")
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr string) {
		s, ok := Dialect(dialect.AskAsDeny).Lookup(event)
		if !ok {
			s = &dialect.Spec{Dialect: Name, Name: event}
		}
		out := Dialect(dialect.AskAsDeny).Interpret(s, exit, []byte(stdout), []byte(stderr), 0)
		if out.Answer.Permission != "" && (out.Answer.Permission != decide.Deny || !s.Gates) {
			t.Fatalf("%s: %+v", event, out)
		}
	})
}
