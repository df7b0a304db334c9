package coverage

import (
	"bytes"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// Gemini CLI keeps its chats under ~/.gemini/tmp/<project>/chats/ (the project folder is a
// hash of the project's path in older versions, its name in newer ones). Since 0.5x a chat is
// session-<time>-<id>.jsonl: a first line with sessionId, then messages, each written again
// when it changes (a message's toolCalls appear in a later copy of it), and {"$set": {...}}
// lines that may hold the messages array whole; before, one JSON file holding sessionId and
// messages. A call is an entry of a "gemini" message's toolCalls (id, name, args). Hook
// payloads carry no call id: calls and decisions are matched by session, command and time.

// modelMessage is the type of the model's messages in Gemini CLI's chat records, which hold its
// tool calls: a field value of the transcript, not the agent's name.
const modelMessage = "gemini"

// geminiTool says whether a Gemini CLI tool is a shell or file-changing one, and which
// argument names what it does.
func geminiTool(name string) (Kind, string, bool) {
	switch name {
	case "run_shell_command":
		return Shell, "command", true
	case "write_file", "replace", "edit":
		return File, "file_path", true
	}
	return "", "", false
}

func geminiAgent() Agent {
	return Agent{Name: "gemini", Parse: parseGemini, Files: func(home string, env func(string) string) []string {
		dir := filepath.Join(home, ".gemini", "tmp")
		return recent(filepath.Join(dir, "*", "chats", "*.jsonl"), filepath.Join(dir, "*", "chats", "*.json"))
	}}
}

type geminiMessage struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	ToolCalls []struct {
		ID        string         `json:"id"`
		Name      string         `json:"name"`
		Args      map[string]any `json:"args"`
		Timestamp string         `json:"timestamp"`
	} `json:"toolCalls"`
}

type geminiLine struct {
	SessionID string          `json:"sessionId"`
	Messages  []geminiMessage `json:"messages"`
	Set       *struct {
		Messages []geminiMessage `json:"messages"`
	} `json:"$set"`
	geminiMessage
}

func parseGemini(file string, r io.Reader) ([]Call, []Problem) {
	var calls []Call
	var probs []Problem
	session := ""
	seen := map[string]bool{}
	add := func(n int, m geminiMessage) {
		if m.Type != modelMessage {
			return
		}
		for i, tc := range m.ToolCalls {
			kind, field, ok := geminiTool(tc.Name)
			if !ok {
				continue
			}
			key := tc.ID
			if key == "" {
				key = m.ID + "/" + strconv.Itoa(i)
			}
			if seen[key] {
				continue // the same message written again
			}
			if session == "" {
				probs = append(probs, Problem{file, n, "a tool call before the line naming the session: skipped"})
				continue
			}
			seen[key] = true
			cmd, _ := tc.Args[field].(string)
			t := parseTime(tc.Timestamp)
			if t.IsZero() {
				t = parseTime(m.Timestamp)
			}
			calls = append(calls, Call{Agent: "gemini", Session: session, ToolUseID: tc.ID, Tool: tc.Name, Kind: kind,
				Command: clipCommand(cmd), Time: t, File: file, Line: n})
		}
	}
	read := func(n int, b []byte) {
		var l geminiLine
		if p := decodeLine(file, n, b, &l); p != nil {
			probs = append(probs, *p)
			return
		}
		if session == "" {
			session = l.SessionID
		}
		for _, m := range l.Messages {
			add(n, m)
		}
		if l.Set != nil {
			for _, m := range l.Set.Messages {
				add(n, m)
			}
		}
		add(n, l.geminiMessage)
	}
	if strings.HasSuffix(file, ".json") {
		// The older format: one JSON document.
		data, err := io.ReadAll(io.LimitReader(r, MaxLine+1))
		if err != nil {
			return nil, []Problem{{file, 0, err.Error()}}
		}
		if len(data) > MaxLine {
			return nil, []Problem{{file, 0, "chat file larger than the line limit: not read"}}
		}
		read(1, data)
		return calls, probs
	}
	probs = append(probs, lines(file, r, func(n int, b []byte) {
		if session != "" && !bytes.Contains(b, []byte(`"toolCalls"`)) {
			return
		}
		read(n, b)
	})...)
	return calls, probs
}
