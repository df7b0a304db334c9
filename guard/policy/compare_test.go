package policy

import (
	"runtime"
	"strings"
	"testing"
)

// splitCompare is compare as it was written first, with strings.Split: the allocation-free
// compare must relate every pair of paths the same way.
func splitCompare(target, prot string, pattern bool) int {
	t := strings.Split(strings.Trim(target, "/"), "/")
	p := strings.Split(strings.Trim(prot, "/"), "/")
	if target == "/" {
		t = nil
	}
	n := min(len(t), len(p))
	for i := 0; i < n; i++ {
		if !elemMatch(t[i], p[i], pattern) {
			return relNone
		}
	}
	switch {
	case len(t) == len(p):
		return relEqual
	case len(t) > len(p):
		return relInside
	}
	return relAncestor
}

var comparePaths = []string{"", "/", "//", "a", "/a", "/a/", "a/b", "/a/b", "/a//b", "/a/b/c", "/home/u/.ssh",
	"/home/u/.ssh/id_rsa", "/home/u/.ss*", "/home/u/.ssh/id_*", "/home/*/.ssh", "/home/u/.ssh/", "/home/u",
	"/home/u/.claude/settings.json", "/home/u/.claude", "/home/u/.[a-c]*", "/home/u/.ssh/id_rsa.pub", "*", "/*"}

func TestCompareAsSplit(t *testing.T) {
	for _, target := range comparePaths {
		for _, prot := range comparePaths {
			for _, pattern := range []bool{false, true} {
				if got, want := compare(target, prot, pattern), splitCompare(target, prot, pattern); got != want {
					t.Errorf("compare(%q, %q, %v) = %d, want %d", target, prot, pattern, got, want)
				}
			}
		}
	}
}

func FuzzCompareAsSplit(f *testing.F) {
	for _, p := range comparePaths {
		f.Add(p, "/home/u/.ssh", true)
		f.Add("/home/u/.ssh/id_rsa", p, false)
	}
	f.Fuzz(func(t *testing.T, target, prot string, pattern bool) {
		if got, want := compare(target, prot, pattern), splitCompare(target, prot, pattern); got != want {
			t.Errorf("compare(%q, %q, %v) = %d, want %d", target, prot, pattern, got, want)
		}
	})
}

// compare runs for every argument of every command against every protected path.
func BenchmarkCompare(b *testing.B) {
	for b.Loop() {
		compare("/home/u/project/web/build.log", "/home/u/.claude/settings.json", false)
	}
}

func TestHasGlob(t *testing.T) {
	for _, s := range append(comparePaths, "", "[", "a[b", "?", "a*", "é*", "\xff?", "\xff", "plain", "/usr/bin/rm") {
		if got, want := hasGlob(s, true), strings.ContainsAny(s, "*?["); got != want {
			t.Errorf("hasGlob(%q, true) = %v, want %v", s, got, want)
		}
		if got, want := hasGlob(s, false), strings.ContainsAny(s, "*?"); got != want {
			t.Errorf("hasGlob(%q, false) = %v, want %v", s, got, want)
		}
	}
}

// TestNamesFoldCaseWhereTheFileSystemDoes: on Windows and macOS, whose file systems take a name in
// any case for the same file, ~/.Claude/Settings.json is the protected ~/.claude/settings.json;
// on Linux it is another file. (Run under Wine by scripts/wine.sh.)
func TestNamesFoldCaseWhereTheFileSystemDoes(t *testing.T) {
	t.Parallel()
	same := compare("/home/a/.Claude/Settings.JSON", "/home/a/.claude/settings.json", false) == relEqual
	inside := compare("/home/a/.CLAUDE/hooks/x.sh", "/home/a/.claude", false) == relInside
	if same != foldCase || inside != foldCase {
		t.Errorf("on %s: the same file in another case: %v, inside it: %v; want %v", runtime.GOOS, same, inside, foldCase)
	}
	if compare("/home/a/.claude/settings.json", "/home/a/.claude/settings.json", false) != relEqual {
		t.Error("the same name does not match itself")
	}
}
