package coverage

import (
	"bytes"
	"cmp"
	"io"
	"path/filepath"

	"github.com/agenthooks/agenthooks/dialect/copilot"
)

// Copilot CLI keeps one folder a session under $COPILOT_HOME/session-state/<session>/ (its
// descriptor's HomeEnv; ~/.copilot by default), and in it events.jsonl: one event a line
// (type, data, id, timestamp, parentId). The first, session.start, names the session and
// copilotVersion; a call is a tool.execution_start event (toolCallId, toolName, arguments),
// written once a call, before its preToolUse hooks run. A call made inside a subagent carries
// the subagent's parentToolCallId (read as its subagent; not yet seen in a real transcript of
// the e2e suite). Copilot's hook payloads (sessionId, toolName, toolArgs) carry no call id:
// calls and decisions are matched by session, command and time. Tool and argument names are
// read through dialect/copilot, as Claude Code names them (bash is Bash, create's path is
// file_path).

func copilotAgent() Agent {
	return Agent{Name: string(copilot.Name), Parse: parseCopilot, Files: func(home string, env func(string) string) []string {
		dir := filepath.Join(home, copilot.Agent.Dir)
		if copilot.Agent.HomeEnv != "" {
			dir = cmp.Or(env(copilot.Agent.HomeEnv), dir)
		}
		return recent(filepath.Join(dir, "session-state", "*", "events.jsonl"))
	}}
}

type copilotLine struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		SessionID        string         `json:"sessionId"`
		CopilotVersion   string         `json:"copilotVersion"`
		ToolCallID       string         `json:"toolCallId"`
		ToolName         string         `json:"toolName"`
		Arguments        map[string]any `json:"arguments"`
		ParentToolCallID string         `json:"parentToolCallId"`
	} `json:"data"`
}

func parseCopilot(file string, r io.Reader) ([]Call, []Problem) {
	var calls []Call
	var probs []Problem
	session, version := "", ""
	probs = append(probs, lines(file, r, func(n int, b []byte) {
		if !bytes.Contains(b, []byte(`"session.start"`)) && !bytes.Contains(b, []byte(`"tool.execution_start"`)) {
			return // most lines hold no call: not decoded
		}
		var l copilotLine
		if p := decodeLine(file, n, b, &l); p != nil {
			probs = append(probs, *p)
			return
		}
		switch l.Type {
		case "session.start":
			if session == "" {
				session, version = l.Data.SessionID, l.Data.CopilotVersion
			}
			return
		case "tool.execution_start":
		default:
			return
		}
		_, cmd, kind, ok := spokenCall(&copilot.Agent, l.Data.ToolName, l.Data.Arguments)
		if !ok {
			return
		}
		if session == "" {
			probs = append(probs, Problem{file, n, "a tool call before the session.start line: skipped"})
			return
		}
		calls = append(calls, Call{Agent: string(copilot.Name), Version: version, Session: session, ToolUseID: l.Data.ToolCallID,
			Tool: l.Data.ToolName, Kind: kind, Command: clipCommand(cmd), Time: parseTime(l.Timestamp),
			Subagent: l.Data.ParentToolCallID, File: file, Line: n})
	})...)
	return calls, probs
}
