package cline

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

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

// TestClineEvents checks the table against @cline/core 0.0.86's HookConfigFileName and what the
// CLI 3.0.65 runs in line (PreToolUse, PostToolUse) or detached (the rest).
func TestClineEvents(t *testing.T) {
	t.Parallel()
	if got := Dialect.Names(); len(got) != 11 {
		t.Errorf("events %v", got)
	}
	if s := lookup(t, "PreToolUse"); s.Kind != dialect.PreTool || !s.Gates || s.MatchField != "tool_name" || s.Dialect != Name {
		t.Errorf("PreToolUse = %+v", s)
	}
	for _, name := range []string{"TaskStart", "UserPromptSubmit", "PostToolUse", "TaskComplete", "TaskCancel"} {
		if lookup(t, name).Gates {
			t.Errorf("%s gates, but the Cline CLI cannot be stopped by it before what it follows", name)
		}
	}
	for sdk, want := range map[string]string{"tool_call": "PreToolUse", "tool_result": "PostToolUse", "agent_start": "TaskStart",
		"agent_abort": "TaskCancel", "prompt_submit": "UserPromptSubmit", "PreToolUse": "PreToolUse", "bogus": ""} {
		if got := EventOf(sdk); got != want {
			t.Errorf("EventOf(%s) = %q, want %q", sdk, got, want)
		}
	}
	for tool, want := range map[string]dialect.Kind{"run_commands": dialect.BeforeShell, "execute_command": dialect.BeforeShell,
		"read_files": dialect.BeforeRead, "read_file": dialect.BeforeRead, "editor": dialect.PreTool} {
		if got := Agent.ToolKind("PreToolUse", tool); got != want {
			t.Errorf("ToolKind(PreToolUse, %s) = %s, want %s", tool, got, want)
		}
	}
}

// TestInterpretAsClineDoes follows parseStdout and parseHookControl of @cline/core 0.0.86 and
// what the agent runtime does with the result (beforeToolResultFromControl).
func TestInterpretAsClineDoes(t *testing.T) {
	t.Parallel()
	cancel := func(r string) decide.Answer {
		return decide.Answer{Permission: decide.Deny, UserMessage: r, AgentMessage: r, Halt: true, StopReason: r}
	}
	cases := []struct {
		name, stdout     string
		exit             int
		answered, failed bool
		want             decide.Answer
	}{
		{"cancel with errorMessage", `{"cancel":true,"errorMessage":"no way"}`, 0, true, false, cancel("no way")},
		{"cancel whatever the exit status", `{"cancel":true,"errorMessage":"no way"}`, 1, true, false, cancel("no way")},
		{"cancel's reason falls back to contextModification", `{"cancel":true,"contextModification":"why"}`, 0, true, false, cancel("why")},
		{"context wins over contextModification", `{"cancel":true,"context":"a","contextModification":"b"}`, 0, true, false, cancel("a")},
		{"blank errorMessage is none", `{"cancel":true,"errorMessage":"  "}`, 0, true, false, cancel(StopReason)},
		{"the last HOOK_CONTROL line answers", "checking\nHOOK_CONTROL\t{\"contextModification\":\"x\"}\nHOOK_CONTROL\t{\"cancel\":true,\"errorMessage\":\"late\"}\nmore", 0, true, false, cancel("late")},
		{"cancel false with context", `{"cancel":false,"contextModification":"be careful"}`, 0, true, false, decide.Answer{AdditionalContext: "be careful"}},
		{"errorMessage alone is context", `{"errorMessage":"heads up"}`, 0, true, false, decide.Answer{AdditionalContext: "heads up"}},
		{"cancel as a string is ignored", `{"cancel":"true","errorMessage":"no way"}`, 0, true, false, decide.Answer{AdditionalContext: "no way"}},
		{"overrideInput rewrites", `{"overrideInput":{"commands":["ls"]}}`, 0, true, false, decide.Answer{UpdatedInput: json.RawMessage(`{"commands":["ls"]}`)}},
		{"Claude's deny is not read", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, 0, true, false, decide.Answer{}},
		{"exit 2 with a reason on stderr runs the tool", "", 2, true, false, decide.Answer{}},
		{"not JSON: Cline ignores the hook", "hello", 0, false, true, decide.Answer{}},
		{"a JSON array is no answer", `[1,2]`, 0, true, false, decide.Answer{}},
		{"silence", "", 0, true, false, decide.Answer{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Dialect.Interpret(lookup(t, "PreToolUse"), c.exit, []byte(c.stdout), []byte("no way"), 0)
			if out.Answered != c.answered || out.Failed != c.failed {
				t.Fatalf("answered %v failed %v (%v), want %v %v", out.Answered, out.Failed, out.Errors, c.answered, c.failed)
			}
			if !reflect.DeepEqual(out.Answer, c.want) {
				t.Errorf("answer %+v, want %+v", out.Answer, c.want)
			}
		})
	}
	// The CLI runs TaskComplete detached: nothing it prints decides.
	if out := Dialect.Interpret(lookup(t, "TaskComplete"), 0, []byte(`{"cancel":true}`), nil, 0); out.Answer.Permission != decide.None || out.Answer.Halt {
		t.Errorf("TaskComplete's cancel was read: %+v", out)
	}
	if out := Dialect.Interpret(lookup(t, "PreToolUse"), 0, []byte(`{"cancel":true}`), nil, 10); !out.Failed {
		t.Error("a cut answer was read")
	}
}

