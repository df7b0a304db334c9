package vscode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/copilot"
)

// TestEvents: the table is VS Code's eight events (hookTypes.ts, HOOKS_BY_TARGET for VS Code),
// each with its Claude Code namesake's kind, and only PreToolUse and UserPromptSubmit gate.
func TestEvents(t *testing.T) {
	t.Parallel()
	want := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "SubagentStart", "SubagentStop", "Stop"}
	if !slices.Equal(Dialect.Names(), want) {
		t.Fatalf("Names = %v", Dialect.Names())
	}
	kinds := map[string]dialect.Kind{"SessionStart": dialect.SessionStart, "UserPromptSubmit": dialect.PromptSubmit,
		"PreToolUse": dialect.PreTool, "PostToolUse": dialect.PostTool, "PreCompact": dialect.PreCompact,
		"SubagentStart": dialect.SubagentStart, "SubagentStop": dialect.SubagentStop, "Stop": dialect.Stop}
	for _, n := range want {
		s, ok := Dialect.Lookup(n)
		if !ok || s.Name != n || s.Dialect != Name || s.Kind != kinds[n] || ClaudeEvent(n) != n {
			t.Errorf("%s: %+v %v", n, s, ok)
		}
		if gates := n == "PreToolUse" || n == "UserPromptSubmit"; s.Gates != gates {
			t.Errorf("%s: Gates %v", n, s.Gates)
		}
	}
	if _, ok := Dialect.Lookup("preToolUse"); ok {
		t.Error("a camelCase name is Copilot CLI's, not an event of VS Code's")
	}
	for camel, pascal := range map[string]string{"preToolUse": "PreToolUse", "agentStop": "Stop", "userPromptSubmitted": "UserPromptSubmit", "sessionEnd": ""} {
		if got, known := FromCopilotEvent(camel); !known || got != pascal {
			t.Errorf("FromCopilotEvent(%s) = %q, %v", camel, got, known)
		}
	}
	if _, known := FromCopilotEvent("postToolUseFailure"); known {
		t.Error("postToolUseFailure is not in VS Code's map of Copilot's events")
	}
	if got := Agent.ToolKind("PreToolUse", "run_in_terminal"); got != dialect.BeforeShell {
		t.Errorf("ToolKind(PreToolUse, run_in_terminal) = %s", got)
	}
	if got := Agent.ToolKind("PreToolUse", "read_file"); got != dialect.BeforeRead {
		t.Errorf("ToolKind(PreToolUse, read_file) = %s", got)
	}
}

