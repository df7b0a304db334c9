package config

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/guard/shell"
)

// Every place an agent reads hooks from or loads hooks, plugins and tools from is protected
// whole, not only the files that match it today (none exist in this home): a location with a
// "*" by its pattern (a "*" alone by its folder), each of Loads as a folder, and VS Code's
// settings files on each platform, for the keys that switch its hooks.
func TestProtectedPathsCoverPlacesNotYetThere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the table is written with POSIX homes")
	}
	home, ws := "/home/a", "/work/p"
	for _, c := range []struct {
		goos string
		path string
		dir  bool
		keys bool
	}{
		{"linux", ws + "/.clinerules/hooks", true, false},
		{"linux", ws + "/.cline/hooks", true, false},
		{"linux", home + "/Documents/Cline/Hooks", true, false},
		{"linux", home + "/.cline/hooks", true, false},
		{"linux", ws + "/.kiro/hooks/*.json", false, false},
		{"linux", ws + "/.kiro/hooks", true, false},
		{"linux", ws + "/.kiro/agents", true, false},
		{"linux", home + "/.kiro/hooks", true, false},
		{"linux", home + "/.kiro/agents/*.json", false, false},
		{"linux", ws + "/.github/hooks/*.json", false, false},
		{"linux", home + "/.copilot/hooks/*.json", false, false},
		{"linux", ws + "/.opencode/plugin", true, false},
		{"linux", ws + "/.opencode/plugins", true, false},
		{"linux", ws + "/.opencode/tool", true, false},
		{"linux", ws + "/.opencode/tools", true, false},
		{"linux", home + "/.config/opencode/plugins", true, false},
		{"linux", home + "/.config/opencode/tools", true, false},
		{"linux", ws + "/.opencode/node_modules", true, false},
		{"linux", home + "/.config/opencode/node_modules", true, false},
		{"linux", home + "/.opencode/plugins", true, false},
		{"linux", home + "/.opencode/tool", true, false},
		{"linux", ws + "/opencode.json", false, false},
		{"linux", ws + "/opencode.jsonc", false, false},
		{"linux", ws + "/tui.json", false, false},
		{"linux", ws + "/.opencode/opencode.json", false, false},
		{"linux", ws + "/.opencode/opencode.jsonc", false, false},
		{"linux", ws + "/.opencode/package.json", false, false},
		{"linux", ws + "/.opencode/tui.jsonc", false, false},
		{"linux", home + "/.config/opencode/opencode.json", false, false},
		{"linux", home + "/.config/opencode/opencode.jsonc", false, false},
		{"linux", home + "/.config/opencode/config.json", false, false},
		{"linux", home + "/.config/opencode/package.json", false, false},
		{"linux", home + "/.config/opencode/tui.json", false, false},
		{"linux", home + "/.opencode/opencode.json", false, false},
		{"linux", home + "/.opencode/package.json", false, false},
		{"linux", "/etc/opencode/opencode.json", false, false},
		{"darwin", "/Library/Application Support/opencode/opencode.jsonc", false, false},
		{"linux", ws + "/.factory/hooks/hooks.json", false, false},
		{"linux", home + "/.factory/hooks/hooks.json", false, false},
		{"linux", home + "/.claude/plugins", true, false},
		{"linux", home + "/.gemini/extensions", true, false},
		{"linux", ws + "/.gemini/extensions", true, false},
		{"linux", ws + "/.vscode/settings.json", false, true},
		{"linux", home + "/.config/Code/User/settings.json", false, true},
		{"linux", home + "/.config/Code - Insiders/User/settings.json", false, true},
		{"linux", home + "/.vscode-server/data/Machine/settings.json", false, true},
		{"darwin", home + "/Library/Application Support/Code/User/settings.json", false, true},
		{"darwin", home + "/Library/Application Support/VSCodium/User/settings.json", false, true},
		{"windows", home + "/AppData/Roaming/Code/User/settings.json", false, true},
		{"windows", home + "/AppData/Roaming/Code - Insiders/User/settings.json", false, true},
	} {
		env := Env{Home: home, Workspaces: []string{ws}, GOOS: c.goos, ClaudeManagedDir: "/etc/claude-code"}
		got := ProtectedPaths(env, nil, nil)
		i := slices.IndexFunc(got, func(p policy.Protected) bool { return p.Path == c.path })
		if i < 0 {
			t.Errorf("%s: %s is not protected", c.goos, c.path)
			continue
		}
		if p := got[i]; p.Dir != c.dir || (len(p.Keys) > 0) != c.keys {
			t.Errorf("%s: %s protected as %+v, want dir %v, keys %v", c.goos, c.path, p, c.dir, c.keys)
		}
	}
}

// Loads and Switches are places an agent loads from: a workspace one is under the workspace,
// a user one under the home; none is a file agenthooks reads hooks from (AgentCandidates).
func TestLoadsAreNotCandidates(t *testing.T) {
	env := Env{Home: "/home/a", Workspaces: []string{"/work/p"}}
	for _, a := range agents.All() {
		for _, p := range LocationPaths(env, a, a.Loads) {
			if p := filepath.ToSlash(p); !strings.HasPrefix(p, "/home/a/") && !strings.HasPrefix(p, "/work/p/") {
				t.Errorf("%s: a folder it loads from is outside home and workspace: %s", a.Name, p)
			}
			for _, c := range AgentCandidates(env, a) {
				if c.Path == p {
					t.Errorf("%s: %s is both a hooks file and a folder it loads from", a.Name, p)
				}
			}
		}
	}
}