// TestEncodeReadsBack: every decision Encode writes on PreToolUse reads back, through
// Interpret, as the decision; an ask becomes askAs; a rewrite is refused as a block.
func TestEncodeReadsBack(t *testing.T) {
	t.Parallel()
	pre := lookup(t, "PreToolUse")
	r := Dialect.Encode(pre, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"})
	if r.ExitCode != 0 || string(r.Stdout) != `{"cancel":true,"errorMessage":"no way"}`+"\n" {
		t.Fatalf("deny = %+v %s", r, r.Stdout)
	}
	if out := Dialect.Interpret(pre, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.Permission != decide.Deny || out.Answer.AgentMessage != "no way" {
		t.Errorf("deny reads back as %+v", out.Answer)
	}
	r = Dialect.Encode(pre, decide.Decision{Permission: decide.Allow, AdditionalContext: "note"})
	if out := Dialect.Interpret(pre, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.AdditionalContext != "note" || out.Answer.Permission == decide.Deny {
		t.Errorf("context reads back as %+v", out.Answer)
	}
	if r := Dialect.Encode(pre, decide.Decision{Permission: decide.Allow}); len(r.Stdout) != 0 {
		t.Errorf("an allow says %s", r.Stdout)
	}
	r = Dialect.Encode(pre, decide.Decision{Permission: decide.Ask, AgentMessage: "sure?"})
	if out := Dialect.Interpret(pre, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.Permission != decide.Deny || !strings.Contains(out.Answer.AgentMessage, "cannot ask") {
		t.Errorf("ask reads back as %+v", out.Answer)
	}
	if r := DialectFor(dialect.AskAsAllow).Encode(pre, decide.Decision{Permission: decide.Ask}); len(r.Stdout) != 0 || len(r.Stderr) == 0 {
		t.Errorf("ask as allow = %s / %s", r.Stdout, r.Stderr)
	}
	r = Dialect.Encode(pre, decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)})
	if out := Dialect.Interpret(pre, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.Permission != decide.Deny || !strings.Contains(out.Answer.AgentMessage, `{"command":"ls"}`) {
		t.Errorf("a rewrite reads back as %+v", out.Answer)
	}
	post := lookup(t, "PostToolUse")
	r = Dialect.Encode(post, decide.Decision{Permission: decide.Deny, AgentMessage: "that output leaks a key"})
	if out := Dialect.Interpret(post, r.ExitCode, r.Stdout, r.Stderr, 0); out.Answer.Halt || out.Answer.AdditionalContext != "that output leaks a key" {
		t.Errorf("PostToolUse deny reads back as %+v: it must be feedback, not the end of the run", out.Answer)
	}
	r = Dialect.Encode(post, decide.Decision{Halt: true, StopReason: "enough"})
	if out := Dialect.Interpret(post, r.ExitCode, r.Stdout, r.Stderr, 0); !out.Answer.Halt || out.Answer.StopReason != "enough" {
		t.Errorf("PostToolUse halt reads back as %+v", out.Answer)
	}
	if r := Dialect.Encode(lookup(t, "TaskComplete"), decide.Decision{Permission: decide.Deny}); len(r.Stdout) != 0 {
		t.Errorf("TaskComplete, which Cline does not wait for, got %s", r.Stdout)
	}
	client, model := Dialect.Messages(pre, decide.Decision{Permission: decide.Deny, AgentMessage: "no way"})
	if client != "no way" || model != "" {
		t.Errorf("Messages = %q, %q: a cancel ends the run, the model reads nothing", client, model)
	}
}

func golden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "payloads", "cline", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldenPayloads reads the payloads Cline 3.0.65 sent in the e2e suite as Claude Code's, and
// back.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	event, out, _, err := ToClaude("PreToolUse", golden(t, "PreToolUse"))
	if err != nil || event != "PreToolUse" {
		t.Fatalf("ToClaude = %s %v", event, err)
	}
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	if m["tool_name"] != "Bash" || m["tool_input"].(map[string]any)["command"] != "echo hello > hello.txt" || m["cwd"] != "/work/ws" ||
		m["session_id"] == nil || m["tool_use_id"] != "call_00" {
		t.Errorf("PreToolUse as Claude Code's: %s", out)
	}
	back, _, err := FromClaude("PreToolUse", out)
	if err != nil || !strings.Contains(string(back), `"toolName":"run_commands"`) || !strings.Contains(string(back), `"hookName":"tool_call"`) ||
		!strings.Contains(string(back), `"commands":"[\"echo hello > hello.txt\"]"`) {
		t.Errorf("back as Cline's: %s (%v)", back, err)
	}
	_, out, _, err = ToClaude("PostToolUse", golden(t, "PostToolUse"))
	if err != nil || !strings.Contains(string(out), `"tool_response"`) || !strings.Contains(string(out), `"tool_name":"Bash"`) {
		t.Errorf("PostToolUse as Claude Code's: %s (%v)", out, err)
	}
	if event, out, _, err := ToClaude("TaskStart", golden(t, "TaskStart")); err != nil || event != "SessionStart" || !strings.Contains(string(out), `"source":"startup"`) {
		t.Errorf("TaskStart as Claude Code's: %s %s (%v)", event, out, err)
	}
	view, err := GuardView(golden(t, "PreToolUse"))
	if err != nil || !strings.Contains(string(view), `"hook_event_name":"PreToolUse"`) || !strings.Contains(string(view), `"command":"echo hello > hello.txt"`) {
		t.Errorf("GuardView: %s (%v)", view, err)
	}
	if !detect(dialect.Probe{HookName: "tool_call"}) || detect(dialect.Probe{HookName: "tool_call", HookEvent: "PreToolUse"}) || detect(dialect.Probe{}) {
		t.Error("detect")
	}
}

// TestToolInputs: each of Cline's tools, the CLI's and the VS Code extension's, as Claude Code's.
func TestToolInputs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tool, in, wantTool, wantInput string
	}{
		{"run_commands", `{"commands":["ls","rm -rf x"]}`, "Bash", `{"command":"ls\nrm -rf x"}`},
		{"run_commands", `{"commands":"[\"ls\"]"}`, "Bash", `{"command":"ls"}`}, // preToolUse.parameters' flattened form
		{"run_commands", `{"commands":[{"command":"git","args":["commit","-m","a b"]}]}`, "Bash", `{"command":"git commit -m 'a b'"}`},
		{"run_commands", `{"cmd":"ls"}`, "Bash", `{"command":"ls"}`},
		{"execute_command", `{"command":"ls","requires_approval":"false"}`, "Bash", `{"command":"ls"}`},
		{"read_files", `{"files":[{"path":"/a"},{"path":"/b"}]}`, "Read", `{"file_path":"/a","file_paths":["/a","/b"]}`},
		{"read_file", `{"path":"/a"}`, "Read", `{"file_path":"/a"}`},
		{"editor", `{"path":"/a","new_text":"x"}`, "Write", `{"content":"x","file_path":"/a"}`},
		{"editor", `{"path":"/a","old_text":"x","new_text":"y"}`, "Edit", `{"file_path":"/a","new_string":"y","old_string":"x"}`},
		{"write_to_file", `{"path":"/a","content":"x"}`, "Write", `{"content":"x","file_path":"/a"}`},
		{"replace_in_file", `{"path":"/a","diff":"d"}`, "Edit", `{"diff":"d","file_path":"/a"}`},
		{"apply_patch", `{"input":"*** Begin Patch"}`, "apply_patch", `{"input":"*** Begin Patch"}`},
	}
	for _, c := range cases {
		var in map[string]any
		_ = json.Unmarshal([]byte(c.in), &in)
		tool, got, _ := toClaudeInput(c.tool, in)
		b, _ := json.Marshal(got)
		if tool != c.wantTool || string(b) != c.wantInput {
			t.Errorf("%s %s = %s %s, want %s %s", c.tool, c.in, tool, b, c.wantTool, c.wantInput)
		}
	}
}

