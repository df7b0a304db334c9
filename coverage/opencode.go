package coverage

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect/opencode"
)

// OpenCode (1.18.33, its storage read from the released binary and from the databases the e2e
// suite's runs leave) keeps every session in one SQLite database, opencode.db in its data
// folder: $XDG_DATA_HOME/opencode, ~/.local/share/opencode by default; $OPENCODE_DB names
// another (relative to the data folder unless absolute), and a build of another channel than
// latest, beta or prod writes opencode-<channel>.db. A call is a row of the part table (id,
// session_id, time_created, data) whose data is JSON of type "tool": tool, callID, and state
// (status, input, time.start in milliseconds); the session table gives the session's version
// and parent_id (set for a subagent's session, which the task tool starts). The plugin's
// payloads carry sessionID and callID: calls and decisions are matched by session and that id.
// Tool and argument names are read through dialect/opencode (bash is Bash, write's filePath is
// file_path); apply_patch and patch are file-changing calls whose patch is what they do.
//
// This package does not link an SQLite driver (agenthooks, which links it, must not pay for
// one): the program that reads a database links modernc.org/sqlite, as agenthooks-admin does.
// A call's Line is the rowid of its part.

// sqlDriver is the database/sql driver of the SQLite databases read.
const sqlDriver = "sqlite"

// dbTimeout bounds one database's queries.
const dbTimeout = time.Minute

func openCodeAgent() Agent {
	return Agent{Name: string(opencode.Name), HookIDs: true, ParseFile: parseOpenCode,
		Decision: func(payload []byte, d *Decision) { spokenDecision(&opencode.Agent, payload, d) },
		Files: func(home string, env func(string) string) []string {
			dir := filepath.Join(cmp.Or(env("XDG_DATA_HOME"), filepath.Join(home, ".local", "share")), "opencode")
			patterns := []string{filepath.Join(dir, "opencode.db"), filepath.Join(dir, "opencode-*.db")}
			if db := env("OPENCODE_DB"); db != "" && db != ":memory:" {
				if !filepath.IsAbs(db) {
					db = filepath.Join(dir, db)
				}
				patterns = append(patterns, db)
			}
			return recent(patterns...)
		}}
}

type openCodePart struct {
	Type   string `json:"type"`
	Tool   string `json:"tool"`
	CallID string `json:"callID"`
	State  struct {
		Input map[string]any `json:"input"`
		Time  struct {
			Start int64 `json:"start"`
		} `json:"time"`
	} `json:"state"`
}

// openSQLite opens the database at file read-only, or says why not.
func openSQLite(file string) (*sql.DB, error) {
	if !slices.Contains(sql.Drivers(), sqlDriver) {
		return nil, fmt.Errorf("this program does not link the SQLite driver (modernc.org/sqlite; agenthooks-admin does): not read")
	}
	// A URI, so that it is opened read-only: "%", "?" and "#" in the path are escaped (else
	// a path holding them would name, and create, another file).
	path := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(file))
	db, err := sql.Open(sqlDriver, "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

func parseOpenCode(file string) ([]Call, []Problem) {
	db, err := openSQLite(file)
	if err != nil {
		return nil, []Problem{{File: file, Msg: err.Error()}}
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), dbTimeout)
	defer cancel()
	// The newest calls first, at most MaxCalls of them; data longer than MaxLine is not fetched.
	rows, err := db.QueryContext(ctx, `SELECT p.rowid, p.id, p.session_id, p.time_created, length(p.data),
		CASE WHEN length(p.data) <= ? THEN p.data END, coalesce(s.version, ''), coalesce(s.parent_id, '')
		FROM part p LEFT JOIN session s ON s.id = p.session_id
		WHERE instr(p.data, '"callID"') > 0
		ORDER BY p.time_created DESC, p.rowid DESC LIMIT ?`, MaxLine, MaxCalls+1)
	if err != nil {
		return nil, []Problem{{File: file, Msg: "read OpenCode's parts: " + err.Error()}}
	}
	defer rows.Close()
	var calls []Call
	var probs []Problem
	n := 0
	for rows.Next() {
		var (
			rowid, created, size int64
			id, session          string
			data                 sql.NullString
			version, parent      string
		)
		if err := rows.Scan(&rowid, &id, &session, &created, &size, &data, &version, &parent); err != nil {
			probs = append(probs, Problem{File: file, Msg: "read a part: " + err.Error()})
			continue
		}
		if n++; n > MaxCalls {
			probs = append(probs, Problem{File: file, Line: int(rowid), Msg: fmt.Sprintf("more than %d calls: the older ones are not read", MaxCalls)})
			break
		}
		if !data.Valid {
			probs = append(probs, Problem{File: file, Line: int(rowid), Msg: fmt.Sprintf("part %s is longer than %d bytes: skipped", id, MaxLine)})
			continue
		}
		c, pr, ok := openCodeCall(file, rowid, id, session, created, []byte(data.String), version, parent)
		if pr != nil {
			probs = append(probs, *pr)
		}
		if ok {
			calls = append(calls, c)
		}
	}
	if err := rows.Err(); err != nil {
		probs = append(probs, Problem{File: file, Msg: "read OpenCode's parts: " + err.Error()})
	}
	slices.Reverse(calls)
	return calls, probs
}

// openCodeCall reads the call of one part (its rowid, id, session, creation time and data, its
// session's version and parent): ok is false for a part that is no shell or file-changing call,
// or one that cannot be read (then a problem says why).
func openCodeCall(file string, rowid int64, id, session string, created int64, data []byte, version, parent string) (Call, *Problem, bool) {
	var p openCodePart
	if pr := decodeLine(file, int(rowid), data, &p); pr != nil {
		pr.Msg = "part " + id + ": " + pr.Msg
		return Call{}, pr, false
	}
	if p.Type != "tool" {
		return Call{}, nil, false
	}
	_, what, kind, ok := spokenCall(&opencode.Agent, p.Tool, p.State.Input)
	if !ok {
		return Call{}, nil, false
	}
	if session == "" {
		return Call{}, &Problem{File: file, Line: int(rowid), Msg: "part " + id + ": a tool call with no session_id: skipped"}, false
	}
	at := cmp.Or(p.State.Time.Start, created)
	c := Call{Agent: string(opencode.Name), Version: version, Session: session, ToolUseID: p.CallID, Tool: p.Tool,
		Kind: kind, Command: clipCommand(what), Time: time.UnixMilli(at).UTC(), File: file, Line: int(rowid)}
	if parent != "" {
		c.Subagent = session // a session the task tool started
	}
	return c, nil, true
}
