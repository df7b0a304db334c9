package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// Scope is where install writes: the agent's user folder or a workspace's.
type Scope string

// The scopes.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// Options say where the agents' files are and what their hooks run.
type Options struct {
	// Home is the user's home folder.
	Home string
	// Getenv reads the variables that move an agent's user folder (Agent.Homes); nil reads
	// none.
	Getenv func(string) string
	// LookPath finds an agent's program (Agent.Binary); nil finds none.
	LookPath func(string) (string, error)
	// Scope is ScopeUser (the default) or ScopeProject; Workspace is the project's folder.
	Scope     Scope
	Workspace string
	// Program is the agenthooks the hooks run, quoted for a shell (see Program); "agenthooks"
	// when empty.
	Program string
}

func (o Options) getenv(k string) string {
	if o.Getenv == nil || k == "" {
		return ""
	}
	return o.Getenv(k)
}

// Dir is the agent's folder install writes into: for ScopeUser its user folder as the
// agent finds it (Agent.UserDir: moved by its variables, else ~/Dir), for ScopeProject the
// workspace's Dir.
func (o Options) Dir(a *dialect.Agent) string {
	if o.Scope == ScopeProject {
		return filepath.Join(o.Workspace, a.Dir)
	}
	if dir, _ := a.UserDir(o.Home, o.Getenv); dir != "" {
		return dir
	}
	return a.Dir // no home: relative, as before
}

// MovedBy names the variable that moves the agent's user folder, where install writes for
// ScopeUser, away from ~/Dir (CLAUDE_CONFIG_DIR); "" when none does or for ScopeProject.
func (o Options) MovedBy(a *dialect.Agent) string {
	if o.Scope == ScopeProject {
		return ""
	}
	_, by := a.UserDir(o.Home, o.Getenv)
	return by
}

// File is the hooks file install writes for the agent: Install.File under Dir, or for
// ScopeProject Install.ProjectFile under the workspace when the agent has one.
func (o Options) File(a *dialect.Agent) string {
	if o.Scope == ScopeProject && a.Install.ProjectFile != "" {
		return filepath.Join(o.Workspace, filepath.FromSlash(a.Install.ProjectFile))
	}
	return filepath.Join(o.Dir(a), filepath.FromSlash(a.Install.File))
}

// Present returns the registered agents found, in listing order, and for each why it counts as
// present. For ScopeUser an agent is present when its program is on PATH or its user folder
// exists; for ScopeProject, when the workspace has the folder of the agent's project file
// (.claude, .gemini, .github/hooks), or the file itself when it lies at the workspace's root.
func Present(o Options) ([]*dialect.Agent, []string) {
	var out []*dialect.Agent
	var why []string
	for _, a := range agents.All() {
		if a.Install.File == "" {
			continue // nothing install can write
		}
		dir := o.Dir(a)
		if o.Scope == ScopeProject {
			dir = filepath.Dir(o.File(a))
			if filepath.Clean(dir) == filepath.Clean(o.Workspace) {
				dir = o.File(a) // a file at the workspace's root (crush.json): the file itself
			}
		}
		if _, err := os.Stat(dir); err == nil {
			out, why = append(out, a), append(why, dir+" exists")
			continue
		}
		if o.Scope != ScopeProject && o.LookPath != nil && a.Binary != "" {
			if p, err := o.LookPath(a.Binary); err == nil {
				out, why = append(out, a), append(why, a.Binary+" is on PATH ("+p+")")
			}
		}
	}
	return out, why
}

