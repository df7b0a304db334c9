package copilot

import (
	"bytes"
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

func TestEvents(t *testing.T) {
	t.Parallel()
	for _, name := range Events {
		if s := lookup(t, name); s.Dialect != Name {
			t.Errorf("%s: %+v", name, s)
		}
	}
	if s := lookup(t, "preToolUse"); s.Kind != dialect.PreTool || !s.Gates || s.MatchField != "toolName" {
		t.Errorf("preToolUse = %+v", s)
	}
	if FromClaudeEvent("PreToolUse") != "preToolUse" || FromClaudeEvent("Stop") != "agentStop" || ClaudeEvent("errorOccurred") != "" {
		t.Error("PascalCase names do not map to Copilot's")
	}
}

// TestInterpretAsCopilotDoes follows what Copilot CLI 1.0.102 was seen to do inside the agent
// (e2e TestCopilotHonours).
func TestInterpretAsCopilotDoes(t *testing.T) {
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
		{"permissionDecision deny", "preToolUse", `{"permissionDecision":"deny","permissionDecisionReason":"no way"}`, "", 0, true, false, deny("no way")},
		{"deny without a reason", "preToolUse", `{"permissionDecision":"deny"}`, "", 0, true, false, deny("No reason provided")},
		{"exit 2 denies, the model told only the code", "preToolUse", "", "no way", 2, true, false, deny("hook exited with code 2: no way")},
		{"exit 2 with an empty stderr denies", "preToolUse", "", "", 2, true, false, deny("hook exited with code 2")},
		{"exit 1 denies: an errored hook", "preToolUse", "", "oops", 1, true, false, deny("hook exited with code 1: oops")},
		{"Claude Code's hookSpecificOutput is ignored", "preToolUse", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", 0, true, false, decide.Answer{}},
		{"decision block is ignored", "preToolUse", `{"decision":"block","reason":"no way"}`, "", 0, true, false, decide.Answer{}},
		{"continue false is ignored", "preToolUse", `{"continue":false}`, "", 0, true, false, decide.Answer{}},
		{"ask", "preToolUse", `{"permissionDecision":"ask","permissionDecisionReason":"sure?"}`, "", 0, true, false, decide.Answer{Permission: decide.Ask, UserMessage: "sure?"}},
		{"allow with modified args", "preToolUse", `{"permissionDecision":"allow","modifiedArgs":{"command":"ls"}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"not JSON", "preToolUse", "hello there", "", 0, false, false, decide.Answer{}},
		{"silence", "preToolUse", "", "", 0, false, false, decide.Answer{}},
		{"a bad decision fails", "preToolUse", `{"permissionDecision":"maybe"}`, "", 0, false, true, decide.Answer{}},
		{"broken JSON fails", "preToolUse", `{"permissionDecision":`, "", 0, false, true, decide.Answer{}},
		{"exit 1 elsewhere is a failure", "postToolUse", "", "oops", 1, false, true, decide.Answer{}},
		{"context after a tool", "postToolUse", `{"additionalContext":"lint found 2 problems"}`, "", 0, true, false, decide.Answer{AdditionalContext: "lint found 2 problems"}},
		{"agentStop block is a follow-up", "agentStop", `{"decision":"block","reason":"run the tests"}`, "", 0, true, false, decide.Answer{Followup: "run the tests"}},
		{"permissionRequest deny", "permissionRequest", `{"behavior":"deny","message":"no way"}`, "", 0, true, false, deny("no way")},
		{"prompt block", "userPromptSubmitted", `{"decision":"block","reason":"no way"}`, "", 0, true, false, deny("no way")},
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

// TestEncodeEveryBlockingEvent: a deny (or a follow-up) on every event that can block is JSON
// on stdout with exit status 0, and reads back as the same decision with its reason.
func TestEncodeEveryBlockingEvent(t *testing.T) {
	t.Parallel()
	for _, name := range Events {
		e := events()[name]
		s := &e.Spec
		switch e.style {
		case stylePermission, styleRequest, stylePrompt:
			r := Dialect.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"})
			back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
			if r.ExitCode != 0 || back.Answer.Permission != decide.Deny || back.Answer.AgentMessage != "no way" {
				t.Errorf("%s: deny encoded as %+v reads back as %+v", name, r, back)
			}
		case styleContinue:
			r := Dialect.Encode(s, decide.Decision{Followup: "again"})
			if back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0); back.Answer.Followup != "again" {
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
		{"preToolUse", decide.Decision{}, ``},
		{"preToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: "no way", UserMessage: "u"}, `{"permissionDecision":"deny","permissionDecisionReason":"no way"}`},
		{"preToolUse", decide.Decision{Permission: decide.Deny}, `{"permissionDecision":"deny","permissionDecisionReason":"blocked by agenthooks"}`},
		{"preToolUse", decide.Decision{Halt: true, StopReason: "budget"}, `{"permissionDecision":"deny","permissionDecisionReason":"budget"}`},
		{"preToolUse", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}, `{"permissionDecision":"ask","permissionDecisionReason":"sure?"}`},
		{"preToolUse", decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, `{"modifiedArgs":{"command":"ls"},"permissionDecision":"allow"}`},
		{"agentStop", decide.Decision{Followup: "run the tests"}, `{"decision":"block","reason":"run the tests"}`},
		{"sessionStart", decide.Decision{AdditionalContext: "ctx"}, `{"additionalContext":"ctx"}`},
		{"notification", decide.Decision{Permission: decide.Deny}, ``},
		{"permissionRequest", decide.Decision{Permission: decide.Allow}, `{"behavior":"allow"}`},
	}
	for _, c := range cases {
		r := Dialect.Encode(lookup(t, c.event), c.d)
		if got := strings.TrimSpace(string(r.Stdout)); got != c.want || r.ExitCode != 0 {
			t.Errorf("%s %+v:\n got  %s (exit %d)\n want %s", c.event, c.d, got, r.ExitCode, c.want)
		}
	}
}

func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", "{}", `{"permissionDecision":"deny","permissionDecisionReason":"r"}`, `{"decision":"block"}`,
		`{"modifiedArgs":[1]}`, `{"behavior":"allow"}`, "text", "{"} {
		f.Add(s, 0, uint8(3))
		f.Add(s, 2, uint8(6))
		f.Add(s, 1, uint8(11))
	}
	f.Fuzz(func(t *testing.T, out string, exit int, which uint8) {
		s := lookup(t, Events[int(which)%len(Events)])
		a := Dialect.Interpret(s, exit, []byte(out), []byte(out), 0)
		if a.Failed && len(a.Errors) == 0 || a.Failed && a.Answered {
			t.Fatalf("inconsistent outcome %+v", a)
		}
		if !reflect.DeepEqual(a, Dialect.Interpret(s, exit, []byte(out), []byte(out), 0)) {
			t.Fatal("two readings differ")
		}
		r := Dialect.Encode(s, decide.Merge([]decide.Answer{a.Answer}, decide.MergeAll))
		if r.ExitCode != 0 || len(r.Stdout) > 0 && !json.Valid(r.Stdout) {
			t.Fatalf("encoded %+v", r)
		}
		if a.Answer.Permission == decide.Deny && s.Gates {
			back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
			if back.Answer.Permission != decide.Deny {
				t.Fatalf("a deny encoded as %s reads back as %+v", r.Stdout, back.Answer)
			}
		}
	})
}

// TestInstallFile: the hooks file install writes is one Copilot reads back whole: each event once,
// every entry with its bash and PowerShell command, matcher and timeout.
func TestInstallFile(t *testing.T) {
	data := Agent.Install.Own("'/opt/my tools/agenthooks'", "/opt/my tools/agenthooks", []dialect.InstallEntry{
		{Event: "preToolUse", Matcher: "bash", Args: "guard bash --fail-closed"},
		{Event: "agentStop", Args: "run --agent copilot agentStop"},
		{Event: "preToolUse", Matcher: "create|edit", Args: "guard bash --fail-closed"},
	})
	f := DecodeHooksFile("agenthooks.json", data)
	if len(f.Problems) > 0 || len(f.Hooks) != 3 {
		t.Fatalf("%s\nreads back as %+v, %v", data, f.Hooks, f.Problems)
	}
	if bytes.Count(data, []byte(`"preToolUse"`)) != 1 {
		t.Errorf("preToolUse named twice:\n%s", data)
	}
	h := f.Hooks[1]
	if h.Event != "preToolUse" || h.Matcher != "create|edit" || h.Bash != "'/opt/my tools/agenthooks' guard bash --fail-closed" ||
		h.PowerShell != "& '/opt/my tools/agenthooks' guard bash --fail-closed" || h.Timeout != DefaultTimeout {
		t.Errorf("entry %+v", h)
	}
}

// FuzzGuardView: any payload is rewritten for the guards without a panic, into a JSON object,
// or refused with an error.
func FuzzGuardView(f *testing.F) {
	f.Add([]byte(`{"sessionId":"s","toolName":"create","toolArgs":{"path":"a","file_text":"b"}}`))
	f.Add([]byte(`{"toolName":"bash","toolArgs":"ls","toolResult":{"textResultForLlm":1}}`))
	f.Add([]byte(`[1]`))
	f.Add([]byte(`{"toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Add File: a\n+b\n*** End Patch\n"}`))
	f.Add([]byte(`{"toolName":"e2edb-drop_table","toolArgs":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := GuardView(data)
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(out, &m) != nil {
			t.Fatalf("%q became %q, not a JSON object", data, out)
		}
		if _, ok := m["toolName"]; ok {
			t.Fatalf("%q kept toolName: %q", data, out)
		}
	})
}

// TestGuardViewMCP: Copilot CLI's SERVER-TOOL names reach the guards as the joined MCP name
// split at "-"; its own tools keep Claude Code's names.
func TestGuardViewMCP(t *testing.T) {
	for _, tc := range []struct{ tool, name, split string }{
		{"e2edb-drop_table", "mcp__e2edb-drop_table", "-"},
		{"github-mcp-server-get_issue", "mcp__github-mcp-server-get_issue", "-"},
		{"create", "Write", ""},
		{"read_bash", "read_bash", ""},
	} {
		out, err := GuardView([]byte(`{"sessionId":"s","toolName":"` + tc.tool + `","toolArgs":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		split, _ := m["mcp_split"].(string)
		if m["tool_name"] != tc.name || split != tc.split {
			t.Errorf("%s: tool_name %v, mcp_split %q; want %s, %q", tc.tool, m["tool_name"], split, tc.name, tc.split)
		}
	}
}

// TestGuardViewApplyPatch: the freeform apply_patch tool's toolArgs, the patch itself, reaches
// the guards as tool_input.input, where the edit guard reads a patch's files.
func TestGuardViewApplyPatch(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: .github/hooks/x.json\n+{}\n*** End Patch\n"
	b, _ := json.Marshal(map[string]any{"sessionId": "s", "toolName": "apply_patch", "toolArgs": patch})
	out, err := GuardView(b)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.Unmarshal(out, &m); err != nil || m.ToolName != "apply_patch" || m.ToolInput["input"] != patch {
		t.Errorf("%s became %s (%v)", b, out, err)
	}
}
