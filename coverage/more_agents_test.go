package coverage

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/cline"
	"github.com/agenthooks/agenthooks/dialect/crush"
	"github.com/agenthooks/agenthooks/dialect/droid"
	"github.com/agenthooks/agenthooks/dialect/opencode"
	_ "modernc.org/sqlite" // the SQLite driver OpenCode's and Crush's databases are read with
)

// The fixtures under testdata/opencode, cline, droid and crush are real transcripts, written by
// OpenCode 1.18.33, the Cline CLI 3.0.65, Factory Droid 0.215.0 and Crush (source commit
// 37f36e9) in the e2e suite's runs against its model stand-in after agenthooks install --agent
// NAME, with the audit records of the same runs (paths scrubbed to /work, Cline's system prompt
// and Droid's tool list cut; the databases keep only their session, message and part tables).

// readCrushFixture reads the Crush fixture's database, which projects.json finds by an absolute
// path: it is listed from a projects.json written for the test.
func readCrushFixture(t *testing.T) ([]Call, []Problem) {
	t.Helper()
	data, err := filepath.Abs(filepath.Join("testdata", "crush"))
	if err != nil {
		t.Fatal(err)
	}
	global := t.TempDir()
	if err := os.WriteFile(filepath.Join(global, "projects.json"),
		[]byte(`{"projects":[{"path":"/work/ws","data_dir":"`+data+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string { return map[string]string{"CRUSH_GLOBAL_DATA": global}[k] }
	calls, transcripts, probs := Read(Options{Home: t.TempDir(), Getenv: env, Agents: []Agent{crushAgent()}})
	if transcripts["crush"] != 1 {
		t.Fatalf("want crush.db read once, got %v", transcripts)
	}
	return calls, probs
}

func readMoreFixture(t *testing.T, agent string) ([]Call, []Problem) {
	if agent == "crush" {
		return readCrushFixture(t)
	}
	return readFixture(t, agent)
}

func TestMoreAgentsTranscripts(t *testing.T) {
	for _, tc := range []struct {
		agent, session, version string
		want                    []callSummary
	}{
		{"opencode", "ses_df179e893ffegdes617xjtTx0C", "1.18.33", []callSummary{
			{"bash", "shell", "echo hello > hello.txt", "call_00", false},
			{"write", "file", "/work/ws/notes.txt", "call_01", false},
		}},
		{"cline", "1795540008525_3rmzd", "3.0.65", []callSummary{
			{"run_commands", "shell", "echo hello > hello.txt", "call_00", false},
			{"apply_patch", "file", "*** Begin Patch\n*** Add File: /work/ws/notes.txt\n+hi\n*** End Patch\n", "call_01", false},
		}},
		{"droid", "b2db60bf-dba9-4385-910f-a2dd78c65923", "", []callSummary{
			{"Execute", "shell", "echo hello > hello.txt", "call_00", false},
			// Droid keeps (and hooks get) the model's ApplyPatch arguments JSON-encoded once more.
			{"ApplyPatch", "file", `{"input":"*** Begin Patch\n*** Add File: /work/ws/notes.txt\n+hi\n*** End Patch\n"}`, "call_01", false},
		}},
		{"crush", "6f3cac66-3091-4de2-862d-a7570e185ed9", "", []callSummary{
			{"bash", "shell", "echo hello > hello.txt", "call_00", false},
			{"write", "file", "/work/ws/notes.txt", "call_01", false},
		}},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			calls, probs := readMoreFixture(t, tc.agent)
			if len(probs) > 0 {
				t.Errorf("problems: %v", probs)
			}
			if got := summarize(calls); !slices.Equal(got, tc.want) {
				t.Errorf("calls:\n got %+v\nwant %+v", got, tc.want)
			}
			for _, c := range calls {
				if c.Agent != tc.agent || c.Session != tc.session || c.Version != tc.version || c.Time.IsZero() || c.Line == 0 {
					t.Errorf("call %+v: want session %s, version %q, a time and a line", c, tc.session, tc.version)
				}
			}
		})
	}
}