// Change is what install does, or would do, to one agent's hooks file.
type Change struct {
	Agent *dialect.Agent
	File  string
	// Exists: the file was there; Old is what it held, New what install writes.
	Exists   bool
	Old, New []byte
	// Changes say what changed, one line each ("added PreToolUse: agenthooks guard bash ..."); none
	// when the file is as install would leave it.
	Changes []string
	// Also names the other agents whose install writes this same file (an agent folder moved
	// into another's): planned once, by the first.
	Also []*dialect.Agent
	// Missing: uninstall found no file.
	Missing bool
	// Delete: Apply deletes the file (uninstall of a file that is agenthooks' own, Install.Own).
	Delete bool
	// Mode, when set, is the new file's permissions (an executable wrapper's).
	Mode fs.FileMode
	// Parts are the files of a folder install writes one file each into (Install.Wrappers):
	// File is then the folder, and Apply and Diff work on each part.
	Parts []*Change
}

// Changed reports whether Apply would write the file.
func (c *Change) Changed() bool { return len(c.Changes) > 0 }

// Plan works out what install (or uninstall, with remove) changes in the agent's hooks file,
// writing nothing. A file that is not a JSON object is an error, positioned, and left untouched.
func Plan(a *dialect.Agent, o Options, remove bool) (*Change, error) {
	file := o.File(a)
	c := &Change{Agent: a, File: file}
	if a.Install.Wrappers != nil {
		return c, planWrappers(c, o, remove)
	}
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return c, fmt.Errorf("read %s: %w", file, err)
	}
	c.Exists, c.Old = err == nil, data
	if a.Install.Own != nil {
		planOwn(c, o, remove)
		return c, nil
	}
	if a.Install.Edit != nil {
		return c, planEdit(c, o, remove)
	}
	var root *jsonpos.Value
	switch {
	case c.Exists && len(strings.TrimSpace(string(data))) > 0:
		root, err = jsonpos.Parse(data, config.MaxDepth)
		if err != nil {
			return c, fmt.Errorf("%s: not valid JSON, left untouched: %v", config.Problem(file, data, err), err)
		}
		if root.Kind != jsonpos.Object {
			return c, fmt.Errorf("%s: not a JSON object, left untouched", file)
		}
	case remove:
		c.Missing = !c.Exists
		c.New = c.Old
		return c, nil
	default:
		root = jsonpos.Obj()
	}
	prog := o.program()
	switch {
	case remove && a.Install.Group != "":
		c.Changes = ungroup(root, a)
	case remove:
		c.Changes = from(root, a)
	case a.Install.Group != "":
		c.Changes = group(root, a, prog)
	default:
		c.Changes = into(root, a, prog)
	}
	c.New = c.Old
	if c.Changed() {
		c.New = root.Encode()
	}
	return c, nil
}

// PlanAll plans the change of each agent in turn. Two agents whose files are one file (a folder
// variable that points into another agent's folder) are planned once, by the first; the
// others are named in its Also. An agent whose file cannot be read or parsed is left out, its
// error joined to the one returned, and the others are planned.
func PlanAll(list []*dialect.Agent, o Options, remove bool) ([]*Change, error) {
	var out []*Change
	var errs []error
	seen := map[string]*Change{}
	for _, a := range list {
		file := o.File(a)
		if c := seen[file]; c != nil {
			c.Also = append(c.Also, a)
			continue
		}
		c, err := Plan(a, o, remove)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seen[file] = c
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// Apply writes the planned file, atomically, keeping the previous one as FILE.bak; nothing when
// the file needs no change.
func (c *Change) Apply() error {
	if !c.Changed() {
		return nil
	}
	if len(c.Parts) > 0 {
		var errs []error
		for _, p := range c.Parts {
			errs = append(errs, p.Apply())
		}
		return errors.Join(errs...)
	}
	if c.Delete {
		if err := os.Remove(c.File); err != nil {
			return fmt.Errorf("remove %s: %w", c.File, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.File), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", c.File, err)
	}
	if c.Exists && c.Mode == 0 { // a wrapper (Mode set) is install's own: no backup beside it
		if err := config.WriteFileAtomic(c.File+".bak", c.Old, 0o600); err != nil {
			return fmt.Errorf("back up %s: %w", c.File, err)
		}
	}
	mode := fs.FileMode(0o644)
	if c.Mode != 0 {
		mode = c.Mode
	} else if st, err := os.Stat(c.File); err == nil {
		mode = st.Mode().Perm()
	}
	if err := config.WriteFileAtomic(c.File, c.New, mode); err != nil {
		return fmt.Errorf("write %s: %w", c.File, err)
	}
	return nil
}

// Diff is the change as a unified diff of the file (from /dev/null for a file that does not
// exist yet, to /dev/null for one uninstall deletes); "" when nothing changes.
func (c *Change) Diff() string {
	if !c.Changed() {
		return ""
	}
	if len(c.Parts) > 0 {
		var b strings.Builder
		for _, p := range c.Parts {
			b.WriteString(p.Diff())
		}
		return b.String()
	}
	from, to := c.File, c.File
	if !c.Exists {
		from = "/dev/null"
	}
	if c.Delete {
		to = "/dev/null"
	}
	s, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(c.Old)), B: difflib.SplitLines(string(c.New)),
		FromFile: from, ToFile: to, Context: 3,
	})
	if err != nil {
		return "" // difflib fails only on its writer, a strings.Builder here
	}
	return s
}

