package coverage

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/dialect/cline"
)

// The Cline CLI (3.0.65, @cline/core 0.0.86: its session store read from the package and from
// the e2e suite's runs) keeps one folder a session under its sessions folder,
// $CLINE_SESSION_DATA_DIR, else $CLINE_DATA_DIR/sessions, else <$CLINE_DIR or ~/.cline>/data/
// sessions, and in it <session>.messages.json: one JSON document (version, sessionId, agent,
// origin.version, messages). A call is a tool_use block (id, name, input) of a message whose
// role is "assistant"; its time is the message's ts (milliseconds). The hook payloads carry the
// call's id (tool_call.id) and the session as sessionContext.rootSessionId (their taskId is
// the conversation's, which the messages file does not hold): calls and decisions are matched
// by session and id. Tool and argument names are read through dialect/cline (run_commands is
// Bash, its commands one command a line; editor is Edit or Write); apply_patch is a
// file-changing call whose patch is what it does. The file is read whole, at most MaxLine
// bytes; a call's Line is its message's number (1-based) in messages.

func clineAgent() Agent {
	return Agent{Name: string(cline.Name), HookIDs: true, Parse: parseCline,
		Decision: func(payload []byte, d *Decision) {
			m := spokenDecision(&cline.Agent, payload, d)
			if ctx, ok := m["sessionContext"].(map[string]any); ok {
				if root, _ := ctx["rootSessionId"].(string); root != "" {
					d.Session = root
				}
			}
		},
		Files: func(home string, env func(string) string) []string {
			dir := env("CLINE_SESSION_DATA_DIR")
			if dir == "" {
				data := cmp.Or(env("CLINE_DATA_DIR"), filepath.Join(cmp.Or(env("CLINE_DIR"), filepath.Join(home, ".cline")), "data"))
				dir = filepath.Join(data, "sessions")
			}
			return recent(filepath.Join(dir, "*", "*.messages.json"))
		}}
}

type clineMessages struct {
	SessionID string `json:"sessionId"`
	Agent     string `json:"agent"`
	Origin    struct {
		Version string `json:"version"`
	} `json:"origin"`
	Messages []struct {
		Role    string          `json:"role"`
		TS      int64           `json:"ts"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type clineBlock struct {
	Type  string         `json:"type"`
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// clineLead is the agent name of a session's own loop in its messages file.
const clineLead = "lead"

func parseCline(file string, r io.Reader) ([]Call, []Problem) {
	data, err := io.ReadAll(io.LimitReader(r, MaxLine+1))
	if err != nil {
		return nil, []Problem{{file, 0, err.Error()}}
	}
	if len(data) > MaxLine {
		return nil, []Problem{{file, 0, fmt.Sprintf("messages file larger than %d bytes: not read", MaxLine)}}
	}
	var f clineMessages
	if p := decodeLine(file, 0, data, &f); p != nil {
		return nil, []Problem{*p}
	}
	if f.SessionID == "" {
		return nil, []Problem{{file, 0, "no sessionId: not read"}}
	}
	subagent := ""
	if f.Agent != "" && f.Agent != clineLead {
		subagent = f.Agent
	}
	var calls []Call
	var probs []Problem
	for i, m := range f.Messages {
		if m.Role != "assistant" || len(m.Content) == 0 || m.Content[0] != '[' {
			continue
		}
		var blocks []clineBlock
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			p := jsonProblem(file, i+1, err)
			p.Msg = fmt.Sprintf("message %d: %s", i+1, p.Msg)
			probs = append(probs, p)
			continue
		}
		for _, b := range blocks {
			if b.Type != "tool_use" {
				continue
			}
			payload := map[string]any{"preToolUse": map[string]any{"toolName": b.Name},
				"tool_call": map[string]any{"id": b.ID, "name": b.Name, "input": b.Input}}
			_, what, kind, ok := spokenPayload(&cline.Agent, payload)
			if !ok {
				continue
			}
			var at time.Time
			if m.TS > 0 {
				at = time.UnixMilli(m.TS).UTC()
			}
			calls = append(calls, Call{Agent: string(cline.Name), Version: f.Origin.Version, Session: f.SessionID, ToolUseID: b.ID,
				Tool: b.Name, Kind: kind, Command: clipCommand(what), Time: at, Subagent: subagent, File: file, Line: i + 1})
		}
	}
	return calls, probs
}
