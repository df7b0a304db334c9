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
	return mayProtectWith(env, files, binaries, builtinMayTables)
}

// builtinMayTables are mayTables for agents.ByFilePriority() on this platform: on Linux the ones
// `go generate` writes (maytables_gen.go: walking the descriptors costs a guard process more than
// the rest of the test; TestMayTablesCurrent keeps the two the same, and the descriptors' tables,
// their ManagedDir and Switches included, depend on the platform alone), elsewhere built on first
// need.
//
//go:generate go test -run ^TestMayTablesCurrent$ -update-maytables .
func builtinMayTables() *mayTables {
	if runtime.GOOS == "linux" {
		return &linuxMayTables
	}
	return builtinTables.Get(func() *mayTables { return tablesOf(agents.ByFilePriority(), runtime.GOOS) })
}

var builtinTables dialect.Lazy[*mayTables]

// mayProtectOf is MayProtect for the descriptors given.
func mayProtectOf(env Env, files, binaries []string, descriptors []*dialect.Agent) func(target string) bool {
	return mayProtectWith(env, files, binaries, func() *mayTables { return tablesOf(descriptors, runtime.GOOS) })
}

// mayProtectWith is MayProtect with the descriptors' tables that tables gives, asked for only
// on a platform MayProtect reasons about.
func mayProtectWith(env Env, files, binaries []string, tables func() *mayTables) func(target string) bool {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || cmp.Or(env.GOOS, runtime.GOOS) != runtime.GOOS {
		return nil
	}
	m := &mayProtect{home: env.Home, workspaces: env.Workspaces}
	if m.home != "" && (!cleanAbs(m.home) || hasMeta(m.home)) {
		return nil // a home of /? is a pattern to the guard
	}
	for _, ws := range m.workspaces {
		if !cleanAbs(ws) || hasMeta(ws) {
			return nil
		}
	}
	t := tables()
	if !t.ok {
		return nil
	}
	m.homeFirst, m.wsFirst = &t.homeFirst, &t.wsFirst
	m.roots = make([]string, 0, len(t.dirs)+len(t.keys)+3+len(files)+len(binaries))
	m.roots = append(m.roots, t.dirs...)
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
	for _, k := range t.keys {
		root(env.lookup(k)) // an agent's folder, a file's own variable, a RootEnv's root, a managed folder moved
	}
	root(claudeManaged(env))
	root(env.EnterpriseDir)
	root(env.CodexHome)
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
	if m.home != "" {
		m.homes = append(m.homesBuf[:0], m.home)
	}
	if !m.linked() {
		return nil
	}
	return m.may
}

// mayTables are what MayProtect's test takes from the descriptors' tables, whatever the
// environment: every protected place is under an absolute root (an agent's managed folder, a
// folder a variable names) or under the home folder or a workspace with a first element from a
// fixed set. ok is false when a descriptor's path may leave its root (or a root is not a clean
// absolute path): then there is no test.
type mayTables struct {
	ok                 bool
	keys               []string // the variables whose folders are roots, each once
	dirs               []string // the agents' managed folders where no variable moves them
	homeFirst, wsFirst firsts
}

// tablesOf walks the descriptors once for what MayProtect needs of them on goos: their
// variables (an agent's own, its managed folder's, a file's, a RootEnv's root), their managed
// folders, and the first elements of their places under the home folder and a workspace. A
// RootManaged place is under the agent's managed folder, which is a root as it is or as its
// variable moves it (managedDir gives one of the two).
func tablesOf(descriptors []*dialect.Agent, goos string) *mayTables {
	t := &mayTables{ok: true}
	t.homeFirst.names = make([]string, 0, 64)
	t.wsFirst.names = make([]string, 0, 32)
	key := func(k string) {
		if k != "" && !slices.Contains(t.keys, k) {
			t.keys = append(t.keys, k)
		}
	}
	first := func(to *firsts, rel string) {
		e, clean := firstOf(rel)
		if !clean {
			t.ok = false
		}
		to.add(e)
	}
	for _, a := range descriptors {
		key(a.HomeEnv) // a.Homes(), without building it
		for _, h := range a.HomeVars {
			key(h.Env)
		}
		key(a.ManagedEnv)
		if a.ManagedDir != nil {
			if d := a.ManagedDir(goos); d != "" {
				if !cleanAbs(d) || hasMeta(d) {
					t.ok = false
				}
				t.dirs = append(t.dirs, d)
			}
		}
		dirAdded := false // the agent's folder's first element, for its RootHome places
		locs := [4][]dialect.Location{a.Files, a.Loads, a.Configs}
		if a.Switches != nil {
			locs[3] = a.Switches(goos)
		}
		for _, ls := range locs {
			for _, l := range ls {
				key(l.Env)
				pathChecked := false
				switch l.Root {
				case dialect.RootWorkspace:
					first(&t.wsFirst, l.Path) // an empty path is no place under the workspace: no test
					pathChecked = true
				case dialect.RootHome:
					if a.Dir == "" {
						first(&t.homeFirst, l.Path)
						pathChecked = true
					} else if !dirAdded {
						first(&t.homeFirst, a.Dir)
						dirAdded = true
					}
				case dialect.RootUserHome:
					first(&t.homeFirst, l.Path)
					pathChecked = true
				case dialect.RootTeam, dialect.RootManaged, dialect.RootEnv:
					// the team folder's first element is added below; a managed folder and a
					// variable's folder are roots
				default:
					t.ok = false // a root this test does not know
				}
				if !pathChecked && l.Path != "" && !cleanRel(l.Path) {
					t.ok = false // a path that may leave its root, whichever root that is
				}
			}
		}
	}
	first(&t.homeFirst, teamDir)
	first(&t.homeFirst, stateDir)
	for _, c := range credentialPaths {
		first(&t.homeFirst, c.path)
	}
	for _, a := range autorunPaths {
		first(&t.homeFirst, a.path)
	}
	first(&t.wsFirst, stateDir) // the project's .agenthooks
	return t
}

