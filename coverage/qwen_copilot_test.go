package coverage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The fixtures under testdata/qwen and testdata/copilot are real transcripts, written by Qwen
// Code 0.24.4 and Copilot CLI 1.0.102 in the e2e suite's runs against its model stand-in after
// agenthooks install --agent qwen (copilot), with the audit records of the same runs (paths
// scrubbed, Copilot's system prompt cut).

func TestQwenTranscript(t *testing.T) {
	calls, probs := readFixture(t, "qwen")
	if len(probs) > 0 {
		t.Errorf("problems: %v", probs)
	}
	// The ui_telemetry records repeat each call (function_args): they are not read as calls.
	want := []callSummary{
		{"run_shell_command", "shell", "echo hello > hello.txt", "call_00", false},
		{"write_file", "file", "/work/ws/notes.txt", "call_01", false},
	}
	if got := summarize(calls); !slices.Equal(got, want) {
		t.Errorf("calls:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range calls {
		if c.Session != "3ac30fcf-d195-4152-a7a8-b2477f310c29" || c.Version != "0.24.4" || c.Time.IsZero() || c.Line == 0 {
			t.Errorf("call %+v: want the session, version, time and line", c)
		}
	}
}

func TestCopilotTranscript(t *testing.T) {
	calls, probs := readFixture(t, "copilot")
	if len(probs) > 0 {
		t.Errorf("problems: %v", probs)
	}
	// assistant.message's toolRequests name the same calls again: only tool.execution_start counts.
	want := []callSummary{
		{"bash", "shell", "echo hello > hello.txt", "call_00", false},
		{"create", "file", "/work/ws/notes.txt", "call_01", false},
	}
	if got := summarize(calls); !slices.Equal(got, want) {
		t.Errorf("calls:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range calls {
		if c.Session != "7fd7baf6-2b1e-4440-bba8-694af8b041ca" || c.Version != "1.0.102" || c.Time.IsZero() || c.Line == 0 {
			t.Errorf("call %+v: want the session and version of session.start, the time and line", c)
		}
	}
}

// TestQwenCopilotGuarded: every call of the fixtures has its decision in the same run's audit
// (Qwen Code's by session and tool_call_id, Copilot's by session, command and time); without a
// call's decisions, that call is reported.
func TestQwenCopilotGuarded(t *testing.T) {
	for _, tc := range []struct {
		agent string
		match Match
		drop  string
	}{
		{"qwen", ByID, "/work/ws/notes.txt"},
		{"copilot", ByCommand, "echo hello > hello.txt"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			calls, _ := readFixture(t, tc.agent)
			decisions := fixtureDecisions(t, tc.agent)
			rep := Check(calls, decisions, nil)
			if rep.Unguarded != 0 || rep.Calls != 2 {
				t.Fatalf("all guarded: got %d of %d calls unguarded: %+v", rep.Unguarded, rep.Calls, rep.Examples)
			}
			if len(rep.Agents) != 1 || rep.Agents[0].Match != tc.match || rep.Agents[0].Agent != tc.agent {
				t.Errorf("agents: %+v", rep.Agents)
			}
			var kept []Decision
			for _, d := range decisions {
				if !slices.Contains(d.Keys, tc.drop) {
					kept = append(kept, d)
				}
			}
			rep = Check(calls, kept, nil)
			if rep.Unguarded != 1 || len(rep.Examples) != 1 || rep.Examples[0].Command != tc.drop || rep.Examples[0].Match != tc.match {
				t.Fatalf("with %q's decisions removed: %d unguarded, examples %+v", tc.drop, rep.Unguarded, rep.Examples)
			}
		})
	}
}

// TestQwenMatchesToolCallID: a Qwen Code decision is matched by the tool_call_id of its payload,
// not by the tool_use_id Qwen makes up (which no transcript holds), nor by its command.
func TestQwenMatchesToolCallID(t *testing.T) {
	calls, _ := readFixture(t, "qwen")
	for _, d := range fixtureDecisions(t, "qwen") {
		if d.CallID == "" || !strings.HasPrefix(d.ToolUseID, "toolu_") {
			t.Fatalf("decision %+v: want Qwen's tool_call_id and its own tool_use_id", d)
		}
	}
	other := []Decision{{Agent: "qwen", Session: calls[0].Session, CallID: "call_99", Keys: []string{calls[0].Command}}}
	if rep := Check(calls[:1], other, nil); rep.Unguarded != 1 {
		t.Errorf("a decision naming another call's id guarded the call: %+v", rep)
	}
}

// TestQwenCopilotBrokenLines: a broken line is skipped and reported at its position; the calls
// around it are read.
func TestQwenCopilotBrokenLines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parse func(string, []byte) ([]Call, []Problem)
		text  string
	}{
		{"qwen", func(f string, b []byte) ([]Call, []Problem) { return parseQwen(f, strings.NewReader(string(b))) },
			`{"sessionId":"s","type":"assistant","message":{"parts":[{"functionCall":{"id":"a","name":"run_shell_command","args":{"command":"ls"}}}]}}
{"sessionId":"s","type":"assistant","message":{"parts":[{"functionCall": nope
{"sessionId":"s","type":"assistant","message":{"parts":[{"functionCall":{"id":"b","name":"edit","args":{"file_path":"/x"}}}]}}
`},
		{"copilot", func(f string, b []byte) ([]Call, []Problem) { return parseCopilot(f, strings.NewReader(string(b))) },
			`{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1"}}
{"type":"tool.execution_start","data":{"toolCallId":"a","toolName":"bash","arguments":{"command":"ls"}}}
{"type":"tool.execution_start","data":{"toolCallId": [[[
{"type":"tool.execution_start","data":{"toolCallId":"b","toolName":"edit","arguments":{"path":"/x"}}}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls, probs := tc.parse("t.jsonl", []byte(tc.text))
			if len(calls) != 2 || calls[1].Command != "/x" || calls[1].Kind != File {
				t.Errorf("calls %+v", calls)
			}
			line := 2
			if tc.name == "copilot" {
				line = 3
			}
			if len(probs) != 1 || probs[0].Line != line || !strings.Contains(probs[0].Msg, "not JSON at byte") {
				t.Errorf("problems %v: want one at line %d", probs, line)
			}
		})
	}
}

func FuzzQwen(f *testing.F)    { fuzzParser(f, "qwen", "t.jsonl", parseQwen) }
func FuzzCopilot(f *testing.F) { fuzzParser(f, "copilot", "t.jsonl", parseCopilot) }

// TestQwenCopilotFiles: where each agent's transcripts are looked for: Qwen Code's runtime
// folder ($QWEN_RUNTIME_DIR, else $QWEN_HOME, else ~/.qwen) with its background subagents'
// records, whose calls are the subagent's; Copilot's $COPILOT_HOME, else ~/.copilot.
func TestQwenCopilotFiles(t *testing.T) {
	home, runtime := t.TempDir(), t.TempDir()
	line := `{"sessionId":"s","type":"assistant","timestamp":"2026-11-24T09:00:00Z","message":{"parts":[{"functionCall":{"id":"c1","name":"run_shell_command","args":{"command":"ls"}}}]}}` + "\n"
	chat := filepath.Join(runtime, "projects", "-w", "chats", "s.jsonl")
	sub := filepath.Join(runtime, "projects", "-w", "subagents", "s", "agent-7.jsonl")
	events := filepath.Join(home, "cop", "session-state", "s2", "events.jsonl")
	for _, f := range []struct{ path, text string }{{chat, line}, {sub, line},
		{events, `{"type":"session.start","data":{"sessionId":"s2"}}` + "\n"}} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := func(k string) string {
		return map[string]string{"QWEN_RUNTIME_DIR": runtime, "QWEN_HOME": home, "COPILOT_HOME": filepath.Join(home, "cop")}[k]
	}
	calls, transcripts, probs := Read(Options{Home: home, Getenv: env, Agents: []Agent{qwenAgent(), copilotAgent()}})
	if len(probs) > 0 || transcripts["qwen"] != 2 || transcripts["copilot"] != 1 || len(calls) != 2 {
		t.Fatalf("calls %+v, transcripts %v, problems %v", calls, transcripts, probs)
	}
	subs := 0
	for _, c := range calls {
		if c.Subagent == "agent-7" {
			subs++
		}
	}
	if subs != 1 {
		t.Errorf("want the subagent's call marked: %+v", calls)
	}
	if files := qwenAgent().Files(home, func(string) string { return "" }); len(files) != 0 {
		t.Errorf("without the variables ~/.qwen is read, which is empty here: %v", files)
	}
}
