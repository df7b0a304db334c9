package cursor

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

func ev(t testing.TB, name string) *Event {
	e, ok := Lookup(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	return e
}

func TestValidateUsesCursorMessages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		event, response string
		want            []string
	}{
		{"beforeShellExecution", `{"permission":"allow","user_message":"a","agent_message":"b"}`, nil},
		{"beforeShellExecution", `{}`, nil},
		{"beforeShellExecution", `[]`, []string{"Expected an object"}},
		{"afterShellExecution", `null`, []string{"Expected an object"}},
		{"afterShellExecution", `{"anything":1}`, nil},
		{"beforeMCPExecution", `{"permission":"Allow","user_message":null,"agent_message":1}`, []string{
			"Invalid permission value. Expected one of: allow, deny, ask, or undefined",
			"Invalid user_message value. Expected a string if provided",
			"Invalid agent_message value. Expected a string if provided"}},
		{"beforeReadFile", `{"permission":"ask"}`, []string{"Invalid permission value. Expected one of: allow, deny, or undefined"}},
		{"beforeTabFileRead", `{"permission":"deny"}`, nil},
		{"beforeSubmitPrompt", `{"continue":"false","user_message":1}`, []string{
			"Invalid continue value. Expected a boolean if provided",
			"Invalid user_message value. Expected a string if provided"}},
		{"stop", `{"followup_message":["x"]}`, []string{"Invalid followup_message value. Expected a string if provided"}},
		{"preToolUse", `{"permission":"ask","updated_input":[1]}`, []string{"Invalid updated_input value. Expected an object if provided"}},
		{"postToolUse", `{"additional_context":{}}`, []string{"Invalid additional_context value. Expected a string if provided"}},
		{"sessionStart", `{"env":{"A":1}}`, []string{"Invalid env value. Expected an object of strings if provided"}},
		{"workspaceOpen", `{"pluginPaths":["a",2]}`, []string{"Invalid pluginPaths value. Expected an array of strings if provided"}},
	}
	for _, c := range cases {
		v, err := dialect.DecodeJSON([]byte(c.response))
		if err != nil {
			t.Fatal(err)
		}
		if got := Validate(ev(t, c.event), v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s:\n got  %q\n want %q", c.event, c.response, got, c.want)
		}
	}
}

