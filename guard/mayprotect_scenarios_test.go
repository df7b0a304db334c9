package guard_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
)

// cliPlaces is the context `agenthooks guard bash` builds (internal/cli protectedPlaces) for a
// home, a working directory, a project, an environment, the policy and audit files (files[1]
// the audit trail) and the binaries, twice: with the protected paths given, and computed on
// first need behind config.MayProtect, wrapped as the CLI wraps it (no test from config is
// "compute the list"; none at all with a relative home).
func cliPlaces(home, cwd, project string, env map[string]string, files, binaries []string) (eager, prefiltered guard.Context) {
	getenv := func(k string) string { return env[k] }
	cenv := config.Env{Home: home, EnterpriseDir: env["AGENTHOOKS_ENTERPRISE_DIR"], ClaudeManagedDir: env["AGENTHOOKS_CLAUDE_MANAGED_DIR"],
		CodexHome: env["CODEX_HOME"], Getenv: getenv}
	for _, ws := range []string{project, cwd} {
		if ws != "" && (len(cenv.Workspaces) == 0 || cenv.Workspaces[0] != ws) {
			cenv.Workspaces = append(cenv.Workspaces, ws)
		}
	}
	list := config.ProtectedPaths(cenv, files, binaries)
	if len(files) > 1 && files[1] != "" {
		abs, _ := filepath.Abs(files[1])
		for i := range list {
			if list[i].Path == filepath.ToSlash(abs) {
				list[i].Prefix = true
			}
		}
	}
	base := guard.Context{Home: home, Cwd: cwd, Project: project, Getenv: getenv}
	eager, prefiltered = base, base
	eager.Protected = list
	prefiltered.ProtectedFunc = func() []policy.Protected { return list }
	if home == "" || filepath.IsAbs(home) {
		test := config.MayProtect(cenv, files, binaries)
		prefiltered.MayProtect = func(p string) bool { return test == nil || test(p) }
	}
	return eager, prefiltered
}

// sameBehindMayProtect fails t when a command is judged differently with the protected paths
// given and behind the MayProtect test; it returns the verdict.
func sameBehindMayProtect(t *testing.T, g *guard.Guard, eager, prefiltered guard.Context, cmd string) guard.Verdict {
	t.Helper()
	want, got := g.Check(cmd, eager), g.Check(cmd, prefiltered)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("home %q cwd %q project %q: %q judged %s (%s) behind the MayProtect test, %s (%s) with the protected paths given",
			eager.Home, eager.Cwd, eager.Project, cmd, got.Decision, got.Reason, want.Decision, want.Reason)
	}
	return want
}

// placeShape is a home, working directory, project, environment and files the guard runs with.
type placeShape struct {
	name               string
	home, cwd, project string
	env                map[string]string
	files              []string
}