// TestHookFiles: the files of a hooks folder Cline runs, and how (inferHookCommand).
func TestHookFiles(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"PreToolUse": "PreToolUse", "pretooluse.py": "PreToolUse", "TaskStart.ps1": "TaskStart",
		"PreToolUse.bak": "", "README.md": "", "Notification": "", "SessionShutdown.ts": "SessionShutdown"} {
		if got := HookFileEvent(name); got != want {
			t.Errorf("HookFileEvent(%s) = %q, want %q", name, got, want)
		}
	}
	for _, c := range []struct{ file, content, goos, want string }{
		{"/h/PreToolUse", "#!/usr/bin/env node\n", "linux", "node /h/PreToolUse"},
		{"/h/PreToolUse", "#!/bin/sh\n", "linux", "sh /h/PreToolUse"},
		{"/h/PreToolUse", "echo\n", "linux", "bash /h/PreToolUse"},
		{"/h/PreToolUse.py", "", "windows", "py -3 /h/PreToolUse.py"},
		{"/h/PreToolUse.ps1", "", "linux", "pwsh -File /h/PreToolUse.ps1"},
		{"/h/PreToolUse.ps1", "", "windows", "powershell -File /h/PreToolUse.ps1"},
		{"/h/PreToolUse", "#!/usr/bin/env python3 -u\n", "linux", "python3 -u /h/PreToolUse"},
	} {
		if got := strings.Join(HookCommand(c.file, []byte(c.content), c.goos), " "); got != c.want {
			t.Errorf("HookCommand(%s, %q) = %s, want %s", c.file, c.content, got, c.want)
		}
	}
}

