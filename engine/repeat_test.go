package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
)

// TestOwnEntry: an agenthooks entry of Claude Code's file that Cursor calls steps aside only for
// the same entry in Cursor's own user file that runs for this very call, at least as
// fail-closed; anything else, and every doubt, runs it.
func TestOwnEntry(t *testing.T) {
	t.Parallel()
	cursorShell := `{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Shell","tool_input":{"command":"rm -rf ~"},"workspace_roots":["/w"]}`
	cursorWrite := `{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Write","tool_input":{"file_path":"/w/a"},"workspace_roots":["/w"]}`
	claudeBash := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"},"cwd":"/w"}`
	const guard = `{"command":"agenthooks guard bash --fail-closed","failClosed":true}`
	absPolicy := "/p.yaml" // an absolute path on this system
	if runtime.GOOS == "windows" {
		absPolicy = `C:\p.yaml`
	}
	bse := func(entries string) string { return `{"version":1,"hooks":{"beforeShellExecution":[` + entries + `]}}` }
	pre := func(entries string) string { return `{"version":1,"hooks":{"preToolUse":[` + entries + `]}}` }
	cases := []struct {
		name, cursor, payload string
		in                    dialect.Name
		guard, policy         string
		failClosed, repeat    bool
	}{
		{"guard on the sibling event", bse(guard), cursorShell, dialect.Claude, "bash", "", true, true},
		{"guard on the same event, its matcher", pre(`{"command":"agenthooks guard bash --fail-closed","matcher":"Write|Delete","failClosed":true}`), cursorWrite, dialect.Claude, "bash", "", true, true},
		{"its matcher does not take the tool", pre(`{"command":"agenthooks guard bash --fail-closed","matcher":"Delete","failClosed":true}`), cursorWrite, dialect.Claude, "bash", "", true, false},
		{"the entry is Cursor's own", bse(guard), cursorShell, dialect.Cursor, "bash", "", true, false},
		{"Claude Code called", bse(guard), claudeBash, dialect.Claude, "bash", "", true, false},
		{"no own entry", `{"version":1,"hooks":{}}`, cursorShell, dialect.Claude, "bash", "", true, false},
		{"own guard with another policy", bse(`{"command":"agenthooks guard bash --fail-closed --policy /p.yaml","failClosed":true}`), cursorShell, dialect.Claude, "bash", "", true, false},
		{"the same absolute policy", bse(`{"command":"agenthooks guard bash --fail-closed --policy '` + strings.ReplaceAll(absPolicy, `\`, `\\`) + `'","failClosed":true}`), cursorShell, dialect.Claude, "bash", absPolicy, true, true},
		{"a relative policy", bse(`{"command":"agenthooks guard bash --fail-closed --policy p.yaml","failClosed":true}`), cursorShell, dialect.Claude, "bash", "p.yaml", true, false},
		{"own guard fails open", bse(`{"command":"agenthooks guard bash"}`), cursorShell, dialect.Claude, "bash", "", true, false},
		{"own guard fails open, ours too", bse(`{"command":"agenthooks guard bash"}`), cursorShell, dialect.Claude, "bash", "", false, true},
		{"own guard wrapped", bse(`{"command":"timeout 5 agenthooks guard bash --fail-closed","failClosed":true}`), cursorShell, dialect.Claude, "bash", "", true, false},
		{"own runner reading Claude Code's files", pre(`{"command":"agenthooks run --agent cursor --from claude preToolUse"}`), cursorShell, dialect.Claude, "", "", false, true},
		{"own runner reading all files", pre(`{"command":"agenthooks run preToolUse"}`), cursorShell, dialect.Claude, "", "", false, true},
		{"own runner reading others' files", pre(`{"command":"agenthooks run --agent cursor --from codex preToolUse"}`), cursorShell, dialect.Claude, "", "", false, false},
		{"own runner reading other configs", pre(`{"command":"agenthooks run --agent cursor --config /x.json preToolUse"}`), cursorShell, dialect.Claude, "", "", false, false},
		{"own runner on another event", pre(`{"command":"agenthooks run --agent cursor --from claude stop"}`), cursorShell, dialect.Claude, "", "", false, false},
		{"own runner fails open, ours closed", pre(`{"command":"agenthooks run --agent cursor --from claude preToolUse"}`), cursorShell, dialect.Claude, "", "", true, false},
		{"the event in Claude Code's spelling", bse(guard), `{"hook_event_name":"PreToolUse","tool_name":"Shell","tool_input":{"command":"ls"},"workspace_roots":["/w"]}`, dialect.Claude, "bash", "", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(c.cursor), 0o644); err != nil {
				t.Fatal(err)
			}
			e := New(&config.Config{}, Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none"),
				ClaudeManagedDir: filepath.Join(home, "none"), Workspaces: []string{filepath.Join(home, "w")}}})
			got := e.OwnEntry(Repeat{In: c.in, Payload: []byte(c.payload), Guard: c.guard, Policy: c.policy, FailClosed: c.failClosed})
			if (got != "") != c.repeat {
				t.Fatalf("OwnEntry = %q, want a repeat: %v", got, c.repeat)
			}
		})
	}
}

