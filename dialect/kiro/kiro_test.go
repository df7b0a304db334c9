package kiro

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
		t.Fatalf("no trigger %s", name)
	}
	return s
}

// TestEvents checks the table against the v3 hooks page's trigger reference: PreToolUse,
// UserPromptSubmit and PreTaskExec can block and no other; the tool triggers match the tool's
// name; an agent-config event is its migrated trigger.
func TestEvents(t *testing.T) {
	t.Parallel()
	want := map[string]struct {
		kind  dialect.Kind
		gates bool
	}{
		"SessionStart": {dialect.SessionStart, false}, "Stop": {dialect.Stop, false}, "PreToolUse": {dialect.PreTool, true},
		"PostToolUse": {dialect.PostTool, false}, "PreTaskExec": {"", true}, "PostTaskExec": {"", false},
		"UserPromptSubmit": {dialect.PromptSubmit, true}, "PostFileCreate": {"", false}, "PostFileSave": {"", false},
		"PostFileDelete": {"", false}, "Manual": {"", false},
	}
	if len(Events) != len(want) || len(Dialect.Names()) != len(Events) {
		t.Fatalf("Events %v", Events)
	}
	for _, name := range Events {
		s := lookup(t, name)
		w := want[name]
		if s.Dialect != Name || s.Name != name || s.Kind != w.kind || s.Gates != w.gates {
			t.Errorf("%s: %+v, want kind %q gates %v", name, s, w.kind, w.gates)
		}
		if tool := name == "PreToolUse" || name == "PostToolUse"; tool != (s.Target == dialect.FieldName && s.MatchField == "tool_name") {
			t.Errorf("%s: matcher target %v %q", name, s.Target, s.MatchField)
		}
	}
	for _, a := range AgentEvents {
		if s := lookup(t, a[0]); s.Name != a[1] && a[0] != "userPromptSubmit" || Trigger(a[0]) != a[1] {
			t.Errorf("%s is %s, want %s", a[0], s.Name, a[1])
		}
	}
	// kiro-cli's agent-config userPromptSubmit cannot block (exit 2 blocks preToolUse alone
	// there), unlike the hooks file's UserPromptSubmit it migrates to.
	if s := lookup(t, "userPromptSubmit"); s.Gates || s.Kind != dialect.PromptSubmit {
		t.Errorf("userPromptSubmit: %+v, want a prompt event that cannot block", s)
	}
	for _, no := range []string{"pretooluse", "fileEdited", "PermissionRequest", ""} {
		if _, ok := Dialect.Lookup(no); ok {
			t.Errorf("Lookup(%q) found a trigger", no)
		}
	}
	kinds := map[[2]string]dialect.Kind{{"PreToolUse", "shell"}: dialect.BeforeShell, {"preToolUse", "execute_bash"}: dialect.BeforeShell,
		{"PreToolUse", "read"}: dialect.BeforeRead, {"PreToolUse", "@git/status"}: dialect.BeforeMCP, {"PreToolUse", "write"}: dialect.PreTool,
		{"PostToolUse", "fs_write"}: dialect.AfterEdit, {"PostToolUse", "shell"}: dialect.AfterShell, {"Stop", "shell"}: dialect.Stop,
		{"Nope", ""}: ""}
	for in, k := range kinds {
		if got := toolKind(in[0], in[1]); got != k {
			t.Errorf("toolKind(%s, %s) = %q, want %q", in[0], in[1], got, k)
		}
	}
}

// TestInterpret follows the documented exit codes: 2 blocks PreToolUse, UserPromptSubmit and
// PreTaskExec with stderr as the reason; 0 succeeds, stdout is context on SessionStart and
// UserPromptSubmit; any other status is a warning after which the action runs.
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
		{"exit 2 blocks a tool", "PreToolUse", "", "Blocked: destructive command\n", 2, true, false, deny("Blocked: destructive command")},
		{"exit 2 blocks an agent-config tool hook", "preToolUse", "ignored", "no", 2, true, false, deny("no")},
		{"exit 2 blocks a prompt", "UserPromptSubmit", "", "secret in prompt", 2, true, false, deny("secret in prompt")},
		{"exit 2 blocks a spec task", "PreTaskExec", "", "tests first", 2, true, false, deny("tests first")},
		{"exit 2 with no stderr", "PreToolUse", "", "  ", 2, true, false, deny("blocked by a hook")},
		{"exit 0 allows, stdout decides nothing", "PreToolUse", `{"decision":"deny"}`, "", 0, true, false, decide.Answer{}},
		{"exit 0 adds context at session start", "agentSpawn", "branch main\n", "", 0, true, false, decide.Answer{AdditionalContext: "branch main"}},
		{"exit 0 adds context to a prompt", "UserPromptSubmit", "use tabs", "", 0, true, false, decide.Answer{AdditionalContext: "use tabs"}},
		{"exit 1 is a warning", "PreToolUse", "", "boom", 1, false, true, decide.Answer{}},
		{"exit 2 after a tool is a warning", "PostToolUse", "", "late", 2, false, true, decide.Answer{}},
		{"exit 2 at stop is a warning", "Stop", "", "", 2, false, true, decide.Answer{}},
		{"a signal is a warning", "PreToolUse", "", "", -1, false, true, decide.Answer{}},
	}
	for _, c := range cases {
		out := Dialect.Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
		if out.Answered != c.answered || out.Failed != c.failed || !reflect.DeepEqual(out.Answer, c.want) {
			t.Errorf("%s: %+v", c.name, out)
		}
		if c.failed && (len(out.Errors) == 0 || !strings.Contains(out.Errors[0], "Kiro shows a warning and goes on")) {
			t.Errorf("%s: errors %v", c.name, out.Errors)
		}
	}
	if out := Dialect.Interpret(&dialect.Spec{Name: "Nope"}, 2, nil, []byte("x"), 0); !out.Failed || out.Answered {
		t.Errorf("an unknown trigger: %+v", out)
	}
	if out := Dialect.Interpret(lookup(t, "SessionStart"), 0, []byte("cut"), nil, 10); out.Answer.AdditionalContext != "cut" || len(out.Notes) == 0 {
		t.Errorf("a cut context says so: %+v", out)
	}
}

