package config

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Layer names where a config file comes from. Layers are listed from highest priority down.
type Layer string

// The layers.
const (
	Enterprise Layer = "enterprise"
	Team       Layer = "team"
	CLI        Layer = "cli"
	Project    Layer = "project"
	User       Layer = "user"
	Default    Layer = "default"
)

// Layers lists the layers in priority order.
var Layers = []Layer{Enterprise, Team, CLI, Project, User, Default}

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
	Layer Layer  `json:"layer"`
	File  string `json:"file"`
	// Workspace is the workspace root a project file belongs to.
	Workspace string `json:"workspace,omitempty"`
	// Trusted is false for a project file whose workspace is not trusted: its hooks do not run.
	Trusted bool `json:"trusted"`
}

// Dir is the folder that relative hook commands are resolved against.
func (s Source) Dir() string { return dirOf(s.File) }

// DefaultLoopLimit is how many automatic follow-ups a stop or subagentStop hook may cause.
const DefaultLoopLimit = 5

// Hook is one validated hook entry.
type Hook struct {
	Event      string        `json:"event"`
	Command    string        `json:"command"`
	Timeout    time.Duration `json:"timeout,omitempty"`
	FailClosed bool          `json:"fail_closed,omitempty"`
	Matcher    string        `json:"matcher,omitempty"`
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
}

// Config is the validated set of files, in priority order. It is not changed after Load.
type Config struct {
	Files []*File
}

// Hooks returns the hooks that run for event: from usable files, trusted ones only, in
// priority order and then file order.
func (c *Config) Hooks(event string) []*Hook {
	var out []*Hook
	for _, f := range c.Files {
		if !f.Usable || !f.Source.Trusted {
			continue
		}
		for _, h := range f.Hooks {
			if h.Event == event {
				out = append(out, h)
			}
		}
	}
	return out
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

// Untrusted returns the project files that were found but not run because their workspace is
// not trusted.
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
var eventList = strings.Join(cursor.Names(), ", ")

func unknownEvent(name string) string {
	return fmt.Sprintf("Unknown hook type: %s. Valid types are: %s", name, eventList)
}
