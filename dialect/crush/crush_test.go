package crush

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

func preToolUse(t testing.TB) *dialect.Spec {
	t.Helper()
	s, ok := Dialect(dialect.AskAsDeny).Lookup("PreToolUse")
	if !ok {
		t.Fatal("no PreToolUse")
	}
	return s
}

func TestCrushHasOneEvent(t *testing.T) {
	t.Parallel()
	d := Dialect(dialect.AskAsDeny)
	if !reflect.DeepEqual(d.Names(), []string{"PreToolUse"}) {
		t.Errorf("events %v, want Crush's one, PreToolUse", d.Names())
	}
	s := preToolUse(t)
	if s.Kind != dialect.PreTool || !s.Gates || s.MatchField != "tool_name" || s.Dialect != Name {
		t.Errorf("PreToolUse = %+v", s)
	}
	for _, spelled := range []string{"PreToolUse", "pretooluse", "PRETOOLUSE", "pre_tool_use", "PRE_TOOL_USE"} {
		if CanonicalEvent(spelled) != "PreToolUse" {
			t.Errorf("CanonicalEvent(%q) = %q, want PreToolUse as Crush's normalizeHookEvent", spelled, CanonicalEvent(spelled))
		}
	}
	if CanonicalEvent("PostToolUse") != "" {
		t.Error("Crush has no PostToolUse")
	}
	for tool, want := range map[string]dialect.Kind{"bash": dialect.BeforeShell, "view": dialect.BeforeRead,
		"mcp_github_create_issue": dialect.BeforeMCP, "edit": dialect.PreTool, "": dialect.PreTool} {
		if got := Agent.ToolKind("PreToolUse", tool); got != want {
			t.Errorf("ToolKind(PreToolUse, %q) = %s, want %s", tool, got, want)
		}
	}
}

// TestInterpretAsCrushDoes follows Crush's hooks.Runner.runOne and parseStdout.
func TestInterpretAsCrushDoes(t *testing.T) {
	t.Parallel()
	deny := decide.Answer{Permission: decide.Deny, UserMessage: "no way", AgentMessage: "no way"}
	cases := []struct {
		name, stdout, stderr string
		exit                 int
		answered, failed     bool
		want                 decide.Answer
	}{
		{"exit 2 denies with stderr", "", "no way\n", 2, true, false, deny},
		{"exit 2 ignores stdout", `{"decision":"allow"}`, "no way", 2, true, false, deny},
		{"exit 2 with an empty stderr", "", "", 2, true, false,
			decide.Answer{Permission: decide.Deny, UserMessage: "blocked by hook", AgentMessage: "blocked by hook"}},
		{"exit 49 halts the turn", "", "stop it", 49, true, false,
			decide.Answer{Permission: decide.Deny, UserMessage: "stop it", AgentMessage: "stop it", Halt: true, StopReason: "stop it"}},
		{"another exit status fails, and Crush runs the tool", `{"decision":"deny"}`, "boom", 1, false, true, decide.Answer{}},
		{"silence is no opinion", "", "", 0, false, false, decide.Answer{}},
		{"plain text is no opinion", "hello", "", 0, false, false, decide.Answer{}},
		{"envelope deny", `{"decision":"deny","reason":"no way"}`, "", 0, true, false, deny},
		{"decision in capitals", `{"decision":"DENY","reason":"no way"}`, "", 0, true, false, deny},
		{"envelope allow", `{"version":1,"decision":"allow"}`, "", 0, true, false, decide.Answer{Permission: decide.Allow}},
		{"null decision is no opinion", `{"decision":null,"context":"note"}`, "", 0, true, false, decide.Answer{AdditionalContext: "note"}},
		{"an unknown decision is no opinion", `{"decision":"ask"}`, "", 0, true, false, decide.Answer{}},
		{"halt without a deny blocks and ends the turn", `{"halt":true,"reason":"stop"}`, "", 0, true, false,
			decide.Answer{Permission: decide.Deny, UserMessage: "stop", AgentMessage: "stop", Halt: true, StopReason: "stop"}},
		{"context as an array", `{"context":["a","","b"]}`, "", 0, true, false, decide.Answer{AdditionalContext: "a\nb"}},
		{"updated_input", `{"decision":"allow","updated_input":{"command":"ls"}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"updated_input as a string", `{"updated_input":"{\"command\":\"ls\"}"}`, "", 0, true, false,
			decide.Answer{UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"Claude Code's deny", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}`, "", 0, true, false, deny},
		{"Claude Code's ask is no opinion", `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "", 0, true, false, decide.Answer{}},
		{"hookSpecificOutput wins over the envelope", `{"decision":"deny","hookSpecificOutput":{"permissionDecision":"allow"}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Allow}},
		{"a field of the wrong type drops the answer", `{"decision":"deny","halt":"yes"}`, "", 0, false, true, decide.Answer{}},
		{"broken JSON", `{"decision":`, "", 0, false, true, decide.Answer{}},
	}
	d := Dialect(dialect.AskAsDeny)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := d.Interpret(preToolUse(t), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed {
				t.Fatalf("answered %v failed %v (%v), want %v %v", out.Answered, out.Failed, out.Errors, c.answered, c.failed)
			}
			if !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("answer %+v, want %+v", out.Answer, c.want)
			}
		})
	}
	if out := d.Interpret(preToolUse(t), 0, []byte(`{"decision":"deny"}`), nil, 10); !out.Failed {
		t.Error("a response cut by the output cap must fail")
	}
	if out := d.Interpret(&dialect.Spec{Name: "Stop"}, 0, nil, nil, 0); !out.Failed {
		t.Error("an event Crush does not have must fail")
	}
}

