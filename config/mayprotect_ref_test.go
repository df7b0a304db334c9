package config

// The MayProtect test as round 2's sixth session built it from the descriptors, kept as the
// reference the construction from mayTables is held equal to (TestMayProtectAsReference,
// FuzzMayProtectAsReference). The walk of the symlinks and the test itself (linked, may) are
// MayProtect's own: only how the roots and the first elements are found differs. firsts.holds'
// shortcut is held to path.Match by FuzzFirstsHoldAsMatch.

import (
	"cmp"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// refMayProtectOf is MayProtect for the descriptors given.
func refMayProtectOf(env Env, files, binaries []string, descriptors []*dialect.Agent) func(target string) bool {
	goos := cmp.Or(env.GOOS, runtime.GOOS)
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || goos != runtime.GOOS {
		return nil
	}
	m := &mayProtect{home: env.Home, workspaces: env.Workspaces, homeFirst: &firsts{}, wsFirst: &firsts{}}
	if m.home != "" {
		m.homes = []string{m.home}
	}
	if m.home != "" && (!cleanAbs(m.home) || hasMeta(m.home)) {
		return nil // a home of /? is a pattern to the guard
	}
	for _, ws := range m.workspaces {
		if !cleanAbs(ws) || hasMeta(ws) {
			return nil
		}
	}
	ok := true
	root := func(p string) {
		if p == "" {
			return
		}
		if !cleanAbs(p) || hasMeta(p) {
			ok = false
		}
		m.roots = append(m.roots, p)
	}
	first := func(to *firsts, rel string) {
		e, _, _ := strings.Cut(rel, "/")
		if !cleanRel(rel) {
			ok = false
		}
		to.add(e)
	}
	for _, a := range descriptors {
		for _, h := range a.Homes() {
			root(env.lookup(h.Env))
		}
		root(env.lookup(a.ManagedEnv))
		if a.ManagedDir != nil {
			root(a.ManagedDir(goos)) // and where it is without the variable
		}
		locs := [][]dialect.Location{a.Files, a.Loads, a.Configs}
		if a.Switches != nil {
			locs = append(locs, a.Switches(goos))
		}
		for _, ls := range locs {
			for _, l := range ls {
				root(env.lookup(l.Env)) // a file's own variable, or a RootEnv's root
				if l.Path != "" && !cleanRel(l.Path) {
					ok = false // a path that may leave its root, whichever root that is
				}
				switch l.Root {
				case dialect.RootWorkspace:
					first(m.wsFirst, l.Path)
				case dialect.RootHome:
					if a.Dir != "" && !cleanRel(a.Dir) {
						ok = false
					}
					first(m.homeFirst, cmp.Or(a.Dir, l.Path)) // the agent's folder's first element, or the path's
				case dialect.RootUserHome:
					first(m.homeFirst, l.Path)
				case dialect.RootTeam:
					first(m.homeFirst, teamDir)
				case dialect.RootManaged:
					root(managedDir(env, a))
				case dialect.RootEnv:
				default:
					ok = false // a root this test does not know
				}
			}
		}
	}
	root(claudeManaged(env))
	root(env.EnterpriseDir)
	root(env.CodexHome)
	first(m.homeFirst, teamDir)
	first(m.homeFirst, stateDir)
	for _, c := range credentialPaths {
		first(m.homeFirst, c.path)
	}
	for _, a := range autorunPaths {
		first(m.homeFirst, a.path)
	}
	first(m.wsFirst, stateDir) // the project's .agenthooks
	for _, f := range files {
		if f != "" {
			root(path.Dir(absPath(f))) // the file, and the files beside it a database keeps
		}
	}
	for _, b := range binaries {
		if b != "" {
			root(absPath(b))
		}
	}
	if !ok {
		return nil
	}
	if !m.linked() {
		return nil
	}
	return m.may
}

// sameAsReference fails t when MayProtect (or mayProtectOf, for descriptors given) answers
// otherwise than the reference for env, files and binaries: a test where the reference gives
// one, and the same answer for each target, and for what the list holds, inside and beside it.
func sameAsReference(t *testing.T, env Env, files, binaries []string, descriptors []*dialect.Agent, targets ...string) {
	t.Helper()
	var got func(string) bool
	if descriptors == nil {
		got = MayProtect(env, files, binaries)
		descriptors = agents.ByFilePriority()
	} else {
		got = mayProtectOf(env, files, binaries, descriptors)
	}
	want := refMayProtectOf(env, files, binaries, descriptors)
	if (got == nil) != (want == nil) {
		t.Fatalf("MayProtect(%+v, %q, %q) gives a test: %v, the reference: %v", env, files, binaries, got != nil, want != nil)
	}
	if got == nil {
		return
	}
	for _, p := range ProtectedPaths(env, files, binaries) {
		targets = append(targets, p.Path, p.Path+"/x", path.Dir(p.Path), path.Dir(p.Path)+"/y", strings.TrimRight(p.Path, "*"))
	}
	for _, target := range targets {
		for _, target := range []string{target, path.Clean("/" + target)} {
			if g, w := got(target), want(target); g != w {
				t.Fatalf("MayProtect(%+v, %q, %q)(%q) = %v, the reference says %v", env, files, binaries, target, g, w)
			}
		}
	}
}

// TestMayProtectAsReference: for the homes, workspaces, variables, files and descriptors of the
// tests above, and on a real file system with symlinks, MayProtect answers as the reference.
func TestMayProtectAsReference(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("MayProtect gives a test on Linux")
	}
	targets := []string{"/home/dev/project/web/build.log", "/home/dev/.bashrc", "/home/dev/x.code-workspace", "/home/dev/project/.vscode/settings.json",
		"/home/dev/.claude", "/home/dev/project/a.code-workspace", "/work/p/moved/x", "/p/x", "/", "/home", "/etc/claude-code/x", "/tmp/x"}
	keys := askedKeys()
	for _, home := range []string{"", "/home/dev", "/", "/home/dev/project", "/home/dev/", "home", "/home/d*v"} {
		for _, ws := range [][]string{nil, {"/home/dev/project"}, {"/home/dev/project", "/tmp/b"}, {"/home/dev"}, {"/home/dev/.claude"}, {"/"}, {"p"}} {
			for _, key := range append(keys, "") {
				for _, value := range []string{"/work/p/moved", "/", "rel", "/home/dev/project", "/a/"} {
					env := Env{Home: home, Workspaces: ws, Getenv: func(k string) string {
						if k == key {
							return value
						}
						return ""
					}}
					sameAsReference(t, env, []string{"/work/p/audit.db", ""}, []string{"/usr/local/bin/agenthooks"}, nil, targets...)
				}
			}
		}
	}
	sameAsReference(t, Env{Home: "/home/dev", Workspaces: []string{"/p"}, EnterpriseDir: "/ent", ClaudeManagedDir: "/cm", CodexHome: "/cx"},
		[]string{"pol.yaml", "../audit.db"}, []string{"/opt/a[1]/agenthooks"}, nil, targets...)
	sameAsReference(t, Env{Home: "/home/dev", Workspaces: []string{"/p"}, GOOS: "windows"}, nil, nil, nil, targets...)
	env := Env{Home: "/home/a", Workspaces: []string{"/work/p"}, Getenv: func(k string) string {
		if k == "FAKE_DIR" {
			return "/opt/fake"
		}
		return ""
	}}
	for _, dir := range []string{"", ".fake", ".fake/sub", "../up", "a//b"} {
		for _, l := range []dialect.Location{
			{Root: dialect.RootManaged, Path: "../escape/hooks.json"}, {Root: dialect.RootManaged, Path: "hooks.json"},
			{Root: dialect.RootEnv, Env: "FAKE_DIR", Path: "../escape/hooks.json"}, {Root: dialect.RootEnv, Env: "FAKE_DIR", Path: "x.json"},
			{Root: dialect.RootTeam, Path: "../../.escape"}, {Root: dialect.RootTeam, Path: "t.json"},
			{Root: dialect.RootHome, Path: "../.escape"}, {Root: dialect.RootHome, Path: ""}, {Root: dialect.RootHome, Path: "h/*.json"},
			{Root: dialect.RootUserHome, Path: "x/../../escape"}, {Root: dialect.RootUserHome, Path: ".u/x.json"}, {Root: dialect.RootUserHome, Path: "*.u"},
			{Root: dialect.RootWorkspace, Path: "../escape"}, {Root: dialect.RootWorkspace, Path: ""}, {Root: dialect.RootWorkspace, Path: "./.fake//hooks.json"},
			{Root: dialect.RootWorkspace, Path: ".w/[x.json"}, {Root: dialect.RootWorkspace, Path: "[.w/x.json"}, {Root: dialect.RootWorkspace, Path: "*.w"},
			{Root: 99, Path: "x"}, {Root: dialect.RootHome, Env: "FAKE_DIR", Path: "y"},
		} {
			for _, managed := range []string{"/etc/fake", "", "etc/fake", "/etc/f?ke"} {
				a := &dialect.Agent{Name: "fake", Dir: dir, Files: []dialect.Location{l}, ManagedEnv: "FAKE_MANAGED", HomeEnv: "FAKE_DIR"}
				if managed != "" {
					a.ManagedDir = func(string) string { return managed }
				}
				sameAsReference(t, env, nil, nil, []*dialect.Agent{a, agents.ByFilePriority()[0]}, append(targets, "/home/a/.fake/x", "/home/a/h/x", "/work/p/.w/x",
					"/work/p/a.w", "/home/a/b.u", "/home/a/.u", "/opt/fake/x.json", "/etc/fake/hooks.json", "/home/a/.cursor/managed/t.json")...)
			}
		}
	}
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{d + "/home/dotfiles/claude", d + "/real-proj/.claude", d + "/real-proj/.vscode", d + "/realhome/.claude",
		d + "/stow/.claude", d + "/stow/dotfiles/claude", d + "/stow/.config/gh"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{d + "/home/.claude": d + "/home/dotfiles/claude", d + "/home/.gemini": "dotfiles/gemini",
		d + "/home/.codex": d + "/home/dotfiles/codex", d + "/home/.bashrc": d + "/home/dotfiles/bashrc", d + "/homelink": d + "/realhome",
		d + "/link-proj": d + "/real-proj", d + "/stow/.claude/settings.json": "../dotfiles/claude/settings.json",
		d + "/real-proj/x.code-workspace": d + "/elsewhere/ws.json", d + "/real-proj/.vscode/settings.json": d + "/elsewhere/vs.json",
		d + "/stow/.config/gh/hosts.yml": d + "/stow/dotfiles/hosts.yml"} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	var fsTargets []string
	for _, p := range []string{"/home/dotfiles/claude/settings.json", "/home/dotfiles/gemini/settings.json", "/home/dotfiles/codex/config.toml",
		"/home/dotfiles/bashrc", "/home/dotfiles/README.md", "/realhome/.claude/settings.json", "/realhome/notes.txt", "/real-proj/.claude/settings.json",
		"/real-proj/main.go", "/stow/dotfiles/claude/settings.json", "/stow/dotfiles/claude/notes.md", "/elsewhere/ws.json", "/elsewhere/vs.json",
		"/elsewhere/other", "/stow/dotfiles/hosts.yml", "/home/dotfiles"} {
		fsTargets = append(fsTargets, d+p)
	}
	for _, home := range []string{d + "/home", d + "/homelink", d + "/stow", d + "/missing"} {
		for _, ws := range [][]string{{d + "/real-proj"}, {d + "/link-proj"}, {d + "/link-proj", d + "/real-proj"}, {d + "/missing/p"}} {
			sameAsReference(t, Env{Home: home, Workspaces: ws, ClaudeManagedDir: d + "/managed"}, nil, nil, nil, fsTargets...)
		}
	}
}

// FuzzMayProtectAsReference: whatever the home, project, working directory, variables, files
// and target, MayProtect answers as the reference.
func FuzzMayProtectAsReference(f *testing.F) {
	f.Add("/home/a", "/home/a/p", "/tmp/b", "/home/a/p/.claude/settings.json", "/var/log/ah/audit.db", "/opt/bin/agenthooks", uint8(0), "/work/cc", uint8(5), "/")
	f.Add("/", "/", "/", "/.bashrc", "audit.db", "agenthooks", uint8(1), "/home", uint8(2), "/home/a/.codex")
	f.Add("/home/a", "/home/a", "/home/a/.claude", "/home/a/x.code-workspace", "", "", uint8(7), "/home/a/p/oc", uint8(9), "/x y/é")
	f.Add("/home/a/", "p", "/tmp/b", "/x", "", "", uint8(3), "rel", uint8(4), "/a/../b")
	keys := askedKeys()
	f.Fuzz(func(t *testing.T, home, project, cwd, target, file, binary string, k1 uint8, v1 string, k2 uint8, v2 string) {
		if len(home)+len(project)+len(cwd)+len(target)+len(file)+len(binary)+len(v1)+len(v2) > 2048 {
			return
		}
		key1, key2 := keys[int(k1)%len(keys)], keys[int(k2)%len(keys)]
		getenv := func(name string) string {
			switch name {
			case key2:
				return v2
			case key1:
				return v1
			}
			return ""
		}
		env := Env{Home: home, Workspaces: []string{project, cwd}, Getenv: getenv}
		if k1%2 == 0 { // mostly places a shell gives
			env = Env{Home: path.Clean("/" + home), Workspaces: []string{path.Clean("/" + project), path.Clean("/" + cwd)}, Getenv: getenv}
		}
		sameAsReference(t, env, []string{"", file}, []string{binary}, nil, target, target+"/x", path.Dir(target), file+".spool", binary+"/x", project+"/"+target, home+"/"+target)
	})
}

// FuzzFirstOfAsCleanRel: firstOf's reading of a path is cleanRel's, and its first element is
// what precedes the first slash.
func FuzzFirstOfAsCleanRel(f *testing.F) {
	for _, s := range []string{"", ".", "..", "a", ".claude/settings.json", "a//b", "a/", "/a", "./a", "a/./b", "a/../b", "...", "a/..b", ".cursor/managed"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		first, clean := firstOf(rel)
		if clean != cleanRel(rel) {
			t.Fatalf("firstOf(%q) clean %v, cleanRel %v", rel, clean, !clean)
		}
		if e, _, _ := strings.Cut(rel, "/"); clean && first != e {
			t.Fatalf("firstOf(%q) = %q, want %q", rel, first, e)
		}
	})
}

