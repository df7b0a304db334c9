package config

import (
	"cmp"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// MayProtect returns a test that a guard runs before it computes ProtectedPaths(env, files,
// binaries), which costs a guard process more than judging most commands does: the test is
// false only for a clean absolute path that can be none of those paths, inside none of them,
// above none of them and in the folder of no protected file, whatever the list holds; true
// means "compute the list and look". It is built from the descriptors' tables alone, without
// joining, cleaning or globbing a path: every protected place is under an absolute root (an
// agent's managed folder, a folder a variable names, a policy or audit file's folder, a binary),
// or under the home folder or a workspace with a first element from a fixed set (.claude,
// .ssh, .bashrc, *.code-workspace, ...). It returns nil, which is "always compute", for what it
// does not reason about: a platform whose file names fold case or use backslashes, a home, a
// workspace or a root that is not a clean absolute path, a descriptor path that leaves its root.
// Symlinks on the way are followed as the kernel follows them (linked): the home folder and the
// workspaces are resolved, and their entries that are symlinks and may be protected lead to
// more roots.
func MayProtect(env Env, files, binaries []string) func(target string) bool {
	return mayProtectOf(env, files, binaries, agents.ByFilePriority())
}

// mayProtectOf is MayProtect for the descriptors given.
func mayProtectOf(env Env, files, binaries []string, descriptors []*dialect.Agent) func(target string) bool {
	goos := cmp.Or(env.GOOS, runtime.GOOS)
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || goos != runtime.GOOS {
		return nil
	}
	m := &mayProtect{home: env.Home, workspaces: env.Workspaces}
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
					first(&m.wsFirst, l.Path)
				case dialect.RootHome:
					if a.Dir != "" && !cleanRel(a.Dir) {
						ok = false
					}
					first(&m.homeFirst, cmp.Or(a.Dir, l.Path)) // the agent's folder's first element, or the path's
				case dialect.RootUserHome:
					first(&m.homeFirst, l.Path)
				case dialect.RootTeam:
					first(&m.homeFirst, teamDir)
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
	first(&m.homeFirst, teamDir)
	first(&m.homeFirst, stateDir)
	for _, c := range credentialPaths {
		first(&m.homeFirst, c.path)
	}
	for _, a := range autorunPaths {
		first(&m.homeFirst, a.path)
	}
	first(&m.wsFirst, stateDir) // the project's .agenthooks
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

// linked makes the test hold where symlinks lead, as the kernel opens a path: the home folder
// and each workspace are tested at where they resolve too (a home or a project reached through
// a link), and an entry of theirs that one of their first elements names and that is a
// symlink (~/.claude a link into a dotfiles folder, made by GNU stow or by hand), or a symlink
// inside such a folder (~/.claude/settings.json), makes where it leads a root. One read of
// each folder's names (their types come with them, dirLinks); false, no test, when one could
// not be read to the end. A link deeper still (~/.config/gh/hosts.yml) is not looked at:
// docs/guard.md.
func (m *mayProtect) linked() bool {
	if m.home != "" {
		real, ok := m.survey(m.home, &m.homeFirst)
		if !ok {
			return false
		}
		if real != m.home {
			m.homes = append(m.homes, real)
		}
	}
	var more []string
	for _, ws := range m.workspaces {
		real, ok := m.survey(ws, &m.wsFirst)
		if !ok {
			return false
		}
		if real != ws && !slices.Contains(m.workspaces, real) {
			more = append(more, real)
		}
	}
	if len(more) > 0 {
		m.workspaces = append(slices.Clip(m.workspaces), more...) // never the caller's array
	}
	return true
}

// survey adds as roots where base's symlinked entries that firsts holds lead, and where the
// symlinks inside its folders that firsts holds lead (~/.claude/settings.json a link, as GNU
// stow makes them when ~/.claude is a folder already), and returns base with its symlinks
// resolved. A base that cannot be read as a folder (not there yet) has no entries; one whose
// names cannot all be read makes the test give no answer (false).
func (m *mayProtect) survey(base string, firsts *firsts) (string, bool) {
	real, links, dirs, opened, ok := dirLinks(base, firsts.holdsName())
	if !opened {
		return resolvedPath(base), true
	}
	if !ok {
		return "", false // opened, but not read to the end
	}
	if real == "" || strings.HasSuffix(real, " (deleted)") {
		real = resolvedPath(base)
	}
	for _, name := range links {
		if firsts.holds(name) {
			m.follow(real, name)
		}
	}
	for _, name := range dirs {
		dir := real + "/" + name
		if real == "/" {
			dir = "/" + name
		}
		_, inner, _, opened, ok := dirLinks(dir, nil)
		if opened && !ok {
			return "", false
		}
		for _, l := range inner {
			m.follow(dir, l)
		}
	}
	return real, true
}

// follow makes where the entry name of the folder dir (its symlinks resolved) leads a root, when
// it is a symlink: a dangling link leads where it points.
func (m *mayProtect) follow(dir, name string) {
	to, err := os.Readlink(dir + "/" + name)
	if err != nil {
		return // not a link after all (a type the file system did not give)
	}
	if !path.IsAbs(to) {
		to = path.Join(dir, to)
	}
	m.roots = append(m.roots, resolvedPath(path.Clean(to)))
}

// resolvedPath is the clean absolute path p with the symlinks of its longest existing ancestor
// resolved and the rest joined.
func resolvedPath(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return path.Join(r, rest)
		}
		parent := path.Dir(cur)
		if parent == cur {
			return p
		}
		rest = path.Join(path.Base(cur), rest)
		cur = parent
	}
}