// TestEncodeReadsBack writes each decision as Crush reads it and reads it back through
// Interpret, which follows Crush's own parser.
func TestEncodeReadsBack(t *testing.T) {
	t.Parallel()
	s := preToolUse(t)
	cases := []struct {
		name   string
		askAs  dialect.AskAs
		in     decide.Decision
		stdout string
		want   decide.Answer
	}{
		{"deny", dialect.AskAsDeny, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"},
			`{"decision":"deny","reason":"no way"}`, decide.Answer{Permission: decide.Deny, UserMessage: "no way", AgentMessage: "no way"}},
		{"deny without a reason", dialect.AskAsDeny, decide.Decision{Permission: decide.Deny},
			`{"decision":"deny","reason":"blocked by agenthooks"}`,
			decide.Answer{Permission: decide.Deny, UserMessage: "blocked by agenthooks", AgentMessage: "blocked by agenthooks"}},
		{"halt", dialect.AskAsDeny, decide.Decision{Permission: decide.Allow, Halt: true, StopReason: "enough"},
			`{"decision":"deny","halt":true,"reason":"enough"}`,
			decide.Answer{Permission: decide.Deny, UserMessage: "enough", AgentMessage: "enough", Halt: true, StopReason: "enough"}},
		{"allow with rewritten input and context", dialect.AskAsDeny,
			decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`), AdditionalContext: "note"},
			`{"context":"note","decision":"allow","updated_input":{"command":"ls"}}`,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`), AdditionalContext: "note"}},
		{"ask becomes deny", dialect.AskAsDeny, decide.Decision{Permission: decide.Ask, UserMessage: "sure?"},
			`{"decision":"deny","reason":"Crush cannot ask a person, so agenthooks denies (--ask-as deny): sure?"}`,
			decide.Answer{Permission: decide.Deny, UserMessage: "Crush cannot ask a person, so agenthooks denies (--ask-as deny): sure?",
				AgentMessage: "Crush cannot ask a person, so agenthooks denies (--ask-as deny): sure?"}},
		{"ask as allow", dialect.AskAsAllow, decide.Decision{Permission: decide.Ask}, `{"decision":"allow"}`, decide.Answer{Permission: decide.Allow}},
		{"no opinion is silence", dialect.AskAsDeny, decide.Decision{}, ``, decide.Answer{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Dialect(c.askAs)
			r := d.Encode(s, c.in)
			if r.ExitCode != 0 || strings.TrimSpace(string(r.Stdout)) != c.stdout {
				t.Fatalf("Encode = exit %d %q, want exit 0 %q", r.ExitCode, r.Stdout, c.stdout)
			}
			out := d.Interpret(s, r.ExitCode, r.Stdout, nil, 0)
			if out.Failed || !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("read back %+v (%v), want %+v", out.Answer, out.Errors, c.want)
			}
		})
	}
	if client, model := Dialect(dialect.AskAsDeny).Messages(s, decide.Decision{Permission: decide.Deny, AgentMessage: "no"}); client != "no" || model != "no" {
		t.Errorf("Messages = %q, %q", client, model)
	}
}