// TestWrappers: one wrapper per event, the guard's entries once with --format cline, each
// marked as agenthooks' own, valid sh; and on Windows a .ps1 twin.
func TestWrappers(t *testing.T) {
	t.Parallel()
	entries := []dialect.InstallEntry{{Event: "PreToolUse", Args: "guard bash --fail-closed", FailClosed: true},
		{Event: "PreToolUse", Args: "run --agent cline PreToolUse"}, {Event: "PostToolUse", Args: "run --agent cline PostToolUse"},
		{Event: "PreToolUse", Args: "guard bash --fail-closed", FailClosed: true}}
	files := Wrappers("'/opt/it'\\''s/agenthooks'", "/opt/it's/agenthooks", "linux", entries)
	if len(files) != 2 || files[0].Name != "PreToolUse" || files[1].Name != "PostToolUse" {
		t.Fatalf("files %+v", files)
	}
	pre := string(files[0].Data)
	if strings.Count(pre, "step 'guard'") != 1 || !strings.Contains(pre, "'--format' 'cline'") || !IsWrapper(files[0].Data) ||
		!strings.Contains(pre, `prog='/opt/it'\''s/agenthooks'`) {
		t.Errorf("PreToolUse wrapper:\n%s", pre)
	}
	if sh, err := exec.LookPath("sh"); err == nil {
		p := filepath.Join(t.TempDir(), "PreToolUse")
		_ = os.WriteFile(p, files[0].Data, 0o755)
		if out, err := exec.Command(sh, "-n", p).CombinedOutput(); err != nil {
			t.Errorf("sh -n: %v %s", err, out)
		}
	}
	win := Wrappers("agenthooks", `C:\it's\agenthooks.exe`, "windows", entries)
	if win[0].Name != "PreToolUse.ps1" || !IsWrapper(win[0].Data) || !strings.Contains(string(win[0].Data), `$prog = 'C:\it''s\agenthooks.exe'`) {
		t.Errorf("windows wrapper %s:\n%s", win[0].Name, win[0].Data)
	}
	for _, w := range []dialect.WrapperFile{files[0], win[0]} {
		prog, steps, lines, ok := WrapperSteps(w.Data)
		want := "/opt/it's/agenthooks"
		if w.Name == "PreToolUse.ps1" {
			want = `C:\it's\agenthooks.exe`
		}
		if !ok || prog != want || len(steps) != 2 || strings.Join(steps[0], " ") != "guard bash --fail-closed --format cline" ||
			strings.Join(steps[1], " ") != "run --agent cline PreToolUse" || lines[0] == 0 {
			t.Errorf("%s read back as %q %q %v %v", w.Name, prog, steps, lines, ok)
		}
	}
	if _, _, _, ok := WrapperSteps([]byte("#!/bin/sh\nexit 0\n")); ok {
		t.Error("a hook of the user's own read as a wrapper")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(missing(`C:\"x"`, "PreToolUse", true)), &m); err != nil || m["cancel"] != true {
		t.Errorf("the missing answer is not Cline's cancel: %v", err)
	}
	// a wrapper fails closed exactly on the events the descriptor says gate a call
	for _, w := range Wrappers("agenthooks", "/x/agenthooks", "linux", Agent.InstallEntries("guard bash --fail-closed")) {
		if w.FailClosed != Agent.Gates(w.Name) {
			t.Errorf("the %s wrapper fails closed: %v, but the event gates: %v", w.Name, w.FailClosed, Agent.Gates(w.Name))
		}
		if cancels := strings.Contains(string(w.Data), `{"cancel":true,"errorMessage":"agenthooks `); cancels != Agent.Gates(w.Name) {
			t.Errorf("the %s wrapper cancels when agenthooks fails: %v, but the event gates: %v", w.Name, cancels, Agent.Gates(w.Name))
		}
	}
}