// The home folder's entries that agenthooks' own places start with.
const (
	teamDir  = ".cursor/managed" // teamRoot's
	stateDir = ".agenthooks"     // StateDir's
)

type mayProtect struct {
	home       string
	homes      []string // home, and where it resolves when that differs
	workspaces []string // and where they resolve
	roots      []string // clean absolute paths: anything on one line with one may be protected
	homeFirst  firsts   // the first elements under home of the protected places there
	wsFirst    firsts   // and under each workspace
}

// firsts are the first elements of protected places under a folder: names, and patterns
// (*.code-workspace) apart, so that a name is compared only as a string.
type firsts struct{ names, patterns []string }

func (f *firsts) add(e string) {
	to := &f.names
	if hasMeta(e) {
		to = &f.patterns
	}
	if n := len(*to); n == 0 || (*to)[n-1] != e { // most repeat the one before (.claude, .claude/...)
		*to = append(*to, e)
	}
}

// holds reports whether e is one of the names or matches one of the patterns (or a pattern is
// malformed: then anything may be protected).
func (f *firsts) holds(e string) bool {
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

// holdsName is holds for a name read from a folder, without making it a string unless a
// pattern needs one: most names are passed over by a bit set of the names' hashes.
func (f *firsts) holdsName() func(name []byte) bool {
	var set [16]uint64 // 1,024 bits for the fifty-odd names
	for _, n := range f.names {
		h := nameHash(n)
		set[h>>6&15] |= 1 << (h & 63)
	}
	return func(name []byte) bool {
		if h := nameHash(name); set[h>>6&15]&(1<<(h&63)) != 0 && slices.Contains(f.names, string(name)) {
			return true
		}
		return len(f.patterns) > 0 && f.holds(string(name))
	}
}

// nameHash is FNV-1a of a name.
func nameHash[S string | []byte](s S) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

func (m *mayProtect) may(target string) bool {
	if !cleanAbs(target) || hasMeta(target) {
		return true // a pattern (/*) may stand for any protected place: the guard never asks, but the test holds alone
	}
	for _, r := range m.roots {
		if oneLine(target, r) {
			return true
		}
	}
	for _, h := range m.homes {
		if m.under(target, h, &m.homeFirst) {
			return true
		}
	}
	for _, ws := range m.workspaces {
		if m.under(target, ws, &m.wsFirst) {
			return true
		}
	}
	return false
}

// under reports whether target is base or above it, or inside it with a first element that one
// of firsts (names or patterns) matches.
func (m *mayProtect) under(target, base string, firsts *firsts) bool {
	if within(target, base) {
		return true // base itself or above: it holds protected places
	}
	if !within(base, target) {
		return false
	}
	rest := strings.TrimPrefix(target[len(base):], "/")
	e, _, _ := strings.Cut(rest, "/")
	return firsts.holds(e)
}

// oneLine reports whether a and b are the same path or one is inside the other (both clean and
// absolute).
func oneLine(a, b string) bool { return within(a, b) || within(b, a) }

// within reports whether inner is outer or inside it (both clean and absolute).
func within(outer, inner string) bool {
	if outer == "/" || inner == outer {
		return true
	}
	return len(inner) > len(outer) && inner[len(outer)] == '/' && inner[:len(outer)] == outer
}