// TestGuardAndRewriteReplies: the guard's deny reaches the model with its reason, its allow is
// silence (Crush's own permission prompt still runs), and the rewrite is read by Crush as an
// allow with the new input.
func TestGuardAndRewriteReplies(t *testing.T) {
	t.Parallel()
	d, s := Dialect(dialect.AskAsDeny), preToolUse(t)
	r := Agent.Answer.Guard(dialect.BeforeShell, decide.Deny, "rm -rf is not allowed")
	out := d.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
	if out.Answer.Permission != decide.Deny || out.Answer.AgentMessage != "Blocked by agenthooks: rm -rf is not allowed" {
		t.Errorf("guard deny reads as %+v", out)
	}
	if r := Agent.Answer.Guard(dialect.BeforeShell, decide.Allow, ""); len(r.Stdout)+len(r.Stderr) != 0 || r.ExitCode != 0 {
		t.Errorf("guard allow = %+v, want silence", r)
	}
	r = Agent.Answer.Rewrite(map[string]any{"command": "confined ls"}, "confined")
	out = d.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
	if out.Answer.Permission != decide.Allow || string(out.Answer.UpdatedInput) != `{"command":"confined ls"}` {
		t.Errorf("rewrite reads as %+v", out)
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	if !Agent.Detect(dialect.Probe{Event: "PreToolUse", Tool: "bash"}) {
		t.Error("Crush's payload names its event in event")
	}
	if Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash"}) || Agent.Detect(dialect.Probe{}) {
		t.Error("Claude Code's payload is not Crush's")
	}
}

func FuzzInterpret(f *testing.F) {
	for _, seed := range []string{`{"decision":"deny","reason":"x"}`, `{"halt":true}`, `{"context":["a",1]}`,
		`{"updated_input":"{}"}`, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, `{"hookSpecificOutput":1}`, `[`, ""} {
		f.Add(0, []byte(seed), []byte(""))
	}
	f.Add(2, []byte(""), []byte("no"))
	f.Add(49, []byte(""), []byte(""))
	d := Dialect(dialect.AskAsDeny)
	s, _ := d.Lookup("PreToolUse")
	f.Fuzz(func(t *testing.T, exit int, stdout, stderr []byte) {
		out := d.Interpret(s, exit, stdout, stderr, 0)
		if out.Failed && out.Answered {
			t.Fatal("a failed run cannot answer")
		}
		if (exit == 2 || exit == HaltExitCode) && (out.Answer.Permission != decide.Deny || strings.TrimSpace(out.Answer.AgentMessage) == "") {
			t.Fatalf("exit %d must deny with a reason, got %+v", exit, out)
		}
		if exit != 0 && exit != 2 && exit != HaltExitCode && !out.Failed {
			t.Fatalf("exit %d must be a failed run, got %+v", exit, out)
		}
	})
}