// placeShapes are the unusual places an agent's environment and payload can give the guard.
var placeShapes = []placeShape{
	{"ordinary", "/home/dev", "/home/dev/project", "/home/dev/project", nil, []string{"", "/home/dev/.agenthooks/audit.db"}},
	{"home is the root", "/", "/work", "/work", nil, nil},
	{"project is home", "/home/dev", "/home/dev", "/home/dev", nil, nil},
	{"project in ~/.claude", "/home/dev", "/home/dev/.claude/proj", "/home/dev/.claude/proj", nil, nil},
	{"cwd outside the project", "/home/dev", "/tmp/x", "/home/dev/project", nil, nil},
	{"cwd below the project", "/home/dev", "/home/dev/project/sub", "/home/dev/project", nil, nil},
	{"home with a space", "/home/my dev", "/home/my dev/p", "/home/my dev/p", nil, nil},
	{"home dot", ".", "/home/dev/project", "/home/dev/project", nil, nil},
	{"home relative", "h", "/home/dev/project", "/home/dev/project", nil, nil},
	{"home with a trailing slash", "/home/dev/", "/home/dev/project", "/home/dev/project", nil, nil},
	{"no home", "", "/home/dev/project", "/home/dev/project", nil, nil},
	{"variables move the folders", "/home/dev", "/home/dev/project", "/home/dev/project", map[string]string{"CLAUDE_CONFIG_DIR": "/work/cc", "XDG_CONFIG_HOME": "/x/cfg",
		"CODEX_HOME": "/opt/codex", "OPENCODE_CONFIG_DIR": "/home/dev/project/oc", "OPENCODE_CONFIG": "/tmp/oc.json", "QWEN_CODE_SYSTEM_SETTINGS_PATH": "/etc/q.json",
		"AGENTHOOKS_AUDIT": "/var/log/ah/audit.db"}, []string{"/srv/pol.yaml", "/var/log/ah/audit.db"}},
	{"variables at the root and the project", "/home/dev", "/home/dev/project", "/home/dev/project", map[string]string{"XDG_CONFIG_HOME": "/", "CODEX_HOME": "/home/dev/project"}, nil},
	{"variables unclean", "/home/dev", "/home/dev/project", "/home/dev/project", map[string]string{"XDG_CONFIG_HOME": "cfg", "CODEX_HOME": "../codex",
		"CLAUDE_CONFIG_DIR": "/work/cc/"}, []string{"pol.yaml", "../audit.db"}},
	{"variable with dot dot", "/home/dev", "/home/dev/project/sub", "/home/dev/project", map[string]string{"CLAUDE_CONFIG_DIR": "/home/dev/project/sub/.."}, nil},
}

// mayProtectCommands write, delete or move a place relative to the shapes above: by a relative
// path, through .. and ./ and doubled slashes, as ~user or $VAR, by a glob or a brace, a folder
// above a protected one, the audit trail's journals, lookalike names.
var mayProtectCommands = []string{
	"echo x > ./.claude/settings.json", "echo x > .//.claude//settings.json", "echo x > .claude/", "rm -rf .claude/", "echo x > ../project/.claude/settings.json",
	"echo x > ../../dev/.bashrc", "rm -rf ~/.config", "mv ~/.codex x", "mv ~/.config/opencode x", "echo x >> ~dev/.bashrc", "echo x >> ~root/.bashrc",
	"echo x > $HOME/.bashrc", "echo x > ${CODEX_HOME}/config.toml", "echo x > $XDG_CONFIG_HOME/opencode/opencode.json", "rm ~/.c*", "echo x > {a,.claude}/settings.json",
	"touch /opt/codex/config.toml", "echo > /x/cfg/opencode/plugin/a.js", "echo > /x/cfg/crush/crush.json", "echo > /work/cc/settings.json", "rm -rf /work/cc",
	"echo > /home/dev/.agenthooks/audit.db.spool", "echo > /var/log/ah/audit.db.spool", "echo > /var/log/ah/audit.db-journal", "rm -rf /var/log", "echo > /srv/pol.yaml",
	"echo > /srv/other", "echo > /tmp/oc.json", "rm -rf /tmp", "echo > /etc/q.json", "echo > oc/plugin/x.js", "echo > /home/dev/project/oc/plugin/x.js", "echo > sub/x",
	"echo x > x.code-workspace", "echo x > .vscode/settings.json", "rm -rf /home", "rm -rf /", "cp x /usr/local/bin/", "echo x > /usr/local/bin/agenthooks-admin",
	"echo x > build.log", "echo > /work/x", "echo > /work/.claude/settings.json", "echo > /.bashrc", "echo > /.claude/settings.json", "echo > settings.json",
	"echo > ../settings.json", "echo > ../.claude/settings.json", "echo > /home/dev/.claude/proj/x", "echo > /home/dev/.claude/settings.json", "echo > /home/my\\ dev/.bashrc",
	"echo > \"/home/my dev/p/.claude/settings.json\"", "echo > cfg/opencode/opencode.json", "echo > ../codex/config.toml", "echo > pol.yaml", "echo > ../audit.db-wal",
	"echo > /home/dev/audit.db.spool", "python3 -c \"open('.bashrc','a').write('x')\"", "python3 -c \"open('.npmrc','w')\"", "perl -e 'unlink q(.bashrc)'",
	"perl -e 'open(F, q(>>), q(.gitconfig))'", "echo > .bashrc", "echo > /.config/opencode/opencode.json", "echo > /home/dev/.ＣLAUDE/settings.json",
	"echo > /home/dev/.cla\u0301ude/settings.json", "echo > /home/dev/.CLAUDE/settings.json", "ln ~/.claude/settings.json h && echo x > h",
	"ln -s ~/.claude c && echo x > c/settings.json", "cd ~ && echo x > .bashrc", "cd .. && echo > .claude/settings.json", "cd / && echo > home/dev/.bashrc",
	"pushd ~/.ssh && echo > authorized_keys", "echo > /home/dev/project/.github/hooks/x.json", "mv a /home/dev/.cursor/managed/team_x", "echo > ~/.ssh/id_ed25519",
	"rm -rf ~/.agenthooks", "echo > /home/dev/project/.agenthooks/policy.yaml", "cp -r src /home/dev/.claude/x", "rm -rf ../project",
}

