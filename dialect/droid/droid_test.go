package droid

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

func TestDroidEvents(t *testing.T) {
	t.Parallel()
	if len(Dialect(dialect.AskAsDeny).Names()) != 9 {
		t.Errorf("events %v, want Droid 0.215.0's nine", Dialect(dialect.AskAsDeny).Names())
	}
	if s := lookup(t, "PreToolUse"); s.Kind != dialect.PreTool || !s.Gates || s.MatchField != "tool_name" || s.Dialect != Name {
		t.Errorf("PreToolUse = %+v", s)
	}
	if _, ok := Dialect(dialect.AskAsDeny).Lookup("PostToolUseFailure"); ok {
		t.Error("Droid has no PostToolUseFailure")
	}
	for tool, want := range map[string]dialect.Kind{"Execute": dialect.BeforeShell, "Read": dialect.BeforeRead, "Create": dialect.PreTool} {
		if got := Agent.ToolKind("PreToolUse", tool); got != want {
			t.Errorf("ToolKind(PreToolUse, %s) = %s, want %s", tool, got, want)
		}
	}
}

// TestInterpretAsDroidDoes follows Droid 0.215.0's PreToolUse handling in its tool runner.
func TestInterpretAsDroidDoes(t *testing.T) {
	t.Parallel()
	deny := func(r string) decide.Answer {
		return decide.Answer{Permission: decide.Deny, UserMessage: r, AgentMessage: r}
	}
	halt := func(r string) decide.Answer {
		return decide.Answer{Permission: decide.Deny, UserMessage: r, AgentMessage: r, Halt: true, StopReason: r}
	}
	cases := []struct {
		name, stdout, stderr string
		exit                 int
		answered, failed     bool
		want                 decide.Answer
	}{
		{"exit 2 blocks with stderr", "", "no way\n", 2, true, false, deny("no way")},
		{"exit 2 without stderr", "", "", 2, true, false, deny("Tool execution blocked by hook")},
		{"exit 3 aborts the run", "", "stop", 3, true, false, halt("stop")},
		{"continue false stops first", `{"continue":false,"stopReason":"enough","hookSpecificOutput":{"permissionDecision":"allow"}}`, "", 0, true, false, halt("enough")},
		{"permissionDecision deny", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no way"}}`, "", 0, true, false, deny("no way")},
		{"deny without a reason", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", 0, true, false, deny("Tool execution denied by hook")},
		{"permissionDecision wins over exit 2", `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, "x", 2, true, false, decide.Answer{Permission: decide.Allow}},
		{"allow with updatedInput", `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"}}}`, "", 0, true, false,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"ask is no decision", `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "", 0, false, false, decide.Answer{}},
		{"decision block is not read on PreToolUse", `{"decision":"block","reason":"no"}`, "", 0, false, false, decide.Answer{}},
		{"exit 1 runs the tool", "", "oops", 1, false, true, decide.Answer{}},
		{"not JSON", "hello", "", 0, false, false, decide.Answer{}},
		{"silence", "", "", 0, false, false, decide.Answer{}},
	}
	d := Dialect(dialect.AskAsDeny)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := d.Interpret(lookup(t, "PreToolUse"), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			if out.Answered != c.answered || out.Failed != c.failed {
				t.Fatalf("answered %v failed %v (%v), want %v %v", out.Answered, out.Failed, out.Errors, c.answered, c.failed)
			}
			if !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("answer %+v, want %+v", out.Answer, c.want)
			}
		})
	}
	if out := d.Interpret(lookup(t, "UserPromptSubmit"), 2, nil, []byte("no"), 0); out.Answer.Permission != decide.Deny {
		t.Errorf("UserPromptSubmit's exit 2 is read as Claude Code's: %+v", out)
	}
	if out := d.Interpret(&dialect.Spec{Name: "PostToolUseFailure"}, 0, nil, nil, 0); !out.Failed {
		t.Error("an event Droid does not have must fail")
	}
}

func TestEncodeReadsBack(t *testing.T) {
	t.Parallel()
	s := lookup(t, "PreToolUse")
	cases := []struct {
		name string
		in   decide.Decision
		want decide.Answer
	}{
		{"deny", decide.Decision{Permission: decide.Deny, AgentMessage: "no way"}, decide.Answer{Permission: decide.Deny, UserMessage: "no way", AgentMessage: "no way"}},
		{"allow with a rewrite", decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)},
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"halt", decide.Decision{Halt: true, StopReason: "enough"},
			decide.Answer{Permission: decide.Deny, UserMessage: "enough", AgentMessage: "enough", Halt: true, StopReason: "enough"}},
		{"ask becomes deny", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"},
			decide.Answer{Permission: decide.Deny, UserMessage: "Factory Droid cannot ask a person, so agenthooks denies (--ask-as deny): sure?",
				AgentMessage: "Factory Droid cannot ask a person, so agenthooks denies (--ask-as deny): sure?"}},
		{"nothing", decide.Decision{}, decide.Answer{}},
	}
	d := Dialect(dialect.AskAsDeny)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := d.Encode(s, c.in)
			if r.ExitCode != 0 {
				t.Fatalf("exit %d", r.ExitCode)
			}
			out := d.Interpret(s, r.ExitCode, r.Stdout, nil, 0)
			if out.Failed || !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("%s read back as %+v, want %+v", r.Stdout, out.Answer, c.want)
			}
		})
	}
}

