package coverage

import (
	"bytes"
	"cmp"
	"io"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/dialect/qwen"
)

// Qwen Code keeps one JSONL file a session under <runtime folder>/projects/<project>/chats/
// <session>.jsonl: the runtime folder is $QWEN_RUNTIME_DIR, else $QWEN_HOME, else ~/.qwen (its
// Storage.getRuntimeBaseDir), the project its working folder with every character outside
// [A-Za-z0-9] made "-". Each line is one record (uuid, sessionId, timestamp, type, version,
// message); a call is a functionCall part (id, name, args) of a record of type "assistant".
// Background subagents write records of the same shape under <project>/subagents/<session>/.
// Hook payloads carry the call's id as tool_call_id (their tool_use_id is an id of Qwen's own
// that the transcript does not hold): calls and decisions are matched by session and that id.
// Tool names are read through dialect/qwen, as Claude Code names the same tools.

func qwenAgent() Agent {
	return Agent{Name: string(qwen.Name), HookIDs: true, Parse: parseQwen, Files: func(home string, env func(string) string) []string {
		dir := cmp.Or(env("QWEN_RUNTIME_DIR"), env("QWEN_HOME"), filepath.Join(home, qwen.Agent.Dir))
		projects := filepath.Join(dir, "projects")
		return recent(filepath.Join(projects, "*", "chats", "*.jsonl"), filepath.Join(projects, "*", "subagents", "*", "*.jsonl"))
	}}
}

type qwenLine struct {
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Version   string `json:"version"`
	AgentID   string `json:"agentId"`
	Message   struct {
		Parts []struct {
			FunctionCall *struct {
				ID   string         `json:"id"`
				Name string         `json:"name"`
				Args map[string]any `json:"args"`
			} `json:"functionCall"`
		} `json:"parts"`
	} `json:"message"`
}

func parseQwen(file string, r io.Reader) ([]Call, []Problem) {
	var calls []Call
	var probs []Problem
	// A subagent's transcript is in <project>/subagents/<parent session>/.
	subagent := ""
	if dir := filepath.Dir(file); filepath.Base(filepath.Dir(dir)) == "subagents" {
		subagent = strings.TrimSuffix(filepath.Base(file), ".jsonl")
	}
	probs = append(probs, lines(file, r, func(n int, b []byte) {
		if !bytes.Contains(b, []byte(`"functionCall"`)) {
			return // most lines hold no call: not decoded
		}
		var l qwenLine
		if p := decodeLine(file, n, b, &l); p != nil {
			probs = append(probs, *p)
			return
		}
		if l.Type != "assistant" {
			return
		}
		for _, part := range l.Message.Parts {
			fc := part.FunctionCall
			if fc == nil {
				continue
			}
			_, cmd, kind, ok := spokenCall(&qwen.Agent, fc.Name, fc.Args)
			if !ok {
				continue
			}
			if l.SessionID == "" {
				probs = append(probs, Problem{file, n, "a tool call with no sessionId: skipped"})
				continue
			}
			calls = append(calls, Call{Agent: string(qwen.Name), Version: l.Version, Session: l.SessionID, ToolUseID: fc.ID,
				Tool: fc.Name, Kind: kind, Command: clipCommand(cmd), Time: parseTime(l.Timestamp),
				Subagent: cmp.Or(l.AgentID, subagent), File: file, Line: n})
		}
	})...)
	return calls, probs
}