// TestMayProtectPlacesAsGiven: in each unusual place, every command is judged the same with the
// protected paths given and behind the MayProtect test, and the writes to a protected place
// there are denied.
func TestMayProtectPlacesAsGiven(t *testing.T) {
	t.Parallel()
	g := guard.Default()
	denied := map[string][]string{
		"ordinary": {"echo x > ./.claude/settings.json", "echo x > .//.claude//settings.json", "rm -rf .claude/", "rm -rf ~/.config", "mv ~/.codex x",
			"echo x > ~dev/.bashrc", "echo x > $HOME/.bashrc", "echo > /home/dev/.agenthooks/audit.db.spool", "echo > ~/.ssh/id_ed25519", "rm -rf ../project",
			`echo x > .claude/settings\.json`, `echo x > \.claude/settings.json`, `cat x > ~/\.bashrc`, `x=.claude/settings\.json; echo > $x`, `exec 3> ~/.ssh/authorized\_keys`,
			"ln -s ~/.claude c && echo x > c/../.bashrc", "ln -s ~/.claude c && cd c && echo x > settings.json", "ln -s ~/.claude c && cd c && tee settings.json < x",
			"ln -s ~/.claude c && cd c/ && echo x > settings.json", "ln -s ~ h && cd h/.ssh && echo x > authorized_keys", "ln -s ~/.claude/projects p && echo x > p/../settings.json",
			`echo > $'\x2eclaude/settings.json'`, `echo > .claude/settings.js\on`, `echo > ~//.bashrc`, `echo > ~/.ssh/../.bashrc`, `echo > ${HOME}/\.bashrc`,
			`x=$'\x2ebashrc'; echo > ~/$x`, `echo > ~/.claude/./settings.json`, "cp -s ~/.claude/settings.json s && echo x > s", "cp -l ~/.bashrc h",
			"cp --symbolic-link ~/.claude/settings.json s", "cp -rs ~/.claude c && echo x > c/settings.json", "cp -al ~/.ssh k && echo x > k/authorized_keys"},
		"home is the root":                      {"echo > /.bashrc", "echo > /.claude/settings.json", "echo > /work/.claude/settings.json", "echo > /.config/opencode/opencode.json"},
		"project is home":                       {"echo > .bashrc", "echo x > ./.claude/settings.json"},
		"project in ~/.claude":                  {"echo > ../settings.json", "echo > ../../.bashrc"},
		"cwd outside the project":               {"echo > /home/dev/project/.github/hooks/x.json", "echo x > .vscode/settings.json"},
		"cwd below the project":                 {"echo > ../.claude/settings.json", "echo x > ./.claude/settings.json"},
		"home with a space":                     {"echo > /home/my\\ dev/.bashrc", "echo > \"/home/my dev/p/.claude/settings.json\""},
		"home dot":                              {"perl -e 'unlink q(.bashrc)'", "perl -e 'open(F, q(>>), q(.gitconfig))'"},
		"variables move the folders":            {"touch /opt/codex/config.toml", "echo > /x/cfg/opencode/plugin/a.js", "echo > /x/cfg/crush/crush.json", "echo > /work/cc/settings.json", "rm -rf /work/cc", "echo > /var/log/ah/audit.db.spool", "echo > /var/log/ah/audit.db-journal", "echo > /srv/pol.yaml", "echo > /tmp/oc.json", "echo > /etc/q.json", "echo > oc/plugin/x.js", "echo x > ${CODEX_HOME}/config.toml"},
		"variables at the root and the project": {"echo > config.toml"},
		"variable with dot dot":                 {"echo > ../settings.json"},
	}
	// what bash writes in the project, however it is written
	allowed := map[string][]string{
		"ordinary": {"ln -s ~/.claude c && cd c && cd .. && echo x > .bashrc", "ln -s ~/.claude c && cd c/.. && echo x > .bashrc",
			"ln -s src s && echo x > s/../build.log", "echo x > \\~/.bashrc", "ln -s ~/.claude c && cd c && grep -r hooks .", "echo x > a\\ b.txt",
			"cp -r ~/.claude c && echo x > c/settings.json", "cp -S .bak a b", "cp -t out a b && echo > out/x", "cp -s /tmp/a b"},
	}
	bins := []string{"/usr/local/bin/agenthooks"}
	for _, s := range placeShapes {
		eager, pre := cliPlaces(s.home, s.cwd, s.project, s.env, s.files, bins)
		verdicts := map[string]guard.Verdict{}
		for _, c := range append(append(mayProtectCommands, denied[s.name]...), allowed[s.name]...) {
			verdicts[c] = sameBehindMayProtect(t, g, eager, pre, c)
		}
		for _, c := range denied[s.name] {
			if v := verdicts[c]; v.Decision != guard.Deny {
				t.Errorf("%s: %q judged %s (%s), want deny", s.name, c, v.Decision, v.Reason)
			}
		}
		for _, c := range allowed[s.name] {
			if v := verdicts[c]; v.Decision != guard.Allow {
				t.Errorf("%s: %q judged %s (%s), want allow", s.name, c, v.Decision, v.Reason)
			}
		}
	}
}

