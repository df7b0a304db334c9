package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/guard/policy"
)

// TestProtectedThroughSymlinks: on a real file system, where a protected place or a folder
// holding it is a symlink (~/.claude a link into a dotfiles folder, by absolute or relative
// path or dangling; a home reached through a link; a project reached through a link), the
// protected list holds the place where the link leads too, MayProtect lets no write there
// through, and it still lets an ordinary file through.
func TestProtectedThroughSymlinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("MayProtect gives a test on Linux; symlinks need privileges on Windows")
	}
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := d + "/home"
	for _, dir := range []string{home + "/dotfiles/claude", home + "/dotfiles/gemini", d + "/real-proj/.claude", d + "/realhome/.claude", d + "/data",
		d + "/stow/.claude", d + "/stow/dotfiles/claude", d + "/stow/.config/gh"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		home + "/.claude":                 home + "/dotfiles/claude", // GNU stow's, or by hand
		home + "/.gemini":                 "dotfiles/gemini",         // relative
		home + "/.codex":                  home + "/dotfiles/codex",  // dangling: a write there makes what Codex reads
		home + "/.bashrc":                 home + "/dotfiles/bashrc", // a file, not there yet
		d + "/homelink":                   d + "/realhome",
		d + "/link-proj":                  d + "/real-proj",
		d + "/data/proj":                  d + "/real-proj",                   // /work/proj -> /data/proj, one more level
		d + "/stow/.claude/settings.json": "../dotfiles/claude/settings.json", // stow's links, file by file, into a folder there already
		d + "/stow/.config/gh/hosts.yml":  d + "/stow/dotfiles/hosts.yml",     // deeper: MayProtect does not look
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(d+"/stow/dotfiles/claude/settings.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		home       string
		workspaces []string
		protected  []string // in the list, and MayProtect holds them
		ordinary   []string // MayProtect lets them through
	}{
		{"dotfiles", home, []string{d + "/real-proj"},
			[]string{home + "/dotfiles/claude/settings.json", home + "/dotfiles/gemini/settings.json",
				home + "/dotfiles/codex/config.toml", home + "/dotfiles/bashrc"},
			[]string{home + "/dotfiles/README.md", d + "/real-proj/src/main.go"}},
		{"home a link", d + "/homelink", []string{d + "/real-proj"},
			[]string{d + "/realhome/.claude/settings.json", d + "/realhome/.bashrc", d + "/realhome/.ssh/authorized_keys"},
			[]string{d + "/realhome/notes.txt"}},
		{"project a link", home, []string{d + "/link-proj"},
			[]string{d + "/real-proj/.claude/settings.json", d + "/real-proj/.agenthooks"},
			[]string{d + "/real-proj/main.go"}},
		{"a file a link", d + "/stow", []string{d + "/real-proj"},
			[]string{d + "/stow/dotfiles/claude/settings.json"},
			[]string{d + "/stow/dotfiles/claude/notes.md"}},
		{"project behind two links", home, []string{d + "/data/proj"},
			[]string{d + "/real-proj/.claude/settings.json"},
			[]string{d + "/real-proj/main.go"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := Env{Home: c.home, Workspaces: c.workspaces, GOOS: runtime.GOOS, ClaudeManagedDir: d + "/managed"}
			list := ProtectedPaths(env, nil, nil)
			may := MayProtect(env, nil, nil)
			if may == nil {
				t.Fatal("MayProtect gives no test")
			}
			for _, p := range c.protected {
				if !slices.ContainsFunc(list, func(pp policy.Protected) bool { return pp.Path == p || pp.Dir && within(pp.Path, p) }) {
					t.Errorf("%s is not protected", p)
				}
				if !may(p) {
					t.Errorf("MayProtect lets %s through", p)
				}
			}
			if c.home == home && !may(home+"/dotfiles") {
				t.Errorf("MayProtect lets rm -rf %s/dotfiles through", home)
			}
			for _, p := range c.ordinary {
				if may(p) {
					t.Errorf("MayProtect holds the ordinary %s", p)
				}
			}
			if c.home != d+"/stow" {
				neverHides(t, env, nil, nil, append(c.protected, c.ordinary...)...)
			} else if list := ProtectedPaths(env, nil, nil); !slices.ContainsFunc(list, func(pp policy.Protected) bool { return pp.Path == d+"/stow/dotfiles/hosts.yml" }) {
				t.Errorf("%s/stow/dotfiles/hosts.yml is not protected", d) // the list has it; MayProtect does not (docs/guard.md)
			}
		})
	}
}
