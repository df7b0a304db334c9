package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/coverage"
)

// subagentMarker starts the prompt the main loop gives a subagent; the model stand-in knows a
// subagent's requests by it and asks, in them, for the command that follows it.
const subagentMarker = "SUBAGENT RUN: "

// claudeTaskModel is claudeModel with one more kind of scripted call, "task:COMMAND": the main
// loop asks Claude Code's Agent tool (the Task tool of older versions) for a subagent whose
// prompt carries the command; in the subagent's own conversation the stand-in asks for that
// command through Bash, then answers with text.
func claudeTaskModel(m *model) http.HandlerFunc {
	plain := claudeModel(m)
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.peek(r)
		var req struct {
			Stream   bool             `json:"stream"`
			Tools    []map[string]any `json:"tools"`
			Model    string           `json:"model"`
			Messages []map[string]any `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		if !strings.HasSuffix(r.URL.Path, "/v1/messages") || len(req.Tools) == 0 || len(req.Messages) == 0 {
			plain(w, r)
			return
		}
		first := messageText(req.Messages[0])
		results := 0
		for _, msg := range req.Messages {
			if blocks, ok := msg["content"].([]any); ok {
				for _, b := range blocks {
					if bm, ok := b.(map[string]any); ok && bm["type"] == "tool_result" {
						results++
					}
				}
			}
		}
		var name string
		var input map[string]any
		if i := strings.Index(first, subagentMarker); i >= 0 {
			// A subagent: one Bash call, then text.
			if results > 0 {
				m.record(r)
				claudeText(w, req.Model, req.Stream)
				return
			}
			cmd, _, _ := strings.Cut(first[i+len(subagentMarker):], "\n")
			name, input = "Bash", map[string]any{"command": strings.TrimSpace(cmd), "description": "run the command"}
		} else {
			if results >= len(m.commands) || !strings.HasPrefix(m.commands[results], "task:") {
				plain(w, r)
				return
			}
			name = "Task"
			for _, t := range req.Tools {
				if t["name"] == "Agent" {
					name = "Agent"
				}
			}
			input = map[string]any{"description": "run a command", "subagent_type": "general-purpose", "run_in_background": false,
				"prompt": subagentMarker + strings.TrimPrefix(m.commands[results], "task:") + "\n"}
		}
		m.record(r)
		id := fmt.Sprintf("toolu_%s_%02d", strings.ToLower(name), results)
		if strings.Contains(first, subagentMarker) {
			id = fmt.Sprintf("toolu_sub_%02d", len(m.sent())) // unique in the session, as Claude Code's ids are
		}
		usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
		in, _ := json.Marshal(input)
		if !req.Stream {
			writeJSONResponse(w, map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": req.Model,
				"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}, "stop_reason": "tool_use",
				"stop_sequence": nil, "usage": usage})
			return
		}
		writeSSE(w,
			map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant",
				"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
			map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}},
			map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}},
			map[string]any{"type": "content_block_stop", "index": 0},
			map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}},
			map[string]any{"type": "message_stop"},
		)
	}
}

// messageText is the text of a Messages API message: its string content or its text blocks.
func messageText(msg map[string]any) string {
	switch c := msg["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, x := range c {
			if bm, ok := x.(map[string]any); ok {
				if s, ok := bm["text"].(string); ok {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
		}
		return b.String()
	}
	return ""
}

// peek reads a request's body and puts it back, for a handler that may pass the request on.
func (m *model) peek(r *http.Request) []byte {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body
}

// claudeText answers a Messages API request with the text "done", ending the turn.
func claudeText(w http.ResponseWriter, model string, stream bool) {
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !stream {
		writeJSONResponse(w, map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
			"content": []any{map[string]any{"type": "text", "text": "done"}}, "stop_reason": "end_turn", "stop_sequence": nil, "usage": usage})
		return
	}
	writeSSE(w,
		map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant",
			"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
		map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}},
		map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "done"}},
		map[string]any{"type": "content_block_stop", "index": 0},
		map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}},
		map[string]any{"type": "message_stop"},
	)
}

// coverageReport runs status --coverage --json in the workspace and decodes its report.
func coverageReport(t *testing.T, w workspace, env []string) coverage.Report {
	t.Helper()
	out := w.agenthooksEnv(t, env, "status", "--coverage", "--json", "--audit", w.audit)
	var rep coverage.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("status --coverage --json: %v\n%s", err, out)
	}
	if len(rep.Problems) > 0 {
		t.Errorf("the agent's own transcripts did not read cleanly: %v", rep.Problems)
	}
	return rep
}

// TestClaudeCoverage: in the real Claude Code, a session whose main loop starts a subagent
// (Agent tool) that runs a shell command, and writes a file with the Write tool. With only the
// shell guard registered (on Bash), status --coverage finds the subagent's command guarded
// (Claude Code 2.1 runs PreToolUse hooks inside subagents, with their agent_id) and reports the
// Write call, which no hook saw; after agenthooks install (the guard and the runner on every
// tool) the same session has no unguarded call.
func TestClaudeCoverage(t *testing.T) {
	bin := installAgent(t, "@anthropic-ai/claude-code", claudeVersion, "claude")
	script := func(ws string) []string {
		return []string{"task:echo sub > sub.txt", ordinary, "write:" + filepath.Join(ws, "notes.txt") + "=hi"}
	}

	gap := &claudeRun{newAgentRun(t, bin, claudeTaskModel, nil)}
	gap.model.commands = script(gap.ws.dir)
	gap.settings(t, map[string]any{"PreToolUse": []any{group("Bash", "agenthooks guard bash --fail-closed")}})
	gap.exec(t, "please run it")
	if !gap.ws.exists("sub.txt") || !gap.ws.exists("notes.txt") {
		t.Fatal("the subagent's command or the Write call did not run: the model stand-in's script is broken")
	}
	rep := coverageReport(t, gap.ws, gap.env())
	if rep.Calls != 3 || rep.Unguarded != 1 {
		t.Fatalf("want 3 calls (the subagent's Bash, the main Bash, the Write), 1 unguarded; got %d, %d: %+v", rep.Calls, rep.Unguarded, rep)
	}
	if ex := rep.Examples[0]; ex.Tool != "Write" || ex.Command != filepath.Join(gap.ws.dir, "notes.txt") || ex.Match != coverage.ByID || ex.Subagent != "" {
		t.Errorf("the unguarded call: %+v", ex)
	}
	if len(rep.Agents) != 1 || rep.Agents[0].Agent != "claude" || rep.Agents[0].Version != claudeVersion || rep.Agents[0].Transcripts != 2 {
		t.Errorf("agents: %+v (want claude %s, its session's transcript and its subagent's)", rep.Agents, claudeVersion)
	}
	if len(rep.Sessions) != 1 || rep.Sessions[0].Unguarded != 1 || rep.Sessions[0].Subagent != 0 {
		t.Errorf("sessions: %+v", rep.Sessions)
	}
	text := gap.ws.agenthooksEnv(t, gap.env(), "status", "--coverage", "--audit", gap.ws.audit)
	if !strings.Contains(text, "3 shell and file tool call(s) in the agents' transcripts, 1 with no agenthooks decision") ||
		!strings.Contains(text, "Write: "+filepath.Join(gap.ws.dir, "notes.txt")) {
		t.Errorf("status --coverage:\n%s", text)
	}

	full := &claudeRun{newAgentRun(t, bin, claudeTaskModel, nil)}
	full.model.commands = script(full.ws.dir)
	if out := full.ws.agenthooks(t, "install", "--agent", "claude"); !installedGuard.MatchString(out) {
		t.Fatalf("install said: %s", out)
	}
	full.exec(t, "please run it")
	rep = coverageReport(t, full.ws, full.env())
	if rep.Calls != 3 || rep.Unguarded != 0 {
		t.Errorf("after install: want 3 calls, none unguarded; got %d, %d: %+v", rep.Calls, rep.Unguarded, rep.Examples)
	}
}

// TestCodexGeminiCoverage: Codex's rollout files and Gemini CLI's chats, as the real agents
// write them: a shell call is unguarded without the guard, and guarded with it (Codex matched on
// the call id its hooks get, Gemini CLI on session, command and time).
func TestCodexGeminiCoverage(t *testing.T) {
	bare := newCodex(t, ordinary)
	bare.exec(t, "please run it")
	if rep := coverageReport(t, bare.ws, bare.env()); rep.Calls != 1 || rep.Unguarded != 1 || rep.Examples[0].Command != ordinary {
		t.Errorf("codex without the guard: %+v", rep)
	}
	guarded := newCodex(t, ordinary)
	guarded.ws.agenthooksEnv(t, guarded.env(), "install", "--agent", "codex")
	guarded.exec(t, "please run it")
	if rep := coverageReport(t, guarded.ws, guarded.env()); rep.Calls != 1 || rep.Unguarded != 0 || rep.Agents[0].Version != codexVersion {
		t.Errorf("codex with the guard: %+v", rep)
	}

	gbare := newGemini(t, ordinary)
	gbare.exec(t, "please run it")
	if rep := coverageReport(t, gbare.ws, gbare.env()); rep.Calls != 1 || rep.Unguarded != 1 {
		t.Errorf("gemini without the guard: %+v", rep)
	}
	g := newGemini(t, ordinary)
	g.ws.agenthooks(t, "install", "--agent", "gemini")
	g.exec(t, "please run it")
	if rep := coverageReport(t, g.ws, g.env()); rep.Calls != 1 || rep.Unguarded != 0 || rep.Agents[0].Match != coverage.ByCommand {
		t.Errorf("gemini with the guard: %+v", rep)
	}
}
