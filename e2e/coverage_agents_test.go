package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/coverage"
)

// TestQwenCopilotCoverage: Qwen Code's chats and Copilot CLI's session events, as the real
// agents write them. Without agenthooks, status --coverage reports the session's shell call and
// file write; after agenthooks install --agent qwen (copilot), the same session has none
// unguarded: Qwen Code's calls matched on the tool_call_id its hooks get, Copilot's on session,
// command and time.
func TestQwenCopilotCoverage(t *testing.T) {
	type run struct {
		agentRun
		env  []string
		exec func()
	}
	for _, tc := range []struct {
		agent   string
		version string
		match   coverage.Match
		start   func(t *testing.T) run
	}{
		{"qwen", qwenVersion, coverage.ByID, func(t *testing.T) run {
			q := newQwen(t)
			return run{q.agentRun, q.env(), func() { q.exec(t, "please run it") }}
		}},
		{"copilot", copilotVersion, coverage.ByCommand, func(t *testing.T) run {
			c := newCopilot(t)
			return run{c.agentRun, c.env(), func() { c.exec(t, "please run it") }}
		}},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			for _, guarded := range []bool{false, true} {
				r := tc.start(t)
				notes := filepath.Join(r.ws.dir, "notes.txt")
				r.model.commands = []string{ordinary, "write:" + notes + "=hi"}
				if guarded {
					r.ws.agenthooksEnv(t, r.env, "install", "--agent", tc.agent)
				}
				r.exec()
				// Droid 0.215.0 hands its ApplyPatch hooks the model's arguments JSON-encoded once
				// more (tool_input.input is {"input":"*** Begin Patch..."} as a string), in which the
				// edit guard finds no file: fail-closed, it denies the write. The call is guarded all
				// the same (a decision is on record), which is what coverage counts.
				writeDenied := guarded && tc.agent == "droid"
				if !r.ws.exists("hello.txt") || !writeDenied && !r.ws.exists("notes.txt") {
					t.Fatal("the shell call or the file write did not run: the model stand-in's script is broken")
				}
				rep := coverageReport(t, r.ws, r.env)
				want := 2
				if guarded {
					want = 0
				}
				if rep.Calls != 2 || rep.Unguarded != want {
					t.Fatalf("guarded %v: want 2 calls, %d unguarded; got %d, %d: %+v", guarded, want, rep.Calls, rep.Unguarded, rep.Examples)
				}
				if len(rep.Agents) != 1 || rep.Agents[0].Agent != tc.agent || rep.Agents[0].Version != tc.version ||
					rep.Agents[0].Match != tc.match || rep.Agents[0].Transcripts != 1 {
					t.Errorf("agents: %+v", rep.Agents)
				}
				if !guarded {
					var got []string
					for _, ex := range rep.Examples {
						got = append(got, string(ex.Kind)+" "+ex.Command)
					}
					if len(got) != 2 || !(got[0] == "file "+notes && got[1] == "shell "+ordinary || got[1] == "file "+notes && got[0] == "shell "+ordinary) {
						t.Errorf("unguarded calls: %q", got)
					}
				}
			}
		})
	}
}

// TestDatabaseAndSessionCoverage: OpenCode's SQLite database, the Cline CLI's messages files,
// Factory Droid's session JSONL and Crush's project database, as the real agents write them.
// Without agenthooks, status --coverage reports the session's shell call and file write
// (OpenCode's write tool, Cline's apply_patch, Droid's ApplyPatch, Crush's write); after
// agenthooks install --agent NAME, the same session has none unguarded: OpenCode's and Cline's
// calls matched on the call's id their hook payloads carry (OpenCode's callID, Cline's
// tool_call.id in the session its rootSessionId names), Droid's and Crush's on session, command
// and time.
func TestDatabaseAndSessionCoverage(t *testing.T) {
	type run struct {
		agentRun
		env  []string
		exec func()
	}
	for _, tc := range []struct {
		agent   string
		version string // "" where the transcript names none
		match   coverage.Match
		start   func(t *testing.T) run
	}{
		{"opencode", openCodeVersion, coverage.ByID, func(t *testing.T) run {
			o := newOpenCode(t)
			return run{o.agentRun, o.env(), func() { o.exec(t, "please run it") }}
		}},
		{"cline", clineVersion, coverage.ByID, func(t *testing.T) run {
			c := newCline(t)
			return run{c.agentRun, c.env(), func() { c.exec(t, "please run it") }}
		}},
		{"droid", "", coverage.ByCommand, func(t *testing.T) run {
			d := newDroid(t)
			return run{d.agentRun, d.env(), func() { d.exec(t, "please run it") }}
		}},
		{"crush", "", coverage.ByCommand, func(t *testing.T) run {
			c := newCrush(t)
			return run{c.agentRun, c.env(), func() { c.exec(t, "please run it") }}
		}},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			for _, guarded := range []bool{false, true} {
				r := tc.start(t)
				notes := filepath.Join(r.ws.dir, "notes.txt")
				r.model.commands = []string{ordinary, "write:" + notes + "=hi"}
				if guarded {
					r.ws.agenthooksEnv(t, r.env, "install", "--agent", tc.agent)
				}
				r.exec()
				// Droid 0.215.0 hands its ApplyPatch hooks the model's arguments JSON-encoded once
				// more (tool_input.input is {"input":"*** Begin Patch..."} as a string), in which the
				// edit guard finds no file: fail-closed, it denies the write. The call is guarded all
				// the same (a decision is on record), which is what coverage counts.
				writeDenied := guarded && tc.agent == "droid"
				if !r.ws.exists("hello.txt") || !writeDenied && !r.ws.exists("notes.txt") {
					t.Fatal("the shell call or the file write did not run: the model stand-in's script is broken")
				}
				rep := coverageReport(t, r.ws, r.env)
				want := 2
				if guarded {
					want = 0
				}
				if rep.Calls != 2 || rep.Unguarded != want {
					t.Fatalf("guarded %v: want 2 calls, %d unguarded; got %d, %d: %+v", guarded, want, rep.Calls, rep.Unguarded, rep.Examples)
				}
				if len(rep.Agents) != 1 || rep.Agents[0].Agent != tc.agent || rep.Agents[0].Version != tc.version ||
					rep.Agents[0].Match != tc.match || rep.Agents[0].Transcripts != 1 || rep.Agents[0].Guarded != 2-want {
					t.Errorf("agents: %+v", rep.Agents)
				}
				if !guarded {
					kinds := map[string]bool{}
					for _, ex := range rep.Examples {
						kinds[string(ex.Kind)] = true
						if ex.Kind == coverage.Shell && ex.Command != ordinary || ex.Kind == coverage.File && !strings.Contains(ex.Command, notes) {
							t.Errorf("unguarded call: %s %q", ex.Kind, ex.Command)
						}
					}
					if !kinds["shell"] || !kinds["file"] {
						t.Errorf("unguarded calls: %+v", rep.Examples)
					}
				}
			}
		})
	}
}
