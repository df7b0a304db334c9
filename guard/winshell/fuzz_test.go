package winshell_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/guard/winshell"
)

// checkScript holds for every reading: a script, positions in range, effects computable, and
// no more commands than the limit.
func checkScript(t *testing.T, text string, sc *winshell.Script, took time.Duration) {
	t.Helper()
	if sc == nil {
		t.Fatal("nil script")
	}
	if took > 2*time.Second {
		t.Fatalf("reading %d bytes took %v", len(text), took)
	}
	cmds := sc.AllCommands()
	if len(cmds) > winshell.DefaultMaxCommands+1 { // +1: ParseArgs' own program
		t.Fatalf("%d commands", len(cmds))
	}
	for _, c := range cmds {
		if c.Pos.Line < 1 || c.Pos.Col < 1 {
			t.Fatalf("command %q at %v", c.Raw, c.Pos)
		}
		for _, e := range winshell.Effects(*c, `C:\Users\me`) {
			if e.Kind == "" || e.TargetClass == "" {
				t.Fatalf("effect %+v of %q", e, c.Raw)
			}
		}
	}
	for _, f := range sc.AllFindings() {
		if f.Pos.Line < 1 || f.Pos.Col < 1 || f.Kind == "" {
			t.Fatalf("finding %+v", f)
		}
	}
}

// checkPosixHome holds for a reading with a POSIX home: no delete or write is left written with
// backslashes below that home, where the bash side would not know it for the home's.
func checkPosixHome(t *testing.T, sc *winshell.Script) {
	t.Helper()
	for _, c := range sc.AllCommands() {
		for _, e := range winshell.Effects(*c, "/home/me") {
			if strings.HasPrefix(e.Target, `/home/me\`) {
				t.Fatalf("effect %+v of %q below the home with backslashes", e, c.Raw)
			}
		}
	}
}

func seeds(f *testing.F, shell string) {
	for _, tc := range cases {
		if tc.shell == shell {
			f.Add(tc.in)
		}
	}
	for _, s := range pathological() {
		f.Add(s.text[:min(len(s.text), 2000)])
	}
}

func FuzzParsePowerShell(f *testing.F) {
	seeds(f, "ps")
	f.Fuzz(func(t *testing.T, text string) {
		start := time.Now()
		sc, _ := winshell.Options{Home: `C:\Users\me`}.ParsePowerShell(text)
		checkScript(t, text, sc, time.Since(start))
		// the same text as the -Command of a nested shell, from bash
		start = time.Now()
		sc, _ = winshell.Options{}.ParseArgs([]string{"powershell", "-NoProfile", "-Command", text})
		checkScript(t, text, sc, time.Since(start))
		sc, _ = winshell.Options{Home: "/home/me"}.ParsePowerShell(text)
		checkPosixHome(t, sc)
	})
}

func FuzzParseCmd(f *testing.F) {
	seeds(f, "cmd")
	f.Fuzz(func(t *testing.T, text string) {
		start := time.Now()
		sc, _ := winshell.Options{Home: `C:\Users\me`}.ParseCmd(text)
		checkScript(t, text, sc, time.Since(start))
		start = time.Now()
		sc, _ = winshell.Options{}.ParseArgs([]string{"cmd.exe", "/c", text})
		checkScript(t, text, sc, time.Since(start))
		sc, _ = winshell.Options{Home: "/home/me"}.ParseCmd(text)
		checkPosixHome(t, sc)
	})
}

type patho struct {
	name, shell, text string
}

// pathological are 64 KB texts built to cost a reader the most.
func pathological() []patho {
	const n = 64 << 10
	fill := func(unit string) string { return strings.Repeat(unit, n/len(unit)+1)[:n] }
	nestIex := `Remove-Item C:\ -Recurse`
	for range 12 {
		nestIex = "iex '" + strings.ReplaceAll(nestIex, "'", "''") + "'"
	}
	nestCmd := `rd /s /q C:\`
	for range 12 {
		nestCmd = `cmd /c "` + nestCmd + `"`
	}
	return []patho{
		{"ps-parens", "ps", fill("(")},
		{"ps-subexpr", "ps", fill("$(")},
		{"ps-blocks", "ps", fill("{")},
		{"ps-pipes", "ps", fill("a|")},
		{"ps-statements", "ps", fill("rm x;")},
		{"ps-args", "ps", "Remove-Item " + fill("a ")},
		{"ps-params", "ps", "Remove-Item " + fill("-Rec ")},
		{"ps-commas", "ps", "Remove-Item " + fill("a,")},
		{"ps-quotes", "ps", fill("'a'")},
		{"ps-dquote-vars", "ps", `"` + fill("$env:USERPROFILE") + `"`},
		{"ps-dquote-subexpr", "ps", `"` + fill("$(a)") + `"`},
		{"ps-backticks", "ps", fill("`")},
		{"ps-comments", "ps", fill("<##>")},
		{"ps-brackets", "ps", fill("[")},
		{"ps-types", "ps", fill("[a]::b(")},
		{"ps-herestring", "ps", "@'\n" + fill("x\n")},
		{"ps-assign", "ps", fill("$a=")},
		{"ps-iex-nested", "ps", nestIex},
		{"ps-iex-many", "ps", fill("iex 'rm x';")},
		{"ps-encoded-many", "ps", fill("powershell -e UgBtACAAeAA=;")},
		{"ps-unicode", "ps", fill("\u201c\u2013")},
		{"cmd-parens", "cmd", fill("(")},
		{"cmd-percent", "cmd", fill("%a%")},
		{"cmd-percent-open", "cmd", fill("%")},
		{"cmd-bang", "cmd", fill("!a")},
		{"cmd-carets", "cmd", fill("^")},
		{"cmd-amps", "cmd", fill("a&")},
		{"cmd-quotes", "cmd", fill(`"`)},
		{"cmd-args", "cmd", "del " + fill("a ")},
		{"cmd-if", "cmd", fill("if a==b ")},
		{"cmd-for", "cmd", fill("for /f %i in ('")},
		{"cmd-nested", "cmd", nestCmd},
		{"cmd-cmd-many", "cmd", fill("cmd /c dir&")},
		{"cmd-redirects", "cmd", "dir " + fill(">a ")},
		{"cmd-slashes", "cmd", "rd " + fill("/s")},
	}
}

// TestPathologicalBounded keeps the worst inputs far from a hang or a quadratic blowup: the
// best of five readings of each takes under 100 ms (their benchmark says how far under: a few
// milliseconds). Five, because a machine shared with other builds can stall any single one.
func TestPathologicalBounded(t *testing.T) {
	for _, p := range pathological() {
		best := time.Hour
		var sc *winshell.Script
		for range 5 {
			start := time.Now()
			if p.shell == "ps" {
				sc, _ = winshell.ParsePowerShell(p.text)
			} else {
				sc, _ = winshell.ParseCmd(p.text)
			}
			best = min(best, time.Since(start))
		}
		checkScript(t, p.text, sc, best)
		if best > 100*time.Millisecond {
			t.Errorf("%s: %v", p.name, best)
		}
	}
}
