package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// Context is where a command runs: the home folder, the working directory, the project root.
type Context struct {
	Home    string `json:"home,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	Project string `json:"project,omitempty"`
	// Protected are the files and folders no command may change (agents' hook configuration,
	// agenthooks' own files and binaries); nil protects none of them. Commands that run
	// agenthooks' trust, install and enrolment commands, and assignments to AGENTHOOKS_
	// variables, are denied whatever this holds.
	Protected []Protected `json:"protected,omitempty"`
	// ProtectedFunc, when set and Protected is empty, computes Protected on first need: most
	// commands change, send or name no path and never need the list. It switches the
	// protections on even when it returns nothing, and is called at most once per judgement.
	ProtectedFunc func() []Protected `json:"-"`
	// MayProtect, when set beside ProtectedFunc, is a cheap test run before the list is
	// computed for a plain path a command changes (clean, absolute, no glob, no symlink on the
	// way): false only when no list ProtectedFunc can give holds that path, anything inside or
	// above it, or a file beside it (config.MayProtect). Most writes, to a file in the project,
	// then never compute the list. Setting it also says that every path ProtectedFunc lists
	// is absolute (has a slash), as config.ProtectedPaths makes them where the working
	// directory is known: code or a word with neither a slash nor a tilde then names none, and
	// the list is not computed for it.
	MayProtect func(path string) bool `json:"-"`
	// LookPath, when set, finds a program in the PATH the command will run with, so that
	// $(which NAME) names a known file.
	LookPath func(name string) string `json:"-"`
	// Getenv, when set, reads the environment the command inherits (the hook's, which the
	// agent's shell shares), so that "$AGENTHOOKS_AUDIT" names a known file when the
	// protections look for protected paths. It never makes a command allowed.
	Getenv func(name string) string `json:"-"`
	// ReadFile, when set, reads a script the command runs (bash x.sh, ./x.sh, npm run X,
	// make X), by absolute path, so that it is judged like inline code.
	ReadFile func(path string) (string, bool) `json:"-"`
}

type classifier struct{ ctx Context }

var systemDirs = words{"/Applications", "/Library", "/System", "/Users", "/Volumes", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/media", "/mnt", "/nix", "/opt", "/private", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var"}

// homeData are the folders in home that hold the user's own files and settings, not something a
// tool can fetch again: deleting one of them whole is deleting the user's work.
var homeData = []string{"Documents", "Desktop", "Downloads", "Pictures", "Music", "Videos", "Movies", "Public",
	"Templates", "Dropbox", "OneDrive", "Library", ".config", ".local", ".local/share", "src", "code", "projects",
	"Projects", "work", "dev", "repos", "git", "workspace"}

// homeCaches are folders under home that hold only what can be fetched again.
var homeCaches = []string{".cache", "Library/Caches", ".npm", ".yarn/cache", ".pnpm-store", ".cargo/registry",
	".cargo/git", ".gradle/caches", ".m2/repository", ".bun/install/cache", "go/pkg/mod", ".nuget/packages",
	".cocoapods", ".composer/cache", ".pub-cache", ".ivy2/cache", ".sbt", ".node-gyp", ".deno", ".expo",
	"Library/Developer/Xcode/DerivedData", "Library/Developer/CoreSimulator/Caches", ".android/cache", ".konan/cache",
	".stack/pantry", ".cabal/packages", ".julia/compiled", ".rustup/downloads", ".rustup/tmp"}

// classify says what a positional argument of inv names.
func (c *classifier) classify(w shell.Word, inv *shell.Invocation) string {
	if !w.Static {
		return TargetDynamic
	}
	p := w.Value
	if shell.IsDiskDevice(p) {
		return TargetDevice
	}
	if w.Glob {
		if class := c.globClass(p, inv); class != "" {
			return class
		}
	}
	if through := c.throughSymlink(p, inv); through != "" {
		p = through
	}
	specific := false // a glob that picks some names, not all
	if w.Glob {
		dir, last := path.Split(p)
		if strings.Trim(last, "*.?[]!") == "" {
			p = dir
			if p == "" {
				p = "."
			}
		} else {
			specific = true
		}
	}
	if !path.IsAbs(p) {
		if inv.Cwd == "" {
			if isGitCore(p) {
				return TargetGit
			}
			return TargetDynamic // relative to a folder not known until it runs
		}
		p = path.Join(inv.Cwd, p)
	}
	p = path.Clean(p)
	class := c.place(p)
	if specific || inv.Filtered {
		switch class {
		case TargetProjectRoot:
			class = TargetProject
		case TargetHome, TargetHomeData:
			class = TargetHomeSub
		case TargetTmp, TargetCache, TargetProject, TargetHomeSub, TargetGit:
		default:
			if specific {
				class = TargetOther
			}
		}
	}
	return class
}

// globClass is the class of a glob that can name the root, home, the project, a folder holding
// it, or .git: rm -rf .g?t, rm -rf /h*/d*, rm -rf ~/proj*.
func (c *classifier) globClass(p string, inv *shell.Invocation) string {
	if !path.IsAbs(p) {
		if inv.Cwd == "" {
			return ""
		}
		p = path.Join(inv.Cwd, p)
	}
	if strings.Trim(path.Base(p), "*.?[]!") == "" {
		return "" // every name in a folder: the folder's own class (rm -rf /*)
	}
	if last := path.Base(p); strings.ContainsAny(last, "*?[") && last != "*" {
		if ok, _ := path.Match(last, ".git"); ok && !strings.HasPrefix(last, "*") {
			return TargetGit
		}
	}
	for _, t := range []struct{ dir, class string }{{c.ctx.Home, TargetHome}, {c.ctx.Project, TargetProjectRoot}} {
		if t.dir == "" || t.dir == "/" {
			continue
		}
		switch compare(p, t.dir, true) {
		case relEqual:
			if strings.ContainsAny(path.Base(p), "*?[") && path.Base(p) != "*" || path.Dir(p) != path.Dir(t.dir) {
				return t.class // a pattern that picks the folder by its name, not every name
			}
		case relAncestor:
			return TargetParent
		}
	}
	return ""
}

// throughSymlink resolves a path that goes through a symbolic link on this machine (link/,
// link/x), as the kernel will when the command runs; the link alone (rm link) is itself.
func (c *classifier) throughSymlink(p string, inv *shell.Invocation) string {
	if !strings.Contains(p, "/") || strings.ContainsAny(p, "*?[") {
		return ""
	}
	abs := p
	if !path.IsAbs(abs) {
		if inv.Cwd == "" {
			return ""
		}
		abs = path.Join(inv.Cwd, abs)
	}
	var resolved string
	if strings.HasSuffix(p, "/") {
		resolved = realPath(path.Clean(abs))
	} else {
		resolved = path.Join(realPath(path.Dir(abs)), path.Base(abs))
	}
	if resolved == path.Clean(abs) {
		return ""
	}
	return resolved
}

func (c *classifier) place(p string) string {
	home, project := c.ctx.Home, c.ctx.Project
	if project == "/" {
		project = "" // a project at the root would make every path "inside the project"
	}
	inProject := project != "" && within(p, project)
	switch {
	case p == "/":
		return TargetRoot
	case isGitCore(p):
		return TargetGit
	case home != "" && p == home:
		return TargetHome
	case project != "" && p == project:
		return TargetProjectRoot
	case !inProject && (systemDirs.has(p) || systemDirs.has(path.Dir(p))):
		return TargetSystem
	case inProject:
		return TargetProject
	case project != "" && within(project, p), c.ctx.Cwd != "" && c.ctx.Cwd != "/" && within(c.ctx.Cwd, p):
		return TargetParent
	case within(p, "/tmp"), within(p, "/var/tmp"), within(p, "/private/tmp"), within(p, "/dev/shm"), p == "/tmp", p == "/var/tmp":
		return TargetTmp
	case home != "" && within(p, home):
		rel := strings.TrimPrefix(p, home+"/")
		if slices.Contains(homeData, rel) {
			return TargetHomeData
		}
		for _, cache := range homeCaches {
			if rel == cache || strings.HasPrefix(rel, cache+"/") {
				return TargetCache
			}
		}
		return TargetHomeSub
	}
	return TargetOther
}

// within reports whether p is strictly inside dir.
func within(p, dir string) bool {
	if dir == "/" {
		return p != "/" && strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+"/")
}

// gitCore are the parts of a .git folder without which the repository is lost.
var gitCore = words{"HEAD", "config", "index", "logs", "modules", "objects", "packed-refs", "refs", "worktrees"}

// isGitCore reports whether p is a .git folder or one of its core parts.
func isGitCore(p string) bool {
	elems := strings.Split(path.Clean(p), "/")
	for i, e := range elems {
		if e == ".git" {
			return i == len(elems)-1 || gitCore.has(elems[i+1])
		}
	}
	return false
}
