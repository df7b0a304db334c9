package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestOpenCodeWildcard: OpenCode's permission patterns: * any run, ? one character, the whole
// command, and a trailing " *" that may be absent.
func TestOpenCodeWildcard(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "anything at all", true},
		{"git *", "git push origin", true},
		{"git *", "git", true},
		{"git *", "github", false},
		{"git push", "git push origin", false},
		{"git push*", "git push origin", true},
		{"ls ?", "ls a", true},
		{"ls ?", "ls ab", false},
		{"rm -rf *", "rm -rf /", true},
		{"a.b", "axb", false},
		{"echo *", "echo a\nb", true},
		{"", "", true},
		{"", "ls", false},
	} {
		if got := WildcardMatch(c.pattern, c.s); got != c.want {
			t.Errorf("%q on %q: %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

// TestOpenCodeOwnRules: the ask and deny rules for OpenCode's bash tool, in its config files
// (global, the project's and a folder above it, .opencode, $OPENCODE_CONFIG_CONTENT), in each of
// their forms, keep a command from being rewritten; allow rules, rules of other tools and other
// commands do not; a file OpenCode's config cannot be read from keeps it too.
func TestOpenCodeOwnRules(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	project := filepath.Join(root, "project")
	write := func(path, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{}
	query := func(cmd string, words ...string) dialect.RulesQuery {
		return dialect.RulesQuery{Command: cmd, Calls: []dialect.RulesCall{{Words: words}}, Home: home, Project: project,
			Cwd: project, Getenv: func(k string) string { return env[k] }}
	}
	global := filepath.Join(home, ".config", "opencode", "opencode.json")
	write(global, `{"permission": {"*": "allow", "edit": "deny", "bash": {"*": "allow", "git push *": "ask", "ls": "allow"}}}`)
	write(filepath.Join(root, "opencode.jsonc"), "{\n // above the project\n \"agent\": {\"build\": {\"permission\": {\"bash\": {\"terraform *\": \"deny\"}}}}\n}")
	write(filepath.Join(project, ".opencode", "opencode.json"), `{"permission": {"bash": {"rm -rf *": "deny"}}}`)
	for _, c := range []struct {
		q    dialect.RulesQuery
		want string
	}{
		{query("git push origin main", "git", "push", "origin", "main"), `OpenCode's own permission rule "git push *": "ask" (permission.bash) in ` + global + " names it"},
		{query("cd x && terraform apply", "terraform", "apply"), `OpenCode's own permission rule "terraform *": "deny" (agent.build.permission.bash) in ` + filepath.Join(root, "opencode.jsonc") + " names it"},
		{query("sudo rm -rf build", "rm", "-rf", "build"), `OpenCode's own permission rule "rm -rf *": "deny" (permission.bash) in ` + filepath.Join(project, ".opencode", "opencode.json") + " names it"},
		{query("ls", "ls"), ""},
		{query("git status", "git", "status"), ""},
	} {
		if got := ownRules(c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q.Command, got, c.want)
		}
	}

	env["OPENCODE_CONFIG_CONTENT"] = `{"permission": "ask"}`
	if got := ownRules(query("git status", "git", "status")); got != `OpenCode's own permission rule "*": "ask" (permission) in $OPENCODE_CONFIG_CONTENT names it` {
		t.Errorf("permission as one action: got %q", got)
	}
	delete(env, "OPENCODE_CONFIG_CONTENT")
	write(filepath.Join(project, "opencode.json"), `{"permission": {"bash": "ask"}}`)
	if got := ownRules(query("git status", "git", "status")); !strings.Contains(got, `"*": "ask" (permission.bash)`) {
		t.Errorf("bash as one action: got %q", got)
	}
	write(filepath.Join(project, "opencode.json"), `{"permission": {"bash": {"ls": 3}}}`)
	if got := ownRules(query("git status", "git", "status")); !strings.Contains(got, "cannot be read as OpenCode reads it") || !strings.Contains(got, "permission.bash") {
		t.Errorf("a pattern whose action is a number: got %q", got)
	}
	write(filepath.Join(project, "opencode.json"), `{"permission": {"bash": {"ls": "allow",}}}`)
	if got := ownRules(query("git status", "git", "status")); !strings.Contains(got, "cannot be read as OpenCode reads it") || !strings.Contains(got, "line 1, column") {
		t.Errorf("a trailing comma: got %q", got)
	}
}

// TestOpenCodeRewriteReply: the rewrite is the allow with "args" the plugin puts in place of the
// tool's arguments, and the descriptor reads OpenCode's rules before it.
func TestOpenCodeRewriteReply(t *testing.T) {
	if Agent.OwnRules == nil || Agent.Answer.Rewrite == nil {
		t.Fatal("OpenCode's descriptor has no confined rewrite after its own rules")
	}
	r := Agent.Answer.Rewrite(map[string]any{"command": "confined", "description": "d"}, "why")
	if got := string(r.Stdout); got != `{"args":{"command":"confined","description":"d"},"decision":"allow","reason":"why"}`+"\n" {
		t.Errorf("got %s", got)
	}
	d := Dialect(dialect.AskAsDeny)
	s, _ := d.Lookup(BeforeTool)
	o := d.Interpret(s, 0, r.Stdout, nil, 0)
	if o.Failed || !strings.Contains(string(o.Answer.UpdatedInput), `"command":"confined"`) {
		t.Errorf("the dialect reads it back as %+v", o)
	}
}

// FuzzDecodeRules: any config file decodes into rules or an error naming the file; never a
// panic, and every pattern can be matched.
func FuzzDecodeRules(f *testing.F) {
	for _, s := range []string{
		`{"permission": {"*": "ask", "bash": {"git *": "allow", "rm *": "deny"}}}`,
		`{"permission": "deny"}`, `{"permission": {"bash": "ask"}}`,
		"{// c\n\"agent\": {\"plan\": {\"permission\": {\"bash\": {\"*\": \"ask\"}}}}}",
		`{"permission": {"bash": {"ls": 1}}}`, `{"agent": {"x": 1}}`, `{"permission": [1]}`, `[]`, `{`, ``,
		`{"permission": {"bash": {"((**??": "deny"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := DecodeRules("opencode.json", data)
		if err != nil {
			if !strings.Contains(err.Error(), "opencode.json") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for _, r := range rules {
			WildcardMatch(r.Pattern, "ls -la")
			WildcardMatch(r.Pattern, string(data))
		}
	})
}
