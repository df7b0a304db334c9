package qwen

import (
	"encoding/json"
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

func TestEveryEventOfQwenCode(t *testing.T) {
	t.Parallel()
	if len(Dialect.Names()) != 22 {
		t.Errorf("%d events, want Qwen Code 0.24.4's 22", len(Dialect.Names()))
	}
	for _, name := range Events {
		s := lookup(t, name)
		if s.Dialect != Name || s.Name != name {
			t.Errorf("%s: spec %+v", name, s)
		}
	}
	if s := lookup(t, "PreToolUse"); s.Kind != dialect.PreTool || s.MatchField != "tool_name" || !s.Gates {
		t.Errorf("PreToolUse = %+v, want a gating pre-tool event matched on tool_name", s)
	}
	if ClaudeEvent("TodoCreated") != "" || ClaudeEvent("Stop") != "Stop" {
		t.Error("Claude Code counterparts are wrong")
	}
}

// TestInterpretAsQwenDoes follows what Qwen Code 0.24.4 was seen to do inside the agent
// (e2e TestQwenHonours) and what its HookRunner reads.
func TestInterpretAsQwenDoes(t *testing.T) {
	t.Parallel()
	deny := decide.Answer{Permission: decide.Deny, UserMessage: "no way", AgentMessage: "no way"}
	cases := []struct {
		name, event, stdout, stderr string
		exit                        int
		answered, failed            bool
		want                        decide.Answer
	}{
		{"exit 2 with a reason blocks", "PreToolUse", "", "no way\n", 2, true, false, deny},
		{"exit 2 with an empty stderr is no decision", "PreToolUse", "", "", 2, false, false, decide.Answer{}},
		{"exit 2 reads stderr, not stdout", "PreToolUse", "{}", "no way", 2, true, false, deny},
		{"exit 2 with JSON on stderr: the JSON decides", "PreToolUse", "", `{"decision":"allow"}`, 2, true, false, decide.Answer{Permission: decide.Allow}},
		{"Claude Code's deny", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}`, "", 0, true, false, deny},
		{"decision block", "PreToolUse", `{"decision":"block","reason":"no way"}`, "", 0, true, false, deny},
		{"decision deny", "PreToolUse", `{"decision":"deny","reason":"no way"}`, "", 0, true, false, deny},
		{"permissionDecision wins over decision", "PreToolUse", `{"decision":"block","hookSpecificOutput":{"permissionDecision":"allow"}}`, "", 0, true, false, decide.Answer{Permission: decide.Allow}},
		{"ask", "PreToolUse", `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, "", 0, true, false, decide.Answer{Permission: decide.Ask, UserMessage: "sure?"}},
		{"continue false halts", "PreToolUse", `{"continue":false,"stopReason":"no way"}`, "", 0, true, false, decide.Answer{Halt: true, StopReason: "no way"}},
		{"exit 1 with text is a non-blocking error", "PreToolUse", "", "oops", 1, false, true, decide.Answer{}},
		{"exit 3 with text is a non-blocking error", "PreToolUse", "", "oops", 3, false, true, decide.Answer{}},
		{"exit 1 with JSON: the JSON decides", "PreToolUse", `{"decision":"block","reason":"no way"}`, "", 1, true, false, deny},
		{"plain text on exit 0 is a message", "PreToolUse", "hello there", "", 0, true, false, decide.Answer{SystemMessage: "hello there"}},
		{"plain text is context on UserPromptSubmit", "UserPromptSubmit", "use tabs", "", 0, true, false, decide.Answer{AdditionalContext: "use tabs"}},
		{"broken JSON fails", "PreToolUse", `{"decision":`, "", 0, false, true, decide.Answer{}},
		{"a JSON string holding JSON", "PreToolUse", `"{\"decision\":\"deny\",\"reason\":\"no way\"}"`, "", 0, true, false, deny},
		{"bare exit 0", "PreToolUse", "", "", 0, false, false, decide.Answer{}},
		{"a bad decision fails", "PreToolUse", `{"decision":"maybe"}`, "", 0, false, true, decide.Answer{}},
		{"prompt block", "UserPromptSubmit", `{"decision":"block","reason":"no way"}`, "", 0, true, false, deny},
		{"stop block is a follow-up", "Stop", `{"decision":"block","reason":"again"}`, "", 0, true, false, decide.Answer{Followup: "again"}},
		{"exit 2 on Stop is a follow-up", "SubagentStop", "", "again", 2, true, false, decide.Answer{Followup: "again"}},
		{"PostToolUse cannot block", "PostToolUse", `{"decision":"block","reason":"no"}`, "", 0, true, false, decide.Answer{}},
		{"permission request deny", "PermissionRequest", `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no way"}}}`, "", 0, true, false, deny},
		{"permission request allow with input", "PermissionRequest", `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Dialect.Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed || !reflect.DeepEqual(out.Answer, c.want) {
				t.Fatalf("got %+v, want answered %v failed %v %+v", out, c.answered, c.failed, c.want)
			}
		})
	}
}

// TestEncodeEveryBlockingEvent: a deny (or a follow-up) on every event that can block is written
// in the form Qwen Code honours, and reads back as the same decision.
func TestEncodeEveryBlockingEvent(t *testing.T) {
	t.Parallel()
	for _, name := range Events {
		e := events()[name]
		s := &e.Spec
		switch e.style {
		case stylePermission, styleBlock, styleRequest:
			r := Dialect.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"})
			back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
			if r.ExitCode != 0 || back.Answer.Permission != decide.Deny || back.Answer.AgentMessage != "no way" {
				t.Errorf("%s: deny encoded as %+v reads back as %+v", name, r, back)
			}
		case styleContinue:
			r := Dialect.Encode(s, decide.Decision{Followup: "again"})
			back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
			if back.Answer.Followup != "again" {
				t.Errorf("%s: follow-up encoded as %+v reads back as %+v", name, r, back)
			}
		default:
			if s.Gates {
				t.Errorf("%s gates but has no way to block", name)
			}
		}
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		event string
		d     decide.Decision
		want  string
	}{
		{"PreToolUse", decide.Decision{}, ``},
		{"PreToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: "no way", UserMessage: "u"},
			`{"decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"},"reason":"no way"}`},
		{"PreToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: " "},
			`{"decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by agenthooks"},"reason":"blocked by agenthooks"}`},
		{"PreToolUse", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`},
		{"PreToolUse", decide.Decision{Permission: decide.Defer},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`},
		{"UserPromptSubmit", decide.Decision{Permission: decide.Deny, UserMessage: "secret"}, `{"decision":"block","reason":"secret"}`},
		{"Stop", decide.Decision{Followup: "again"}, `{"decision":"block","reason":"again"}`},
		{"SessionStart", decide.Decision{AdditionalContext: "ctx"}, `{"hookSpecificOutput":{"additionalContext":"ctx","hookEventName":"SessionStart"}}`},
		{"Notification", decide.Decision{Halt: true, StopReason: "r"}, ``},
		{"PostToolUse", decide.Decision{Halt: true, StopReason: "r"}, `{"continue":false,"stopReason":"r"}`},
		{"PermissionRequest", decide.Decision{Permission: decide.Deny, AgentMessage: "no"},
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"},"hookEventName":"PermissionRequest"}}`},
	}
	for _, c := range cases {
		r := Dialect.Encode(lookup(t, c.event), c.d)
		if got := strings.TrimSpace(string(r.Stdout)); got != c.want || r.ExitCode != 0 {
			t.Errorf("%s %+v:\n got  %s (exit %d)\n want %s", c.event, c.d, got, r.ExitCode, c.want)
		}
	}
	// A rewrite Qwen cannot apply must not let the original call run.
	r := Dialect.Encode(lookup(t, "PreToolUse"), decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)})
	if back := Dialect.Interpret(lookup(t, "PreToolUse"), r.ExitCode, r.Stdout, r.Stderr, 0); back.Answer.Permission != decide.Deny {
		t.Errorf("an allow with a rewrite = %s, want a deny (Qwen Code ignores the rewrite)", r.Stdout)
	}
}

