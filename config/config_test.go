package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/srcpos"
)

var update = flag.Bool("update", false, "rewrite the .errors files of testdata/invalid")

func decodeFile(t testing.TB, path string) *File {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Decode(Source{Layer: User, File: filepath.Base(path), Trusted: true}, data)
}

func TestValidCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/valid/*.json")
	if len(files) == 0 {
		t.Fatal("no valid corpus")
	}
	for _, path := range files {
		f := decodeFile(t, path)
		if !f.Usable || len(f.Problems) > 0 {
			t.Errorf("%s: %v", path, f.Problems)
		}
	}
}

// TestInvalidCorpus checks every invalid file against the exact lines it must give.
func TestInvalidCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/invalid/*.json")
	if len(files) == 0 {
		t.Fatal("no invalid corpus")
	}
	for _, path := range files {
		f := decodeFile(t, path)
		var lines []string
		for _, p := range f.Problems {
			lines = append(lines, p.String())
		}
		got := strings.Join(lines, "\n") + "\n"
		golden := strings.TrimSuffix(path, ".json") + ".errors"
		if *update {
			os.WriteFile(golden, []byte(got), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s:\n got:\n%s want:\n%s", path, got, want)
		}
		if f.Problems.HasErrors() == false {
			t.Errorf("%s has no error", path)
		}
	}
}

func TestMatcher(t *testing.T) {
	t.Parallel()
	cases := []struct {
		matcher, target string
		text, want      bool
	}{
		{"", "anything", false, true},
		{"*", "anything", false, true},
		{"Shell", "Shell", false, true},
		{"Shell", "ShellX", false, false},
		{"Shell|Read", "Read", false, true},
		{"Shell, Read", "Read", false, true},
		{"MCP:.*", "MCP:search", false, true},
		{"^Sh", "Shell", false, true},
		{"git push", "git push --force origin", true, true},
		{"git push", "git status", true, false},
	}
	for _, c := range cases {
		h := &Hook{Matcher: c.matcher}
		if err := compileMatcher(h); err != nil {
			t.Fatal(err)
		}
		if got := h.Matches(c.target, c.text); got != c.want {
			t.Errorf("%q matching %q = %v", c.matcher, c.target, got)
		}
	}
}

func TestLoadLayersAndTrust(t *testing.T) {
	t.Parallel()
	home, ws, ent := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path, body string) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hook := func(cmd string) string {
		return `{"version":1,"hooks":{"stop":[{"command":"` + cmd + `"}]}}`
	}
	write(filepath.Join(home, ".cursor", "hooks.json"), hook("user"))
	write(filepath.Join(ws, ".cursor", "hooks.json"), hook("project"))
	write(filepath.Join(ent, "hooks.json"), hook("enterprise"))
	write(filepath.Join(home, ".cursor", "managed", "team_b", "hooks", "hooks.json"), hook("team-b"))
	write(filepath.Join(home, ".cursor", "managed", "team_a", "hooks", "hooks.json"), `{"version":1`)
	env := Env{Home: home, EnterpriseDir: ent, Workspaces: []string{ws}}

	cfg := Load(Candidates(env), nil)
	var got []string
	for _, h := range cfg.Hooks("stop") {
		got = append(got, h.Command)
	}
	if strings.Join(got, ",") != "enterprise,team-b,user" {
		t.Fatalf("untrusted: hooks %v", got)
	}
	if len(cfg.Untrusted()) != 1 || !cfg.Problems().HasErrors() {
		t.Fatalf("untrusted %v problems %v", cfg.Untrusted(), cfg.Problems())
	}
	store := &TrustStore{Path: filepath.Join(home, ".agenthooks", "trust.json")}
	if changed, err := store.Trust(ws); err != nil || !changed {
		t.Fatal(changed, err)
	}
	cfg = Load(Candidates(env), store.Check())
	got = got[:0]
	for _, h := range cfg.Hooks("stop") {
		got = append(got, h.Command)
	}
	if strings.Join(got, ",") != "enterprise,team-b,project,user" {
		t.Fatalf("trusted: hooks %v", got)
	}
	if changed, _ := store.Untrust(ws); !changed || len(Load(Candidates(env), store.Check()).Untrusted()) != 1 {
		t.Fatal("untrust did not take")
	}
}

func TestUnreadableLayerIsReported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := Load([]Candidate{{Layer: Enterprise, Path: dir}}, nil) // a folder where a file should be
	if len(cfg.Files) != 1 || cfg.Files[0].Usable || cfg.Problems()[0].Code != CodeRead {
		t.Fatalf("got %+v", cfg.Problems())
	}
}

func TestCandidatesPerPlatform(t *testing.T) {
	t.Parallel()
	for goos, want := range map[string]string{
		"linux":   "/etc/cursor/hooks.json",
		"darwin":  "/Library/Application Support/Cursor/hooks.json",
		"windows": `C:\ProgramData\Cursor`,
	} {
		if got := Candidates(Env{GOOS: goos})[0].Path; !strings.HasPrefix(got, want) && got != want {
			t.Errorf("%s: %s", goos, got)
		}
	}
}

// FuzzDecode: any bytes decode without panic, problems always have a position, and a file
// is usable exactly when it has no structural error.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.json")
	for _, s := range seeds {
		b, _ := os.ReadFile(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Decode(Source{File: "fuzz.json", Trusted: true}, data)
		for _, p := range file.Problems {
			if p.Line < 1 || p.Col < 1 || p.Message == "" {
				t.Fatalf("problem without a place or text: %+v", p)
			}
		}
		if file.Usable && hasStructuralErrors(file.Problems) {
			t.Fatal("usable with errors")
		}
		if !file.Usable && !file.Problems.HasErrors() {
			t.Fatal("unusable without an error")
		}
		_ = srcpos.List(file.Problems).Err()
	})
}

// FuzzDecodeSettings: any settings.json decodes without panic, with placed problems.
func FuzzDecodeSettings(f *testing.F) {
	for _, s := range []string{`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","if":"Bash(git *)"}]}]}}`,
		`{"disableAllHooks":true}`, `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"http://x","headers":{"a":"$B"}}]}]}}`, `{"hooks":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := DecodeSettings(Source{File: "settings.json", Family: "claude", Trusted: true}, data)
		for _, p := range file.Problems {
			if p.Line < 1 || p.Col < 1 || p.Message == "" {
				t.Fatalf("problem without a place or text: %+v", p)
			}
		}
		for _, h := range file.Hooks {
			if h.Type == "command" && h.Command == "" {
				t.Fatal("a command hook without a command")
			}
		}
	})
}

// FuzzMatcher: any matcher compiles or is rejected without panic, and matching never panics.
func FuzzMatcher(f *testing.F) {
	for _, s := range []string{"Bash", "Edit|Write", "mcp__.*", "*", "", "(", "a{1000}", "Notebook.*Edit"} {
		f.Add(s, "Bash")
	}
	f.Fuzz(func(t *testing.T, matcher, target string) {
		h := &Hook{Matcher: matcher}
		if compileMatcher(h) != nil {
			return
		}
		a, b := h.Matches(target, false), h.Matches(target, false)
		if a != b {
			t.Fatal("two answers")
		}
		h.Matches(target, true)
	})
}

func TestSettingsLayersDisableAndDedupe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(p, body string) string {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(body), 0o644)
		return full
	}
	hook := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	managed := write("managed/managed-settings.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./m.sh"}]}]}}`)
	user := write("home/.claude/settings.json", hook)
	project := write("ws/.claude/settings.json", hook)
	local := write("ws/.claude/settings.local.json", `{"disableAllHooks": false}`)
	env := Env{Home: filepath.Join(dir, "home"), ClaudeManagedDir: filepath.Join(dir, "managed"), Workspaces: []string{filepath.Join(dir, "ws")}}
	cands := ClaudeCandidates(env)
	var paths []string
	for _, c := range cands {
		paths = append(paths, c.Path)
	}
	if strings.Join(paths, ",") != strings.Join([]string{managed, local, project, user}, ",") {
		t.Fatalf("candidates %v", paths)
	}
	cfg := Load(cands, TrustAll)
	if got := cfg.HooksFor("claude", "PreToolUse", "pre-tool"); len(got) != 1 {
		t.Fatalf("identical handlers in two files ran %d times", len(got))
	}
	write("home/.claude/settings.json", `{"disableAllHooks": true, "hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./u.sh"}]}]}}`)
	cfg = Load(cands, TrustAll)
	if got := cfg.HooksFor("claude", "PreToolUse", "pre-tool"); len(got) != 2 {
		t.Fatalf("local's disableAllHooks false outranks user's true: got %d hooks", len(got))
	}
	write("ws/.claude/settings.local.json", `{"disableAllHooks": true}`)
	cfg = Load(cands, TrustAll)
	if got := cfg.HooksFor("claude", "PreToolUse", "pre-tool"); len(got) != 0 {
		t.Fatalf("disableAllHooks left %d hooks", len(got))
	}
	if got := cfg.HooksFor("claude", "Stop", "stop"); len(got) != 1 {
		t.Fatalf("a non-managed disableAllHooks turned off managed hooks")
	}
}

func TestClaudeTeamBundleIsTeamLayer(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	team := filepath.Join(home, ".cursor", "managed", "team_core", "hooks", "settings.json")
	os.MkdirAll(filepath.Dir(team), 0o755)
	os.WriteFile(team, []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./team.sh"}]}]}}`), 0o644)
	cands := ClaudeCandidates(Env{Home: home, ClaudeManagedDir: filepath.Join(home, "managed")})
	found := false
	for _, c := range cands {
		if c.Path == team {
			found = c.Layer == Team && c.Family == "claude"
		}
	}
	if !found {
		t.Fatalf("a team bundle in Claude Code's format is not a team-layer candidate: %+v", cands)
	}
	got := Load(cands, nil).HooksFor("claude", "PreToolUse", "pre-tool")
	if len(got) != 1 || got[0].Source.Layer != Team {
		t.Fatalf("team hooks = %+v", got)
	}
}

// TestRunErrors: the errors run --fail-closed denies for are those of the files whose hooks run;
// an untrusted project file's errors are problems still, but switch no hook off.
func TestRunErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	broken := []byte("{\"version\": 1, \"hooks\": {\"stop\": [],}}")
	user, project := filepath.Join(dir, "user.json"), filepath.Join(dir, "ws", ".cursor", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{user, project} {
		if err := os.WriteFile(p, broken, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cands := []Candidate{{Layer: Project, Path: project, Workspace: filepath.Join(dir, "ws")}, {Layer: User, Path: user}}
	cfg := Load(cands, nil) // nil trusts no project file
	if got := cfg.Problems().Errors(); len(got) != 2 {
		t.Fatalf("problems %v, want both files' syntax errors", got)
	}
	if got := cfg.RunErrors(); len(got) != 1 || got[0].File != user {
		t.Errorf("RunErrors %v, want the user file's error alone", got)
	}
	if got := Load(cands, TrustAll).RunErrors(); len(got) != 2 {
		t.Errorf("trusted, RunErrors %v, want both", got)
	}
}
