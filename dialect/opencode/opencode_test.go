package opencode

import (
	"encoding/json"
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

func TestOpenCodeEvents(t *testing.T) {
	t.Parallel()
	if s := lookup(t, BeforeTool); s.Kind != dialect.PreTool || !s.Gates || s.MatchField != "tool" || s.Dialect != Name {
		t.Errorf("%s = %+v", BeforeTool, s)
	}
	if s := lookup(t, AfterTool); s.Kind != dialect.PostTool || s.Gates {
		t.Errorf("%s = %+v", AfterTool, s)
	}
	for tool, want := range map[string]dialect.Kind{"bash": dialect.BeforeShell, "read": dialect.BeforeRead, "edit": dialect.PreTool, "": dialect.PreTool} {
		if got := Agent.ToolKind(BeforeTool, tool); got != want {
			t.Errorf("ToolKind(%s, %q) = %s, want %s", BeforeTool, tool, got, want)
		}
	}
	if !Agent.Detect(dialect.Probe{HookEvent: BeforeTool}) || Agent.Detect(dialect.Probe{HookEvent: "PreToolUse"}) {
		t.Error("Detect does not tell the plugin's payload by its dotted event")
	}
}

// TestInterpretAsThePluginDoes follows the generated plugin's reading of agenthooks' answer
// (its call function), which the node test runs for real.
func TestInterpretAsThePluginDoes(t *testing.T) {
	t.Parallel()
	deny := func(r string) decide.Answer {
		return decide.Answer{Permission: decide.Deny, UserMessage: r, AgentMessage: r}
	}
	closed := "Blocked by agenthooks (the OpenCode plugin fails closed): "
	for _, c := range []struct {
		name, event, stdout, stderr string
		exit                        int
		want                        decide.Answer
		failed                      bool
	}{
		{"silence allows", BeforeTool, "", "", 0, decide.Answer{}, false},
		{"exit 2 blocks with stderr", BeforeTool, "", "no way\n", 2, deny("no way"), false},
		{"exit 2 without stderr", BeforeTool, "", "", 2, deny("blocked by agenthooks"), false},
		{"deny JSON", BeforeTool, `{"decision":"deny","reason":"no way"}`, "", 0, deny("no way"), false},
		{"deny JSON without a reason", BeforeTool, `{"decision":"deny"}`, "", 0, deny("blocked by agenthooks"), false},
		{"allow JSON", BeforeTool, `{"decision":"allow"}`, "", 0, decide.Answer{Permission: decide.Allow}, false},
		{"allow with args", BeforeTool, `{"decision":"allow","args":{"command":"ls"}}`, "", 0,
			decide.Answer{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, false},
		{"exit 1 fails closed", BeforeTool, "", "crashed", 1, deny(closed + "agenthooks exited with status 1: crashed"), true},
		{"not JSON fails closed", BeforeTool, "yes", "", 0, deny(closed + "agenthooks' answer is not a JSON object"), true},
		{"an array fails closed", BeforeTool, "[]", "", 0, deny(closed + "agenthooks' answer is not a JSON object"), true},
		{"unknown decision fails closed", BeforeTool, `{"decision":"ask"}`, "", 0, deny(closed + "unknown decision ask"), true},
		{"after: context", AfterTool, `{"context":"note this"}`, "", 0, decide.Answer{AdditionalContext: "note this"}, false},
		{"after: exit 2 blocks nothing", AfterTool, "", "no", 2, decide.Answer{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := Dialect(dialect.AskAsDeny).Interpret(lookup(t, c.event), c.exit, []byte(c.stdout), []byte(c.stderr), 0)
			got, _ := json.Marshal(out.Answer)
			want, _ := json.Marshal(c.want)
			if string(got) != string(want) || out.Failed != c.failed {
				t.Errorf("got %s failed=%v %v, want %s failed=%v", got, out.Failed, out.Errors, want, c.failed)
			}
		})
	}
}

// TestEncodeReadsBack: each decision Encode writes reads back through Interpret as the same
// decision; an ask, which the plugin cannot show, is askAs.
func TestEncodeReadsBack(t *testing.T) {
	t.Parallel()
	before := lookup(t, BeforeTool)
	for _, c := range []struct {
		name  string
		askAs dialect.AskAs
		in    decide.Decision
		want  decide.Permission
	}{
		{"deny", dialect.AskAsDeny, decide.Decision{Permission: decide.Deny, AgentMessage: "no"}, decide.Deny},
		{"ask as deny", dialect.AskAsDeny, decide.Decision{Permission: decide.Ask, AgentMessage: "sure?"}, decide.Deny},
		{"ask as allow", dialect.AskAsAllow, decide.Decision{Permission: decide.Ask}, decide.None},
		{"allow is silence", dialect.AskAsDeny, decide.Decision{Permission: decide.Allow}, decide.None},
		{"rewrite", dialect.AskAsDeny, decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, decide.Allow},
		{"halt blocks", dialect.AskAsDeny, decide.Decision{Halt: true, StopReason: "enough"}, decide.Deny},
	} {
		d := Dialect(c.askAs)
		r := d.Encode(before, c.in)
		out := d.Interpret(before, r.ExitCode, r.Stdout, r.Stderr, 0)
		if out.Failed || out.Answer.Permission != c.want {
			t.Errorf("%s: %q reads as %+v", c.name, r.Stdout, out)
		}
		if c.want == decide.Deny {
			if client, model := d.Messages(before, c.in); client == "" || model == "" || !strings.Contains(out.Answer.AgentMessage, model) {
				t.Errorf("%s: messages %q %q, answer %+v", c.name, client, model, out.Answer)
			}
		}
		if c.in.UpdatedInput != nil && string(out.Answer.UpdatedInput) != `{"command":"ls"}` {
			t.Errorf("%s: input %s", c.name, out.Answer.UpdatedInput)
		}
	}
	after := lookup(t, AfterTool)
	r := Dialect(dialect.AskAsDeny).Encode(after, decide.Decision{AdditionalContext: "look"})
	if out := Dialect(dialect.AskAsDeny).Interpret(after, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.AdditionalContext != "look" {
		t.Errorf("context reads as %+v", out)
	}
}

// TestPayloadBothWays: the plugin's payload of each file tool in Claude Code's names and back.
func TestPayloadBothWays(t *testing.T) {
	t.Parallel()
	in := `{"hook_event_name":"tool.execute.before","tool":"edit","sessionID":"s","callID":"c","cwd":"/w",` +
		`"args":{"filePath":"/w/a.go","oldString":"a","newString":"b","replaceAll":true}}`
	name, out, _, err := ToClaude(BeforeTool, []byte(in))
	if err != nil || name != "PreToolUse" {
		t.Fatal(name, err)
	}
	want := `{"cwd":"/w","hook_event_name":"PreToolUse","session_id":"s","tool_input":{"file_path":"/w/a.go","new_string":"b","old_string":"a","replace_all":true},"tool_name":"Edit","tool_use_id":"c"}`
	if string(out) != want {
		t.Errorf("to Claude Code:\n got %s\nwant %s", out, want)
	}
	back, _, err := FromClaude(BeforeTool, out)
	var a, b map[string]any
	_ = json.Unmarshal([]byte(in), &a)
	_ = json.Unmarshal(back, &b)
	if err != nil || !jsonEqual(a, b) {
		t.Errorf("back: %s (%v)", back, err)
	}
	if v, err := GuardView([]byte(in)); err != nil || !strings.Contains(string(v), `"file_path":"/w/a.go"`) || !strings.Contains(string(v), `"tool_name":"Edit"`) {
		t.Errorf("guard view %s (%v)", v, err)
	}
	if _, _, err := FromClaude(BeforeTool, []byte(`{"transcript_path":"x","tool_name":"Bash"}`)); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{`[]`, `{`, ``} {
		if _, _, _, err := ToClaude(BeforeTool, []byte(bad)); err == nil {
			t.Errorf("ToClaude(%q) gave no error", bad)
		}
	}
	if _, _, _, err := ToClaude("permission.ask", []byte(`{}`)); err == nil {
		t.Error("an event the plugin does not pass on translated")
	}
}

// TestPromptAndSessionPayloads: chat.message reads as Claude Code's UserPromptSubmit (its
// attachments' filePath as file_path), session.created as SessionStart (source "startup") and
// session.idle as Stop, and each goes back unchanged.
func TestPromptAndSessionPayloads(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ event, in, claude, want string }{
		{ChatMessage, `{"hook_event_name":"chat.message","sessionID":"s","messageID":"m","agent":"build","prompt":"hi","attachments":[{"filePath":"/w/a"}],"cwd":"/w"}`,
			"UserPromptSubmit", `{"agent":"build","attachments":[{"file_path":"/w/a"}],"cwd":"/w","hook_event_name":"UserPromptSubmit","messageID":"m","prompt":"hi","session_id":"s"}`},
		{SessionCreated, `{"hook_event_name":"session.created","sessionID":"s","cwd":"/w"}`,
			"SessionStart", `{"cwd":"/w","hook_event_name":"SessionStart","session_id":"s","source":"startup"}`},
		{SessionIdle, `{"hook_event_name":"session.idle","sessionID":"s","cwd":"/w"}`,
			"Stop", `{"cwd":"/w","hook_event_name":"Stop","session_id":"s"}`},
	} {
		name, out, _, err := ToClaude(c.event, []byte(c.in))
		if err != nil || name != c.claude || string(out) != c.want {
			t.Errorf("%s: %s %s (%v), want %s %s", c.event, name, out, err, c.claude, c.want)
			continue
		}
		back, _, err := FromClaude(c.event, out)
		var a, b map[string]any
		_ = json.Unmarshal([]byte(c.in), &a)
		_ = json.Unmarshal(back, &b)
		if err != nil || !jsonEqual(a, b) {
			t.Errorf("%s back: %s (%v)", c.event, back, err)
		}
	}
	v, err := GuardView([]byte(`{"hook_event_name":"chat.message","prompt":"key","attachments":[{"filePath":"/w/a"}]}`))
	if err != nil || !strings.Contains(string(v), `"prompt":"key"`) || !strings.Contains(string(v), `"hook_event_name":"UserPromptSubmit"`) {
		t.Errorf("guard view %s (%v)", v, err)
	}
}

// TestPromptGates: a deny on chat.message is a throw (the prompt is dropped), a failure of the
// runner there blocks too; on the session events nothing blocks and a failure is only noted.
func TestPromptGates(t *testing.T) {
	t.Parallel()
	d := Dialect(dialect.AskAsDeny)
	prompt := lookup(t, ChatMessage)
	if prompt.Kind != dialect.PromptSubmit || !prompt.Gates {
		t.Fatalf("chat.message is %+v", prompt)
	}
	r := d.Encode(prompt, decide.Decision{Permission: decide.Deny, AgentMessage: "no secrets"})
	if string(r.Stdout) != `{"decision":"deny","reason":"no secrets"}`+"\n" {
		t.Errorf("deny on chat.message: %q", r.Stdout)
	}
	if out := d.Interpret(prompt, 1, nil, []byte("boom"), 0); out.Answer.Permission != decide.Deny || !out.Failed {
		t.Errorf("a crash on chat.message reads as %+v", out)
	}
	for _, ev := range []string{SessionCreated, SessionIdle} {
		s := lookup(t, ev)
		if s.Gates {
			t.Errorf("%s gates", ev)
		}
		if out := d.Interpret(s, 2, nil, []byte("no"), 0); out.Answer.Permission == decide.Deny {
			t.Errorf("exit 2 on %s blocks: %+v", ev, out)
		}
		if r := d.Encode(s, decide.Decision{Permission: decide.Deny, AgentMessage: "x"}); strings.Contains(string(r.Stdout), "deny") {
			t.Errorf("a deny on %s is written as %q", ev, r.Stdout)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestPluginReadsBack: the plugin install renders reads back as its entries, with positions.
func TestPluginReadsBack(t *testing.T) {
	t.Parallel()
	entries := []dialect.InstallEntry{
		{Event: BeforeTool, Matcher: "bash", Args: "guard bash --fail-closed"},
		{Event: AfterTool, Args: "run --agent opencode tool.execute.after"},
	}
	data := Plugin("'/opt/a b/agenthooks'", "/opt/a b/agenthooks", entries)
	d := DecodePlugin("agenthooks.js", data)
	if len(d.Problems) > 0 || d.Program != "/opt/a b/agenthooks" || d.Timeout != DefaultTimeout || len(d.Hooks) != 2 {
		t.Fatalf("decoded %+v", d)
	}
	if h := d.Hooks[0]; h.Event != BeforeTool || h.Matcher != "bash" || strings.Join(h.Args, " ") != "guard bash --fail-closed" || h.Pos.Line < 5 {
		t.Errorf("first entry %+v", h)
	}
	if !strings.Contains(string(data), `export const AgenthooksPlugin`) {
		t.Error("the plugin exports no plugin function")
	}
	// an entry install gave agenthooks-guard names it; the others run the plugin's program
	entries[0].Guard, entries[0].GuardPath = "'/opt/a b/agenthooks-guard'", "/opt/a b/agenthooks-guard"
	d = DecodePlugin("agenthooks.js", Plugin("'/opt/a b/agenthooks'", "/opt/a b/agenthooks", entries))
	if len(d.Problems) > 0 || len(d.Hooks) != 2 || d.Hooks[0].Program != "/opt/a b/agenthooks-guard" || strings.Join(d.Hooks[0].Args, " ") != "bash --fail-closed" ||
		d.Hooks[1].Program != "" || d.Program != "/opt/a b/agenthooks" {
		t.Errorf("with agenthooks-guard: %+v", d)
	}
}

// TestPluginProblems: what the decoder says of a plugin it cannot read, positioned.
func TestPluginProblems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, settings, want string }{
		{"no settings", "", "no agenthooks settings"},
		{"bad JSON", `{"program": }`, "p.js:1:"},
		{"not an object", `[]`, "must be a JSON object"},
		{"no program", `{"hooks":[]}`, "program: the path of agenthooks is missing"},
		{"bad timeout", `{"program":"a","timeout":-1,"hooks":[]}`, "timeout: must be a whole number"},
		{"unknown event", `{"program":"a","hooks":[{"event":"permission.ask","args":["x"]}]}`, "not permission.ask"},
		{"no args", `{"program":"a","hooks":[{"event":"tool.execute.before"}]}`, "hooks[0].args"},
		{"args not strings", `{"program":"a","hooks":[{"event":"tool.execute.before","args":[1]}]}`, "strings only"},
		{"hooks not an array", `{"program":"a","hooks":{}}`, "hooks: must be an array"},
		{"an entry's program not a string", `{"program":"a","hooks":[{"event":"tool.execute.before","program":7,"args":["bash"]}]}`, "hooks[0].program"},
	} {
		src := "x"
		if c.settings != "" {
			src = "const agenthooks = " + beginMark + c.settings + endMark + ";"
		}
		d := DecodePlugin("p.js", []byte(src))
		if len(d.Problems) == 0 || !strings.Contains(d.Problems[0].String(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, d.Problems, c.want)
		}
	}
}

func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", `{"decision":"deny","reason":"x"}`, `{"decision":"allow","args":{"a":1}}`, `{"context":"c"}`, `[]`, `{"decision":7}`, "{"} {
		f.Add(0, s, "")
		f.Add(2, s, "why")
	}
	f.Fuzz(func(t *testing.T, exit int, stdout, stderr string) {
		for _, ev := range Events {
			s := lookup(t, ev)
			out := Dialect(dialect.AskAsDeny).Interpret(s, exit, []byte(stdout), []byte(stderr), 0)
			if s.Gates && out.Failed && out.Answer.Permission != decide.Deny {
				t.Fatalf("a failure on %s let the call run: %+v", ev, out)
			}
			if s.Gates && exit != 0 && out.Answer.Permission != decide.Deny {
				t.Fatalf("exit %d on %s did not block: %+v", exit, ev, out)
			}
		}
	})
}

func FuzzDecodePlugin(f *testing.F) {
	f.Add(string(Plugin("agenthooks", "/bin/agenthooks", []dialect.InstallEntry{{Event: BeforeTool, Matcher: "bash", Args: "guard bash"}})))
	f.Add(beginMark + `{"program":"a","timeout":5,"hooks":[{"event":"tool.execute.after","args":["run"]}]}` + endMark)
	f.Add(beginMark + `{"hooks":[1,{"event":2}]` + endMark)
	f.Fuzz(func(t *testing.T, data string) {
		d := DecodePlugin("p.js", []byte(data))
		for _, h := range d.Hooks {
			if len(h.Args) == 0 || h.Event == "" {
				t.Fatalf("an entry without arguments or event: %+v", h)
			}
		}
	})
}

// TestEventsListTheTable: detect reads Events, not the table: both name the same events.
func TestEventsListTheTable(t *testing.T) {
	t.Parallel()
	if len(Events) != len(events()) {
		t.Fatalf("Events has %d names, the table %d", len(Events), len(events()))
	}
	for _, name := range Events {
		if _, ok := events()[name]; !ok {
			t.Errorf("%s is not in the table", name)
		}
	}
}