func lookup(t *testing.T, name string) *dialect.Spec {
	t.Helper()
	s, ok := Dialect.Lookup(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	return s
}

// TestInterpret: a run reads as VS Code's hooks reference says: exit 2 blocks with stderr as the
// reason (keeps a stopping agent working), another non-zero exit is a warning and the call runs,
// exit 0's stdout is JSON (permissionDecision, updatedInput, continue, decision "block"), and
// output VS Code cannot read is a failure, never a decision.
func TestInterpret(t *testing.T) {
	t.Parallel()
	cases := []struct {
		event        string
		exit         int
		stdout       string
		stderr       string
		failed, ans  bool
		perm         decide.Permission
		agent, follo string
		check        func(a decide.Answer) bool
	}{
		{event: "PreToolUse", exit: 2, stderr: "no rm -rf\n", ans: true, perm: decide.Deny, agent: "no rm -rf"},
		{event: "PreToolUse", exit: 2, ans: true, perm: decide.Deny, agent: "blocked by a hook (exit status 2)"},
		{event: "UserPromptSubmit", exit: 2, stderr: "no secrets", ans: true, perm: decide.Deny, agent: "no secrets"},
		{event: "PostToolUse", exit: 2, stderr: "lint failed", ans: true, perm: decide.Deny, agent: "lint failed"},
		{event: "Stop", exit: 2, stderr: "run the tests", ans: true, follo: "run the tests"},
		{event: "SubagentStop", exit: 2, stderr: "verify", ans: true, follo: "verify"},
		{event: "SessionStart", exit: 2, stderr: "x"},
		{event: "PreToolUse", exit: 1, stderr: "boom", failed: true},
		{event: "PreToolUse", exit: 0},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}`,
			ans: true, perm: decide.Deny, agent: "policy"},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, ans: true, perm: decide.Ask,
			check: func(a decide.Answer) bool { return a.UserMessage == "sure?" && a.AgentMessage == "" }},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"ctx"}}`,
			ans: true, perm: decide.Allow, check: func(a decide.Answer) bool {
				return string(a.UpdatedInput) == `{"command":"ls"}` && a.AdditionalContext == "ctx"
			}},
		{event: "PreToolUse", stdout: `{"continue":false,"stopReason":"halt"}`, ans: true, check: func(a decide.Answer) bool { return a.Halt && a.StopReason == "halt" }},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`, failed: true},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":"ls"}}`, failed: true},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":"deny"}`, failed: true},
		{event: "PreToolUse", stdout: `{"continue":"no"}`, failed: true},
		{event: "PreToolUse", stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"`, failed: true},
		{event: "PreToolUse", stdout: `deny`, failed: true},
		{event: "PreToolUse", stdout: `["deny"]`, failed: true},
		{event: "PostToolUse", stdout: `{"decision":"block","reason":"fix lint"}`, ans: true, perm: decide.Deny, agent: "fix lint"},
		{event: "PostToolUse", stdout: `{"decision":"deny"}`, failed: true},
		{event: "UserPromptSubmit", stdout: `{"systemMessage":"logged"}`, ans: true, check: func(a decide.Answer) bool { return a.SystemMessage == "logged" }},
		{event: "Stop", stdout: `{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"tests first"}}`, ans: true, follo: "tests first"},
		{event: "SubagentStop", stdout: `{"decision":"block","reason":"check it"}`, ans: true, follo: "check it"},
		{event: "SessionStart", stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}`, ans: true,
			check: func(a decide.Answer) bool { return a.AdditionalContext == "branch main" }},
	}
	for i, c := range cases {
		o := Dialect.Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
		if o.Failed != c.failed || o.Answered != c.ans {
			t.Errorf("%d %s: failed %v answered %v (%v)", i, c.event, o.Failed, o.Answered, o.Errors)
			continue
		}
		if o.Answer.Permission != c.perm || c.agent != "" && o.Answer.AgentMessage != c.agent || o.Answer.Followup != c.follo {
			t.Errorf("%d %s: %+v", i, c.event, o.Answer)
		}
		if c.check != nil && !c.check(o.Answer) {
			t.Errorf("%d %s: %+v", i, c.event, o.Answer)
		}
	}
	if o := Dialect.Interpret(lookup(t, "PreToolUse"), 0, []byte(`{"hookSpecificOutput":{"permissionDecision":"deny"}}`), nil, 10); !o.Failed || o.Answered {
		t.Errorf("a cut answer must fail: %+v", o)
	}
}

// TestEncodeReadBack: for every event that can block or keep the agent working, the encoded
// decision reads back through Interpret as the decision given, in the form VS Code honours.
func TestEncodeReadBack(t *testing.T) {
	t.Parallel()
	cases := []struct {
		event string
		d     decide.Decision
		exit  int
		want  string // in stdout (or stderr for exit 2)
	}{
		{"PreToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: "no", UserMessage: "no"}, 0, `"permissionDecision":"deny"`},
		{"PreToolUse", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}, 0, `"permissionDecision":"ask"`},
		{"PreToolUse", decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, 0, `"updatedInput":{"command":"ls"}`},
		{"UserPromptSubmit", decide.Decision{Permission: decide.Deny, AgentMessage: "no secrets", UserMessage: "no secrets"}, 2, "no secrets"},
		{"PostToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: "lint", UserMessage: "lint"}, 0, `"decision":"block"`},
		{"Stop", decide.Decision{Followup: "run tests"}, 0, `"decision":"block"`},
		{"SubagentStop", decide.Decision{Followup: "verify"}, 0, `"reason":"verify"`},
		{"PreToolUse", decide.Decision{Halt: true, StopReason: "halt"}, 0, `"continue":false`},
	}
	for _, c := range cases {
		s := lookup(t, c.event)
		r := Dialect.Encode(s, c.d)
		out := string(r.Stdout)
		if c.exit == 2 {
			out = string(r.Stderr)
		}
		if r.ExitCode != c.exit || !strings.Contains(out, c.want) {
			t.Errorf("%s %+v: exit %d %q %q", c.event, c.d, r.ExitCode, r.Stdout, r.Stderr)
			continue
		}
		o := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
		a := o.Answer
		if !o.Answered || a.Permission != c.d.Permission && !(c.d.Permission == "" && a.Permission == "") || a.Followup != c.d.Followup || a.Halt != c.d.Halt ||
			string(a.UpdatedInput) != string(c.d.UpdatedInput) {
			t.Errorf("%s: %+v read back as %+v", c.event, c.d, o)
		}
		if c.d.Permission == decide.Deny && a.AgentMessage != c.d.AgentMessage {
			t.Errorf("%s: the reason %q reads back as %q", c.event, c.d.AgentMessage, a.AgentMessage)
		}
	}
	// Only PreToolUse asks a person: an ask on a prompt is denied, never let through unasked.
	if r := Dialect.Encode(lookup(t, "UserPromptSubmit"), decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}); r.ExitCode != 2 ||
		!strings.Contains(string(r.Stderr), "VS Code cannot ask a person on UserPromptSubmit, so agenthooks denies: sure?") {
		t.Errorf("ask on a prompt: %+v", r)
	}
	if r := Dialect.Encode(lookup(t, "PostToolUse"), decide.Decision{Permission: decide.Defer}); !strings.Contains(string(r.Stdout), `"decision":"block"`) {
		t.Errorf("defer after a tool: %+v", r)
	}
	if r := Dialect.Encode(lookup(t, "PreToolUse"), decide.Decision{}); r.ExitCode != 0 || len(r.Stdout) != 0 {
		t.Errorf("no decision must be silence: %+v", r)
	}
}

// TestGuardReply: a guard's deny on a shell call is a permissionDecision deny whose reason says
// agenthooks blocked it; on a prompt, exit 2; an allow is silence.
func TestGuardReply(t *testing.T) {
	t.Parallel()
	r := Agent.Answer.Guard(dialect.BeforeShell, decide.Deny, "rm -rf /")
	if r.ExitCode != 0 || !strings.Contains(string(r.Stdout), `"permissionDecisionReason":"Blocked by agenthooks: rm -rf /"`) {
		t.Errorf("shell deny: %+v", r)
	}
	if r := Agent.Answer.Guard(dialect.PromptSubmit, decide.Deny, "secret"); r.ExitCode != 2 || !strings.Contains(string(r.Stderr), "Blocked by agenthooks: secret") {
		t.Errorf("prompt deny: %+v", r)
	}
	if r := Agent.Answer.Guard(dialect.BeforeShell, decide.Allow, "ok"); r.ExitCode != 0 || len(r.Stdout)+len(r.Stderr) != 0 {
		t.Errorf("allow: %+v", r)
	}
}

// goldenPayloads reads the payloads built from VS Code's documentation and source (not captured:
// see dialect/testdata/payloads/vscode/README.md), named EVENT or EVENT-TOOL.
func goldenPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "vscode", "*.json"))
	if len(files) == 0 {
		t.Fatal("no VS Code payloads in dialect/testdata/payloads/vscode")
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = b
	}
	return out
}

func object(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// TestGoldenPayloads: every payload rewrites into Claude Code's shape (hook_event_name,
// session_id, Claude Code's tool names and input keys) and back into VS Code's, field for field.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	golden := goldenPayloads(t)
	for _, ev := range Events {
		if _, ok := golden[ev]; !ok && ev != "PreToolUse" && ev != "PostToolUse" {
			t.Errorf("no golden payload for %s", ev)
		}
	}
	for file, b := range golden {
		event, tool, _ := strings.Cut(file, "-")
		orig := object(t, b)
		if orig["hookEventName"] != event {
			t.Errorf("%s: hookEventName %v", file, orig["hookEventName"])
		}
		name, cb, _, err := ToClaude(event, b)
		if err != nil || name != event {
			t.Fatalf("%s: ToClaude = %q, %v", file, name, err)
		}
		m := object(t, cb)
		if m["hook_event_name"] != event || m["session_id"] != orig["sessionId"] || m["hookEventName"] != nil || m["sessionId"] != nil {
			t.Errorf("%s: common fields in %s", file, cb)
		}
		in, _ := m["tool_input"].(map[string]any)
		switch tool {
		case "run_in_terminal":
			if m["tool_name"] != "Bash" || in["command"] == nil {
				t.Errorf("%s: %s", file, cb)
			}
			if event == "PostToolUse" {
				if resp, _ := m["tool_response"].(map[string]any); resp["stdout"] != orig["tool_response"] {
					t.Errorf("%s: tool_response %v", file, m["tool_response"])
				}
			}
		case "read_file":
			if m["tool_name"] != "Read" || in["file_path"] != "/work/ws/.env" || in["filePath"] != nil {
				t.Errorf("%s: %s", file, cb)
			}
		case "replace_string_in_file":
			if m["tool_name"] != "Edit" || in["file_path"] == nil || in["old_string"] != "let x = 1;" || in["new_string"] != "const x = 1;" {
				t.Errorf("%s: %s", file, cb)
			}
		case "create_file":
			if m["tool_name"] != "Write" || in["file_path"] != "/work/ws/notes.md" || in["content"] == nil {
				t.Errorf("%s: %s", file, cb)
			}
		}
		back, _, err := FromClaude(event, cb)
		if err != nil {
			t.Fatalf("%s: FromClaude: %v", file, err)
		}
		if got := object(t, back); !jsonEqual(got, orig) {
			t.Errorf("%s: round trip\n got %s\nwant %s", file, back, b)
		}
	}
	if _, _, _, err := ToClaude("preToolUse", []byte(`{}`)); err == nil {
		t.Error("ToClaude of an event VS Code does not have must fail")
	}
	if _, _, _, err := ToClaude("PreToolUse", []byte(`[1]`)); err == nil {
		t.Error("ToClaude of a payload that is not an object must fail")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestFromClaude: a Claude Code payload reaches a VS Code hook in VS Code's names, with what
// VS Code's payload has no place for dropped.
func TestFromClaude(t *testing.T) {
	t.Parallel()
	b, notes, err := FromClaude("PreToolUse", []byte(`{"session_id":"s","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Edit","tool_input":{"file_path":"a.go","old_string":"x","new_string":"y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := object(t, b)
	in, _ := m["tool_input"].(map[string]any)
	if m["hookEventName"] != "PreToolUse" || m["sessionId"] != "s" || m["tool_name"] != "replace_string_in_file" || in["filePath"] != "a.go" ||
		in["oldString"] != "x" || m["permission_mode"] != nil || len(notes) != 1 {
		t.Errorf("%s %v", b, notes)
	}
}

// TestGuardView: the guards read a VS Code call in Claude Code's names: the shell command under
// Bash, a read's path as file_path, the event as hook_event_name.
func TestGuardView(t *testing.T) {
	t.Parallel()
	golden := goldenPayloads(t)
	v, err := GuardView(golden["PreToolUse-run_in_terminal"])
	if err != nil {
		t.Fatal(err)
	}
	m := object(t, v)
	if m["tool_name"] != "Bash" || m["hook_event_name"] != "PreToolUse" || m["tool_input"].(map[string]any)["command"] != "rm -rf /tmp/build && make" {
		t.Errorf("%s", v)
	}
	v, _ = GuardView(golden["PreToolUse-read_file"])
	if m := object(t, v); m["tool_name"] != "Read" || m["tool_input"].(map[string]any)["file_path"] != "/work/ws/.env" {
		t.Errorf("%s", v)
	}
	if _, err := GuardView([]byte(`"x"`)); err == nil {
		t.Error("a payload that is not an object must fail")
	}
}

// TestDetectProbe: VS Code's payload names its event in hookEventName, which neither Claude
// Code's (hook_event_name) nor Copilot CLI's (no event name) does.
func TestDetectProbe(t *testing.T) {
	t.Parallel()
	if !Agent.Detect(dialect.Probe{HookEventCamel: "PreToolUse", CamelCase: true}) {
		t.Error("VS Code's PreToolUse")
	}
	for _, p := range []dialect.Probe{{HookEvent: "PreToolUse"}, {CamelCase: true}, {HookEventCamel: "preToolUse", CamelCase: true}} {
		if Agent.Detect(p) {
			t.Errorf("%+v is not VS Code's", p)
		}
	}
}

// TestSharedFile: VS Code's install file is Copilot CLI's, rendered by Copilot's descriptor from
// Copilot's entries (Install.FileOf), so installing for one after the other changes nothing; in it
// one guard entry serves the shell and the file tools, so VS Code, which ignores matchers, runs
// the guard once per tool call.
func TestSharedFile(t *testing.T) {
	t.Parallel()
	in := copilot.Agent.Install
	if Agent.Install.File != in.File || Agent.Install.ProjectFile != in.ProjectFile || Agent.Install.FileOf != copilot.Name {
		t.Errorf("VS Code's install files %q, %q (of %q) are not Copilot CLI's %q, %q", Agent.Install.File, Agent.Install.ProjectFile, Agent.Install.FileOf, in.File, in.ProjectFile)
	}
	list := copilot.Agent.InstallEntries("guard bash --fail-closed --agent copilot")
	got := sharedFile("/usr/bin/agenthooks", "/usr/bin/agenthooks", list)
	if w := in.Own("/usr/bin/agenthooks", "/usr/bin/agenthooks", list); string(got) != string(w) {
		t.Errorf("VS Code's file differs from Copilot CLI's:\n%s\n%s", got, w)
	}
	f := DecodeHooksFile("agenthooks.json", got)
	if !f.Usable() || !f.CopilotFormat {
		t.Fatalf("VS Code cannot read its file: %v", f.Problems)
	}
	var runner, guards int
	for _, h := range f.Hooks {
		switch {
		case strings.Contains(h.CommandFor("linux"), " guard bash"):
			guards++
		case strings.Contains(h.CommandFor("linux"), " run --agent copilot "):
			runner++
		}
	}
	if guards != 1 || runner != len(Agent.Install.Events) {
		t.Errorf("guard entries %d, runner entries VS Code fires %d, want 1 and %d:\n%s", guards, runner, len(Agent.Install.Events), got)
	}
}
