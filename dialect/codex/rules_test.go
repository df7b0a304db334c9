package codex

import (
	"strings"
	"testing"
)

// TestParseCodexRules: the prefix_rule calls of Codex's .rules files, in the forms Codex's own
// documentation and its TUI write, and an error with its line for what is not a plain literal.
func TestParseCodexRules(t *testing.T) {
	src := `# comment
prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")
prefix_rule(
    pattern = ["rm"],
    decision = "forbidden",
    justification = """Use trash
instead""",
    match = [["rm", "-rf", "x"], "rm x"],
    not_match = ["rmdir x"],
)
prefix_rule(["ls"]) ; prefix_rule([r'c\at'], 'allow')
host_executable(name = "git", paths = ["/usr/bin/git", f"{HOME}/bin/git"])
network_rule(host = "example.com", protocol = "https", decision = "deny")
prefix_rule(pattern = ["echo", "\x41\u00e9\n"])
`
	rules, err := parseRules("x.rules", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		pattern, decision string
		line              int
	}{
		{"prefix_rule git push|fetch", "prompt", 2},
		{"prefix_rule rm", "forbidden", 3},
		{"prefix_rule ls", "allow", 11},
		{`prefix_rule c\at`, "allow", 11},
		{"prefix_rule echo Aé\n", "allow", 14},
	}
	if len(rules) != len(want) {
		t.Fatalf("got %d rules, want %d: %+v", len(rules), len(want), rules)
	}
	for i, w := range want {
		if got := rules[i]; got.String() != w.pattern || got.decision != w.decision || got.line != w.line {
			t.Errorf("rule %d = %q %s line %d, want %q %s line %d", i, got.String(), got.decision, got.line, w.pattern, w.decision, w.line)
		}
	}
	if !rules[0].matches([]string{"git", "fetch", "origin"}) || rules[0].matches([]string{"git", "status"}) || rules[0].matches([]string{"git"}) {
		t.Error("git push|fetch matches wrongly")
	}
	for _, c := range []struct{ src, err string }{
		{`X = ["rm"]`, `x.rules:1: only calls like prefix_rule(...) are read, not "X" followed by "="`},
		{"prefix_rule(pattern = X)", `x.rules:1: "X" is not a literal`},
		{"\n\nprefix_rule(pattern = [], decision = 'forbidden')", "x.rules:3: prefix_rule: pattern must be a non-empty list"},
		{"prefix_rule(pattern = ['rm'], decision = 'deny')", `decision must be allow, prompt or forbidden, not deny`},
		{"prefix_rule(pattern = [f'{x}'])", "an f-string is computed, not a literal"},
		{"prefix_rule(pattern = ['rm'], pattern = ['ls'])", "pattern given twice"},
		{"prefix_rule(pattern = [['rm', 1]])", "pattern alternatives must be strings"},
		{"prefix_rule(pattern = [1])", "pattern elements must be strings or lists of strings"},
		{"prefix_rule(pattern = ['rm'\n", "x.rules:2: the end of the file where , or ] belongs"},
		{"prefix_rule(pattern = 'rm)\n", "x.rules:1: string not closed before the end of the line"}, {"prefix_rule(pattern = 'rm)", "x.rules:1: string not closed"},
		{"host_executable(name = 'git'", "x.rules:1: a call is not closed"},
		{"def f():\n  pass", `only calls like prefix_rule(...) are read, not "def" followed by "f"`},
		{"prefix_rule(pattern = ['\\q'])", `unknown escape sequence \q`},
		{"prefix_rule(pattern = ['rm']) $", `unexpected character '$'`},
		{"prefix_rule(pattern = " + strings.Repeat("[", 40) + "'rm'" + strings.Repeat("]", 40) + ")", "lists nested more than 32 deep"},
	} {
		_, err := parseRules("x.rules", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.err)
		}
	}
}

// FuzzParseCodexRules: any file is read into rules or refused with an error that names the
// file and a line; never a panic.
func FuzzParseCodexRules(f *testing.F) {
	for _, s := range []string{
		`prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")`,
		"prefix_rule(\n  pattern = ['rm'],\n  decision = 'forbidden',\n  match = [\"rm -rf x\"],\n)\n",
		`host_executable(name = "git", paths = ["/usr/bin/git"])`,
		`prefix_rule(r'\d', b"x", """a
b""", '\x41\u00e9\U0001F600\101')`,
		"x = 1\n", "prefix_rule(", "prefix_rule(pattern = [[[[]]]])", "\\\nprefix_rule([\"a\"])",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := parseRules("f.rules", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.rules:") {
				t.Fatalf("error without its place: %v", err)
			}
			return
		}
		for _, r := range rules {
			if len(r.pattern) == 0 || r.decision != "allow" && r.decision != "prompt" && r.decision != "forbidden" {
				t.Fatalf("bad rule %+v", r)
			}
		}
	})
}
