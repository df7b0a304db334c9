package config

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/agents"

	"github.com/agenthooks/agenthooks/guard/policy"
)

// protectedPathsBefore is ProtectedPaths as it was before the guard process's start-up work
// (every path through filepath.Abs or Join and Clean, twice): the oracle of the equivalence test.
func protectedPathsBefore(env Env, files, binaries []string) []policy.Protected {
	var out []policy.Protected
	seen := map[string]bool{}
	add := func(p, what string, dir, binary bool) {
		if p == "" {
			return
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		p = filepath.ToSlash(filepath.Clean(p))
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, policy.Protected{Path: p, What: what, Dir: dir, Binary: binary})
	}
	kind := func(p, what string, dir bool, kind string) {
		p = filepath.ToSlash(filepath.Clean(p))
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, policy.Protected{Path: p, What: what, Dir: dir, Kind: kind})
	}
	envs := []Env{env}
	if env.CodexHome != "" || env.Getenv != nil {
		unset := env
		unset.CodexHome, unset.Getenv = "", nil
		envs = append(envs, unset)
	}
	for _, env := range envs {
		for _, c := range CandidatesOf(env) {
			add(c.Path, string(c.Family)+" hooks configuration ("+string(c.Layer)+")", false, false)
		}
	}
	for _, a := range agents.ByFilePriority() {
		for _, env := range envs {
			for _, p := range LocationPaths(env, a, a.Files) {
				if dir, base := filepath.Split(p); base == "*" && !strings.Contains(dir, "*") {
					add(dir, a.Title+" hooks folder (a new file there runs as a hook)", true, false)
				} else if strings.Contains(p, "*") {
					add(p, a.Title+" hooks files (a new one is read as hooks)", false, false)
				}
			}
			for _, p := range LocationPaths(env, a, a.Loads) {
				add(p, "what "+a.Title+" loads as hooks, plugins or tools (a file put there runs unguarded)", true, false)
			}
			for _, p := range LocationPaths(env, a, a.Configs) {
				add(p, a.Title+" settings (they can load code that runs unguarded or switch its hooks off)", false, false)
			}
		}
		if a.Switches != nil {
			for _, p := range LocationPaths(env, a, a.Switches(runtime.GOOS)) {
				matches := []string{p}
				if strings.Contains(p, "*") {
					matches, _ = filepath.Glob(p)
				}
				for _, m := range matches {
					n := len(out)
					add(m, "settings that switch "+a.Title+" on and off", false, false)
					if len(out) > n {
						out[n].Keys = a.SwitchKeys
					}
				}
			}
		}
	}
	if env.Home != "" {
		add(teamRoot(env.Home), "the team hooks agenthooks sync installs", true, false)
		add(StateDir(env.Home), "agenthooks' trust store, audit trail and policy", true, false)
	}
	add(claudeManaged(env), "Claude Code's managed settings", true, false)
	if env.Home != "" {
		for _, c := range credentialPaths {
			kind(filepath.Join(env.Home, c.path), c.what, c.dir, policy.KindCredentials)
		}
		for _, a := range autorunPaths {
			kind(filepath.Join(env.Home, a.path), a.what, a.dir, policy.KindAutorun)
		}
	}
	for _, ws := range env.Workspaces {
		add(filepath.Join(ws, ".agenthooks"), "the project's agenthooks policy", true, false)
	}
	for _, p := range files {
		add(p, "agenthooks' policy or audit trail in use", false, false)
	}
	for _, b := range binaries {
		add(b, "the agenthooks binary", false, true)
	}
	return out
}

// protectedPathsSame fails t when ProtectedPaths and its former self disagree on env.
func protectedPathsSame(t *testing.T, env Env, files, binaries []string) {
	t.Helper()
	got, want := ProtectedPaths(env, files, binaries), protectedPathsBefore(env, files, binaries)
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ProtectedPaths(%+v, %q, %q) differs from before:\n got %v\nwant %v", env, files, binaries, got, want)
	}
}

func TestProtectedPathsAsBefore(t *testing.T) {
	for _, home := range []string{"/home/a", "/home/a/", "/", "//x", "/home/./a/../b", "rel/home", ".", "/home/a b", "~"} {
		for _, ws := range [][]string{nil, {"/work/p"}, {"/home/a", "/home/a/.ssh"}, {"p", "/"}} {
			env := Env{Home: home, Workspaces: ws, EnterpriseDir: "/etc/ent", ClaudeManagedDir: "/etc/claude-code", CodexHome: home + "/.codex"}
			protectedPathsSame(t, env, []string{"/home/a/.agenthooks/policy.yaml", "", "audit.db"}, []string{"/usr/bin/agenthooks", "/usr/bin/agenthooks"})
		}
	}
}

// FuzzProtectedPathsAsBefore: whatever home, workspace and files the environment holds (HOME
// and the payload's cwd are the agent's to set), the list is the one computed before.
func FuzzProtectedPathsAsBefore(f *testing.F) {
	f.Add("/home/a", "/work/p", "/tmp/audit.db")
	f.Add("/", "/", "")
	f.Add("/home//a/", "rel", "../x")
	f.Fuzz(func(t *testing.T, home, ws, file string) {
		env := Env{Home: home, Workspaces: []string{ws}, ClaudeManagedDir: "/etc/claude-code"}
		protectedPathsSame(t, env, []string{file}, nil)
	})
}
