package config

import (
	"path/filepath"
	"testing"
)

// joinSame fails t when join or absPath differ from the standard library's.
func joinSame(t *testing.T, base, rel string) {
	t.Helper()
	if got, want := join(base, rel), filepath.Join(base, filepath.FromSlash(rel)); got != want {
		t.Fatalf("join(%q, %q) = %q, filepath.Join gives %q", base, rel, got, want)
	}
	want, err := filepath.Abs(base)
	if err != nil {
		want = filepath.Clean(base)
	}
	if got := absPath(base); got != want {
		t.Fatalf("absPath(%q) = %q, filepath.Abs gives %q", base, got, want)
	}
}

func TestJoinAsFilepath(t *testing.T) {
	bases := []string{"", "/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/.", "/..", "/.a", "/a..", "/a.b/c",
		"a", "a/b", ".", "..", "~", "/home/a b", `/a\b`, "/a/b/"}
	rels := []string{"", ".", "..", "x", "x/y", "/x", "x/", "x//y", "./x", "x/./y", "x/../y", "../x", ".claude/settings.json", "*", "a/*.json", "..x", "x.."}
	for _, b := range bases {
		for _, r := range rels {
			joinSame(t, b, r)
		}
	}
}

// FuzzJoinAsFilepath: for any base and relative path, join and absPath give what filepath.Join
// and filepath.Abs give.
func FuzzJoinAsFilepath(f *testing.F) {
	f.Add("/home/a", ".claude/settings.json")
	f.Add("/", "x")
	f.Add("/a/../b", "./c")
	f.Add("rel", "")
	f.Fuzz(func(t *testing.T, base, rel string) {
		joinSame(t, base, rel)
	})
}