// TestMayProtectThroughSymlinks: on a real file system, with the home's .claude a symlink into a
// dotfiles folder, the project reached through a symlink, the home a symlink and folders of the
// project that are symlinks into ~/.claude, every write is judged the same with the protected
// paths given and behind the MayProtect test, and a write through a symlink to a protected
// place is denied, and so is a write to where a protected place's symlink leads, by that path:
// the dotfiles folder ~/.claude is a link to, the project a link leads to, the home a link
// leads to (the list holds each place as the kernel resolves it, and MayProtect follows the
// links of the home, the workspaces and their protected entries).
func TestMayProtectThroughSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := d + "/home"
	for _, dir := range []string{home + "/dotfiles/claude/projects", d + "/real-proj/.claude", d + "/realhome"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{home + "/.claude": home + "/dotfiles/claude", d + "/link-proj": d + "/real-proj",
		d + "/real-proj/sub": home + "/.claude/projects", d + "/real-proj/c": home + "/.claude", d + "/homelink": d + "/realhome"} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	g := guard.Default()
	cmds := []string{"echo > " + home + "/dotfiles/claude/settings.json", "echo > " + d + "/real-proj/.claude/settings.json",
		"echo > " + d + "/link-proj/.claude/settings.json", "echo > sub/../settings.json", "echo > c/settings.json", "echo > " + d + "/realhome/.bashrc",
		"echo > " + d + "/homelink/.bashrc", "echo > ~/.claude/settings.json", "cd sub/.. && echo > settings.json", "rm -rf " + home + "/dotfiles",
		"echo > sub/x", "cd c && echo > settings.json", "echo > " + d + "/link-proj/src.go", "echo > " + d + "/link-proj/c/settings.json",
		"cd sub && echo > ../settings.json", "echo > " + d + "/link-proj/sub/../settings.json", "echo > sub/../../../.bashrc"}
	for _, s := range []struct{ home, project string }{{home, d + "/link-proj"}, {home, d + "/real-proj"}, {d + "/homelink", d + "/real-proj"}} {
		eager, pre := cliPlaces(s.home, s.project, s.project, nil, nil, []string{"/usr/local/bin/agenthooks"})
		verdicts := map[string]guard.Verdict{}
		for _, c := range cmds {
			verdicts[c] = sameBehindMayProtect(t, g, eager, pre, c)
		}
		for _, c := range []string{"echo > " + d + "/link-proj/.claude/settings.json", "echo > ~/.claude/settings.json"} {
			if verdicts[c].Decision != guard.Deny {
				t.Errorf("home %s, project %s: %q judged %s, want deny", s.home, s.project, c, verdicts[c].Decision)
			}
		}
		want := []string{"echo > " + d + "/real-proj/.claude/settings.json"}
		if s.home == home {
			want = append(want, "echo > "+home+"/dotfiles/claude/settings.json", "rm -rf "+home+"/dotfiles")
		} else {
			want = append(want, "echo > "+d+"/realhome/.bashrc")
		}
		for _, c := range want {
			if verdicts[c].Decision != guard.Deny {
				t.Errorf("home %s, project %s: %q judged %s, want deny", s.home, s.project, c, verdicts[c].Decision)
			}
		}
		if s.home == home {
			for _, c := range []string{"echo > c/settings.json", "cd c && echo > settings.json", "echo > " + d + "/link-proj/c/settings.json"} {
				if verdicts[c].Decision != guard.Deny {
					t.Errorf("home %s, project %s: %q judged %s, want deny", s.home, s.project, c, verdicts[c].Decision)
				}
			}
		}
	}
}

