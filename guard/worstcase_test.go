package guard_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/guard/shell"
)

// fill repeats unit until the text is as long as n bytes would allow, no longer.
func fill(prefix, unit, suffix string, n int) string {
	k := (n - len(prefix) - len(suffix)) / len(unit)
	return prefix + strings.Repeat(unit, max(k, 0)) + suffix
}

const kb64 = 64 << 10

// worstCase is a command built to cost the guard as much as it can, with the decisions the
// guard may give it.
type worstCase struct {
	name    string
	command string
	files   map[string]string // scripts the command runs, in the project
	want    []guard.Decision  // allowed decisions; never Allow
}

func nestedHeredocShells(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("bash <<'E")
		b.WriteString(itoa(i))
		b.WriteString("'\n")
	}
	b.WriteString("rm -rf ~\n")
	for i := n - 1; i >= 0; i-- {
		b.WriteString("E")
		b.WriteString(itoa(i))
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

// manyVars assigns n variables, each known: what a subshell copies.
func manyVars(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("a" + itoa(i) + "=/tmp/x" + itoa(i) + "; ")
	}
	return b.String()
}

// fanOut defines functions f1..fn, each calling the one before twice: 2^n calls of f0.
func fanOut(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("f" + itoa(i) + "(){ f" + itoa(i-1) + "; f" + itoa(i-1) + "; }; ")
	}
	return b.String()
}

func nestedBashC(inner string, maxLen int) string {
	cmd := inner
	for {
		next := "bash -c " + shellQuote(cmd)
		if len(next) > maxLen {
			return cmd
		}
		cmd = next
	}
}

var (
	askOrDeny = []guard.Decision{guard.Ask, guard.Deny}
	// any: benign text the guard may read whole within its budget, and then allow
	any  = []guard.Decision{guard.Allow, guard.Ask, guard.Deny}
	deny = []guard.Decision{guard.Deny}
)