func TestInterpret(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, event    string
		exit           int
		stdout, stderr string
		cut            int64
		answered       bool
		failed         bool
		want           decide.Answer
	}{
		{"empty is no answer", "beforeShellExecution", 0, " \n", "", 0, false, false, decide.Answer{}},
		{"allow", "beforeShellExecution", 0, `{"permission":"allow"}`, "", 0, true, false, decide.Answer{Permission: decide.Allow}},
		{"exit 2 denies with stderr", "beforeShellExecution", 2, "", " nope \n", 0, true, false, decide.Answer{Permission: decide.Deny, UserMessage: "nope", AgentMessage: "nope"}},
		{"exit 2 beats an allow on stdout", "preToolUse", 2, `{"permission":"allow","user_message":"u"}`, "why", 0, true, false, decide.Answer{Permission: decide.Deny, UserMessage: "u", AgentMessage: "why"}},
		{"exit 2 blocks a prompt", "beforeSubmitPrompt", 2, "", "secret", 0, true, false, decide.Answer{Permission: decide.Deny, UserMessage: "secret"}},
		{"exit 2 on stop is a note", "stop", 2, "", "", 0, false, false, decide.Answer{}},
		{"exit 1 fails", "beforeShellExecution", 1, `{"permission":"deny"}`, "", 0, false, true, decide.Answer{}},
		{"bad JSON fails", "beforeShellExecution", 0, `{"permission":`, "", 0, false, true, decide.Answer{}},
		{"trailing garbage fails", "beforeShellExecution", 0, `{} {}`, "", 0, false, true, decide.Answer{}},
		{"cut output fails", "beforeShellExecution", 0, `{}`, "", 10, false, true, decide.Answer{}},
		{"too deep fails", "stop", 0, strings.Repeat("[", 100) + strings.Repeat("]", 100), "", 0, false, true, decide.Answer{}},
		{"subagent ask is deny", "subagentStart", 0, `{"permission":"ask"}`, "", 0, true, false, decide.Answer{Permission: decide.Deny}},
		{"prompt continue", "beforeSubmitPrompt", 0, `{"continue":false,"user_message":"m"}`, "", 0, true, false, decide.Answer{Permission: decide.Deny, UserMessage: "m"}},
		{"updated input", "preToolUse", 0, `{"updated_input":{"command":"ls <x>"}}`, "", 0, true, false, decide.Answer{UpdatedInput: json.RawMessage(`{"command":"ls <x>"}`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Interpret(ev(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), c.cut)
			if out.Answered != c.answered || out.Failed != c.failed || !reflect.DeepEqual(out.Answer, c.want) {
				t.Fatalf("got %+v", out)
			}
			if c.failed && len(out.Errors) == 0 {
				t.Fatal("a failure without a reason")
			}
		})
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		event string
		d     decide.Decision
		want  string
	}{
		{"beforeShellExecution", decide.Decision{}, `{"permission":"allow"}`},
		{"beforeShellExecution", decide.Decision{Permission: decide.Deny, UserMessage: "u", AgentMessage: "a"}, `{"permission":"deny","user_message":"u","agent_message":"a"}`},
		{"beforeReadFile", decide.Decision{Permission: decide.Ask}, `{"permission":"deny"}`},
		{"beforeSubmitPrompt", decide.Decision{}, `{"continue":true}`},
		{"beforeSubmitPrompt", decide.Decision{Permission: decide.Deny, UserMessage: "no"}, `{"continue":false,"user_message":"no"}`},
		{"stop", decide.Decision{Followup: "again"}, `{"followup_message":"again"}`},
		{"preToolUse", decide.Decision{Permission: decide.Deny, UpdatedInput: json.RawMessage(`{}`)}, `{"permission":"deny"}`},
		{"preToolUse", decide.Decision{UpdatedInput: json.RawMessage(`{"c":"<&>"}`)}, `{"permission":"allow","updated_input":{"c":"<&>"}}`},
		{"afterFileEdit", decide.Decision{Permission: decide.Deny}, `{}`},
	}
	for _, c := range cases {
		if got := string(Encode(ev(t, c.event), c.d)); got != c.want {
			t.Errorf("%s %+v: got %s want %s", c.event, c.d, got, c.want)
		}
	}
}

func TestMessagesMatchCursor(t *testing.T) {
	t.Parallel()
	c, m := Messages(ev(t, "beforeShellExecution"), decide.Decision{Permission: decide.Deny})
	if c != "Command execution was blocked by a hook" ||
		m != "The terminal command was rejected by a hook that prevents execution of this command. Do not attempt to work around this restriction using alternative methods or commands." {
		t.Fatalf("%q / %q", c, m)
	}
	if c, m := Messages(ev(t, "beforeShellExecution"), decide.Decision{Permission: decide.Allow, UserMessage: "x"}); c != "" || m != "" {
		t.Fatalf("allow has messages %q / %q", c, m)
	}
}

// FuzzInterpret feeds arbitrary hook output to every event: it must never panic, a valid answer
// must re-validate, and a failure must say why.
func FuzzInterpret(f *testing.F) {
	for _, s := range []string{`{"permission":"deny","user_message":"x"}`, `{"continue":false}`, `{"followup_message":"a"}`,
		`{"updated_input":{"a":[1,2,{"b":null}]}}`, `{"env":{"A":"b"}}`, `{"pluginPaths":["x"]}`, `[[[[`, `"\ud800"`, `1e999`} {
		f.Add(s, 0, uint8(0))
		f.Add(s, 2, uint8(12))
	}
	f.Fuzz(func(t *testing.T, stdout string, exit int, which uint8) {
		e := &Events()[int(which)%len(Events())]
		out := Interpret(e, exit, []byte(stdout), []byte("reason"), 0)
		if out.Failed && len(out.Errors) == 0 {
			t.Fatal("failed without an error")
		}
		if out.Failed && out.Answered {
			t.Fatal("failed and answered")
		}
		Encode(e, decide.Merge([]decide.Answer{out.Answer}, decide.MergeAll))
	})
}
