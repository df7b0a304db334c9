package coverage

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/agenthooks/agenthooks/dialect/droid"
)

// Factory Droid (0.215.0: its binary and the sessions the e2e suite's runs leave) keeps one
// JSONL file a session under <home>/.factory/sessions/<working folder, every "/" made "-">/
// <session>.jsonl, home being $FACTORY_HOME_OVERRIDE when set. The first line, of type
// session_start, names the session (id); a call is a tool_use block (id, name, input) of a line
// of type "message" whose message's role is "assistant", at the line's timestamp. The file names
// no version of Droid. Droid's hook payloads (session_id, tool_name, tool_input) carry no call
// id: calls and decisions are matched by session, command and time. Tool and argument names
// are read through dialect/droid (Execute is Bash, Create is Write); ApplyPatch is a
// file-changing call whose patch is what it does.

func droidAgent() Agent {
	return Agent{Name: string(droid.Name), Parse: parseDroid, Files: func(home string, env func(string) string) []string {
		dir := filepath.Join(cmp.Or(env("FACTORY_HOME_OVERRIDE"), home), droid.Agent.Dir, "sessions")
		return recent(filepath.Join(dir, "*", "*.jsonl"))
	}}
}

type droidLine struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Message   struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

func parseDroid(file string, r io.Reader) ([]Call, []Problem) {
	var calls []Call
	var probs []Problem
	session := ""
	probs = append(probs, lines(file, r, func(n int, b []byte) {
		if !bytes.Contains(b, []byte(`"session_start"`)) && !bytes.Contains(b, []byte(`"tool_use"`)) {
			return // most lines hold no call: not decoded
		}
		var l droidLine
		if p := decodeLine(file, n, b, &l); p != nil {
			probs = append(probs, *p)
			return
		}
		if l.Type == "session_start" {
			if session == "" {
				session = l.ID
			}
			return
		}
		if l.Type != "message" || l.Message.Role != "assistant" || len(l.Message.Content) == 0 || l.Message.Content[0] != '[' {
			return
		}
		var blocks []claudeBlock
		if err := json.Unmarshal(l.Message.Content, &blocks); err != nil {
			probs = append(probs, jsonProblem(file, n, err))
			return
		}
		for _, bl := range blocks {
			if bl.Type != "tool_use" {
				continue
			}
			_, what, kind, ok := spokenCall(&droid.Agent, bl.Name, bl.Input)
			if !ok {
				continue
			}
			if session == "" {
				probs = append(probs, Problem{file, n, "a tool call before the session_start line: skipped"})
				continue
			}
			calls = append(calls, Call{Agent: string(droid.Name), Session: session, ToolUseID: bl.ID, Tool: bl.Name, Kind: kind,
				Command: clipCommand(what), Time: parseTime(l.Timestamp), File: file, Line: n})
		}
	})...)
	return calls, probs
}