// FuzzOwnEntry: whatever payload arrives, OwnEntry never panics, and a payload that does not name
// an event of Cursor's by its own name is never a repeat.
func FuzzOwnEntry(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf ~"},"workspace_roots":["/w"]}`,
		`{"hook_event_name":"beforeShellExecution","command":"ls","workspace_roots":["/w"]}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":"x","workspace_roots":[1]}`,
		`{"workspace_roots":["/w"]}`, `null`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s), "bash")
		f.Add([]byte(s), "")
	}
	home := f.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		f.Fatal(err)
	}
	hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"agenthooks guard bash --fail-closed","failClosed":true}],` +
		`"preToolUse":[{"command":"agenthooks run --agent cursor --from claude preToolUse"},{"command":"agenthooks guard bash --fail-closed","matcher":"Write|Delete","failClosed":true}]}}`
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(hooks), 0o644); err != nil {
		f.Fatal(err)
	}
	e := New(&config.Config{}, Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none"), ClaudeManagedDir: filepath.Join(home, "none")}})
	f.Fuzz(func(t *testing.T, payload []byte, guard string) {
		got := e.OwnEntry(Repeat{In: dialect.Claude, Payload: payload, Guard: guard, FailClosed: true})
		var p struct {
			HookEventName string `json:"hook_event_name"`
		}
		if got != "" && (json.Unmarshal(payload, &p) != nil || p.HookEventName == "" || p.HookEventName[0] < 'a' || p.HookEventName[0] > 'z') {
			t.Fatalf("a repeat (%s) for a payload that names no Cursor event: %s", got, payload)
		}
	})
}

// TestOwnEntryInASharedFile: VS Code runs Copilot CLI's hooks folder as its own, so the guard
// there (--agent copilot) called with VS Code's payload has no other entry to step aside for: the
// only "own" entry is itself, and it must run.
func TestOwnEntryInASharedFile(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := filepath.Join(home, ".copilot", "hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := `{"hooks":{"PreToolUse":[{"type":"command","command":"agenthooks guard bash --fail-closed --agent copilot"}]}}`
	if err := os.WriteFile(filepath.Join(dir, "agenthooks.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	// Both spellings of the event, so that nothing short of the shared file stops the search.
	payload := `{"hookEventName":"PreToolUse","hook_event_name":"PreToolUse","sessionId":"s","tool_name":"run_in_terminal","tool_input":{"command":"rm -rf ~"},"cwd":"/w"}`
	r := Repeat{In: dialect.Name("copilot"), Payload: []byte(payload), Guard: "bash", FailClosed: true}
	if c := r.Caller(); c == nil || c.Name != "vscode" {
		t.Fatalf("Caller = %v, want VS Code", c)
	}
	// COPILOT_HOME moves Copilot CLI's user folder but not VS Code's, which reads ~/.copilot/hooks
	// as written: the file there is still Copilot's file by its place, and must not count as VS
	// Code's own entry for itself.
	for _, copilotHome := range []string{"", filepath.Join(home, "elsewhere")} {
		e := New(&config.Config{}, Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none"),
			ClaudeManagedDir: filepath.Join(home, "none"), Workspaces: []string{filepath.Join(home, "w")},
			Getenv: func(k string) string {
				if k == "COPILOT_HOME" {
					return copilotHome
				}
				return ""
			}}})
		if got := e.OwnEntry(r); got != "" {
			t.Fatalf("COPILOT_HOME=%q: OwnEntry = %q: the guard in the file both agents read stepped aside for itself", copilotHome, got)
		}
	}
}

// TestOwnEntryVSCode: with chat.useClaudeHooks on, VS Code runs Claude Code's settings too, so
// the guard in Claude Code's file (--agent claude) is called with VS Code's payload. It never steps aside, not even for the same guard in the shared
// ~/.copilot/hooks/agenthooks.json: chat.hookFilesLocations can switch that folder off where
// agenthooks cannot see it (Agent.OwnFilesSwitch), and a guard that stepped aside for an entry
// that does not run would drop a deny. The guard in the shared file itself never steps aside,
// wherever COPILOT_HOME points.
func TestOwnEntryVSCode(t *testing.T) {
	t.Parallel()
	// Both spellings of the event, so that nothing short of the reason under test stops the search
	// (VS Code's own payload names it only in hookEventName, which OwnEntry does not read).
	payload := []byte(`{"timestamp":"2026-11-24T10:30:00.000Z","cwd":"/w","sessionId":"s","hookEventName":"PreToolUse","hook_event_name":"PreToolUse","tool_name":"run_in_terminal","tool_input":{"command":"rm -rf ~","explanation":"x","isBackground":false},"tool_use_id":"t"}`)
	shared := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"agenthooks guard bash --fail-closed --agent copilot","matcher":"bash|create|edit","timeoutSec":30}]}}`
	cases := []struct {
		name, user, project, copilotHome string
		in                               dialect.Name
		repeat                           bool
	}{
		{"Claude Code's guard, the shared file has it", shared, "", "", dialect.Claude, false},
		{"Claude Code's guard, nothing in VS Code's files", "", "", "", dialect.Claude, false},
		{"Claude Code's guard, only a project file has it", "", shared, "", dialect.Claude, false},
		{"Claude Code's guard, the shared guard fails open", `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"agenthooks guard bash --agent copilot"}]}}`, "", "", dialect.Claude, false},
		{"the shared file's own guard", shared, "", "", dialect.Name("copilot"), false},
		{"the shared file's own guard, COPILOT_HOME elsewhere", shared, "", "elsewhere", dialect.Name("copilot"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			write := func(dir, body string) {
				if body == "" {
					return
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "agenthooks.json"), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(home, ".copilot", "hooks"), c.user)
			write(filepath.Join(home, "w", ".github", "hooks"), c.project)
			copilotHome := ""
			if c.copilotHome != "" {
				copilotHome = filepath.Join(home, c.copilotHome)
			}
			e := New(&config.Config{}, Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none"),
				ClaudeManagedDir: filepath.Join(home, "none"), Workspaces: []string{filepath.Join(home, "w")},
				Getenv: func(k string) string {
					if k == "COPILOT_HOME" {
						return copilotHome
					}
					return ""
				}}})
			r := Repeat{In: c.in, Payload: payload, Guard: "bash", FailClosed: true}
			if cl := r.Caller(); cl == nil || cl.Name != "vscode" {
				t.Fatalf("Caller = %v, want VS Code", cl)
			}
			if got := e.OwnEntry(r); (got != "") != c.repeat {
				t.Fatalf("OwnEntry = %q, want a repeat: %v", got, c.repeat)
			}
		})
	}
}

// TestAtPlaceOf: a file is Copilot CLI's by its place (~/.copilot/hooks/*.json,
// .github/hooks/*.json) whatever COPILOT_HOME says, so that a file VS Code and Copilot CLI both
// run is never counted as only VS Code's.
func TestAtPlaceOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file string
		want bool
	}{
		{filepath.Join("/h", ".copilot", "hooks", "agenthooks.json"), true},
		{filepath.Join("/w", ".github", "hooks", "team.json"), true},
		{filepath.Join("/h", ".cursor", "hooks.json"), false},
		{filepath.Join("/h", ".copilot", "agenthooks.json"), false},
	} {
		if got := atPlaceOf("copilot", c.file); got != c.want {
			t.Errorf("atPlaceOf(copilot, %s) = %v, want %v", c.file, got, c.want)
		}
	}
	if atPlaceOf("no-such-agent", "/h/.copilot/hooks/a.json") {
		t.Error("an unknown agent has no places")
	}
}
