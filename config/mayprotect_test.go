package config

import (
	"path"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// mayRelate is a wider relation than any the guard draws between a target and a protected path:
// the same path, one inside the other (an element with a glob matching either way), or, for a
// file given (the audit trail, whose database keeps files beside it), the same folder.
func mayRelate(target, prot string, given bool) bool {
	if given && path.Dir(target) == path.Dir(prot) {
		return true
	}
	t, p := strings.Split(strings.Trim(target, "/"), "/"), strings.Split(strings.Trim(prot, "/"), "/")
	if target == "/" || prot == "/" {
		return true
	}
	for i := 0; i < min(len(t), len(p)); i++ {
		if t[i] == p[i] {
			continue
		}
		a, errA := path.Match(p[i], t[i])
		b, errB := path.Match(t[i], p[i])
		if !a && !b && errA == nil && errB == nil {
			return false
		}
	}
	return true
}

// neverHides fails t when MayProtect says "cannot be protected" of a target that mayRelate
// relates to a path ProtectedPaths lists: the targets given, every protected path, what is
// inside and beside each, and its folder. It returns how many targets the test let through.
func neverHides(t *testing.T, env Env, files, binaries []string, targets ...string) int {
	t.Helper()
	may := MayProtect(env, files, binaries)
	if may == nil {
		return 0
	}
	list := ProtectedPaths(env, files, binaries)
	for _, p := range list {
		targets = append(targets, p.Path, p.Path+"/x", path.Dir(p.Path), path.Dir(p.Path)+"/y", strings.TrimRight(p.Path, "*"))
	}
	passed := 0
	for _, target := range targets {
		target = path.Clean("/" + target)
		if may(target) {
			continue
		}
		passed++
		for _, p := range list {
			if mayRelate(target, p.Path, slices.ContainsFunc(files, func(f string) bool { return f != "" && absPath(f) == p.Path })) {
				t.Fatalf("MayProtect(%+v, %q, %q) lets %q through, which relates to the protected %q (%s)", env, files, binaries, target, p.Path, p.What)
			}
		}
	}
	return passed
}

// envKeys are the variables the descriptors read, and the ones agenthooks does.
func envKeys() []string {
	keys := []string{"AGENTHOOKS_ENTERPRISE_DIR", "AGENTHOOKS_CLAUDE_MANAGED_DIR", "CODEX_HOME"}
	for _, a := range agents.ByFilePriority() {
		keys = append(keys, a.HomeEnv, a.ManagedEnv)
		for _, ls := range [][]dialect.Location{a.Files, a.Loads, a.Configs} {
			for _, l := range ls {
				keys = append(keys, l.Env)
			}
		}
	}
	return keys
}

// TestMayProtectNeverHides: an ordinary file in a project's folder is let through without the
// list, and nothing the list holds, nor anything in or beside it, ever is.
func TestMayProtectNeverHides(t *testing.T) {
	env := Env{Home: "/home/dev", Workspaces: []string{"/home/dev/project", "/home/dev/project/web"},
		EnterpriseDir: "/etc/cursor", ClaudeManagedDir: "/etc/claude-code"}
	files := []string{"/home/dev/.agenthooks/policy.yaml", "/home/dev/.agenthooks/audit.db"}
	binaries := []string{"/usr/local/bin/agenthooks"}
	may := MayProtect(env, files, binaries)
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		// file systems that fold case: no shortcut, the list is always built
		if may != nil {
			t.Fatalf("MayProtect gives a test on %s, which compares paths without regard to case", runtime.GOOS)
		}
		return
	}
	if may == nil {
		t.Fatal("MayProtect gives no test for an ordinary environment")
	}
	for _, p := range []string{"/home/dev/project/web/build.log", "/home/dev/project/src/main.go", "/tmp/x", "/home/dev/notes.txt"} {
		if may(p) {
			t.Errorf("MayProtect: %s may be protected, want a plain no", p)
		}
	}
	for _, p := range []string{"/home/dev/project/.claude/settings.json", "/home/dev/.bashrc", "/home/dev", "/home", "/",
		"/home/dev/project", "/home/dev/.agenthooks/audit.db-wal", "/usr/local/bin/agenthooks", "/etc/claude-code/x",
		"/home/dev/project/web/.vscode/settings.json", "/home/dev/project/x.code-workspace", "/home/dev/project/.git/../.claude"} {
		if !may(p) {
			t.Errorf("MayProtect: %s cannot be protected, want a maybe", p)
		}
	}
	keys := envKeys()
	for _, home := range []string{"/home/a", "/", "/home/a/project"} {
		for _, ws := range [][]string{nil, {"/work/p"}, {"/home/a"}, {"/home/a/.claude"}, {"/"}} {
			for _, key := range keys {
				if key == "" {
					continue
				}
				env := Env{Home: home, Workspaces: ws, Getenv: func(k string) string {
					if k == key {
						return "/work/p/moved"
					}
					return ""
				}}
				neverHides(t, env, []string{"/work/p/audit.db"}, []string{"/work/p/bin/tool"},
					"/work/p/moved/x", "/work/p/src/a.go", "/home/a/x", "/home/a/project/x/y", "/work/p/audit.db.1")
			}
		}
	}
	if n := neverHides(t, env, files, binaries, "/home/dev/project/web/build.log", "/home/dev/project/src/main.go"); n == 0 {
		t.Error("MayProtect let nothing through")
	}
}