func worstCases() []worstCase {
	return []worstCase{
		{name: "64KB-repeated-rm", command: fill("", "rm -rf $x; ", "", kb64), want: askOrDeny},
		{name: "64KB-repeated-rm-home", command: fill("", "rm -rf ~; ", "", kb64), want: deny},
		// what the budget did not reach is not known: ask
		{name: "64KB-repeated-rm-last", command: fill("", "echo hi; ", "rm -rf ~", kb64), want: askOrDeny},
		{name: "64KB-one-long-word", command: fill("echo ", "a", "", kb64), want: any},
		{name: "64KB-one-long-word-parts", command: fill("echo ", `a"b"'c'$d${e}`, "", kb64), want: askOrDeny},
		{name: "64KB-many-words", command: fill("rm -rf", " a", " ~", kb64), want: askOrDeny},
		{name: "10000-deep-$( )", command: strings.Repeat("$(", 10000) + "rm -rf ~" + strings.Repeat(")", 10000), want: askOrDeny},
		{name: "10000-deep-subshell", command: strings.Repeat("(", 10000) + "rm -rf ~" + strings.Repeat(")", 10000), want: askOrDeny},
		{name: "5000-deep-if", command: strings.Repeat("if true; then ", 5000) + "rm -rf ~" + strings.Repeat("; fi", 5000), want: askOrDeny},
		{name: "deep-bash-c", command: nestedBashC("rm -rf ~", kb64), want: askOrDeny},
		{name: "3000-deep-bash-heredoc", command: nestedHeredocShells(3000), want: askOrDeny},
		{name: "10000-deep-eval", command: strings.Repeat("eval ", 10000) + "rm -rf '~'", want: askOrDeny},
		{name: "10000-deep-sudo", command: strings.Repeat("sudo ", 10000) + "rm -rf ~", want: askOrDeny},
		{name: "10000-deep-env", command: strings.Repeat("env ", 10000) + "rm -rf ~", want: askOrDeny},
		{name: "10000-deep-timeout", command: strings.Repeat("timeout 1 ", 6000) + "rm -rf ~", want: askOrDeny},
		// wrappers deep enough to cost the guard, short enough to be read whole: deny
		{name: "1000-deep-sudo", command: strings.Repeat("sudo ", 1000) + "rm -rf ~", want: deny},
		{name: "1000-deep-env-timeout", command: strings.Repeat("env timeout 1 ", 1000) + "rm -rf ~", want: askOrDeny},
		// a "<<" the nesting count takes for a heredoc, though it is quoted
		{name: "fake-heredoc-then-8000-deep-subshell", command: "echo '<<X'\n" + strings.Repeat("(", 8000) + "rm -rf ~" + strings.Repeat(")", 8000), want: askOrDeny},
		{name: "fake-heredoc-then-3000-deep-if", command: "echo '<<X'\n" + strings.Repeat("if :; then ", 3000) + "rm -rf ~" + strings.Repeat("; fi", 3000), want: askOrDeny},
		{name: "3000-vars-3000-subshells", command: manyVars(3000) + strings.Repeat("(rm -rf $a1); ", 3000), want: askOrDeny},
		{name: "nested-static-loops", command: strings.Repeat("for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do ", 8) + "x=1; rm -rf $x" + strings.Repeat("; done", 8), want: askOrDeny},
		{name: "function-fan-out", command: "f0(){ rm -rf $x; }; " + fanOut(40) + "f40", want: askOrDeny},
		{name: "python-nested-parens", command: fill("python3 -c '", "(", "'", kb64), want: askOrDeny},
		{name: "python-many-system", command: fill("python3 -c '", `os.system("rm -rf $x");`, "'", kb64), want: askOrDeny},
		{name: "python-nested-system", command: fill("python3 -c '", `os.system("python3 -c \"`, "'", kb64), want: askOrDeny},
		{name: "node-nested-brackets", command: fill("node -e '", "[{(", "'", kb64), want: askOrDeny},
		{name: "node-many-exec", command: fill("node -e '", "require(\"child_process\").execSync(`rm -rf ${x}`);", "'", kb64), want: askOrDeny},
		{name: "sql-nested-parens", command: fill(`psql -c "`, "(", `"`, kb64), want: askOrDeny},
		{name: "sql-many-statements", command: fill(`psql -c "`, "SELECT 1; ", `"`, kb64), want: any},
		{name: "sql-many-drops", command: fill(`psql -c "`, "DROP TABLE t; ", `"`, kb64), want: askOrDeny},
		{name: "sql-heredoc", command: fill("psql <<'EOF'\n", "SELECT a FROM b WHERE c = (SELECT d FROM e);\n", "EOF", kb64), want: any},
		{name: "huge-heredoc-to-bash", command: fill("bash <<'EOF'\n", "rm -rf $x\n", "EOF", kb64), want: askOrDeny},
		{name: "huge-heredoc-to-python", command: fill("python3 - <<'EOF'\n", "os.system(\"rm -rf $x\")\n", "EOF", kb64), want: askOrDeny},
		// what the workspace holds is read whole: a 64 KB pathological program or SQL file
		{name: "python-file-many-calls", command: "python3 tool.py", files: map[string]string{"tool.py": fill("", "os.system('rm -rf $x')\n", "", kb64)}, want: askOrDeny},
		{name: "python-file-exec-nesting", command: "python3 tool.py", files: map[string]string{"tool.py": fill("", `exec("`, "", kb64)}, want: askOrDeny},
		{name: "node-file-templates", command: "node tool.js", files: map[string]string{"tool.js": fill("", "`${", "", kb64)}, want: askOrDeny},
		{name: "sql-file-nested-parens", command: "psql -f q.sql", files: map[string]string{"q.sql": "SELECT " + strings.Repeat("(", 32<<10-8) + strings.Repeat(")", 32<<10-8)}, want: any},
		{name: "sql-file-where", command: "psql -f q.sql", files: map[string]string{"q.sql": fill("DELETE FROM t WHERE ", "(1=1 OR ", "", kb64)}, want: askOrDeny},
		{name: "sql-file-many-drops", command: "psql -f q.sql", files: map[string]string{"q.sql": fill("", "DROP TABLE t;\n", "", kb64)}, want: askOrDeny},
		{name: "sql-file-8KB-drops", command: "psql -f q.sql", files: map[string]string{"q.sql": fill("", "DROP TABLE t;\n", "", 8<<10)}, want: deny},
		// a text too large to read is skipped, and the budget kept for the rest of the command
		{name: "python-file-64KB-then-rm", command: "python3 tool.py && rm -rf ~", files: map[string]string{"tool.py": fill("", "print('hello')\n", "", kb64)}, want: deny},
		{name: "script-calls-itself", command: "bash run.sh", files: map[string]string{"run.sh": fill("", "bash run.sh; bash run.sh; rm -rf $x\n", "", 128<<10)}, want: askOrDeny},
	}
}