func TestGuardRewriteDetect(t *testing.T) {
	t.Parallel()
	d, s := Dialect(dialect.AskAsDeny), lookup(t, "PreToolUse")
	r := Agent.Answer.Guard(dialect.BeforeShell, decide.Deny, "nope")
	if out := d.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.AgentMessage != "Blocked by agenthooks: nope" {
		t.Errorf("guard deny %s reads as %+v", r.Stdout, out)
	}
	if r := Agent.Answer.Guard(dialect.BeforeShell, decide.Allow, ""); len(r.Stdout) != 0 {
		t.Errorf("guard allow = %s, want silence", r.Stdout)
	}
	r = Agent.Answer.Rewrite(map[string]any{"command": "ls"}, "confined")
	if out := d.Interpret(s, r.ExitCode, r.Stdout, nil, 0); out.Answer.Permission != decide.Allow || string(out.Answer.UpdatedInput) != `{"command":"ls"}` {
		t.Errorf("rewrite reads as %+v", out)
	}
	if !Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Execute"}) || Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash"}) {
		t.Error("Droid's payload is told by its tool names")
	}
}

func TestPayloadsBothWays(t *testing.T) {
	t.Parallel()
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/w","permission_mode":"auto-low","hook_event_name":"PreToolUse",` +
		`"tool_name":"Edit","tool_input":{"file_path":"/w/a","old_str":"x","new_str":"y"}}`
	name, b, _, err := ToClaude("PreToolUse", []byte(in))
	if err != nil || name != "PreToolUse" || !strings.Contains(string(b), `"tool_name":"Edit"`) || !strings.Contains(string(b), `"old_string":"x"`) {
		t.Fatalf("ToClaude = %s %s %v", name, b, err)
	}
	back, _, err := FromClaude("PreToolUse", b)
	var x, y map[string]any
	_ = json.Unmarshal([]byte(in), &x)
	_ = json.Unmarshal(back, &y)
	if err != nil || !reflect.DeepEqual(x, y) {
		t.Errorf("round trip %s (%v)", back, err)
	}
	g, err := GuardView([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls"}}`))
	if err != nil || !strings.Contains(string(g), `"tool_name":"Bash"`) {
		t.Errorf("guard view %s (%v)", g, err)
	}
}

func FuzzInterpret(f *testing.F) {
	for _, seed := range []string{`{"continue":false}`, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
		`{"hookSpecificOutput":{"updatedInput":1}}`, `{"hookSpecificOutput":[]}`, `{`, ""} {
		f.Add(0, []byte(seed), []byte(""))
	}
	f.Add(2, []byte(""), []byte("no"))
	f.Add(3, []byte(""), []byte(""))
	d := Dialect(dialect.AskAsDeny)
	s, _ := d.Lookup("PreToolUse")
	f.Fuzz(func(t *testing.T, exit int, stdout, stderr []byte) {
		out := d.Interpret(s, exit, stdout, stderr, 0)
		if out.Failed && out.Answered {
			t.Fatal("a failed run cannot answer")
		}
		if out.Answer.Permission == decide.Deny && strings.TrimSpace(out.Answer.AgentMessage) == "" {
			t.Fatal("a deny without a reason")
		}
	})
}

// TestMCPToolNames: Droid 0.215 names an MCP tool SERVER___TOOL (e2e TestDroidMCPGuard); the
// guards and Claude Code's hooks see it as mcp__SERVER__TOOL, and back.
func TestMCPToolNames(t *testing.T) {
	t.Parallel()
	for droid, claude := range map[string]string{"e2edb___drop_table": "mcp__e2edb__drop_table", "my-db___list": "mcp__my-db__list",
		"Execute": "Bash", "ApplyPatch": "ApplyPatch", "___x": "___x", "x___": "x___", "plain_tool": "plain_tool"} {
		if got := ClaudeTool(droid); got != claude {
			t.Errorf("ClaudeTool(%q) = %q, want %q", droid, got, claude)
		}
		if got := DroidTool(claude); got != droid {
			t.Errorf("DroidTool(%q) = %q, want %q", claude, got, droid)
		}
	}
	g, err := GuardView([]byte(`{"hook_event_name":"PreToolUse","permission_mode":"auto-low","tool_name":"e2edb___drop_table","tool_input":{}}`))
	if err != nil || !strings.Contains(string(g), `"tool_name":"mcp__e2edb__drop_table"`) {
		t.Errorf("guard view %s (%v)", g, err)
	}
	if k := toolKind("PreToolUse", "e2edb___drop_table"); k != dialect.BeforeMCP {
		t.Errorf("toolKind = %q, want %q", k, dialect.BeforeMCP)
	}
}

// TestDetectByPermissionMode: a Droid payload for a tool Claude Code names alike (Edit, an MCP
// tool) is told by Droid's permission modes, its autonomy levels; Claude Code's modes are not
// Droid's.
func TestDetectByPermissionMode(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"off", "spec", "auto-low", "auto-medium", "auto-high"} {
		if !Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Edit", PermissionMode: mode}) {
			t.Errorf("an Edit with permission_mode %q is not Droid's", mode)
		}
	}
	for _, mode := range []string{"", "default", "plan", "acceptEdits", "bypassPermissions", "dontAsk", "yolo"} {
		if Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Edit", PermissionMode: mode}) {
			t.Errorf("an Edit with permission_mode %q is taken for Droid's", mode)
		}
	}
	if Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Edit", PermissionMode: "auto-low", TurnID: "t"}) {
		t.Error("a payload with a turn_id (Codex's) is taken for Droid's")
	}
}
