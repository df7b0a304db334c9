package antigravity

import (
	"encoding/json"
	"os"
	"path/filepath"
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
		if s := lookup(t, name); s.Dialect != Name || s.Name != name {
			t.Errorf("%s: %+v", name, s)
		}
	}
	if s := lookup(t, "pretooluse"); s.Name != "PreToolUse" || !s.Gates || s.Kind != dialect.PreTool || s.MatchField != "toolCall.name" {
		t.Errorf("agy matches event names without regard to case: %+v", s)
	}
	if s := lookup(t, "Stop"); s.Kind != dialect.Stop || s.Gates || !s.Loop {
		t.Errorf("Stop = %+v", s)
	}
	if s := lookup(t, "PreInvocation"); s.Kind != "" || s.Gates {
		t.Errorf("PreInvocation = %+v", s)
	}
	if _, ok := Dialect.Lookup("SessionEnd"); ok {
		t.Error("agy has no SessionEnd")
	}
}

// TestInterpret follows the documented contract: decision on stdout; on PreToolUse an answer
// agy cannot read fails closed.
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
		{"deny", "PreToolUse", `{"decision":"deny","reason":"no way"}`, "", 0, true, false, deny("no way")},
		{"deny without a reason", "PreToolUse", `{"decision":"deny"}`, "", 0, true, false, deny("denied by a hook")},
		{"force_ask", "PreToolUse", `{"decision":"force_ask","reason":"sure?"}`, "", 0, true, false, decide.Answer{Permission: decide.Ask, UserMessage: "sure?"}},
		{"ask", "PreToolUse", `{"decision":"ask"}`, "", 0, true, false, decide.Answer{Permission: decide.Ask}},
		{"allow", "PreToolUse", `{"decision":"allow"}`, "", 0, true, false, decide.Answer{Permission: decide.Allow}},
		{"no opinion", "PreToolUse", `{"decision":""}`, "", 0, true, false, decide.Answer{}},
		{"silence fails closed", "PreToolUse", "", "", 0, true, false, deny("hook failed: no decision on stdout")},
		{"no decision fails closed", "PreToolUse", `{}`, "", 0, true, false, deny("hook failed: no decision in the answer")},
		{"text fails closed", "PreToolUse", "ok", "", 0, true, false, deny("hook failed: stdout is not a JSON object")},
		{"an unknown decision fails closed", "PreToolUse", `{"decision":"block"}`, "", 0, true, false,
			deny(`hook failed: decision "block" is not one of allow, deny, ask, force_ask`)},
		{"Claude Code's form fails closed", "PreToolUse", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", 0, true, false,
			deny("hook failed: no decision in the answer")},
		{"exit 2 fails closed", "PreToolUse", "", "nope", 2, true, false, deny("hook failed: hook exited with status 2: nope")},
		{"Stop continue", "Stop", `{"decision":"continue","reason":"run the tests"}`, "", 0, true, false, decide.Answer{Followup: "run the tests"}},
		{"Stop silence", "Stop", "", "", 0, true, false, decide.Answer{}},
		{"Stop exit 1 is a failure", "Stop", "", "x", 1, false, true, decide.Answer{}},
		{"PostToolUse ignores stdout", "PostToolUse", "anything", "", 0, true, false, decide.Answer{}},
		{"PreInvocation exit 1 is a failure", "PreInvocation", "", "", 1, false, true, decide.Answer{}},
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

// TestEncodeEveryBlockingEvent: PreToolUse's deny reads back as the same deny, Stop's follow-up
// as the same follow-up, and PreToolUse always gets a decision (agy fails closed on none).
func TestEncodeEveryBlockingEvent(t *testing.T) {
	t.Parallel()
	s := lookup(t, "PreToolUse")
	for _, d := range []decide.Decision{{Permission: decide.Deny, AgentMessage: "no way"}, {Halt: true, StopReason: "no way"}} {
		r := Dialect.Encode(s, d)
		back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
		if r.ExitCode != 0 || back.Answer.Permission != decide.Deny || back.Answer.AgentMessage != "no way" {
			t.Errorf("%+v encoded as %+v reads back as %+v", d, r, back)
		}
	}
	for _, d := range []decide.Decision{{}, {Permission: decide.Allow}, {Permission: decide.Ask, UserMessage: "sure?"}} {
		r := Dialect.Encode(s, d)
		back := Dialect.Interpret(s, r.ExitCode, r.Stdout, r.Stderr, 0)
		if back.Failed || back.Answer.Permission == decide.Deny || back.Answer.Permission != d.Permission {
			t.Errorf("%+v encoded as %s reads back as %+v", d, r.Stdout, back)
		}
	}
	stop := lookup(t, "Stop")
	r := Dialect.Encode(stop, decide.Decision{Followup: "again"})
	if back := Dialect.Interpret(stop, r.ExitCode, r.Stdout, r.Stderr, 0); back.Answer.Followup != "again" {
		t.Errorf("Stop's follow-up encoded as %s reads back as %+v", r.Stdout, back)
	}
	for _, name := range Events {
		if s := lookup(t, name); s.Gates && name != "PreToolUse" {
			t.Errorf("%s gates, but only PreToolUse can block", name)
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
		{"PreToolUse", decide.Decision{}, `{"decision":""}`},
		{"PreToolUse", decide.Decision{Permission: decide.Deny, AgentMessage: "no way", UserMessage: "u"}, `{"decision":"deny","reason":"no way"}`},
		{"PreToolUse", decide.Decision{Permission: decide.Deny}, `{"decision":"deny","reason":"blocked by agenthooks"}`},
		{"PreToolUse", decide.Decision{Permission: decide.Ask, UserMessage: "sure?"}, `{"decision":"force_ask","reason":"sure?"}`},
		{"PreToolUse", decide.Decision{Permission: decide.Allow}, `{"decision":"allow"}`},
		{"Stop", decide.Decision{Followup: "run the tests"}, `{"decision":"continue","reason":"run the tests"}`},
		{"Stop", decide.Decision{}, `{}`},
		{"PostToolUse", decide.Decision{Permission: decide.Deny}, `{}`},
		{"PreInvocation", decide.Decision{}, `{}`},
	}
	for _, c := range cases {
		r := Dialect.Encode(lookup(t, c.event), c.d)
		if got := strings.TrimSpace(string(r.Stdout)); got != c.want || r.ExitCode != 0 || len(r.Stderr) != 0 {
			t.Errorf("%s %+v:\n got  %s (exit %d)\n want %s", c.event, c.d, got, r.ExitCode, c.want)
		}
	}
}

func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", "{}", `{"decision":"deny","reason":"r"}`, `{"decision":1}`, `{"decision":"continue"}`, "text", "{"} {
		f.Add(s, 0, uint8(0))
		f.Add(s, 2, uint8(0))
		f.Add(s, 0, uint8(4))
		f.Add(s, 1, uint8(2))
	}
	f.Fuzz(func(t *testing.T, out string, exit int, which uint8) {
		s := lookup(t, Events[int(which)%len(Events)])
		a := Dialect.Interpret(s, exit, []byte(out), []byte(out), 0)
		if a.Failed && len(a.Errors) == 0 || a.Failed && a.Answered || !a.Failed && !a.Answered {
			t.Fatalf("inconsistent outcome %+v", a)
		}
		if s.Name == "PreToolUse" && !a.Answered {
			t.Fatalf("PreToolUse must always decide (agy fails closed): %+v", a)
		}
	})
}

