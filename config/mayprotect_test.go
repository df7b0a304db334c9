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
		keys = append(keys, a.ManagedEnv)
		for _, h := range a.Homes() {
			keys = append(keys, h.Env)
		}
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

// askedKeys are the variables ProtectedPaths and MayProtect read through Getenv, found by
// asking them: a variable read anywhere, not only in the tables envKeys walks, is set by the
// fuzz target below.
func askedKeys() []string {
	seen := map[string]bool{}
	env := Env{Home: "/home/a", Workspaces: []string{"/w"}, Getenv: func(k string) string {
		seen[k] = true
		return "/v/" + k
	}}
	ProtectedPaths(env, []string{"/f/audit.db"}, []string{"/b/agenthooks"})
	MayProtect(env, []string{"/f/audit.db"}, []string{"/b/agenthooks"})
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestMayProtectScenarios: the homes, workspaces, variables and files an agent's environment
// can give, each with the targets that relate to a protected place in it. MayProtect answers
// "maybe" for each of those (or gives no test), and what it lets through relates to nothing
// the list holds.
func TestMayProtectScenarios(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("MayProtect gives no test on " + runtime.GOOS)
	}
	vars := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	bin := []string{"/usr/local/bin/agenthooks"}
	for _, c := range []struct {
		name            string
		env             Env
		files, binaries []string
		nilTest         bool     // MayProtect gives no test: the list is always computed
		maybe           []string // targets it must not rule out
		no              []string // targets it rules out
	}{
		{name: "ordinary", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev/project"}},
			files: []string{"/home/dev/.agenthooks/policy.yaml", "/home/dev/.agenthooks/audit.db"}, binaries: bin,
			maybe: []string{"/home/dev/.config", "/home/dev/.codex", "/home/dev/.config/opencode", "/home/dev/.ssh", "/home/dev/.ssh/id_ed25519",
				"/home/dev/.agenthooks/audit.db.spool", "/home/dev/.agenthooks/audit.db-wal", "/home/dev/.cursor/managed/team_x/hooks/hooks.json",
				"/home/dev/project/.github/hooks/a.json", "/home/dev/project/.agenthooks", "/home/dev/.vscode-server/data/Machine/settings.json",
				"/home/dev/Documents/Cline/hooks/x", "/home/dev/.config/Code/User/settings.json", "/home/dev/Library/LaunchAgents/x.plist",
				"/etc/claude-code/managed-settings.d/x.json", "/etc", "/usr/local/bin", "/usr/local/bin/agenthooks", "/home", "/"},
			no: []string{"/home/dev/project/src/main.go", "/home/dev/project/.claudex", "/home/dev/.Claude/settings.json", "/home/dev/.claude\u0301/settings.json",
				"/home/dev/\uff0eclaude/settings.json", "/home/dev/project/~/.bashrc", "/home/dev/projects/.claude/settings.json", "/tmp/x"}},
		{name: "home is the root", env: Env{Home: "/", Workspaces: []string{"/work"}}, binaries: bin,
			maybe: []string{"/.bashrc", "/.claude/settings.json", "/.config", "/work/.claude"}, no: []string{"/work/a.go", "/srv/x"}},
		{name: "home with a space and non-ASCII", env: Env{Home: "/home/my dév", Workspaces: []string{"/home/my dév/p q"}}, binaries: bin,
			maybe: []string{"/home/my dév/.bashrc", "/home/my dév/p q/.claude/settings.json", "/home/my dév"}, no: []string{"/home/my dev/.bashrc", "/home/my dév/p q/x"}},
		{name: "home with a trailing slash", env: Env{Home: "/home/dev/", Workspaces: []string{"/home/dev/p"}}, nilTest: true},
		{name: "relative home", env: Env{Home: "home/dev", Workspaces: []string{"/p"}}, nilTest: true},
		{name: "home dot", env: Env{Home: ".", Workspaces: []string{"/p"}}, nilTest: true},
		{name: "home with a glob character", env: Env{Home: "/home/d[e]v", Workspaces: []string{"/p"}}, nilTest: true},
		{name: "no home", env: Env{Workspaces: []string{"/p"}}, binaries: bin,
			maybe: []string{"/p/.claude/settings.json", "/etc/claude-code"}, no: []string{"/home/dev/.bashrc", "/p/x"}},
		{name: "workspace is home", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev"}}, binaries: bin,
			maybe: []string{"/home/dev/.claude/settings.local.json", "/home/dev/.vscode/settings.json", "/home/dev/x.code-workspace"}, no: []string{"/home/dev/notes.txt"}},
		{name: "workspace inside a protected folder", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev/.claude/proj"}}, binaries: bin,
			maybe: []string{"/home/dev/.claude/proj/x", "/home/dev/.claude/proj/.claude/settings.json"}},
		{name: "workspace the root", env: Env{Home: "/home/dev", Workspaces: []string{"/"}}, binaries: bin,
			maybe: []string{"/.claude/settings.json", "/x.code-workspace", "/.agenthooks/policy.yaml"}, no: []string{"/srv/x"}},
		{name: "workspace unclean", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev/p/"}}, nilTest: true},
		{name: "workspace relative", env: Env{Home: "/home/dev", Workspaces: []string{"p"}}, nilTest: true},
		{name: "workspace with dot dot", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev/p/../.claude"}}, nilTest: true},
		{name: "cwd is not the project", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev/project", "/tmp/build"}}, binaries: bin,
			maybe: []string{"/tmp/build/.claude/settings.json", "/tmp/build/.agenthooks", "/home/dev/project/.cursor/hooks.json"}, no: []string{"/tmp/build/out.o"}},
		{name: "variables move the folders", env: Env{Home: "/home/dev", Workspaces: []string{"/home/dev/project"}, CodexHome: "/opt/codex",
			Getenv: vars("CLAUDE_CONFIG_DIR", "/work/cc", "XDG_CONFIG_HOME", "/x/cfg", "OPENCODE_CONFIG_DIR", "/home/dev/project/oc",
				"OPENCODE_CONFIG", "/tmp/oc.json", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "/etc/q.json", "GEMINI_CLI_HOME", "/g h", "CLINE_DIR", "/c",
				"COPILOT_HOME", "/cp", "KIMI_CODE_HOME", "/k", "CRUSH_GLOBAL_CONFIG", "/cr", "FACTORY_HOME_OVERRIDE", "/f", "QWEN_HOME", "/q")}, binaries: bin,
			maybe: []string{"/opt/codex/config.toml", "/opt", "/work/cc/settings.json", "/work/cc/plugins/x", "/x/cfg/opencode/plugin/a.js", "/x/cfg/crush/crush.json",
				"/home/dev/project/oc/plugin/x.js", "/tmp/oc.json", "/etc/q.json", "/g h/.gemini/settings.json", "/c/hooks/x", "/cp/hooks/x.json", "/k/config.toml",
				"/cr/crush.json", "/f/.factory/hooks.json", "/q/settings.json", "/home/dev/.codex/config.toml", "/home/dev/.claude/settings.json"},
			no: []string{"/tmp/other", "/home/dev/project/src/x"}},
		{name: "a variable is the root", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, Getenv: vars("XDG_CONFIG_HOME", "/")}, binaries: bin,
			maybe: []string{"/opencode/opencode.json", "/srv/x"}},
		{name: "a variable is the project", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, CodexHome: "/p"}, binaries: bin,
			maybe: []string{"/p/config.toml", "/p/hooks.json", "/p/src/x"}},
		{name: "a variable relative", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, Getenv: vars("XDG_CONFIG_HOME", "cfg")}, nilTest: true},
		{name: "a variable with a trailing slash", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, Getenv: vars("CLAUDE_CONFIG_DIR", "/work/cc/")}, nilTest: true},
		{name: "a variable with dot dot", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, CodexHome: "/p/sub/.."}, nilTest: true},
		{name: "a variable with a glob", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, Getenv: vars("OPENCODE_CONFIG_DIR", "/o*")}, nilTest: true},
		{name: "a variable with a tilde", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, Getenv: vars("CLAUDE_CONFIG_DIR", "~/cc")}, nilTest: true},
		{name: "managed folders moved", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}, EnterpriseDir: "/ent", ClaudeManagedDir: "/cm",
			Getenv: vars("AGENTHOOKS_WINDSURF_SYSTEM_DIR", "/ws")}, binaries: bin,
			maybe: []string{"/ent/hooks.json", "/cm/managed-settings.json", "/ws/hooks.json", "/etc/cursor/hooks.json", "/etc/claude-code/managed-settings.json"}},
		{name: "audit trail elsewhere", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}}, files: []string{"/srv/pol.yaml", "/var/log/ah/audit.db"}, binaries: bin,
			maybe: []string{"/var/log/ah/audit.db", "/var/log/ah/audit.db.spool", "/var/log/ah/audit.db.spool.lock", "/var/log/ah/audit.db-journal",
				"/var/log/ah/audit.db-wal", "/var/log/ah/other", "/var/log", "/srv/pol.yaml", "/srv"}, no: []string{"/var/log/other/audit.db.spool"}},
		{name: "audit trail relative", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}}, files: []string{"pol.yaml", "../audit.db"}, binaries: bin,
			maybe: []string{absPath("../audit.db") + ".spool", absPath("pol.yaml")}},
		{name: "binaries in the project", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}}, binaries: []string{"/p/bin/agenthooks", "/p/bin/agenthooks-scan"},
			maybe: []string{"/p/bin/agenthooks", "/p/bin", "/p/bin/agenthooks-scan"}, no: []string{"/p/bin/other"}},
		{name: "a binary with a glob character", env: Env{Home: "/home/dev", Workspaces: []string{"/p"}}, binaries: []string{"/opt/a[1]/agenthooks"}, nilTest: true},
	} {
		may := MayProtect(c.env, c.files, c.binaries)
		if c.nilTest {
			if may != nil {
				t.Errorf("%s: MayProtect gives a test for %+v", c.name, c.env)
			}
			continue
		}
		if may == nil {
			t.Errorf("%s: MayProtect gives no test for %+v", c.name, c.env)
			continue
		}
		for _, p := range c.maybe {
			if !may(p) {
				t.Errorf("%s: MayProtect says %s cannot be protected", c.name, p)
			}
		}
		for _, p := range c.no {
			if may(p) {
				t.Errorf("%s: MayProtect says %s may be protected, want a plain no", c.name, p)
			}
		}
		neverHides(t, c.env, c.files, c.binaries, append(c.maybe, c.no...)...)
	}
}