// FuzzInterpret: no output makes Interpret panic, and a cancel it reads always blocks.
func FuzzInterpret(f *testing.F) {
	for _, s := range []string{`{"cancel":true,"errorMessage":"x"}`, "HOOK_CONTROL\t{\"cancel\":true}", `{"overrideInput":[1]}`,
		`{"context":5,"contextModification":"y","errorMessage":" "}`, "", "not json", `[`, `{"cancel":"true"}`, "\n\nHOOK_CONTROL\t\n"} {
		f.Add(s, 0)
	}
	specs := []*dialect.Spec{lookup(f, "PreToolUse"), lookup(f, "PostToolUse"), lookup(f, "UserPromptSubmit"), lookup(f, "TaskComplete")}
	f.Fuzz(func(t *testing.T, stdout string, exit int) {
		for _, s := range specs {
			out := Dialect.Interpret(s, exit, []byte(stdout), nil, 0)
			if out.Answer.Halt && out.Answer.Permission != decide.Deny {
				t.Errorf("a stop that does not block: %+v", out.Answer)
			}
		}
	})
}

// FuzzPayload: no payload makes the translation or the guard's view panic.
func FuzzPayload(f *testing.F) {
	f.Add(string(golden(f, "PreToolUse")))
	f.Add(`{"hookName":"tool_call","preToolUse":{"toolName":"run_commands","parameters":{"commands":"[{\"command\":1}]"}}}`)
	f.Add(`{"preToolUse":{"toolName":"read_files","parameters":{"files":"[[[\"a\"]]]"}},"tool_call":{"input":{"files":"x"}}}`)
	f.Add(`{"hookName":"tool_call","tool_call":{"name":"use_mcp_tool","input":{"server_name":"github","tool_name":"delete_repository"}}}`)
	f.Add(`{"hookName":"tool_call","tool_call":{"name":"use_mcp_tool","input":{"server_name":5}}}`)
	f.Add(`{"hookName":"tool_call","tool_call":{"name":"e2edb__drop_table","input":{}},"preToolUse":{"toolName":"e2edb__drop_table","parameters":{}}}`)
	f.Fuzz(func(t *testing.T, payload string) {
		if v, err := GuardView([]byte(payload)); err == nil {
			m, err := dialect.DecodePayload(v)
			if err != nil {
				t.Fatalf("GuardView wrote what it cannot read: %s", v)
			}
			if m["tool_name"] == "use_mcp_tool" {
				t.Fatalf("use_mcp_tool left for the MCP guard to miss: %s", v)
			}
			if tool, _ := m["tool_name"].(string); strings.Contains(tool, "__") && !strings.HasPrefix(tool, "mcp__") {
				t.Fatalf("the CLI's MCP name left for the MCP guard to miss: %s", v)
			}
		}
		for _, ev := range []string{"PreToolUse", "PostToolUse", "UserPromptSubmit"} {
			if _, out, _, err := ToClaude(ev, []byte(payload)); err == nil {
				// run --agent cline gives a Claude Code hook Claude Code's mcp__SERVER__TOOL.
				if m, err := dialect.DecodePayload(out); err == nil {
					if tool, _ := m["tool_name"].(string); strings.Contains(tool, "__") && !strings.HasPrefix(tool, "mcp__") && ev != "UserPromptSubmit" {
						t.Fatalf("a Claude Code hook reads Cline's MCP name: %s", out)
					}
				}
				_, _, _ = FromClaude(ev, out)
			}
		}
	})
}