// FuzzMayProtectPlacesAsGiven: any command, in any of the unusual places, is judged the same
// with the protected paths given and behind the MayProtect test.
func FuzzMayProtectPlacesAsGiven(f *testing.F) {
	for i, c := range mayProtectCommands {
		f.Add(c, uint8(i))
	}
	g := guard.Default()
	bins := []string{"/usr/local/bin/agenthooks"}
	f.Fuzz(func(t *testing.T, cmd string, shape uint8) {
		if len(cmd) > 4096 {
			return
		}
		s := placeShapes[int(shape)%len(placeShapes)]
		eager, pre := cliPlaces(s.home, s.cwd, s.project, s.env, s.files, bins)
		sameBehindMayProtect(t, g, eager, pre, cmd)
	})
}

// TestDotDotAfterSymlink: a ".." after a symlink goes up from where the symlink leads, as the
// kernel opens the path: with sub a symlink to ~/.claude/projects, sub/../settings.json is
// ~/.claude/settings.json, and so is ../settings.json from inside sub. Denied, the same with
// the protected paths given and behind the MayProtect test.
func TestDotDotAfterSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := d+"/home", d+"/proj"
	for _, dir := range []string{home + "/.claude/projects", proj} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(home+"/.claude/projects", proj+"/sub"); err != nil {
		t.Fatal(err)
	}
	g := guard.Default()
	eager, pre := cliPlaces(home, proj, proj, nil, nil, []string{"/usr/local/bin/agenthooks"})
	for _, c := range []string{"echo x > sub/../settings.json", "cd sub && echo x > ../settings.json", "echo x > " + proj + "/sub/../settings.json",
		"echo x > sub/../projects/../settings.json", "echo x >| sub/../../.bashrc", "cp x sub/../settings.json", "rm sub/../settings.json"} {
		if v := sameBehindMayProtect(t, g, eager, pre, c); v.Decision != guard.Deny {
			t.Errorf("%q judged %s (%s), want deny", c, v.Decision, v.Reason)
		}
	}
	for _, c := range []string{"echo x > sub/../x.txt", "echo x > sub/x.json", "echo x > ../proj/a.txt", "cd sub/.. && echo x > settings.json"} {
		if v := sameBehindMayProtect(t, g, eager, pre, c); v.Decision != guard.Allow {
			t.Errorf("%q judged %s (%s), want allow", c, v.Decision, v.Reason)
		}
	}
}