func TestMessages(t *testing.T) {
	t.Parallel()
	s := lookup(t, "PreToolUse")
	if u, m := Dialect.Messages(s, decide.Decision{Permission: decide.Deny, AgentMessage: "a", UserMessage: "u"}); u != "u" || m != "a" {
		t.Errorf("deny messages = %q %q", u, m)
	}
	if u, m := Dialect.Messages(s, decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}); u != "sure?" || m != "" {
		t.Errorf("ask messages = %q %q", u, m)
	}
}

// FuzzInterpret: any output for any event reads without panic, a failure says why, a reading is
// the same twice, and what it reads to encodes without an exit 2 Qwen would let through.
func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", "{}", `{"decision":"deny","reason":"r"}`, `{"continue":false}`, `"{\"decision\":\"block\"}"`,
		`{"hookSpecificOutput":{"permissionDecision":"ask"}}`, `{"hookSpecificOutput":{"decision":{"behavior":"deny"}}}`, "text", "{"} {
		f.Add(s, 0, uint8(0))
		f.Add(s, 2, uint8(16))
		f.Add(s, 1, uint8(8))
	}
	f.Fuzz(func(t *testing.T, out string, exit int, which uint8) {
		s := lookup(t, Events[int(which)%len(Events)])
		a := Dialect.Interpret(s, exit, []byte(out), []byte(out), 0)
		b := Dialect.Interpret(s, exit, []byte(out), []byte(out), 0)
		if a.Failed && len(a.Errors) == 0 || a.Failed && a.Answered {
			t.Fatalf("inconsistent outcome %+v", a)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two readings differ")
		}
		r := Dialect.Encode(s, decide.Merge([]decide.Answer{a.Answer}, decide.MergeAll))
		if r.ExitCode != 0 || len(r.Stdout) > 0 && !json.Valid(r.Stdout) {
			t.Fatalf("encoded %+v", r)
		}
	})
}