// FuzzMayProtectNeverHides: whatever the home, workspace, target, files and a variable's value
// (HOME, the payload's cwd and the environment are the agent's to set), a target MayProtect
// lets through relates to nothing ProtectedPaths lists.
func FuzzMayProtectNeverHides(f *testing.F) {
	f.Add("/home/a", "/home/a/p", "/home/a/p/web/build.log", "/home/a/.agenthooks/audit.db", uint8(0), "/opt/x")
	f.Add("/", "/", "/x", "", uint8(3), "")
	f.Add("/home/a", "/work", "/work/.vscode/x", "/work/a.db", uint8(7), "/work/.codex")
	keys := envKeys()
	f.Fuzz(func(t *testing.T, home, ws, target, file string, key uint8, value string) {
		k := keys[int(key)%len(keys)]
		env := Env{Home: path.Clean("/" + home), Workspaces: []string{path.Clean("/" + ws)}, ClaudeManagedDir: "/etc/claude-code",
			Getenv: func(name string) string {
				if name == k {
					return value
				}
				return ""
			}}
		neverHides(t, env, []string{file}, []string{"/usr/local/bin/agenthooks"}, target, target+"/x", path.Dir(target))
	})
}

// TestMayProtectPathLeavesRoot: a descriptor's path that leaves its root (../ under a managed
// folder, a variable's folder, the team folder, the agent's folder, the home folder or a
// workspace) protects a place outside it. MayProtect, which reasons from the roots, then gives
// no test rather than a "cannot be protected" for that place.
func TestMayProtectPathLeavesRoot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("MayProtect gives no test on " + runtime.GOOS)
	}
	env := Env{Home: "/home/a", Workspaces: []string{"/work/p"}, Getenv: func(k string) string {
		if k == "FAKE_DIR" {
			return "/opt/fake"
		}
		return ""
	}}
	for _, l := range []dialect.Location{
		{Root: dialect.RootManaged, Path: "../escape/hooks.json"},
		{Root: dialect.RootManaged, Path: "x/../../escape/*.json"},
		{Root: dialect.RootEnv, Env: "FAKE_DIR", Path: "../escape/hooks.json"},
		{Root: dialect.RootTeam, Path: "../../.escape"},
		{Root: dialect.RootHome, Path: "../.escape"},
		{Root: dialect.RootUserHome, Path: "x/../../escape"},
		{Root: dialect.RootWorkspace, Path: "../escape"},
		{Root: dialect.RootWorkspace, Path: "./.fake//hooks.json"},
		{Root: dialect.RootManaged, Path: "hooks.json"}, // one that stays: a test, and it holds
	} {
		a := &dialect.Agent{Name: "fake", Dir: ".fake", ManagedDir: func(string) string { return "/etc/fake" }, Files: []dialect.Location{l}}
		may := mayProtectOf(env, nil, nil, []*dialect.Agent{a})
		if may == nil {
			continue
		}
		for _, p := range LocationPaths(env, a, a.Files) {
			for _, target := range []string{absPath(p), path.Dir(absPath(p))} {
				if !may(target) {
					t.Errorf("location %+v: MayProtect says %s cannot be protected, and it is (%s)", l, target, absPath(p))
				}
			}
		}
	}
}