// TestWrapperAnswers runs the Unix wrapper with a stand-in for agenthooks: its answer passes when
// it exited 0 with a JSON object or nothing, or failed with a cancel of its own; a crash's text,
// truncated JSON or any other failure is a cancel on PreToolUse, never something Cline would take
// for no answer, and on PostToolUse (which gates nothing: there a cancel would stop the user's
// task after the tool ran) an answer that names the failure and lets the task go on.
func TestWrapperAnswers(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cases := []struct{ out, exit, want string }{
		{`{"cancel":true,"errorMessage":"no way"}`, "0", `{"cancel":true,"errorMessage":"no way"}`},
		{`{"contextModification":"note"}`, "0", `{"contextModification":"note"}`},
		{``, "0", ``},
		{`{"cancel":true,"errorMessage":"denied"}`, "2", `{"cancel":true,"errorMessage":"denied"}`},
		{`panic: something`, "2", `failed (exit status 2)`},
		{`{"cancel":tr`, "1", `failed (exit status 1)`},
		{`checking...`, "0", `failed (exit status 0)`},
		{``, "1", `failed (exit status 1)`},
	}
	// run writes the wrapper install writes for ev (the descriptor's entries) with prog as its
	// agenthooks and runs it as Cline does: the payload on stdin, stdout the answer.
	run := func(t *testing.T, ev, dir, prog string) (answer map[string]any, stdout, stderr string) {
		t.Helper()
		var w []byte
		for _, f := range Wrappers(prog, prog, "linux", Agent.InstallEntries("guard bash --fail-closed")) {
			if f.Name == ev {
				w = f.Data
			}
		}
		if w == nil {
			t.Fatalf("install writes no %s wrapper", ev)
		}
		file := filepath.Join(dir, ev)
		if err := os.WriteFile(file, w, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(sh, file)
		cmd.Stdin = strings.NewReader(`{"hookName":"` + ev + `"}`)
		var errb strings.Builder
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the %s wrapper exited with %v (Cline ignores the status; it must answer on stdout and exit 0)", ev, err)
		}
		stdout = strings.TrimSpace(string(out))
		_ = json.Unmarshal([]byte(stdout), &answer)
		return answer, stdout, errb.String()
	}
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		gates := Agent.Gates(ev)
		for _, c := range cases {
			dir := t.TempDir()
			prog := filepath.Join(dir, "agenthooks")
			stand := "#!/bin/sh\ncat > /dev/null\nprintf '%s' '" + c.out + "'\nexit " + c.exit + "\n"
			if err := os.WriteFile(prog, []byte(stand), 0o755); err != nil {
				t.Fatal(err)
			}
			answer, got, stderr := run(t, ev, dir, prog)
			if (c.want == "" && got != "") || !strings.Contains(got, c.want) {
				t.Errorf("%s, agenthooks printing %q, exit %s: the wrapper answered %q, want %q", ev, c.out, c.exit, got, c.want)
			}
			if !strings.Contains(c.want, "failed") {
				continue
			}
			switch {
			case gates && answer["cancel"] != true:
				t.Errorf("%s, agenthooks printing %q, exit %s: %q is not a cancel", ev, c.out, c.exit, got)
			case !gates && (answer["cancel"] != false || !strings.Contains(fmt.Sprint(answer["errorMessage"]), "lets the task go on")):
				t.Errorf("%s, agenthooks printing %q, exit %s: %q stops the task or does not say why", ev, c.out, c.exit, got)
			case !gates && !strings.Contains(stderr, "failed (exit status "+c.exit+")"):
				t.Errorf("%s, agenthooks printing %q, exit %s: stderr %q does not name the failure", ev, c.out, c.exit, stderr)
			}
		}
		// agenthooks gone: a cancel on the event that gates, the task goes on elsewhere
		answer, got, _ := run(t, ev, t.TempDir(), filepath.Join(t.TempDir(), "gone", "agenthooks"))
		if answer["cancel"] != gates || !strings.Contains(got, "agenthooks is missing") {
			t.Errorf("%s with agenthooks gone: %q (the event gates: %v)", ev, got, gates)
		}
	}
	if !Agent.Gates("PreToolUse") || Agent.Gates("PostToolUse") {
		t.Fatal("the descriptor's gating events moved: PreToolUse gates and PostToolUse does not")
	}
}

