package config

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Layer names where a config file comes from. Layers are listed from highest priority down.
type Layer string

// The layers.
const (
	Enterprise Layer = "enterprise" // Cursor's enterprise hooks.json, Claude Code's managed settings
	Team       Layer = "team"
	CLI        Layer = "cli"
	Local      Layer = "local" // Claude Code's .claude/settings.local.json
	Project    Layer = "project"
	User       Layer = "user"
	Default    Layer = "default"
)

// Layers lists the layers in priority order.
var Layers = []Layer{Enterprise, Team, CLI, Local, Project, User, Default}

// Rank is the layer's priority: lower runs first and wins ties.
func (l Layer) Rank() int {
	for i, x := range Layers {
		if x == l {
			return i
		}
	}
	return len(Layers)
}

// Source says where a config file came from.
type Source struct {
	Layer Layer `json:"layer"`
	// Family is the kind of file: Cursor's hooks.json or Claude Code's settings.json.
	Family dialect.Name `json:"family"`
	File   string       `json:"file"`
	// Workspace is the workspace root a project file belongs to.
	Workspace string `json:"workspace,omitempty"`
	// Trusted is false for a project file that the trust store does not vouch for (its
	// workspace is not trusted, or the file is new or changed since it was): its hooks do not run.
	Trusted bool `json:"trusted"`
	// Untrusted says why, when Trusted is false.
	Untrusted *Untrust `json:"untrusted,omitempty"`
}

// Dir is the folder that relative hook commands are resolved against.
func (s Source) Dir() string { return dirOf(s.File) }

// DefaultLoopLimit is how many automatic follow-ups a stop or subagentStop hook may cause.
const DefaultLoopLimit = 5

// Hook is one validated hook entry.
type Hook struct {
	// Event is the event's name in the file's family (Cursor's or Claude Code's spelling).
	Event string `json:"event"`
	// Dialect is what the hook speaks: its file's family unless the entry says "dialect".
	Dialect dialect.Name `json:"dialect"`
	// Type is "command" or "http".
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	// Args, when set, run Command directly with these arguments, without a shell.
	Args []string `json:"args,omitempty"`
	// Shell is Claude Code's "bash" or "powershell" for the shell form.
	Shell string `json:"shell,omitempty"`
	// URL, Headers and AllowedEnvVars describe an http hook.
	URL            string            `json:"url,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowed_env_vars,omitempty"`
	// If is Claude Code's permission-rule condition, such as Bash(git *).
	If string `json:"if,omitempty"`
	// Async hooks start in the background and give no answer.
	Async bool `json:"async,omitempty"`
	// Unsupported says why agenthooks does not run this hook (prompt, agent, mcp_tool types).
	Unsupported string        `json:"unsupported,omitempty"`
	Timeout     time.Duration `json:"timeout,omitempty"`
	FailClosed  bool          `json:"fail_closed,omitempty"`
	Matcher     string        `json:"matcher,omitempty"`
	// LoopLimit bounds follow-ups on stop and subagentStop; -1 means no limit.
	LoopLimit int `json:"loop_limit"`
	// Refused is set when the hook's own command fails the safety check; it is never run.
	Refused string `json:"refused,omitempty"`
	// SelfRun is set when the command runs `agenthooks run`: agenthooks registered as the
	// agent's hook, found again in the files it reads. Running it would recurse.
	SelfRun bool       `json:"self_run,omitempty"`
	Source  *Source    `json:"source"`
	Pos     srcpos.Pos `json:"pos"`

	names []string // exact names, when the matcher is a plain list
	re    *regexp.Regexp
}

// Matches reports whether the hook's matcher accepts target. A name target (a tool or subagent
// type) is compared with the matcher's names exactly when the matcher is a plain list of names
// (letters, digits, _, -, space, comma, |), and searched with the matcher as an unanchored
// regular expression otherwise; a text target (a whole command) is always searched.
func (h *Hook) Matches(target string, text bool) bool {
	if h.Matcher == "" || h.Matcher == "*" {
		return true
	}
	if h.names != nil && !text {
		for _, n := range h.names {
			if n == target {
				return true
			}
		}
		return false
	}
	return h.re != nil && h.re.MatchString(target)
}