// TestMoreAgentsGuarded: every call of the fixtures has its decision in the same run's audit
// (OpenCode's and Cline's by session and call id, Droid's and Crush's by session, command and
// time); without a call's decisions, that call is reported.
func TestMoreAgentsGuarded(t *testing.T) {
	for _, tc := range []struct {
		agent string
		match Match
		drop  string // a call whose decisions are dropped
	}{
		{"opencode", ByID, "call_01"},
		{"cline", ByID, "call_00"},
		{"droid", ByCommand, "call_00"},
		{"crush", ByCommand, "call_01"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			calls, _ := readMoreFixture(t, tc.agent)
			decisions := fixtureDecisions(t, tc.agent)
			rep := Check(calls, decisions, nil)
			if rep.Unguarded != 0 || rep.Calls != 2 {
				t.Fatalf("all guarded: got %d of %d calls unguarded: %+v", rep.Unguarded, rep.Calls, rep.Examples)
			}
			if len(rep.Agents) != 1 || rep.Agents[0].Match != tc.match || rep.Agents[0].Agent != tc.agent {
				t.Errorf("agents: %+v", rep.Agents)
			}
			i := slices.IndexFunc(calls, func(c Call) bool { return c.ToolUseID == tc.drop })
			dropped := calls[i]
			var kept []Decision
			for _, d := range decisions {
				if d.ToolUseID != tc.drop && !slices.Contains(d.Keys, dropped.Command) {
					kept = append(kept, d)
				}
			}
			if len(kept) == len(decisions) {
				t.Fatalf("no decision names %s (%q): %+v", tc.drop, dropped.Command, decisions)
			}
			rep = Check(calls, kept, nil)
			if rep.Unguarded != 1 || len(rep.Examples) != 1 || rep.Examples[0].ToolUseID != tc.drop || rep.Examples[0].Match != tc.match {
				t.Fatalf("with %s's decisions removed: %d unguarded, examples %+v", tc.drop, rep.Unguarded, rep.Examples)
			}
		})
	}
}

// TestMoreAgentsDecisions: the agents' own payloads give the session the transcript names and
// the call's id: OpenCode's sessionID and callID, Cline's sessionContext.rootSessionId (not its
// taskId) and tool_call.id; Droid's and Crush's session_id, and what the call does.
func TestMoreAgentsDecisions(t *testing.T) {
	for _, tc := range []struct {
		agent, session, id, key string
	}{
		{"opencode", "ses_df179e893ffegdes617xjtTx0C", "call_00", "echo hello > hello.txt"},
		{"cline", "1795540008525_3rmzd", "call_00", "echo hello > hello.txt"},
		{"droid", "b2db60bf-dba9-4385-910f-a2dd78c65923", "", "echo hello > hello.txt"},
		{"crush", "6f3cac66-3091-4de2-862d-a7570e185ed9", "", "echo hello > hello.txt"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			ds := fixtureDecisions(t, tc.agent)
			if !slices.ContainsFunc(ds, func(d Decision) bool {
				return d.Session == tc.session && d.ToolUseID == tc.id && slices.Contains(d.Keys, tc.key)
			}) {
				t.Errorf("no decision with session %s, id %q and %q: %+v", tc.session, tc.id, tc.key, ds)
			}
		})
	}
}