// FuzzMayProtectWide: FuzzMayProtectNeverHides with a working directory beside the project,
// two variables, any that the list or the test reads, and a binary of the agent's choosing.
func FuzzMayProtectWide(f *testing.F) {
	f.Add("/home/a", "/home/a/p", "/tmp/b", "/home/a/p/.claude/settings.json", "/var/log/ah/audit.db", "/opt/bin/agenthooks", uint8(0), "/work/cc", uint8(5), "/")
	f.Add("/", "/", "/", "/.bashrc", "audit.db", "agenthooks", uint8(1), "/home", uint8(2), "/home/a/.codex")
	f.Add("/home/a", "/home/a", "/home/a/.claude", "/home/a/.config", "", "", uint8(7), "/home/a/p/oc", uint8(9), "/x y/é")
	keys := askedKeys()
	f.Fuzz(func(t *testing.T, home, project, cwd, target, file, binary string, k1 uint8, v1 string, k2 uint8, v2 string) {
		if len(home)+len(project)+len(cwd)+len(target)+len(file)+len(binary)+len(v1)+len(v2) > 2048 {
			return
		}
		key1, key2 := keys[int(k1)%len(keys)], keys[int(k2)%len(keys)]
		env := Env{Home: path.Clean("/" + home), Workspaces: []string{path.Clean("/" + project), path.Clean("/" + cwd)},
			Getenv: func(name string) string {
				switch name {
				case key2:
					return v2
				case key1:
					return v1
				}
				return ""
			}}
		neverHides(t, env, []string{"", file}, []string{binary}, target, target+"/x", path.Dir(target), file+".spool", file+"-wal", binary+"/x")
	})
}
