package auggie

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
	s, ok := Dialect(dialect.AskAsDeny).Lookup(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	return s
}

func TestAuggieEvents(t *testing.T) {
	t.Parallel()
	if len(Dialect(dialect.AskAsDeny).Names()) != 7 {
		t.Errorf("events %v, want Auggie 0.36.0's seven", Dialect(dialect.AskAsDeny).Names())
	}
	if s := lookup(t, "PreToolUse"); s.Kind != dialect.PreTool || !s.Gates || s.MatchField != "tool_name" {
		t.Errorf("PreToolUse = %+v", s)
	}
	if s := lookup(t, "PromptSubmit"); s.Kind != "" || s.Gates {
		t.Errorf("PromptSubmit is fired and forgotten: %+v", s)
	}
	if s := lookup(t, "Stop"); s.Kind != dialect.Stop || s.Gates {
		t.Errorf("Stop = %+v", s)
	}
	if ClaudeEvent("PromptSubmit") != "UserPromptSubmit" || ClaudeEvent("UserPromptSubmit") != "" {
		t.Error("Claude Code names are wrong")
	}
	if Agent.ToolKind("PreToolUse", "launch-process") != dialect.BeforeShell || Agent.ToolKind("PreToolUse", "view") != dialect.BeforeRead {
		t.Error("tool kinds are wrong")
	}
}

// TestInterpretAsAuggieDoes follows Auggie 0.36.0's hook executor and its output schema.
func TestInterpretAsAuggieDoes(t *testing.T) {
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
		{"exit 2 blocks", "PreToolUse", "", "no way", 2, true, false, deny("no way")},
		{"exit 2 without stderr", "PreToolUse", "", "", 2, true, false, deny("Hook blocked execution (no error message provided)")},
		{"exit 2 on PostToolUse does not block", "PostToolUse", "", "no", 2, false, false, decide.Answer{}},
		{"exit 2 on Stop keeps working", "Stop", "", "go on", 2, true, false, decide.Answer{Followup: "go on"}},
		{"permissionDecision deny", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no way"}}`, "", 0, true, false, deny("no way")},
		{"allow with updatedInput", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"no hookEventName fails the schema", "PreToolUse", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", 0, false, false, decide.Answer{}},
		{"continue false blocks", "PreToolUse", `{"continue":false}`, "", 0, true, false, deny("Tool execution blocked by hook")},
		{"a wrong type fails the schema", "PreToolUse", `{"continue":"no"}`, "", 0, false, false, decide.Answer{}},
		{"Stop block", "Stop", `{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"tests"}}`, "", 0, true, false, decide.Answer{Followup: "tests"}},
		{"exit 1 runs", "PreToolUse", "", "oops", 1, false, true, decide.Answer{}},
		{"plain text", "PreToolUse", "hello", "", 0, false, false, decide.Answer{}},
	}
	d := Dialect(dialect.AskAsDeny)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := d.Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed {
				t.Fatalf("answered %v failed %v (%v %v), want %v %v", out.Answered, out.Failed, out.Errors, out.Notes, c.answered, c.failed)
			}
			if !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("answer %+v, want %+v", out.Answer, c.want)
			}
		})
	}
}

func TestEncodeReadsBack(t *testing.T) {
	t.Parallel()
	d := Dialect(dialect.AskAsDeny)
	cases := []struct {
		name, event string
		in          decide.Decision
		want        decide.Answer
	}{
		{"deny", "PreToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: "no way"}, decide.Answer{Permission: decide.Deny, UserMessage: "no way", AgentMessage: "no way"}},
		{"rewrite", "PreToolUse", decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)},
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"ask becomes deny", "PreToolUse", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"},
			decide.Answer{Permission: decide.Deny, UserMessage: "Auggie cannot ask a person, so agenthooks denies (--ask-as deny): sure?",
				AgentMessage: "Auggie cannot ask a person, so agenthooks denies (--ask-as deny): sure?"}},
		{"stop follow-up", "Stop", decide.Decision{Followup: "run the tests"}, decide.Answer{Followup: "run the tests"}},
		{"session context", "SessionStart", decide.Decision{AdditionalContext: "note"}, decide.Answer{AdditionalContext: "note"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := lookup(t, c.event)
			r := d.Encode(s, c.in)
			out := d.Interpret(s, r.ExitCode, r.Stdout, nil, 0)
			if out.Failed || !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("%s read back as %+v (%v), want %+v", r.Stdout, out.Answer, out.Notes, c.want)
			}
		})
	}
}

func TestPayloadsBothWays(t *testing.T) {
	t.Parallel()
	in := `{"hook_event_name":"PreToolUse","conversation_id":"c1","workspace_roots":["/w"],"tool_name":"save-file",` +
		`"tool_input":{"path":"/w/a.txt","file_content":"x"},"is_mcp_tool":false}`
	name, b, _, err := ToClaude("PreToolUse", []byte(in))
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	ti, _ := c["tool_input"].(map[string]any)
	if err != nil || name != "PreToolUse" || c["tool_name"] != "Write" || c["session_id"] != "c1" || c["cwd"] != "/w" || ti["file_path"] != "/w/a.txt" || ti["content"] != "x" {
		t.Fatalf("ToClaude = %s %s %v", name, b, err)
	}
	back, _, err := FromClaude("PreToolUse", b)
	var x, y map[string]any
	_ = json.Unmarshal([]byte(in), &x)
	_ = json.Unmarshal(back, &y)
	if err != nil || !reflect.DeepEqual(x, y) {
		t.Errorf("round trip %s (%v)", back, err)
	}
	name, b, _, _ = ToClaude("PromptSubmit", []byte(`{"hook_event_name":"PromptSubmit","conversation_id":"c","workspace_roots":["/w"],"user_prompt":"hi"}`))
	if name != "UserPromptSubmit" || !strings.Contains(string(b), `"prompt":"hi"`) {
		t.Errorf("PromptSubmit as Claude Code's: %s %s", name, b)
	}
	g, err := GuardView([]byte(`{"hook_event_name":"PreToolUse","workspace_roots":["/w"],"tool_name":"launch-process","tool_input":{"command":"ls"}}`))
	if err != nil || !strings.Contains(string(g), `"tool_name":"Bash"`) {
		t.Errorf("guard view %s (%v)", g, err)
	}
	if !Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", WorkspaceRoots: true}) || Agent.Detect(dialect.Probe{HookEvent: "PreToolUse"}) ||
		Agent.Detect(dialect.Probe{HookEvent: "beforeShellExecution", WorkspaceRoots: true}) {
		t.Error("Auggie's payload: PascalCase events with workspace_roots")
	}
}

func FuzzInterpret(f *testing.F) {
	for _, seed := range []string{`{"continue":false}`, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
		`{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block"}}`, `{"hookSpecificOutput":1}`, `{`, ""} {
		f.Add("PreToolUse", 0, []byte(seed), []byte(""))
		f.Add("Stop", 0, []byte(seed), []byte(""))
	}
	f.Add("PreToolUse", 2, []byte(""), []byte("no"))
	d := Dialect(dialect.AskAsDeny)
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr []byte) {
		s, ok := d.Lookup(event)
		if !ok {
			s = &dialect.Spec{Name: event}
		}
		out := d.Interpret(s, exit, stdout, stderr, 0)
		if out.Failed && out.Answered {
			t.Fatal("a failed run cannot answer")
		}
		if out.Answer.Permission == decide.Deny && (event != "PreToolUse" || strings.TrimSpace(out.Answer.AgentMessage) == "") {
			t.Fatalf("a deny on %s without a reason, or on an event that cannot block: %+v", event, out)
		}
	})
}