// TestMoreAgentsBrokenInput: what cannot be read is skipped and reported with its position (the
// line, the byte, the part's or message's row); the calls around it are read.
func TestMoreAgentsBrokenInput(t *testing.T) {
	t.Run("droid", func(t *testing.T) {
		calls, probs := parseDroid("t.jsonl", strings.NewReader(`{"type":"session_start","id":"s"}
{"type":"message","timestamp":"2026-11-24T17:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Execute","input":{"command":"ls"}}]}}
{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use", nope
{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"Create","input":{"file_path":"/x"}}]}}
`))
		if len(calls) != 2 || calls[1].Command != "/x" || calls[1].Kind != File || calls[0].Command != "ls" {
			t.Errorf("calls %+v", calls)
		}
		if len(probs) != 1 || probs[0].Line != 3 || !strings.Contains(probs[0].Msg, "not JSON at byte") {
			t.Errorf("problems %v: want one at line 3", probs)
		}
	})
	t.Run("droid before session_start", func(t *testing.T) {
		_, probs := parseDroid("t.jsonl", strings.NewReader(`{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Execute","input":{"command":"ls"}}]}}`))
		if len(probs) != 1 || probs[0].Line != 1 || !strings.Contains(probs[0].Msg, "session_start") {
			t.Errorf("problems %v", probs)
		}
	})
	t.Run("cline", func(t *testing.T) {
		calls, probs := parseCline("t.json", strings.NewReader(`{"sessionId":"s","messages":[
{"role":"assistant","ts":1,"content":[{"type":"tool_use","id":"a","name":"run_commands","input":{"commands":["ls","pwd"]}}]},
{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"editor","input":7}]},
{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"editor","input":{"path":"/x","new_text":"hi"}}]}]}`))
		if len(calls) != 2 || calls[0].Command != "ls\npwd" || calls[1].Command != "/x" || calls[1].Kind != File || calls[1].Line != 3 {
			t.Errorf("calls %+v", calls)
		}
		if len(probs) != 1 || probs[0].Line != 2 || !strings.Contains(probs[0].Msg, "message 2") {
			t.Errorf("problems %v: want one at message 2", probs)
		}
		if _, probs := parseCline("t.json", strings.NewReader(`{"sessionId":"s","messages":[`)); len(probs) != 1 || probs[0].Line != 0 {
			t.Errorf("a file cut short: %v", probs)
		}
		deep := `{"sessionId":"s","messages":[` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `]}`
		if _, probs := parseCline("t.json", strings.NewReader(deep)); len(probs) != 1 || !strings.Contains(probs[0].Msg, "nested deeper") {
			t.Errorf("a file nested too deep: %v", probs)
		}
	})
	t.Run("opencode", func(t *testing.T) {
		db := copyDB(t, filepath.Join("testdata", "opencode", "home", ".local", "share", "opencode", "opencode.db"))
		exec(t, db, `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)
			SELECT 'prt_bad', message_id, session_id, time_created, time_updated, '{"type":"tool","callID":"x", nope' FROM part LIMIT 1`)
		exec(t, db, `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)
			SELECT 'prt_big', message_id, session_id, time_created, time_updated, '{"callID":"y","pad":"' || hex(zeroblob(`+strconv.Itoa(MaxLine/2+1)+`)) || '"}' FROM part LIMIT 1`)
		calls, probs := parseOpenCode(db)
		if len(calls) != 2 {
			t.Errorf("calls %+v", calls)
		}
		if len(probs) != 2 || !slices.ContainsFunc(probs, func(p Problem) bool { return p.Line > 0 && strings.Contains(p.Msg, "part prt_bad: not JSON at byte") }) ||
			!slices.ContainsFunc(probs, func(p Problem) bool { return p.Line > 0 && strings.Contains(p.Msg, "part prt_big is longer than") }) {
			t.Errorf("problems %v", probs)
		}
	})
	t.Run("crush", func(t *testing.T) {
		db := copyDB(t, filepath.Join("testdata", "crush", "crush.db"))
		exec(t, db, `INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
			SELECT 'bad', session_id, 'assistant', '[{"type":"tool_call","data":{"id":"z","name":"bash","input":"{nope"}}]', created_at, updated_at FROM messages LIMIT 1`)
		calls, probs := parseCrush(db)
		if len(calls) != 2 {
			t.Errorf("calls %+v", calls)
		}
		if len(probs) != 1 || probs[0].Line == 0 || !strings.Contains(probs[0].Msg, "message bad: tool call z's input is not a JSON object") {
			t.Errorf("problems %v", probs)
		}
		if _, probs := parseCrush(filepath.Join(t.TempDir(), "none.db")); len(probs) != 1 {
			t.Errorf("a missing database: %v", probs)
		}
	})
	t.Run("not a database", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "opencode.db")
		if err := os.WriteFile(f, []byte("not a database at all, but long enough to be read as one's header......"), 0o600); err != nil {
			t.Fatal(err)
		}
		if calls, probs := parseOpenCode(f); len(calls) != 0 || len(probs) != 1 || probs[0].File != f {
			t.Errorf("calls %v, problems %v", calls, probs)
		}
	})
}

