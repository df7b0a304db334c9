package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestNesting: brackets count wherever they are; block keywords count outside heredoc bodies.
func TestNesting(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		src  string
		deep bool // more than MaxNesting
	}{
		{"brackets", strings.Repeat("(", 150) + "true" + strings.Repeat(")", 150), true},
		{"blocks", strings.Repeat("if true; then ", 150) + "true" + strings.Repeat("; fi", 150), true},
		{"keywords in a heredoc", "cat > x.py <<'EOF'\n" + strings.Repeat("if x:\n    while y:\n        pass\n", 150) + "EOF\necho done", false},
		{"keywords in a <<- heredoc", "cat > x.py <<-EOF\n" + strings.Repeat("\tfor i in x: pass\n", 150) + "\tEOF\n", false},
		{"blocks after a heredoc", "cat <<EOF\nif\nEOF\n" + strings.Repeat("while :; do ", 150) + ":" + strings.Repeat("; done", 150), true},
		{"brackets in a heredoc", "cat <<EOF\n" + strings.Repeat("[", 150) + "\nEOF\n", true},
		{"a here-string is no heredoc", "cat <<< x\n" + strings.Repeat("if true; then ", 150) + "true" + strings.Repeat("; fi", 150), true},
	} {
		if got := nesting(c.src) > MaxNesting; got != c.deep {
			t.Errorf("%s: nesting %d, want deep=%v", c.name, nesting(c.src), c.deep)
		}
	}
}

// TestParseCostCut: the cost grows with the text and the cut stays inside it.
func TestParseCostCut(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("rm -rf $x; if true; then echo 'a b'; fi\n", 100)
	full, end := parseCost(src, 1<<30)
	if end != len(src) || full < len(src)/4 {
		t.Fatalf("cost %d, end %d of %d", full, end, len(src))
	}
	for limit := 0; limit < full; limit += 97 {
		cost, cut := parseCost(src, limit)
		if cut >= len(src) || cost <= limit || cost > limit+costBlockWord+2 {
			t.Errorf("limit %d: cost %d, cut %d", limit, cost, cut)
		}
	}
}

// TestBudgetCutsWholeStatements: however small the budget, what is read is what the command
// runs: a statement the budget cut in the middle is not read at all, never read as a shorter
// command (rm -rf /home/dev/project/build cut to rm -rf /home).
func TestBudgetCutsWholeStatements(t *testing.T) {
	t.Parallel()
	cmd := "rm -rf /home/dev/project/build; cp -r src/app /home/dev/project/dist; echo 'all done' | tee -a build.log\n" +
		"python3 -c 'import shutil; shutil.rmtree(\"/home/dev/project/out\")'; psql -c 'DELETE FROM t WHERE id = 1'"
	opts := Options{Home: "/home/dev", Cwd: "/home/dev/project", Budget: 1 << 30}
	full := Analyze(cmd, opts)
	argv := func(inv Invocation) string {
		var b strings.Builder
		for _, w := range inv.Args {
			b.WriteString(w.Value + "\x00")
		}
		return inv.Name + "\x00" + b.String()
	}
	var want []string
	for _, inv := range full.Invocations {
		want = append(want, argv(inv))
	}
	for budget := 1; budget <= full.Work; budget++ {
		opts.Budget = budget
		s := Analyze(cmd, opts)
		for _, inv := range s.Invocations {
			if !slices.Contains(want, argv(inv)) {
				t.Fatalf("budget %d: %q is not what the command runs", budget, strings.ReplaceAll(argv(inv), "\x00", " "))
			}
		}
		cut := slices.ContainsFunc(s.Findings, func(f Finding) bool { return f.Message == BudgetMessage })
		if cut != (budget < full.Work) {
			t.Fatalf("budget %d of %d: cut short %v", budget, full.Work, cut)
		}
		if s.Work > budget {
			t.Fatalf("budget %d: worked %d", budget, s.Work)
		}
	}
}