// String names the hook by its position: file:line:col.
func (h *Hook) String() string { return h.Pos.String() }

// CommandLine is what the hook runs, as one line: its command with its arguments, or POST and
// the URL of an http hook.
func (h *Hook) CommandLine() string {
	switch {
	case h.Type == "http":
		return "POST " + h.URL
	case len(h.Args) > 0:
		return h.Command + " " + strings.Join(h.Args, " ")
	}
	return h.Command
}

// plainMatcher matches a matcher that is only names: letters, digits, _, -, space, comma and |.
var plainMatcher = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_ ,|-]+$`) })

func compileMatcher(h *Hook) error {
	if h.Matcher == "" || h.Matcher == "*" {
		return nil
	}
	re, err := regexp.Compile(h.Matcher)
	if err != nil {
		return err
	}
	h.re = re
	if plainMatcher().MatchString(h.Matcher) {
		for _, n := range strings.FieldsFunc(h.Matcher, func(r rune) bool { return r == '|' || r == ',' }) {
			if n = strings.TrimSpace(n); n != "" {
				h.names = append(h.names, n)
			}
		}
	}
	return nil
}

// File is one decoded config file.
type File struct {
	Source   Source      `json:"source"`
	Hooks    []*Hook     `json:"hooks"`
	Problems srcpos.List `json:"problems,omitempty"`
	// Sequential lists the events whose hooks this file asks to run one after another; "*" is all.
	Sequential []string `json:"sequential,omitempty"`
	// Usable is false when the file has errors: none of its hooks run.
	Usable bool `json:"usable"`
	// DisableAllHooks and AllowManagedHooksOnly are Claude Code settings read from the file.
	DisableAllHooks       *bool `json:"disable_all_hooks,omitempty"`
	AllowManagedHooksOnly bool  `json:"allow_managed_hooks_only,omitempty"`
}

// Config is the validated set of files, in priority order. It is not changed after Load.
type Config struct {
	Files []*File
}

// Hooks returns the hooks of Cursor's hooks.json files that run for a Cursor event.
func (c *Config) Hooks(event string) []*Hook {
	ev, _ := cursor.Lookup(event)
	kind := dialect.Kind("")
	if ev != nil {
		kind = ev.Kind
	}
	return c.HooksFor(agents.Default().Name, event, kind)
}

// KindOf is the dialect-neutral kind of a hook's event in its file's family.
func KindOf(family dialect.Name, event string) dialect.Kind {
	return agentOf(family).ToolKind(event, "")
}

// agentOf is the agent of a file's family; the default agent's when it names none.
func agentOf(family dialect.Name) *dialect.Agent {
	if a := agents.Get(family); a != nil {
		return a
	}
	return agents.Default()
}

// HookKind is the kind of event a hook is registered for: its event's kind in its file's family,
// narrowed by a matcher that names only tools of one kind (Claude Code's PreToolUse with the
// matcher Bash is a before-shell hook, as convert writes Cursor's beforeShellExecution).
func HookKind(h *Hook) dialect.Kind {
	kind := KindOf(h.Source.Family, h.Event)
	if h.Matcher == "" || h.Matcher == "*" {
		return kind
	}
	a := agentOf(h.Source.Family)
	var narrowed dialect.Kind
	for _, t := range strings.Split(h.Matcher, "|") {
		t = strings.TrimSpace(t)
		if strings.HasPrefix(t, "mcp__") {
			t = "mcp__x" // an MCP tool, named or by pattern
		} else if strings.ContainsAny(t, ".*+?()[]{}^$\\") {
			return kind // a pattern over tool names: the event's own kind
		}
		k := a.ToolKind(h.Event, t)
		if narrowed != "" && k != narrowed {
			return kind
		}
		narrowed = k
	}
	if narrowed == "" {
		return kind
	}
	return narrowed
}

// HooksFor returns the hooks that run when agent fires event, of kind kind: from usable,
// trusted files in priority order. A hook in the agent's own family runs for exactly its event;
// a hook of the other family runs when its event's kind covers kind. Claude Code's
// disableAllHooks and allowManagedHooksOnly apply to settings.json hooks, and identical
// handlers defined in several files run once.
func (c *Config) HooksFor(agent dialect.Name, event string, kind dialect.Kind) []*Hook {
	var out []*Hook
	seen := map[string]bool{}
	for _, f := range c.Files {
		if !f.Usable || !f.Source.Trusted || c.Disabled(f) != "" {
			continue
		}
		for _, h := range f.Hooks {
			family := f.Source.Family
			if family == agent {
				if h.Event != event {
					continue
				}
			} else if !dialect.Covers(KindOf(family, h.Event), kind) {
				continue
			}
			key := h.identity()
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, h)
		}
	}
	return out
}

// identity is what makes two handlers the same one.
func (h *Hook) identity() string {
	return strings.Join([]string{string(h.Source.Family), h.Event, string(h.Dialect), h.Matcher, h.Type, h.Command,
		strings.Join(h.Args, "\x00"), h.URL, h.If, h.Shell}, "\x00")
}

// Disabled says why Claude Code's own settings turn off a settings.json file's hooks, or "".
func (c *Config) Disabled(f *File) string {
	if !agentOf(f.Source.Family).HookSwitches {
		return ""
	}
	managed := f.Source.Layer == Enterprise
	for _, g := range c.Files {
		if g.Source.Family == f.Source.Family && g.Source.Layer == Enterprise && g.Usable && g.Source.Trusted && g.AllowManagedHooksOnly && !managed {
			return "allowManagedHooksOnly in " + g.Source.File
		}
	}
	// disableAllHooks follows settings precedence (managed > local > project > user); only a
	// managed file's can turn off managed hooks. An untrusted file's settings count no more than
	// its hooks.
	for _, layer := range []Layer{Enterprise, Local, Project, User} {
		for _, g := range c.Files {
			if g.Source.Family != f.Source.Family || g.Source.Layer != layer || !g.Usable || !g.Source.Trusted || g.DisableAllHooks == nil {
				continue
			}
			if *g.DisableAllHooks && (!managed || layer == Enterprise) {
				return "disableAllHooks in " + g.Source.File
			}
			return ""
		}
	}
	return ""
}

// Sequential reports whether any usable, trusted file asks for event's hooks to run in order.
func (c *Config) Sequential(event string) bool {
	for _, f := range c.Files {
		if !f.Usable || !f.Source.Trusted {
			continue
		}
		for _, e := range f.Sequential {
			if e == event || e == "*" {
				return true
			}
		}
	}
	return false
}

// Problems returns every file's problems, in priority order.
func (c *Config) Problems() srcpos.List {
	var out srcpos.List
	for _, f := range c.Files {
		out = append(out, f.Problems...)
	}
	return out
}

// RunErrors returns the errors of the files whose hooks run (trusted ones), in priority order:
// what run --fail-closed denies for, as such a file may hold deny hooks its errors switch off. A
// project file nobody trusted runs no hook whatever it holds, so its errors (Problems has them)
// switch nothing off, and a repository cannot block an agent with a broken file of its own.
func (c *Config) RunErrors() srcpos.List {
	var out srcpos.List
	for _, f := range c.Files {
		if f.Source.Trusted {
			out = append(out, f.Problems.Errors()...)
		}
	}
	return out
}

// Untrusted returns the project files that were found but not run because the trust store does
// not vouch for them (Source.Untrusted says why).
func (c *Config) Untrusted() []*File {
	var out []*File
	for _, f := range c.Files {
		if !f.Source.Trusted {
			out = append(out, f)
		}
	}
	return out
}

// eventList is Cursor's list of valid hook types, as its error message prints it.
func eventList() string { return strings.Join(cursor.Names(), ", ") }

func unknownEvent(name string) string {
	return fmt.Sprintf("Unknown hook type: %s. Valid types are: %s", name, eventList())
}
