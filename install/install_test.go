package install_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	copilotdialect "github.com/agenthooks/agenthooks/dialect/copilot"
	"github.com/agenthooks/agenthooks/dialect/vscode"
	"github.com/agenthooks/agenthooks/install"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlanApply: install adds its entries after the foreign ones, which keep their order and
// bytes around them; a second plan changes nothing; uninstall restores the foreign entries only.
func TestPlanApply(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	file := filepath.Join(home, ".claude", "settings.json")
	foreign := `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./b.sh"}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}]}
    ]
  },
  "model": "opus"
}`
	write(t, file, foreign)
	o := install.Options{Home: home, Program: "/opt/agenthooks"}
	claude := agents.Get(dialect.Claude)
	c, err := install.Plan(claude, o, false)
	if err != nil || !c.Changed() || !c.Exists || c.File != file {
		t.Fatalf("plan: %+v %v", c, err)
	}
	if data, _ := os.ReadFile(file); string(data) != foreign {
		t.Fatal("Plan wrote the file")
	}
	if d := c.Diff(); !strings.HasPrefix(d, "--- "+file+"\n+++ "+file+"\n@@ ") || !strings.Contains(d, "\n+") {
		t.Errorf("diff:\n%s", d)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	b, a, guard := strings.Index(string(data), "./b.sh"), strings.Index(string(data), "./a.sh"), strings.Index(string(data), "/opt/agenthooks guard bash --fail-closed")
	if b < 0 || a < b || guard < a || !strings.Contains(string(data), `"model": "opus"`) {
		t.Errorf("foreign entries moved:\n%s", data)
	}
	if bak, _ := os.ReadFile(file + ".bak"); string(bak) != foreign {
		t.Errorf("backup: %s", bak)
	}
	again, err := install.Plan(claude, o, false)
	if err != nil || again.Changed() || again.Diff() != "" || string(again.New) != string(data) {
		t.Errorf("second plan: %+v %v", again.Changes, err)
	}
	rm, err := install.Plan(claude, o, true)
	if err != nil || !rm.Changed() {
		t.Fatalf("uninstall: %+v %v", rm, err)
	}
	if strings.Contains(string(rm.New), "agenthooks") || !strings.Contains(string(rm.New), "./a.sh") {
		t.Errorf("uninstall left:\n%s", rm.New)
	}
}

// TestPlanNewFile: a file that does not exist yet diffs from /dev/null; uninstall of a missing
// file changes nothing.
func TestPlanNewFile(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cursor := agents.Get(dialect.Cursor)
	c, err := install.Plan(cursor, install.Options{Home: home}, false)
	if err != nil || c.Exists || !strings.HasPrefix(c.Diff(), "--- /dev/null\n") || !strings.Contains(string(c.New), `"command": "agenthooks guard bash --fail-closed"`) {
		t.Fatalf("%+v %v\n%s", c, err, c.Diff())
	}
	rm, err := install.Plan(cursor, install.Options{Home: home}, true)
	if err != nil || !rm.Missing || rm.Changed() {
		t.Errorf("uninstall: %+v %v", rm, err)
	}
}

// TestPlanAll: two agents whose install files are one file are planned once; a broken file stops
// its agent only.
func TestPlanAll(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := map[string]string{"CODEX_HOME": filepath.Join(home, ".cursor")}
	o := install.Options{Home: home, Getenv: func(k string) string { return env[k] }}
	write(t, filepath.Join(home, ".gemini", "settings.json"), "{\n  ]\n}")
	list := []*dialect.Agent{agents.Get(dialect.Cursor), agents.Get(dialect.Codex), agents.Get(dialect.Gemini), agents.Get(dialect.Claude)}
	changes, err := install.PlanAll(list, o, false)
	if err == nil || !strings.Contains(err.Error(), "settings.json:2:3: not valid JSON, left untouched") {
		t.Errorf("error: %v", err)
	}
	if len(changes) != 2 || changes[0].Agent.Name != dialect.Cursor || len(changes[0].Also) != 1 || changes[0].Also[0].Name != dialect.Codex ||
		changes[1].Agent.Name != dialect.Claude {
		t.Errorf("changes: %+v", changes)
	}
}

// TestPresent: an agent is present by its folder in the home (or its variable's folder) or its
// program on PATH; in a project, by its folder in the workspace.
func TestPresent(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(home, ".claude"), filepath.Join(home, "codex"), filepath.Join(ws, ".cursor")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"CODEX_HOME": filepath.Join(home, "codex")}
	look := func(name string) (string, error) {
		if name == agents.Get(dialect.Gemini).Binary {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	o := install.Options{Home: home, Getenv: func(k string) string { return env[k] }, LookPath: look}
	got, why := install.Present(o)
	var names []string
	for i, a := range got {
		names = append(names, string(a.Name)+": "+why[i])
	}
	want := []string{"claude: " + filepath.Join(home, ".claude") + " exists", "codex: " + filepath.Join(home, "codex") + " exists", "gemini: gemini is on PATH (/usr/bin/gemini)"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("present:\n%q\nwant\n%q", names, want)
	}
	o.Scope, o.Workspace = install.ScopeProject, ws
	if got, _ := install.Present(o); len(got) != 1 || got[0].Name != dialect.Cursor {
		t.Errorf("project: %v", got)
	}
	// A project file at the workspace's root (Crush's crush.json) counts when it is there.
	write(t, filepath.Join(ws, "crush.json"), "{}")
	if got, _ := install.Present(o); len(got) != 2 || got[1].Name != "crush" {
		t.Errorf("project with crush.json: %v", got)
	}
}

// TestOverlaps: Cursor runs Claude Code's hooks files as well as its own, when set to; an agent
// that runs another's files at one scope only overlaps it there.
func TestOverlaps(t *testing.T) {
	t.Parallel()
	projectOnly := dialect.Agent{Name: "x", Reads: []dialect.Shared{{Agent: dialect.Claude, Scopes: []dialect.Scope{dialect.ScopeProject}}}}
	both := []*dialect.Agent{&projectOnly, agents.Get(dialect.Claude)}
	if ov := install.Overlaps(both, install.Options{}); len(ov) != 0 {
		t.Errorf("user scope: %+v", ov)
	}
	if ov := install.Overlaps(both, install.Options{Scope: install.ScopeProject}); len(ov) != 1 || ov[0].Setting != "" {
		t.Errorf("project scope: %+v", ov)
	}
	// Cursor and VS Code run Claude Code's files when set to; VS Code runs Copilot CLI's
	// hooks folder too, but install writes one file for both there, so no call runs it twice.
	ov := install.Overlaps(agents.All(), install.Options{})
	if len(ov) != 2 || ov[0].Agent.Name != dialect.Cursor || ov[0].Reads.Name != dialect.Claude || ov[0].Setting == "" ||
		ov[1].Agent.Name != vscode.Name || ov[1].Reads.Name != dialect.Claude || ov[1].Setting != "chat.useClaudeHooks" {
		t.Errorf("%+v", ov)
	}
	if ov := install.Overlaps([]*dialect.Agent{agents.Get(dialect.Cursor)}, install.Options{}); len(ov) != 0 {
		t.Errorf("Cursor alone: %+v", ov)
	}
}

func ExamplePlanAll() {
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)
	os.Mkdir(filepath.Join(home, ".gemini"), 0o755)
	o := install.Options{Home: home, Program: "agenthooks"}
	found, _ := install.Present(o)
	changes, _ := install.PlanAll(found, o, false)
	for _, c := range changes {
		fmt.Println(c.Agent.Title, len(c.Changes), "entries; first:", c.Changes[0])
		_ = c.Apply()
	}
	again, _ := install.PlanAll(found, o, false)
	fmt.Println("changed on a second run:", again[0].Changed())
	// Output:
	// Gemini CLI 9 entries; first: added BeforeTool: agenthooks guard bash --fail-closed
	// changed on a second run: false
}

// TestPlanOwn: an agent whose install file is agenthooks' own (Copilot CLI's hooks folder) gets
// the file whole, nothing changes on a second run, and uninstall deletes it.
func TestPlanOwn(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	copilot := &copilotdialect.Agent
	o := install.Options{Home: home, Program: "'/opt/my dir/agenthooks'"}
	c, err := install.Plan(copilot, o, false)
	if err != nil || !c.Changed() || c.File != filepath.Join(home, ".copilot", "hooks", "agenthooks.json") {
		t.Fatalf("%+v %v", c, err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(c.File)
	if !strings.Contains(string(data), `"bash":"'/opt/my dir/agenthooks' guard bash --fail-closed --agent copilot"`) || !strings.Contains(string(data), `& '/opt/my dir/agenthooks' guard bash`) {
		t.Errorf("file:\n%s", data)
	}
	if again, err := install.Plan(copilot, o, false); err != nil || again.Changed() {
		t.Errorf("second plan: %+v %v", again.Changes, err)
	}
	rm, err := install.Plan(copilot, o, true)
	if err != nil || !rm.Delete || !strings.Contains(rm.Diff(), "+++ /dev/null\n") {
		t.Fatalf("uninstall: %+v %v", rm, err)
	}
	if err := rm.Apply(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.File); !os.IsNotExist(err) {
		t.Errorf("the file is still there: %v", err)
	}
	o.Scope, o.Workspace = install.ScopeProject, filepath.Join(home, "ws")
	if f := o.File(copilot); f != filepath.Join(home, "ws", ".github", "hooks", "agenthooks.json") {
		t.Errorf("project file %s", f)
	}
}

// TestPlanWidensMatcher: an earlier install's guard entries for fewer tools (Qwen Code's
// run_shell_command and write_file|edit, before monitor and notebook_edit) are widened in place,
// not joined by a second guard on the same tools; a second plan changes nothing.
func TestPlanWidensMatcher(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	o := install.Options{Home: home, Program: "/opt/agenthooks"}
	qwen := agents.Get(dialect.Name("qwen"))
	first, err := install.Plan(qwen, o, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Apply(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(first.File)
	old := strings.NewReplacer(`"run_shell_command|monitor"`, `"run_shell_command"`, `"write_file|edit|notebook_edit"`, `"write_file|edit"`).Replace(string(data))
	if old == string(data) {
		t.Fatalf("install's Qwen matchers changed; this test's earlier file is out of date:\n%s", data)
	}
	write(t, first.File, old)
	c, err := install.Plan(qwen, o, false)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.Changes, "\n")
	for _, want := range []string{"updated PreToolUse: matcher run_shell_command → run_shell_command|monitor",
		"updated PreToolUse: matcher write_file|edit → write_file|edit|notebook_edit"} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "added") || string(c.New) != string(data) {
		t.Errorf("the widened file is not the one a fresh install writes; changes:\n%s\n%s", got, c.New)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	if again, err := install.Plan(qwen, o, false); err != nil || again.Changed() {
		t.Errorf("second plan: %+v %v", again.Changes, err)
	}
}