// goldenPayloads reads the payloads built from Antigravity's documented fields (not captured:
// see dialect/testdata/payloads/antigravity/README.md), named EVENT or EVENT-TOOL.
func goldenPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "antigravity", "*.json"))
	if len(files) == 0 {
		t.Fatal("no Antigravity payloads in dialect/testdata/payloads/antigravity")
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

// TestGoldenPayloads: each documented payload rewrites into Claude Code's shape (the shell
// command in tool_input.command, a file tool's path in tool_input.file_path, the conversation
// as session_id, the workspace as cwd) and back into agy's with the same tool call.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	for name, b := range goldenPayloads(t) {
		event, tool, _ := strings.Cut(name, "-")
		if _, ok := events()[event]; !ok {
			t.Errorf("%s: an event this package does not know", name)
			continue
		}
		if ClaudeEvent(event) == "" {
			if _, _, _, err := ToClaude(event, b); err == nil {
				t.Errorf("%s has no Claude Code namesake, want an error", name)
			}
			continue
		}
		claudeName, cb, _, err := ToClaude(event, b)
		if err != nil || claudeName != ClaudeEvent(event) {
			t.Fatalf("%s: ToClaude = %q, %v", name, claudeName, err)
		}
		var m map[string]any
		_ = json.Unmarshal(cb, &m)
		if m["session_id"] != "c-7f1e" || m["cwd"] != "/home/dev/project" || m["hook_event_name"] != claudeName || m["conversationId"] != nil {
			t.Errorf("%s: common fields in %s", name, cb)
		}
		in, _ := m["tool_input"].(map[string]any)
		switch tool {
		case "run_command":
			if m["tool_name"] != "Bash" || in["command"] != "npm test" {
				t.Errorf("%s: %s", name, cb)
			}
		case "view_file", "write_to_file", "replace_file_content":
			if m["tool_name"] != ClaudeTool(tool) || in["file_path"] == nil {
				t.Errorf("%s: %s", name, cb)
			}
		}
		back, _, err := FromClaude(event, cb)
		if err != nil {
			t.Fatal(err)
		}
		var orig, got map[string]any
		_ = json.Unmarshal(b, &orig)
		_ = json.Unmarshal(back, &got)
		if !reflect.DeepEqual(orig["toolCall"], got["toolCall"]) || got["conversationId"] != "c-7f1e" || got["hook_event_name"] != nil {
			t.Errorf("%s: round trip\n got  %s\n from %s", name, back, b)
		}
	}
}

func TestGuardView(t *testing.T) {
	t.Parallel()
	b, err := GuardView([]byte(`{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf /","Cwd":"/w/sub"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if in, _ := m["tool_input"].(map[string]any); m["tool_name"] != "Bash" || in["command"] != "rm -rf /" || m["cwd"] != "/w/sub" || m["hook_event_name"] != nil {
		t.Errorf("guard view %s", b)
	}
	if _, err := GuardView([]byte(`{"tool_name":"Bash"}`)); err == nil {
		t.Error("want an error for a payload without toolCall")
	}
	if _, _, _, err := ToClaude("PreToolUse", []byte("{\n\"toolCall\": }")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a broken payload = %v, want its line", err)
	}
}

func FuzzToClaude(f *testing.F) {
	f.Add([]byte(`{"conversationId":"c","toolCall":{"name":"run_command","args":{"CommandLine":"ls"}}}`))
	f.Add([]byte(`{"toolCall":{"name":1,"args":[]},"workspacePaths":"x"}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/w"}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, name := range Events {
			if _, b, _, err := ToClaude(name, payload); err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON out: %s", name, b)
			}
			if b, _, err := FromClaude(name, payload); err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON back: %s", name, b)
			}
		}
		_, _ = GuardView(payload)
	})
}