func copyDB(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dst
}

func exec(t *testing.T, file, query string) {
	t.Helper()
	db, err := sql.Open(sqlDriver, file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatal(err)
	}
}

// TestMoreAgentsFiles: where each agent's transcripts are looked for: OpenCode's
// $XDG_DATA_HOME/opencode (its opencode.db, a channel's opencode-<channel>.db, $OPENCODE_DB
// relative to it); Cline's $CLINE_SESSION_DATA_DIR, $CLINE_DATA_DIR/sessions or
// $CLINE_DIR/data/sessions; Droid's $FACTORY_HOME_OVERRIDE/.factory/sessions; Crush's
// databases, by the data folders of $CRUSH_GLOBAL_DATA/projects.json.
func TestMoreAgentsFiles(t *testing.T) {
	root := t.TempDir()
	touch := func(parts ...string) string {
		p := filepath.Join(append([]string{root}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oc := []string{touch("data", "opencode", "opencode.db"), touch("data", "opencode", "opencode-dev.db"), touch("data", "opencode", "mine.db")}
	touch("data", "opencode", "other.db")
	cl := touch("cline", "data", "sessions", "s1", "s1.messages.json")
	clSessions := touch("clsess", "s2", "s2.messages.json")
	dr := touch("fh", ".factory", "sessions", "-w", "s.jsonl")
	cr := touch("proj", ".crush", "crush.db")
	pj := touch("crushdata", "projects.json")
	if err := os.WriteFile(pj, []byte(`{"projects":[{"path":"/w","data_dir":"`+filepath.Dir(cr)+`"},{"path":"r","data_dir":"relative"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"XDG_DATA_HOME": filepath.Join(root, "data"), "OPENCODE_DB": "mine.db", "CLINE_DIR": filepath.Join(root, "cline"),
		"FACTORY_HOME_OVERRIDE": filepath.Join(root, "fh"), "CRUSH_GLOBAL_DATA": filepath.Join(root, "crushdata")}
	env := func(k string) string { return vars[k] }
	for _, tc := range []struct {
		agent Agent
		want  []string
	}{
		{openCodeAgent(), oc}, {clineAgent(), []string{cl}}, {droidAgent(), []string{dr}}, {crushAgent(), []string{cr}},
	} {
		got := tc.agent.Files(t.TempDir(), env)
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tc.agent.Name, got, want)
		}
	}
	vars["CLINE_SESSION_DATA_DIR"] = filepath.Join(root, "clsess")
	if got := clineAgent().Files(t.TempDir(), env); !slices.Equal(got, []string{clSessions}) {
		t.Errorf("CLINE_SESSION_DATA_DIR: %v", got)
	}
	// Without the variables, the folders under home.
	home := filepath.Join(root, "home")
	want := []string{touch("home", ".local", "share", "opencode", "opencode.db"), touch("home", ".cline", "data", "sessions", "s", "s.messages.json"),
		touch("home", ".factory", "sessions", "-w", "t.jsonl")}
	var got []string
	for _, a := range []Agent{openCodeAgent(), clineAgent(), droidAgent(), crushAgent()} {
		got = append(got, a.Files(home, func(string) string { return "" })...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("under home: got %v, want %v", got, want)
	}
}

func FuzzDroid(f *testing.F) { fuzzParser(f, "droid", "t.jsonl", parseDroid) }

// FuzzCline: the messages file is one document; a call's Line is its message's number.
func FuzzCline(f *testing.F) {
	_ = filepath.WalkDir(filepath.Join("testdata", "cline", "home"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
				f.Add(data[:len(data)/2])
			}
		}
		return nil
	})
	f.Add([]byte(`{"sessionId":"s","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"apply_patch","input":{"input":"x"}}]}]}`))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, probs := parseCline("t.json", bytes.NewReader(data))
		for _, c := range calls {
			if c.Agent != "cline" || c.Session == "" || (c.Kind != Shell && c.Kind != File) || c.Line < 1 || len(c.Command) > MaxCommand {
				t.Fatalf("call %+v", c)
			}
		}
		for _, p := range probs {
			if p.File != "t.json" || p.Line < 0 {
				t.Fatalf("problem %+v", p)
			}
		}
	})
}

// FuzzOpenCodePart and FuzzCrushMessage fuzz the decoders of one database row's JSON.
func FuzzOpenCodePart(f *testing.F) {
	f.Add([]byte(`{"type":"tool","tool":"bash","callID":"call_00","state":{"status":"completed","input":{"command":"ls"},"time":{"start":1795539338343}}}`))
	f.Add([]byte(`{"type":"tool","tool":"apply_patch","callID":"c","state":{"input":{"patchText":"*** Begin Patch"}}}`))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, p, ok := openCodeCall("db", 7, "prt", "ses", 1795539338331, data, "1", "")
		if ok && (p != nil || c.Session != "ses" || c.Line != 7 || (c.Kind != Shell && c.Kind != File) || len(c.Command) > MaxCommand) {
			t.Fatalf("call %+v, problem %v", c, p)
		}
		if p != nil && (ok || p.Line != 7 || p.File != "db") {
			t.Fatalf("problem %+v", p)
		}
	})
}

func FuzzCrushMessage(f *testing.F) {
	f.Add([]byte(`[{"type":"tool_call","data":{"id":"call_00","name":"bash","input":"{\"command\":\"ls\"}","finished":true}},{"type":"finish","data":{"reason":"tool_use"}}]`))
	f.Add([]byte(`[{"type":"tool_call","data":{"id":"c","name":"write","input":"{\"file_path\":\"/x\"}"}}]`))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, probs := crushCalls("db", 7, "m", "s", 1795539686, data, "")
		for _, c := range calls {
			if c.Session != "s" || c.Line != 7 || (c.Kind != Shell && c.Kind != File) || len(c.Command) > MaxCommand {
				t.Fatalf("call %+v", c)
			}
		}
		for _, p := range probs {
			if p.Line != 7 || p.File != "db" {
				t.Fatalf("problem %+v", p)
			}
		}
	})
}

