package gemini

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// TestInterpretAsGeminiDoes follows the table of what Gemini CLI 0.61.0 honours
// (../shared/reference/real-agents-offline.md).
func TestInterpretAsGeminiDoes(t *testing.T) {
	d := New(dialect.AskAsDeny)
	before, _ := d.Lookup("BeforeTool")
	tests := []struct {
		name           string
		exit           int
		stdout, stderr string
		want           decide.Permission
		halt, failed   bool
	}{
		{"exit 2 with a reason blocks", 2, "", "no", decide.Deny, false, false},
		{"exit 2 with an empty stderr is no decision", 2, "", "", decide.None, false, false},
		{"exit 2 with {} on stdout: the JSON wins", 2, "{}", "no", decide.None, false, false},
		{"exit 3 with text blocks", 3, "", "no", decide.Deny, false, false},
		{"decision deny blocks", 0, `{"decision":"deny","reason":"r"}`, "", decide.Deny, false, false},
		{"decision block blocks", 0, `{"decision":"block","reason":"r"}`, "", decide.Deny, false, false},
		{"Claude's permissionDecision is ignored", 0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", decide.None, false, false},
		{"continue false halts", 0, `{"continue":false,"stopReason":"s"}`, "", decide.None, true, false},
		{"exit 1 with text is a warning", 1, "", "oops", decide.None, false, true},
		{"bare exit 0 is no decision", 0, "", "", decide.None, false, false},
		{"a bad decision is an error", 0, `{"decision":"maybe"}`, "", decide.None, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := d.Interpret(before, tt.exit, []byte(tt.stdout), []byte(tt.stderr), 0)
			if out.Answer.Permission != tt.want || out.Answer.Halt != tt.halt || out.Failed != tt.failed {
				t.Errorf("got permission %q halt %v failed %v (%v), want %q %v %v", out.Answer.Permission, out.Answer.Halt, out.Failed, out.Errors, tt.want, tt.halt, tt.failed)
			}
		})
	}
}

func TestEncodeInTheFormGeminiHonours(t *testing.T) {
	d := New(dialect.AskAsDeny)
	before, _ := d.Lookup("BeforeTool")
	after, _ := d.Lookup("AfterAgent")
	r := d.Encode(before, decide.Decision{Permission: decide.Deny, AgentMessage: "no"})
	if r.ExitCode != 2 || string(r.Stderr) != "no\n" || len(r.Stdout) != 0 {
		t.Errorf("deny = %+v, want exit 2, the reason on stderr, nothing on stdout", r)
	}
	// What agenthooks writes, Gemini must read back as the same decision.
	for _, dec := range []decide.Decision{
		{Permission: decide.Deny},
		{Permission: decide.Ask, UserMessage: "sure?"},
		{Permission: decide.Deny, AgentMessage: "r", UserMessage: "u"},
		{Halt: true, StopReason: "budget"},
	} {
		r := d.Encode(before, dec)
		back := d.Interpret(before, r.ExitCode, r.Stdout, r.Stderr, 0)
		if dec.Halt != back.Answer.Halt || !dec.Halt && back.Answer.Permission != decide.Deny {
			t.Errorf("%+v encoded as %+v reads back as %+v", dec, r, back.Answer)
		}
	}
	if r := New(dialect.AskAsAllow).Encode(before, decide.Decision{Permission: decide.Ask}); r.ExitCode != 0 || len(r.Stdout) != 0 {
		t.Errorf("ask with --ask-as allow = %+v, want an allow", r)
	}
	r = d.Encode(after, decide.Decision{Followup: "run the tests"})
	if r.ExitCode != 2 || string(r.Stderr) != "run the tests\n" {
		t.Errorf("AfterAgent follow-up = %+v, want exit 2 with the next prompt on stderr", r)
	}
	r = d.Encode(before, decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)})
	if !strings.Contains(string(r.Stdout), `"tool_input":{"command":"ls -la"}`) {
		t.Errorf("updated input = %s, want hookSpecificOutput.tool_input", r.Stdout)
	}
}

func TestToClaude(t *testing.T) {
	name, b, _, err := ToClaude("BeforeTool", []byte(`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"cwd":"/w"}`))
	if err != nil || name != "PreToolUse" {
		t.Fatalf("ToClaude = %q, %v", name, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["tool_name"] != "Bash" || m["hook_event_name"] != "PreToolUse" || m["cwd"] != "/w" {
		t.Errorf("payload = %s", b)
	}
	name, b, _, _ = ToClaude("AfterTool", []byte(`{"tool_name":"run_shell_command","tool_response":{"llmContent":"hi","returnDisplay":"hi"}}`))
	if name != "PostToolUse" || !strings.Contains(string(b), `"stdout":"hi"`) {
		t.Errorf("AfterTool = %s %s, want PostToolUse with the output as stdout", name, b)
	}
	name, b, _, _ = ToClaude("AfterAgent", []byte(`{"prompt":"p","prompt_response":"done"}`))
	if name != "Stop" || !strings.Contains(string(b), `"last_assistant_message":"done"`) {
		t.Errorf("AfterAgent = %s %s", name, b)
	}
	if _, _, _, err := ToClaude("BeforeModel", []byte(`{}`)); err == nil {
		t.Error("BeforeModel has no Claude Code counterpart, want an error")
	}
	if _, _, _, err := ToClaude("BeforeTool", []byte(`[1]`)); err == nil {
		t.Error("a payload that is not an object, want an error")
	}
	if _, _, _, err := ToClaude("BeforeTool", []byte(strings.Repeat("[", 100))); err == nil {
		t.Error("a payload nested too deep, want an error")
	}
}

func FuzzInterpret(f *testing.F) {
	for _, s := range []string{"", "{}", `{"decision":"deny","reason":"r"}`, `{"continue":false}`, `{"hookSpecificOutput":{"tool_input":{"a":1}}}`, "text", "{"} {
		f.Add(0, []byte(s), []byte("err"))
		f.Add(2, []byte(s), []byte(""))
	}
	d := New(dialect.AskAsDeny)
	f.Fuzz(func(t *testing.T, exit int, stdout, stderr []byte) {
		for _, name := range Events {
			s, _ := d.Lookup(name)
			out := d.Interpret(s, exit, stdout, stderr, 0)
			if out.Answer.Permission == decide.Deny && !s.Gates && name != "AfterTool" && name != "AfterAgent" {
				t.Errorf("%s cannot block but read a deny", name)
			}
			r := d.Encode(s, decide.Merge([]decide.Answer{out.Answer}, decide.MergeAll))
			if r.ExitCode == 2 && strings.TrimSpace(string(r.Stderr)) == "" {
				t.Errorf("%s: exit 2 with an empty stderr, which Gemini lets through", name)
			}
		}
	})
}

func FuzzToClaude(f *testing.F) {
	f.Add([]byte(`{"tool_name":"read_file","tool_input":{"absolute_path":"/a"}}`))
	f.Add([]byte(`{"tool_name":"run_shell_command","tool_response":{"llmContent":1,"error":"e"}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"tool_name":"mcp_s_t","tool_input":{},"mcp_context":{"server_name":"s","tool_name":"t"}}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, name := range []string{"BeforeTool", "AfterTool", "AfterAgent", "BeforeAgent"} {
			_, b, _, err := ToClaude(name, payload)
			if err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON out: %s", name, b)
			}
		}
	})
}
