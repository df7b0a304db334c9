package coverage

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
)

// Claude Code keeps one JSONL file a session under ~/.claude/projects/<project slug>/
// (CLAUDE_CONFIG_DIR moves ~/.claude): <session>.jsonl, and each subagent's conversation in
// <session>/subagents/agent-<id>.jsonl, whose lines carry isSidechain and agentId (older
// versions wrote sidechain lines into the session's own file). A call is a tool_use block of a
// line of type "assistant"; other line types (api-request-blob among them) repeat earlier
// blocks and are not read. Hook payloads carry the call's id as tool_use_id, and hooks fire in
// subagents too (Claude Code 2.1, seen by e2e TestClaudeCoverage).

// claudeTool says whether Claude Code's tool name is a shell or file-changing one, and which
// input field names what it does. (A switch, not a map: no package initialisation in the
// binary agents start at every call.)
func claudeTool(name string) (kind Kind, field string, ok bool) {
	switch name {
	case "Bash", "PowerShell":
		return Shell, "command", true
	case "Write", "Edit", "MultiEdit":
		return File, "file_path", true
	case "NotebookEdit":
		return File, "notebook_path", true
	}
	return "", "", false
}

func claudeAgent() Agent {
	return Agent{Name: "claude", HookIDs: true, Parse: parseClaude, Files: func(home string, env func(string) string) []string {
		dir := env("CLAUDE_CONFIG_DIR")
		if dir == "" {
			dir = filepath.Join(home, ".claude")
		}
		projects := filepath.Join(dir, "projects")
		return recent(filepath.Join(projects, "*", "*.jsonl"), filepath.Join(projects, "*", "*", "subagents", "*.jsonl"))
	}}
}

type claudeLine struct {
	Type        string `json:"type"`
	SessionID   string `json:"sessionId"`
	Timestamp   string `json:"timestamp"`
	Version     string `json:"version"`
	IsSidechain bool   `json:"isSidechain"`
	AgentID     string `json:"agentId"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type claudeBlock struct {
	Type  string         `json:"type"`
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

func parseClaude(file string, r io.Reader) ([]Call, []Problem) {
	var calls []Call
	var probs []Problem
	probs = append(probs, lines(file, r, func(n int, b []byte) {
		if !bytes.Contains(b, []byte(`"tool_use"`)) {
			return // most lines hold no call: not decoded
		}
		var l claudeLine
		if p := decodeLine(file, n, b, &l); p != nil {
			probs = append(probs, *p)
			return
		}
		if l.Type != "assistant" || len(l.Message.Content) == 0 || l.Message.Content[0] != '[' {
			return
		}
		var blocks []claudeBlock
		if err := json.Unmarshal(l.Message.Content, &blocks); err != nil {
			probs = append(probs, jsonProblem(file, n, err))
			return
		}
		for _, bl := range blocks {
			kind, field, ok := claudeTool(bl.Name)
			if bl.Type != "tool_use" || !ok {
				continue
			}
			cmd, _ := bl.Input[field].(string)
			c := Call{Agent: "claude", Version: l.Version, Session: l.SessionID, ToolUseID: bl.ID, Tool: bl.Name, Kind: kind,
				Command: clipCommand(cmd), Time: parseTime(l.Timestamp), File: file, Line: n}
			if l.IsSidechain {
				c.Subagent = l.AgentID
				if c.Subagent == "" {
					c.Subagent = "sidechain"
				}
			}
			if c.Session == "" {
				probs = append(probs, Problem{file, n, "a tool call with no sessionId: skipped"})
				continue
			}
			calls = append(calls, c)
		}
	})...)
	return calls, probs
}
