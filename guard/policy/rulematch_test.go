package policy

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// TestProgramMayMatchSkipsOnlyMisses: on every command of the guard's corpora, a rule that
// programMayMatch skips is one matchInvocation does not match: the shortcut changes no verdict.
func TestProgramMayMatchSkipsOnlyMisses(t *testing.T) {
	p := Default()
	ctx := Context{Home: "/home/dev", Cwd: "/home/dev/project", Project: "/home/dev/project"}
	c := &classifier{ctx: ctx}
	n := 0
	for _, file := range []string{"../testdata/corpus.tsv", "../testdata/blind.tsv", "../testdata/everyday.tsv", "../testdata/agents.tsv", "../testdata/agents-sessions.tsv"} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			_, cmd, ok := strings.Cut(sc.Text(), "\t")
			if !ok {
				continue
			}
			if _, rest, ok := strings.Cut(cmd, "\t"); ok {
				cmd = rest
			}
			s := shell.Analyze(strings.ReplaceAll(cmd, `\n`, "\n"), shell.Options{Home: ctx.Home, Cwd: ctx.Cwd})
			for i := range s.Invocations {
				v := newView(&s.Invocations[i])
				for _, r := range p.Rules {
					var plain int8
					if r.kind() != "invocation" || programMayMatch(r.Commands, v.name, &plain) {
						continue
					}
					n++
					if ok, _, _ := r.matchInvocation(v, c); ok {
						t.Errorf("%s: rule %s skipped for %q, yet it matches", file, r.ID, v.name)
					}
				}
			}
		}
		f.Close()
	}
	if n < 10000 {
		t.Errorf("only %d rule checks skipped over the corpora", n)
	}
}

// FuzzProgramMayMatch: a pattern programMayMatch rules out never matches the program, by name
// or by path.
func FuzzProgramMayMatch(f *testing.F) {
	for _, s := range [][3]string{{"rm", "rm", "/usr/bin/rm"}, {"git", "rm", "rm"}, {"*sh", "bash", "bash"}, {"/usr/bin/rm", "rm", "/usr/bin/rm"},
		{"r?", "rm", "rm"}, {"", "", ""}, {"[r]m", "rm", "rm"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, pattern, name, prog string) {
		v := &view{name: name, path: prog}
		var plain int8
		if !programMayMatch([]string{pattern}, name, &plain) && v.isProgram(pattern) {
			t.Fatalf("programMayMatch rules out %q for %q (%q), which isProgram matches", pattern, name, prog)
		}
	})
}

// TestRulesForAsEveryRule: the rules rulesFor gives an invocation, found once per program name
// across a command's invocations, are those the loop over every rule would try, in its order.
func TestRulesForAsEveryRule(t *testing.T) {
	p := Default()
	n := 0
	for _, file := range []string{"../testdata/corpus.tsv", "../testdata/everyday.tsv", "../testdata/agents.tsv"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			_, cmd, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
			if !ok {
				continue
			}
			if _, rest, ok := strings.Cut(cmd, "\t"); ok {
				cmd = rest
			}
			s := shell.Analyze(strings.ReplaceAll(cmd, `\n`, "\n"), shell.Options{Home: "/home/dev", Cwd: "/home/dev/project"})
			plain := make([]int8, len(p.Rules))
			var known []nameRules
			for i := range s.Invocations {
				name := newView(&s.Invocations[i]).name
				var want []int
				for j, r := range p.Rules {
					var pl int8
					if programMayMatch(r.Commands, name, &pl) && r.kind() == "invocation" && p.enabled(r) {
						want = append(want, j)
					}
				}
				if got := p.rulesFor(name, plain, &known); !slices.Equal(got, want) {
					t.Fatalf("%q, %s: rulesFor gives %v, every rule %v", cmd, name, got, want)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d invocations checked", n)
	}
}