// The variables that move an agent's folders are followed, and the places they move them from
// stay protected: an agent started without the variable reads those.
func TestProtectedPathsFollowTheAgentsVariables(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the table is written with POSIX homes")
	}
	home, ws, alt := "/home/a", "/work/p", "/alt"
	vars := map[string]string{
		"OPENCODE_CONFIG_DIR": alt + "/ocdir", "OPENCODE_CONFIG": alt + "/oc.json", "OPENCODE_TUI_CONFIG": alt + "/tui.json",
		"XDG_CONFIG_HOME": alt + "/xdg", "CLAUDE_CONFIG_DIR": alt + "/claude", "CLINE_DIR": alt + "/cline",
		"COPILOT_HOME": alt + "/copilot", "CRUSH_GLOBAL_CONFIG": alt + "/crush", "CODEX_HOME": alt + "/codex",
		"GEMINI_CLI_HOME": alt + "/gh", "QWEN_HOME": alt + "/qwen", "FACTORY_HOME_OVERRIDE": alt + "/fh",
	}
	env := Env{Home: home, Workspaces: []string{ws}, GOOS: "linux", ClaudeManagedDir: "/etc/claude-code",
		Getenv: func(k string) string { return vars[k] }}
	got := ProtectedPaths(env, nil, nil)
	for _, c := range []struct {
		path string
		dir  bool
	}{
		{alt + "/ocdir/plugin", true}, {alt + "/ocdir/plugins", true}, {alt + "/ocdir/tools", true}, {alt + "/ocdir/node_modules", true},
		{alt + "/ocdir/opencode.json", false}, {alt + "/ocdir/opencode.jsonc", false}, {alt + "/ocdir/package.json", false},
		{alt + "/oc.json", false}, {alt + "/tui.json", false},
		{alt + "/xdg/opencode/plugin", true}, {alt + "/xdg/opencode/opencode.json", false}, {alt + "/xdg/crush/crush.json", false},
		{alt + "/claude/settings.json", false}, {alt + "/claude/plugins", true},
		{alt + "/cline/hooks", true},
		{alt + "/copilot/hooks/*.json", false}, {alt + "/copilot/settings.json", false},
		{alt + "/crush/crush.json", false},
		{alt + "/codex/config.toml", false}, {alt + "/codex/hooks.json", false},
		{alt + "/gh/.gemini/settings.json", false}, {alt + "/gh/.gemini/extensions", true},
		{alt + "/qwen/settings.json", false},
		{alt + "/fh/.factory/hooks.json", false}, {alt + "/fh/.factory/settings.json", false},
		// and where each is without its variable
		{home + "/.config/opencode/plugin", true}, {home + "/.config/opencode/opencode.json", false},
		{home + "/.claude/settings.json", false}, {home + "/.cline/hooks", true}, {home + "/.copilot/hooks/*.json", false},
		{home + "/.config/crush/crush.json", false}, {home + "/.codex/config.toml", false}, {home + "/.gemini/settings.json", false},
		{home + "/.qwen/settings.json", false}, {home + "/.factory/hooks.json", false},
	} {
		i := slices.IndexFunc(got, func(p policy.Protected) bool { return p.Path == c.path })
		if i < 0 {
			t.Errorf("%s is not protected", c.path)
			continue
		}
		if got[i].Dir != c.dir {
			t.Errorf("%s protected as %+v, want dir %v", c.path, got[i], c.dir)
		}
	}
}

// Every variable that moves an agent's folders, as the descriptors name them, is one the shell
// guard denies setting: else the agent could move its own hooks away for an agent it starts.
// XDG_CONFIG_HOME moves every program's folder and is denied for an agent's program only.
func TestAgentVariablesAreGuarded(t *testing.T) {
	for _, a := range agents.All() {
		names := []string{a.ManagedEnv}
		for _, h := range a.Homes() {
			names = append(names, h.Env)
		}
		for _, locs := range [][]dialect.Location{a.Files, a.Loads, a.Configs} {
			for _, l := range locs {
				names = append(names, l.Env)
			}
		}
		for _, n := range names {
			if n == "" || n == "XDG_CONFIG_HOME" {
				continue
			}
			if shell.AgentVariable(n) == "" && !shell.IsGuardVariable(n) {
				t.Errorf("%s: setting %s moves its configuration, but the shell guard lets an agent set it", a.Name, n)
			}
		}
	}
}

// Every agent's program is one the shell guard knows as an agent's (HOME=/tmp/x claude, and its
// config commands, are judged by that list).
func TestAgentBinariesAreKnown(t *testing.T) {
	for _, a := range agents.All() {
		if a.Binary != "" && !shell.IsAgentCLI(a.Binary) {
			t.Errorf("%s: its program %s is not among the shell guard's agents' programs", a.Name, a.Binary)
		}
	}
}