// TestSQLitePaths: a database is opened read-only whatever its path holds ("?", "#", "%" would
// otherwise end or change the URI and open, or create, another file), and one that is missing is
// reported, not created.
func TestSQLitePaths(t *testing.T) {
	src := filepath.Join("testdata", "opencode", "home", ".local", "share", "opencode", "opencode.db")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a b", "a?b", "a#b", "a%20b"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, "opencode.db")
		if err := os.WriteFile(db, data, 0o600); err != nil {
			t.Fatal(err)
		}
		calls, probs := parseOpenCode(db)
		if len(calls) != 2 || len(probs) != 0 {
			t.Errorf("%q: %d calls, problems %v", name, len(calls), probs)
		}
		entries, _ := os.ReadDir(filepath.Dir(dir))
		if len(entries) != 1 {
			t.Errorf("%q: reading it wrote beside it: %v", name, entries)
		}
	}
	missing := filepath.Join(t.TempDir(), "opencode.db")
	if _, probs := parseOpenCode(missing); len(probs) != 1 {
		t.Errorf("a missing database: %v", probs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("reading a missing database created it")
	}
}

// TestMoreAgentsToolNames: each agent's shell and file-changing tools, read through its
// descriptor, and a tool that is neither (a read) left out.
func TestMoreAgentsToolNames(t *testing.T) {
	for _, tc := range []struct {
		agent      *dialect.Agent
		tool       string
		args       map[string]any
		kind, what string // kind "": not counted
	}{
		{&opencode.Agent, "bash", map[string]any{"command": "ls"}, "shell", "ls"},
		{&opencode.Agent, "write", map[string]any{"filePath": "/x"}, "file", "/x"},
		{&opencode.Agent, "edit", map[string]any{"filePath": "/x"}, "file", "/x"},
		{&opencode.Agent, "multiedit", map[string]any{"filePath": "/x"}, "file", "/x"},
		{&opencode.Agent, "apply_patch", map[string]any{"patchText": "*** Begin Patch"}, "file", "*** Begin Patch"},
		{&opencode.Agent, "patch", map[string]any{"patchText": "p"}, "file", "p"},
		{&opencode.Agent, "read", map[string]any{"filePath": "/x"}, "", ""},
		{&droid.Agent, "Execute", map[string]any{"command": "ls"}, "shell", "ls"},
		{&droid.Agent, "Create", map[string]any{"file_path": "/x"}, "file", "/x"},
		{&droid.Agent, "Edit", map[string]any{"file_path": "/x"}, "file", "/x"},
		{&droid.Agent, "ApplyPatch", map[string]any{"input": "p"}, "file", "p"},
		{&droid.Agent, "Read", map[string]any{"file_path": "/x"}, "", ""},
		{&crush.Agent, "bash", map[string]any{"command": "ls"}, "shell", "ls"},
		{&crush.Agent, "write", map[string]any{"file_path": "/x"}, "file", "/x"},
		{&crush.Agent, "edit", map[string]any{"file_path": "/x"}, "file", "/x"},
		{&crush.Agent, "multiedit", map[string]any{"file_path": "/x"}, "file", "/x"},
		{&crush.Agent, "view", map[string]any{"file_path": "/x"}, "", ""},
	} {
		_, what, kind, ok := spokenCall(tc.agent, tc.tool, tc.args)
		if ok != (tc.kind != "") || string(kind) != tc.kind || what != tc.what {
			t.Errorf("%s %s: got %q %q %v, want %q %q", tc.agent.Name, tc.tool, kind, what, ok, tc.kind, tc.what)
		}
	}
	for _, tc := range []struct {
		tool       string
		input      map[string]any
		kind, what string
	}{
		{"run_commands", map[string]any{"commands": []any{"ls", "pwd"}}, "shell", "ls\npwd"},
		{"editor", map[string]any{"path": "/x", "new_text": "hi"}, "file", "/x"},
		{"editor", map[string]any{"path": "/x", "old_text": "a", "new_text": "b"}, "file", "/x"},
		{"apply_patch", map[string]any{"input": "p"}, "file", "p"},
		{"read_files", map[string]any{"file_paths": []any{"/x"}}, "", ""},
	} {
		m := map[string]any{"preToolUse": map[string]any{"toolName": tc.tool}, "tool_call": map[string]any{"id": "c", "name": tc.tool, "input": tc.input}}
		_, what, kind, ok := spokenPayload(&cline.Agent, m)
		if ok != (tc.kind != "") || string(kind) != tc.kind || what != tc.what {
			t.Errorf("cline %s: got %q %q %v, want %q %q", tc.tool, kind, what, ok, tc.kind, tc.what)
		}
	}
}