// Overlap is an agent that runs the hooks of another agent's files as well as its own (Cursor
// runs Claude Code's when its third-party setting is on): where both are wired, agenthooks' own
// entries in the other's file run there too, and a hook in both files runs twice for one call.
type Overlap struct {
	Agent, Reads *dialect.Agent
	// Setting names the agent's setting that turns this on; "" when it always does.
	Setting string
}

// Overlaps returns, of the agents in list, each that runs, at o's scope, the files of another in
// list.
func Overlaps(list []*dialect.Agent, o Options) []Overlap {
	scope := dialect.ScopeUser
	if o.Scope == ScopeProject {
		scope = dialect.ScopeProject
	}
	var out []Overlap
	for _, a := range list {
		for _, r := range a.Reads {
			if r.Scopes != nil && !slices.Contains(r.Scopes, scope) {
				continue
			}
			for _, b := range list {
				if b.Name == r.Agent && o.File(a) != o.File(b) { // one file for both runs once
					out = append(out, Overlap{Agent: a, Reads: b, Setting: r.Setting})
				}
			}
		}
	}
	return out
}

// Program is the program install writes into an agent's config, quoted for the agent's shell,
// and a line saying which it is. The agent may start with another PATH than this shell (an
// editor launched from the dock, a clone's bin/ that was never on PATH), so it is always an
// absolute path: the agenthooks found on PATH when that is this executable self, through a link
// or not (a package manager's link such as Homebrew's /opt/homebrew/bin/agenthooks or npm's bin
// link stays valid across upgrades, while the file it points to moves), else self with its
// links resolved (a link off PATH is nobody's stable name for it).
func Program(self string, lookPath func(string) (string, error)) (string, string) {
	real, err := filepath.EvalSymlinks(self)
	if self == "" || err != nil {
		// No known executable (an embedder): the name, which the agent must find on its PATH.
		return "agenthooks", "hooks run agenthooks by name: this executable's path is unknown, so the agent must find agenthooks on its PATH"
	}
	real, _ = filepath.Abs(real)
	onPath, err := lookPath("agenthooks")
	if err == nil {
		if abs, err := filepath.Abs(onPath); err == nil && sameFile(abs, real) {
			return shell.Quote(abs), "hooks run " + shell.Quote(abs) + ", the agenthooks on PATH (an absolute path, so an agent with another PATH finds it too)"
		}
		return shell.Quote(real), "hooks run " + shell.Quote(real) + ", this executable; the agenthooks on PATH (" + onPath + ") is another file"
	}
	return shell.Quote(real), "hooks run " + shell.Quote(real) + ", this executable (agenthooks is not on PATH)"
}

// sameFile reports whether the paths a and b lead to the same file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
