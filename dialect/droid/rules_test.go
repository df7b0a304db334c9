package droid

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestDroidEntryMatches: commandDenylist and commandBlocklist entries as Droid 0.215.0 matches
// them, against a command line: words in order within one command, case-insensitive, a whole
// first word, a last "/" a prefix.
func TestDroidEntryMatches(t *testing.T) {
	for _, c := range []struct {
		entry, text string
		want        bool
	}{
		{"ls", "ls ./x.s?", true},
		{"ls", `"$(ls ./x.s?)"`, true},
		{"ls", "lsblk", false},
		{"ls", "echo hi && ls", true},
		{"LS", "ls -la", true},
		{"git push", "git push origin main", true},
		{"git push", "git -C repo push", true},
		{"git push", "git status; echo push", false},
		{"git push", "git pushx", false},
		{"rm -rf /", "rm -rf /tmp/x", true},
		{"rm -rf /", "rm -rf ./build", false},
		{"rm -rf .", "rm -rf .", true},
		{"rm -rf .", "rm -rf ./build", false},
		{"rm -rf ~", "sudo rm -rf ~/old", true},
		{"rm -rf $HOME", "rm -rf $HOME", true},
		{"chown -R", "chown -R me dir", true},
		{"dd of=/dev", "dd if=x of=/dev/sda", true},
		{"mkfs", "mkfs.ext4 /dev/sdb", false}, // "mkfs" must end at a separator
		{"mkfs.ext4", "mkfs.ext4 /dev/sdb", true},
		{":(){ :|: & };:", ":(){ :|: & };:", true},
		{"", "ls", false},
		{"   ", "ls", false},
	} {
		if got := firstMatch([]string{c.entry}, []string{c.text}) != ""; got != c.want {
			t.Errorf("entry %q on %q: match = %v, want %v", c.entry, c.text, got, c.want)
		}
	}
}

// TestDroidOwnRules: Droid's lists in its settings files (user, project, local, with comments)
// and its default denylist keep a command from being rewritten, with the entry and the file;
// a file it cannot read or one with permissionRules keeps it too; nothing else does.
func TestDroidOwnRules(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".factory", "settings.json")
	proj := filepath.Join(project, ".factory", "settings.json")
	write := func(path, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	query := func(cmd string, words ...string) dialect.RulesQuery {
		return dialect.RulesQuery{Command: cmd, Calls: []dialect.RulesCall{{Words: words}}, Home: home, Project: project,
			Files: []string{filepath.Join(project, ".factory", "hooks.json"), proj, filepath.Join(home, ".factory", "hooks.json"), user}}
	}
	write(user, "{\n  // mine\n  \"commandDenylist\": [\"git push\"],\n  \"hooks\": {}\n}\n")
	write(filepath.Join(project, ".factory", "settings.local.json"), `{"commandBlocklist": ["terraform destroy"]}`)
	write(filepath.Join(project, ".factory", "hooks.json"), `not json: hooks.json is not read for lists`)
	for _, c := range []struct {
		q    dialect.RulesQuery
		want string
	}{
		{query("git push origin", "git", "push", "origin"), `Droid's own commandDenylist entry "git push" in ` + user + " names it"},
		{query("cd x && terraform destroy -auto-approve", "terraform", "destroy", "-auto-approve"), `Droid's own commandBlocklist entry "terraform destroy" in ` + filepath.Join(project, ".factory", "settings.local.json") + " names it"},
		{query("sudo shutdown now", "shutdown", "now"), `Droid's default commandDenylist entry "shutdown" names it`},
		{query(`"$(ls ./x.s?)"`, "ls", "./x.s?"), ""},
		{query("git status", "git", "status"), ""},
	} {
		if got := ownRules(c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q.Command, got, c.want)
		}
	}

	write(proj, `{"permissionRules": {"version": 1, "rules": []}}`)
	if got := ownRules(query("git status", "git", "status")); !strings.Contains(got, "permissionRules in "+proj) {
		t.Errorf("permissionRules: got %q", got)
	}
	write(proj, "{\"commandDenylist\": [\"ls\", 3]}")
	if got := ownRules(query("git status", "git", "status")); !strings.Contains(got, "cannot be read as Droid reads it") || !strings.Contains(got, `"commandDenylist"`) || !strings.Contains(got, "line 1, column") {
		t.Errorf("a list with a number: got %q", got)
	}
	write(proj, "{\"commandDenylist\": [\"ls\",]}")
	if got := ownRules(query("git status", "git", "status")); !strings.Contains(got, "cannot be read as Droid reads it") {
		t.Errorf("a file that is not JSON: got %q", got)
	}
}

// TestDroidDescriptorReadsOwnRules: the descriptor gives the guard Droid's rules, so that its
// confined rewrite (an allow, which skips Droid's own questions) is never given for a command
// Droid would stop or ask about.
func TestDroidDescriptorReadsOwnRules(t *testing.T) {
	if Agent.OwnRules == nil || Agent.Answer.Rewrite == nil {
		t.Fatal("Droid's descriptor does not read its own rules before rewriting")
	}
}

// FuzzDecodeSettings: any settings file decodes into lists or an error naming the file; never
// a panic, and the lists' entries compile.
func FuzzDecodeSettings(f *testing.F) {
	for _, s := range []string{
		`{"commandDenylist": ["git push", "rm -rf /"], "commandBlocklist": []}`,
		"{// c\n\"commandBlocklist\": [\"x\" /* y */]}",
		`{"permissionRules": {"version": 1, "rules": [{"id": "a", "decision": "ask"}]}}`,
		`{"commandDenylist": [1]}`, `{"commandDenylist": "ls"}`, `[]`, `{`, ``, `null`,
		`{"commandDenylist": ["((((", "a.b*c", "$(x)", "~"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSettings("settings.json", data)
		if err != nil {
			if !strings.Contains(err.Error(), "settings.json") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for _, e := range append(s.Denylist, s.Blocklist...) {
			if strings.TrimSpace(e) != "" && entryPattern(e) == nil {
				t.Fatalf("entry %q has no pattern", e)
			}
			firstMatch([]string{e}, []string{string(data), "ls -la"})
		}
	})
}

// TestDroidOrgSettingsInUserDir: the org-managed settings are read from the user folder the
// query names (where FACTORY_HOME_OVERRIDE moves ~/.factory), not from ~/.factory.
func TestDroidOrgSettingsInUserDir(t *testing.T) {
	home, moved := t.TempDir(), t.TempDir()
	org := filepath.Join(moved, "cache", "org-managed-settings.json")
	if err := os.MkdirAll(filepath.Dir(org), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(org, []byte(`{"commandDenylist": ["kubectl delete"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	q := dialect.RulesQuery{Command: "kubectl delete ns x", Calls: []dialect.RulesCall{{Words: []string{"kubectl", "delete", "ns", "x"}}}, Home: home, UserDir: moved}
	if got, want := ownRules(q), `Droid's own commandDenylist entry "kubectl delete" in `+org+" names it"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	q.UserDir = filepath.Join(home, ".factory")
	if got := ownRules(q); got != "" {
		t.Errorf("the moved folder's list was read for ~/.factory: %q", got)
	}
}