// TestEncode writes every blocking trigger's deny as exit 2 with the reason on stderr and reads
// it back through Interpret; an allow is silence; an ask becomes askAs; context is stdout where
// Kiro adds it.
func TestEncode(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"PreToolUse", "UserPromptSubmit", "PreTaskExec", "preToolUse"} {
		s := lookup(t, name)
		d := decide.Decision{Permission: decide.Deny, AgentMessage: "no force pushes", UserMessage: "user text"}
		r := Dialect.Encode(s, d)
		if r.ExitCode != 2 || string(r.Stderr) != "no force pushes\n" || len(r.Stdout) != 0 {
			t.Errorf("%s: deny = %+v", name, r)
		}
		back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
		if back.Answer.Permission != decide.Deny || back.Answer.AgentMessage != "no force pushes" {
			t.Errorf("%s: read back %+v", name, back)
		}
		if u, m := Dialect.Messages(s, d); u != "no force pushes" || m != u {
			t.Errorf("%s: messages %q %q", name, u, m)
		}
		if r := Dialect.Encode(s, decide.Decision{Permission: decide.Allow}); r.ExitCode != 0 || len(r.Stdout)+len(r.Stderr) != 0 {
			t.Errorf("%s: allow = %+v", name, r)
		}
		ask := decide.Decision{Permission: decide.Ask, AgentMessage: "sure?"}
		if r := Dialect.Encode(s, ask); r.ExitCode != 2 || !strings.Contains(string(r.Stderr), "Kiro cannot ask a person") {
			t.Errorf("%s: ask = %+v", name, r)
		}
		if r := DialectFor(dialect.AskAsAllow).Encode(s, ask); r.ExitCode != 0 || !strings.Contains(string(r.Stderr), "allowed as configured") {
			t.Errorf("%s: ask as allow = %+v", name, r)
		}
		if r := Dialect.Encode(s, decide.Decision{Permission: decide.Allow, Halt: true, StopReason: "enough"}); r.ExitCode != 2 || string(r.Stderr) != "enough\n" {
			t.Errorf("%s: halt = %+v", name, r)
		}
	}
	for _, name := range []string{"PostToolUse", "Stop", "PostFileSave", "SessionStart", "userPromptSubmit"} {
		if r := Dialect.Encode(lookup(t, name), decide.Decision{Permission: decide.Deny, AgentMessage: "x"}); r.ExitCode != 0 || len(r.Stderr) != 0 {
			t.Errorf("%s cannot block: %+v", name, r)
		}
	}
	ctx := decide.Decision{AdditionalContext: "remember the style guide"}
	for name, want := range map[string]string{"SessionStart": "remember the style guide\n", "UserPromptSubmit": "remember the style guide\n", "PreToolUse": "", "Stop": ""} {
		s := lookup(t, name)
		r := Dialect.Encode(s, ctx)
		if string(r.Stdout) != want || r.ExitCode != 0 {
			t.Errorf("%s: context = %+v", name, r)
		}
		if want != "" {
			if back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0); back.Answer.AdditionalContext != "remember the style guide" {
				t.Errorf("%s: context read back %+v", name, back)
			}
		}
		if lost := loses(s, ctx); (want == "") != has(lost, "additional context") {
			t.Errorf("%s: loses %v", name, lost)
		}
	}
	if lost := loses(lookup(t, "Stop"), decide.Decision{Halt: true, SystemMessage: "m"}); !has(lost, "a stop request") || !has(lost, "a system message") {
		t.Errorf("Stop loses %v", lost)
	}
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzInterpret: any output of a hook reads as an outcome without a panic, and a deny comes only
// from exit status 2 on a trigger that can block.
func FuzzInterpret(f *testing.F) {
	f.Add("PreToolUse", 2, []byte(""), []byte("no"), int64(0))
	f.Add("agentSpawn", 0, []byte("ctx"), []byte(""), int64(5))
	f.Add("Stop", 1, []byte("{"), []byte("x\ny"), int64(0))
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr []byte, cut int64) {
		s, ok := Dialect.Lookup(event)
		if !ok {
			s = &dialect.Spec{Dialect: Name, Name: event}
		}
		out := Dialect.Interpret(s, exit, stdout, stderr, cut)
		if out.Answer.Permission == decide.Deny && (exit != 2 || !events()[event].block) {
			t.Fatalf("deny from exit %d on %q", exit, event)
		}
		if out.Failed && out.Answered {
			t.Fatalf("failed and answered: %+v", out)
		}
	})
}

// TestIsEventAsTable: detect's isEvent answers what the event table does, for its names and
// for others.
func TestIsEventAsTable(t *testing.T) {
	t.Parallel()
	names := []string{"", "pretooluse", "PermissionRequest", "fileEdited", "tool.execute.before", "agentspawn"}
	for name := range events() {
		names = append(names, name)
	}
	for _, name := range names {
		if _, want := events()[name]; isEvent(name) != want {
			t.Errorf("isEvent(%q) = %v, the table says %v", name, !want, want)
		}
	}
}