// BenchmarkWorstCase measures the commands built to cost the guard most: each must be answered
// within 5 ms.
func BenchmarkWorstCase(b *testing.B) {
	g := guard.Default()
	for _, c := range worstCases() {
		ctx := worstCtx(c)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				g.Check(c.command, ctx)
			}
			// CPU time as well as the wall clock: on a shared machine the first follows the
			// work, the second the load too.
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

func worstCtx(c worstCase) guard.Context {
	ctx := corpusCtx
	if c.files != nil {
		ctx.ReadFile = func(p string) (string, bool) {
			name, ok := strings.CutPrefix(p, ctx.Project+"/")
			if !ok {
				return "", false
			}
			text, ok := c.files[name]
			return text, ok
		}
	}
	return ctx
}

// TestWorstCase: every command built to cost the guard most is answered with ask or deny, deny
// where what it runs destroys, with a reason.
func TestWorstCase(t *testing.T) {
	t.Parallel()
	g := guard.Default()
	for _, c := range worstCases() {
		t.Run(c.name, func(t *testing.T) {
			v := g.Check(c.command, worstCtx(c))
			for _, d := range c.want {
				if v.Decision == d {
					return
				}
			}
			t.Errorf("%s: got %s (%s), want one of %v", c.name, v.Decision, v.Reason, c.want)
		})
	}
}

// TestLargeBenign: large commands of everyday work are read whole within the budget and
// allowed.
func TestLargeBenign(t *testing.T) {
	t.Parallel()
	py := "import json\n\n\ndef load(path: str) -> dict:\n    if not path:\n        return {}\n    for p in (path,):\n        while False:\n            pass\n    with open(path) as f:\n        return json.load(f)  # the settings, {\"a\": [1, 2]}\n\n\nclass Store:\n    def __init__(self, items=None):\n        self.items = dict(items or {})\n\n    def get(self, key, default=None):\n        return self.items.get(key, default)\n\n"
	js := `{"name": "app", "version": "1.0.0", "dependencies": {"react": "^18.2.0", "left-pad": "1.3.0"}, "scripts": {"build": "tsc -p .", "test": "jest --ci"}},` + "\n"
	md := "## Usage\n\nRun `make build` and then `./bin/app --help`; the output (a table) lists every command.\n\n"
	msg := "Fix the cache eviction race (see #123).\n\nThe evictor read the map while the writer resized it; take the lock, and don't evict entries younger than the TTL.\n"
	for name, cmd := range map[string]string{
		"20KB-python-heredoc":    fill("mkdir -p src/app && cat > src/app/store.py <<'EOF'\n", py, "EOF\npython3 -m py_compile src/app/store.py", 20<<10),
		"10KB-python-run":        fill("python3 - <<'EOF'\n", py, "EOF", 10<<10),
		"20KB-json-heredoc":      fill("cat > data.json <<'EOF'\n[\n", js, "{}]\nEOF", 20<<10),
		"20KB-markdown-heredoc":  fill("cat > README.md << 'EOF'\n", md, "EOF\ngit add README.md", 20<<10),
		"8KB-commit-message":     fill("git add -A && git commit -m \"", msg, "\"", 8<<10),
		"commit-message-heredoc": fill("git commit -F - <<'EOF'\n", msg, "EOF", 16<<10),
	} {
		t.Run(name, func(t *testing.T) {
			v := guard.Default().Check(cmd, corpusCtx)
			if v.Decision != guard.Allow {
				t.Errorf("%s (%d bytes): got %s (%s), want allow", name, len(cmd), v.Decision, v.Reason)
			}
			if s := guard.Default().Analyze(cmd, corpusCtx); s.Work > shell.DefaultBudget*3/4 {
				t.Errorf("%s (%d bytes) costs %d units of the budget's %d: too little left for more", name, len(cmd), s.Work, shell.DefaultBudget)
			}
		})
	}
}

// TestBudgetNeverAllows: at every budget, from nothing to enough, a check either reads the
// whole command or answers ask or deny and says the command was too large to judge fully; a
// command whose denied part was read before the budget ran out stays denied.
func TestBudgetNeverAllows(t *testing.T) {
	t.Parallel()
	p := policy.Default()
	ctx := policy.BashPaths(corpusCtx)
	for _, cmd := range []string{
		benchCommands["typical"], benchCommands["long"], benchCommands["heredoc"], benchCommands["wrapped"],
		"rm -rf ~; " + benchCommands["long"],
		"python3 -c 'import os; os.system(\"ls\")' && psql -c 'SELECT 1' && pwsh -c 'Get-ChildItem'",
		"for i in 1 2 3; do echo $i; done | sort | uniq -c > counts.txt",
	} {
		full := shell.Analyze(cmd, shell.Options{Home: ctx.Home, Cwd: ctx.Cwd, Budget: 1 << 30})
		want := p.Evaluate(full, ctx)
		for budget := 1; budget <= full.Work+1; budget += 1 + budget/8 {
			s := shell.Analyze(cmd, shell.Options{Home: ctx.Home, Cwd: ctx.Cwd, Budget: budget})
			v := p.Evaluate(s, ctx)
			cut := slices.ContainsFunc(s.Findings, func(f shell.Finding) bool { return f.Message == shell.BudgetMessage })
			switch {
			case !cut && (v.Decision != want.Decision || v.Reason != want.Reason):
				t.Errorf("%q with budget %d: read whole, yet %s (%s), not %s (%s)", cmd, budget, v.Decision, v.Reason, want.Decision, want.Reason)
			case cut && v.Decision == guard.Allow:
				t.Errorf("%q with budget %d: cut short and allowed", cmd, budget)
			case cut && v.Decision == guard.Ask && !strings.Contains(v.Reason, shell.BudgetMessage):
				t.Errorf("%q with budget %d: the reason does not say it was cut short: %s", cmd, budget, v.Reason)
			case cut && strings.HasPrefix(cmd, "rm -rf ~;") && budget > 200 && v.Decision != guard.Deny:
				t.Errorf("%q with budget %d: the rm read first is not denied: %s", cmd, budget, v.Reason)
			}
		}
	}
}
