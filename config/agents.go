package config

import (
	"cmp"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// AgentCandidates lists, in priority order, every place agent a reads hooks from in env, as
// its descriptor's Files say: a path with a "*" gives every file it matches, in name order; a
// run of workspace files is looked for in each workspace in turn.
func AgentCandidates(env Env, a *dialect.Agent) []Candidate {
	var out []Candidate
	locs := a.Files
	for i := 0; i < len(locs); i++ {
		l := locs[i]
		if l.Root == dialect.RootWorkspace {
			j := i
			for j < len(locs) && locs[j].Root == dialect.RootWorkspace {
				j++
			}
			for _, ws := range env.Workspaces {
				out = append(out, workspaceCandidates(a, locs[i:j], ws)...)
			}
			i = j - 1
			continue
		}
		p := locationPath(env, a, l)
		if p == "" {
			continue
		}
		if !strings.Contains(l.Path, "*") || env.lookup(l.Env) != "" {
			out = append(out, Candidate{Layer: Layer(l.Scope), Family: a.Name, Path: p, Format: l.Format})
			continue
		}
		matches := glob(p)
		for _, m := range matches {
			out = append(out, Candidate{Layer: Layer(l.Scope), Family: a.Name, Path: m, Format: l.Format})
		}
	}
	return out
}

// locationPath is where a location that is not a workspace's is in env: its variable's value,
// else its path under its root ("" when env has no such root). A "*" is left unmatched.
func locationPath(env Env, a *dialect.Agent, l dialect.Location) string {
	if l.Root == dialect.RootEnv {
		v := env.lookup(l.Env)
		if v == "" || l.Path == "" {
			return v
		}
		return join(v, l.Path)
	}
	if v := env.lookup(l.Env); v != "" {
		return v
	}
	var base string
	switch l.Root {
	case dialect.RootManaged:
		base = managedDir(env, a)
	case dialect.RootTeam:
		if env.Home != "" {
			base = teamRoot(env.Home)
		}
	case dialect.RootHome:
		base = agentHome(env, a)
	case dialect.RootUserHome:
		base = env.Home
	}
	if base == "" {
		return ""
	}
	if l.Root == dialect.RootManaged && !strings.Contains(l.Path, "*") {
		return joinFor(cmp.Or(env.GOOS, runtime.GOOS), base, l.Path) // another platform's path as it reads there
	}
	return join(base, l.Path)
}

// LocationPaths are the paths of locs in env, a "*" left unmatched: a workspace location's in
// each workspace, any other's under its root. ProtectedPaths protects them whole, so that a
// file that does not exist yet is protected too.
func LocationPaths(env Env, a *dialect.Agent, locs []dialect.Location) []string {
	var out []string
	for _, l := range locs {
		if l.Root == dialect.RootWorkspace {
			for _, ws := range env.Workspaces {
				out = append(out, join(ws, l.Path))
			}
			continue
		}
		if p := locationPath(env, a, l); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// projectCandidates are agent a's files in workspace ws: the candidate lists and the trust
// store's list of files that trust unlocks (ProjectFiles) are both built from these.
func projectCandidates(a *dialect.Agent, ws string) []Candidate {
	return workspaceCandidates(a, a.Files, ws)
}

func workspaceCandidates(a *dialect.Agent, locs []dialect.Location, ws string) []Candidate {
	var out []Candidate
	for _, l := range locs {
		if l.Root != dialect.RootWorkspace {
			continue
		}
		p := join(ws, l.Path)
		paths := []string{p}
		if strings.Contains(l.Path, "*") {
			paths = glob(p)
		}
		for _, p := range paths {
			out = append(out, Candidate{Layer: Layer(l.Scope), Family: a.Name, Path: p, Workspace: ws, Format: l.Format})
		}
	}
	return out
}

// managedDir is agent a's machine-wide folder in env: as env overrides it, else the platform's.
func managedDir(env Env, a *dialect.Agent) string {
	if a.ManagedDir == nil {
		return ""
	}
	if v := env.lookup(a.ManagedEnv); v != "" {
		return v
	}
	return a.ManagedDir(cmp.Or(env.GOOS, runtime.GOOS))
}

// agentHome is agent a's user folder in env (dialect.Agent.UserDir): moved by its variables,
// else ~/Dir; "" without a home.
func agentHome(env Env, a *dialect.Agent) string {
	dir, _ := a.UserDir(env.Home, env.lookup)
	return dir
}

// lookup returns the folder env sets through the environment variable key: the named fields
// for the variables they stand for, else Getenv.
func (env Env) lookup(key string) string {
	if key == "" {
		return ""
	}
	var v string
	switch key {
	case "AGENTHOOKS_ENTERPRISE_DIR":
		v = env.EnterpriseDir
	case "AGENTHOOKS_CLAUDE_MANAGED_DIR":
		v = env.ClaudeManagedDir
	case "CODEX_HOME":
		v = env.CodexHome
	}
	if v != "" {
		return v
	}
	if env.Getenv != nil {
		return env.Getenv(key)
	}
	return ""
}

// formatOf is the format of a candidate that does not say: the format of its agent's file whose
// path its own ends with (a "*" matching), else of its agent's file with the same extension,
// else of the agent's first file.
func formatOf(c Candidate) dialect.Format {
	if c.Format != 0 {
		return c.Format
	}
	a := agents.Get(c.Family)
	if a == nil {
		return dialect.FormatHooks
	}
	if l, ok := LocationOf(a, c.Path); ok {
		return l.Format
	}
	for _, l := range a.Files {
		if filepath.Ext(l.Path) == filepath.Ext(c.Path) {
			return l.Format
		}
	}
	return a.Files[0].Format
}

// CandidatesOf lists the candidates of the named agents' files (every agent's when names is
// empty), each agent's in priority order, the agents in agents.ByFilePriority's order. A file
// that two of them read (VS Code reads Copilot CLI's .github/hooks) is listed once, as the
// first's, so that its hooks run once.
func CandidatesOf(env Env, names ...dialect.Name) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	for _, a := range agents.ByFilePriority() {
		if len(names) == 0 || containsName(names, a.Name) {
			for _, c := range AgentCandidates(env, a) {
				if !seen[c.Path] {
					seen[c.Path] = true
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func containsName(names []dialect.Name, n dialect.Name) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// LocationOf returns the location of agent a's workspace and user files that file is at: the
// one whose path, a "*" matching, the file's path ends with (under the agent's folder for a user
// file). Machine-wide and team files are not told by their names.
func LocationOf(a *dialect.Agent, file string) (dialect.Location, bool) {
	slash := filepath.ToSlash(file)
	for _, l := range a.Files {
		pattern := l.Path
		switch l.Root {
		case dialect.RootHome:
			pattern = a.Dir + "/" + l.Path
		case dialect.RootWorkspace:
		default:
			continue
		}
		n := strings.Count(pattern, "/") + 1
		parts := strings.Split(slash, "/")
		if len(parts) < n {
			continue
		}
		if ok, _ := path.Match(pattern, strings.Join(parts[len(parts)-n:], "/")); ok {
			return l, true
		}
	}
	return dialect.Location{}, false
}