// TestGuardViewMCP: the VS Code extension calls an MCP tool through use_mcp_tool, the CLI as
// server__tool, and the MCP guard gets either as mcp__server__tool; a use_mcp_tool that names
// no server or tool is an error.
func TestGuardViewMCP(t *testing.T) {
	t.Parallel()
	b, err := GuardView([]byte(`{"hookName":"tool_call","tool_call":{"id":"c","name":"use_mcp_tool","input":{"server_name":"github","tool_name":"delete_repository","arguments":"{}"}}}`))
	if err != nil || !strings.Contains(string(b), `"tool_name":"mcp__github__delete_repository"`) {
		t.Errorf("use_mcp_tool view = %s, %v", b, err)
	}
	// The CLI 3.0.65 offers an MCP tool to the model as <server>__<tool>, and names it so in
	// its payload (e2e TestClineMCPGuard).
	b, err = GuardView([]byte(`{"hookName":"tool_call","tool_call":{"id":"c","name":"e2edb__drop_table","input":{}},"preToolUse":{"toolName":"e2edb__drop_table","parameters":{}}}`))
	if err != nil || !strings.Contains(string(b), `"tool_name":"mcp__e2edb__drop_table"`) {
		t.Errorf("the CLI's MCP tool view = %s, %v", b, err)
	}
	for _, in := range []string{`{"tool_name":"x"}`, `{"server_name":"github"}`, `{"server_name":"github","tool_name":7}`} {
		if b, err := GuardView([]byte(`{"hookName":"tool_call","tool_call":{"id":"c","name":"use_mcp_tool","input":` + in + `}}`)); err == nil {
			t.Errorf("%s viewed as %s", in, b)
		}
	}
}

// TestRunTimeLimit: the runner under Cline answers before the VS Code extension's 30 s, after
// which Cline would kill the wrapper and run the call; the CLI's 120 s is not the limit.
func TestRunTimeLimit(t *testing.T) {
	if got := Agent.RunTimeLimit("PreToolUse"); got != 24*time.Second {
		t.Errorf("RunTimeLimit() = %s, want 24s", got)
	}
}
