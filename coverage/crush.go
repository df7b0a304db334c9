package coverage

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agenthooks/agenthooks/dialect/crush"
)

// Crush (built from its source at commit 37f36e9, after v0.90.0, as the e2e suite runs it) keeps
// each project's sessions in the SQLite database crush.db of the project's data folder (.crush in
// the project, unless its configuration moves it), and lists the projects it ran in, with their
// data folders, in projects.json beside its global data: $CRUSH_GLOBAL_DATA, else
// $XDG_DATA_HOME/crush, else ~/.local/share/crush. A call is a part of type "tool_call" (data:
// id, name, input as a JSON string) of a row of the messages table (id, session_id, role
// "assistant", parts, created_at: seconds, though its schema says milliseconds); the sessions
// table's parent_session_id is set for a subagent's session. The database names no version of
// Crush. Crush's hook payloads (session_id, tool_name, tool_input) carry no call id: calls and
// decisions are matched by session, command and time. Tool and argument names are read through
// dialect/crush (bash is Bash). A call's Line is the rowid of its message; the database is read
// as OpenCode's is (opencode.go).

// MaxProjects bounds the projects read from Crush's projects.json.
const MaxProjects = 1000

func crushAgent() Agent {
	return Agent{Name: string(crush.Name), ParseFile: parseCrush, Files: func(home string, env func(string) string) []string {
		dir := cmp.Or(env("CRUSH_GLOBAL_DATA"), filepath.Join(cmp.Or(env("XDG_DATA_HOME"), filepath.Join(home, ".local", "share")), "crush"))
		f, err := openTranscript(filepath.Join(dir, "projects.json"))
		if err != nil {
			return nil
		}
		defer f.Close()
		var list struct {
			Projects []struct {
				DataDir string `json:"data_dir"`
			} `json:"projects"`
		}
		data, err := io.ReadAll(io.LimitReader(f, MaxLine+1))
		if err != nil || len(data) > MaxLine || checkDepth(data) != nil || json.Unmarshal(data, &list) != nil {
			return nil
		}
		var patterns []string
		for i, p := range list.Projects {
			if i == MaxProjects {
				break
			}
			if filepath.IsAbs(p.DataDir) {
				patterns = append(patterns, filepath.Join(p.DataDir, "crush.db"))
			}
		}
		return recent(patterns...)
	}}
}

type crushPart struct {
	Type string `json:"type"`
	Data struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"data"`
}

func parseCrush(file string) ([]Call, []Problem) {
	if _, err := os.Lstat(file); err != nil {
		return nil, []Problem{{File: file, Msg: err.Error()}}
	}
	db, err := openSQLite(file)
	if err != nil {
		return nil, []Problem{{File: file, Msg: err.Error()}}
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), dbTimeout)
	defer cancel()
	rows, err := db.QueryContext(ctx, `SELECT m.rowid, m.id, m.session_id, m.created_at, length(m.parts),
		CASE WHEN length(m.parts) <= ? THEN m.parts END, coalesce(s.parent_session_id, '')
		FROM messages m LEFT JOIN sessions s ON s.id = m.session_id
		WHERE m.role = 'assistant' AND instr(m.parts, '"tool_call"') > 0
		ORDER BY m.created_at DESC, m.rowid DESC LIMIT ?`, MaxLine, MaxCalls+1)
	if err != nil {
		return nil, []Problem{{File: file, Msg: "read Crush's messages: " + err.Error()}}
	}
	defer rows.Close()
	var calls []Call
	var probs []Problem
	n := 0
	for rows.Next() {
		var (
			rowid, created, size int64
			id, session, parent  string
			parts                sql.NullString
		)
		if err := rows.Scan(&rowid, &id, &session, &created, &size, &parts, &parent); err != nil {
			probs = append(probs, Problem{File: file, Msg: "read a message: " + err.Error()})
			continue
		}
		if n++; n > MaxCalls {
			probs = append(probs, Problem{File: file, Line: int(rowid), Msg: fmt.Sprintf("more than %d messages with calls: the older ones are not read", MaxCalls)})
			break
		}
		if !parts.Valid {
			probs = append(probs, Problem{File: file, Line: int(rowid), Msg: fmt.Sprintf("message %s is longer than %d bytes: skipped", id, MaxLine)})
			continue
		}
		cs, ps := crushCalls(file, rowid, id, session, created, []byte(parts.String), parent)
		slices.Reverse(cs) // the whole list is reversed below: oldest message first, its calls in order
		calls = append(calls, cs...)
		probs = append(probs, ps...)
	}
	if err := rows.Err(); err != nil {
		probs = append(probs, Problem{File: file, Msg: "read Crush's messages: " + err.Error()})
	}
	slices.Reverse(calls)
	return calls, probs
}

// crushCalls reads the shell and file-changing calls of one message (its rowid, id, session,
// creation time and parts, its session's parent), in the order of its parts.
func crushCalls(file string, rowid int64, id, session string, created int64, parts []byte, parent string) ([]Call, []Problem) {
	var ps []crushPart
	if pr := decodeLine(file, int(rowid), parts, &ps); pr != nil {
		pr.Msg = "message " + id + ": " + pr.Msg
		return nil, []Problem{*pr}
	}
	if session == "" {
		return nil, []Problem{{File: file, Line: int(rowid), Msg: "message " + id + ": no session_id: skipped"}}
	}
	at := time.Unix(created, 0).UTC()
	if created > 1e11 || created < -1e11 { // milliseconds, as the schema says
		at = time.UnixMilli(created).UTC()
	}
	var calls []Call
	var probs []Problem
	for _, p := range ps {
		if p.Type != "tool_call" {
			continue
		}
		var args map[string]any
		if p.Data.Input != "" {
			if err := checkDepth([]byte(p.Data.Input)); err != nil {
				probs = append(probs, Problem{File: file, Line: int(rowid), Msg: "message " + id + ": tool call " + p.Data.ID + "'s input: " + err.Error()})
				continue
			}
			if err := json.Unmarshal([]byte(p.Data.Input), &args); err != nil {
				probs = append(probs, Problem{File: file, Line: int(rowid), Msg: "message " + id + ": tool call " + p.Data.ID + "'s input is not a JSON object: " + err.Error()})
				continue
			}
		}
		_, what, kind, ok := spokenCall(&crush.Agent, p.Data.Name, args)
		if !ok {
			continue
		}
		c := Call{Agent: string(crush.Name), Session: session, ToolUseID: p.Data.ID, Tool: p.Data.Name, Kind: kind,
			Command: clipCommand(what), Time: at, File: file, Line: int(rowid)}
		if parent != "" {
			c.Subagent = session
		}
		calls = append(calls, c)
	}
	return calls, probs
}
