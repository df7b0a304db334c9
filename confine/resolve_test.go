package confine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolve: a path is resolved through its links, in the middle and at the end, and as far
// as it exists; a resolver that remembers folders gives what a fresh one gives.
func TestResolve(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"mid": real, "end": filepath.Join(real, "sub"), "rel": "real/sub"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := resolver{}
	for _, c := range []struct{ in, want string }{
		{filepath.Join(root, "mid", "sub"), filepath.Join(real, "sub")},
		{filepath.Join(root, "mid", "sub", "missing", "deeper"), filepath.Join(real, "sub", "missing", "deeper")},
		{filepath.Join(root, "end"), filepath.Join(real, "sub")},
		{filepath.Join(root, "rel", "x"), filepath.Join(real, "sub", "x")},
		{filepath.Join(root, "mid", "..", "mid", "sub"), filepath.Join(real, "sub")},
		{"/", "/"},
	} {
		if got := r.resolve(c.in); got != c.want {
			t.Errorf("resolve(%s) = %s, want %s", c.in, got, c.want)
		}
		if got := resolve(c.in); got != c.want {
			t.Errorf("fresh resolve(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
