package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// globDir is a folder of many names, some matching the locations' patterns.
func globDir(t testing.TB) string {
	dir := t.TempDir()
	for i := range 300 {
		name := fmt.Sprintf("file%03d.txt", i)
		if i%50 == 0 {
			name = fmt.Sprintf("ws%d.code-workspace", i)
		}
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"profiles/a1/settings.json", "profiles/b2/settings.json", "profiles/c3/other.json", "hooks/x.json", "hooks/y.yaml", ".code-workspace"} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGlobAsFilepathGlob: glob finds exactly what filepath.Glob finds, sorted, for the
// locations' kinds of pattern and for ones with classes, ? and several stars.
func TestGlobAsFilepathGlob(t *testing.T) {
	dir := globDir(t)
	for _, pat := range []string{
		"*.code-workspace", "profiles/*/settings.json", "hooks/*.json", "*", "file0?0.txt", "file[0-1]*.txt",
		"*0*.txt", "ws*", "*.nothing", "nothere/*.json", "profiles/*/*", "*/*.json", "file001.txt", "missing.txt",
		"[", "file[.txt",
	} {
		p := filepath.Join(dir, filepath.FromSlash(pat))
		want, _ := filepath.Glob(p)
		slices.Sort(want)
		got := glob(p)
		if !slices.Equal(got, want) {
			t.Errorf("glob(%q) = %d names %q, filepath.Glob %d names %q", pat, len(got), got, len(want), want)
		}
	}
	if got := glob(filepath.Join(dir, "*.code-workspace")); len(got) != 7 {
		t.Errorf("glob found %d workspaces, want 7 (six ws*.code-workspace and .code-workspace): %q", len(got), got)
	}
}

// FuzzGlobAsFilepathGlob: any pattern under the folder finds what filepath.Glob finds.
func FuzzGlobAsFilepathGlob(f *testing.F) {
	for _, s := range []string{"*.code-workspace", "profiles/*/settings.json", "f*0?.t[a-z]t", `\*`, "[]", "*/*", "a*b*c"} {
		f.Add(s)
	}
	dir := globDir(f)
	f.Fuzz(func(t *testing.T, pat string) {
		p := filepath.Join(dir, pat)
		want, err := filepath.Glob(p)
		if err != nil {
			want = nil
		}
		slices.Sort(want)
		if got := glob(p); !slices.Equal(got, want) {
			t.Errorf("glob(%q) = %q, filepath.Glob %q", p, got, want)
		}
	})
}

// BenchmarkGlobWorkspaces is the VS Code workspace files' pattern in a folder of 300 names,
// as every guard process that computes the protected paths matches it in its workspace.
func BenchmarkGlobWorkspaces(b *testing.B) {
	p := filepath.Join(globDir(b), "*.code-workspace")
	b.Run("glob", func(b *testing.B) {
		for b.Loop() {
			glob(p)
		}
	})
	b.Run("filepath.Glob", func(b *testing.B) {
		for b.Loop() {
			_, _ = filepath.Glob(p)
		}
	})
}