// refFirsts are firsts as they were, a plain list and path.Match: FuzzFirstsHoldAsMatch's
// reference.
type refFirsts struct{ names, patterns []string }

func (f *refFirsts) add(e string) {
	if hasMeta(e) {
		f.patterns = append(f.patterns, e)
	} else {
		f.names = append(f.names, e)
	}
}

// holds reports whether e is one of the names or matches one of the patterns (or a pattern is
// malformed: then anything may be protected).
func (f *refFirsts) holds(e string) bool {
	if slices.Contains(f.names, e) {
		return true
	}
	for _, p := range f.patterns {
		if ok, err := path.Match(p, e); ok || err != nil {
			return true
		}
	}
	return false
}

// FuzzFirstsHoldAsMatch: firsts.holds answers as the names and path.Match would, whatever the
// pattern (its shortcut for * and a literal included) and the name.
func FuzzFirstsHoldAsMatch(f *testing.F) {
	for _, s := range [][2]string{{"*.code-workspace", "a.code-workspace"}, {"*.code-workspace", ".code-workspace"}, {"*.x", "a/b.x"},
		{"*\\.x", "a.x"}, {"*[", "a["}, {"*", ""}, {".claude", ".claude"}, {"*a*", "bab"}, {"**", "x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, e string) {
		var fs refFirsts
		var got firsts
		for _, n := range []string{".claude", p, ".ssh"} {
			fs.add(n)
			got.add(n)
		}
		if g, w := got.holds(e), fs.holds(e); g != w {
			t.Fatalf("firsts %q holds %q: %v, path.Match: %v", p, e, g, w)
		}
		if g, w := got.holdsName()([]byte(e)), fs.holds(e); g != w {
			t.Fatalf("firsts %q holdsName %q: %v, path.Match: %v", p, e, g, w)
		}
	})
}