// firstOf is rel's first element and whether rel is clean (cleanRel), in one reading; the
// element is "" when rel is not clean.
func firstOf(rel string) (first string, clean bool) {
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		e := rel[start:i]
		if e == "" || e == "." || e == ".." { // a leading, trailing or doubled slash, or . or ..
			return "", false
		}
		if start == 0 {
			first = e
		}
		start = i + 1
	}
	return first, true
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
		real, ok := m.survey(m.home, m.homeFirst)
		if !ok {
			return false
		}
		if real != m.home {
			m.homes = append(m.homes, real)
		}
	}
	var more []string
	for _, ws := range m.workspaces {
		real, ok := m.survey(ws, m.wsFirst)
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
	homes      []string  // home, and where it resolves when that differs
	homesBuf   [2]string // homes' array, without an allocation of its own
	workspaces []string  // and where they resolve
	roots      []string  // clean absolute paths: anything on one line with one may be protected
	homeFirst  *firsts   // the first elements under home of the protected places there (mayTables')
	wsFirst    *firsts   // and under each workspace
}

// firsts are the first elements of protected places under a folder: names, each once, and
// patterns (*.code-workspace) apart, so that a name is compared only as a string; set holds a
// bit of each name's hash, so that most names are passed over without a comparison.
type firsts struct {
	names, patterns []string
	set             [16]uint64 // 1,024 bits for the fifty-odd names
}

func (f *firsts) add(e string) {
	if hasMeta(e) {
		if n := len(f.patterns); n == 0 || f.patterns[n-1] != e {
			f.patterns = append(f.patterns, e)
		}
		return
	}
	if f.holdsAsName(e) {
		return
	}
	h := nameHash(e)
	f.set[h>>6&15] |= 1 << (h & 63)
	f.names = append(f.names, e)
}

// holdsAsName reports whether e is one of the names.
func (f *firsts) holdsAsName(e string) bool {
	h := nameHash(e)
	return f.set[h>>6&15]&(1<<(h&63)) != 0 && slices.Contains(f.names, e)
}

// holds reports whether e is one of the names or matches one of the patterns (or a pattern is
// malformed: then anything may be protected).
func (f *firsts) holds(e string) bool {
	if f.holdsAsName(e) {
		return true
	}
	for _, p := range f.patterns {
		if lit := p[1:]; p[0] == '*' && !hasMeta(lit) && strings.IndexByte(lit, '\\') < 0 && strings.IndexByte(e, '/') < 0 {
			// * and a literal (*.code-workspace): what path.Match answers, without its
			// backtracking (a backslash escapes for path.Match on every system, where
			// hasMeta follows filepath.Match, which has no escape on Windows)
			if strings.HasSuffix(e, lit) {
				return true
			}
			continue
		}
		if ok, err := path.Match(p, e); ok || err != nil {
			return true
		}
	}
	return false
}

// holdsName is holds for a name read from a folder, without making it a string unless it
// may be one of the names or a pattern needs one.
func (f *firsts) holdsName() func(name []byte) bool {
	return func(name []byte) bool {
		if h := nameHash(name); f.set[h>>6&15]&(1<<(h&63)) != 0 && slices.Contains(f.names, string(name)) {
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
		if m.under(target, h, m.homeFirst) {
			return true
		}
	}
	for _, ws := range m.workspaces {
		if m.under(target, ws, m.wsFirst) {
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
