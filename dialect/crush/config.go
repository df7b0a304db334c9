package crush

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Limits on a crush.json.
const (
	MaxFileSize  = 1 << 20
	MaxFileDepth = 64
)

// DefaultTimeout is how long Crush lets a hook run when its entry has no timeout.
const DefaultTimeout = 30 * time.Second

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeRead         = "read"
	CodeHooks        = "hooks"
	CodeUnknownEvent = "unknown_event"
	CodeHookEntry    = "hook_entry"
	CodeCommand      = "command"
	CodeField        = "field"
	CodeMatcher      = "matcher"
	CodeUnknownField = "unknown_field"
)

// Hook is one entry of the "hooks" of a crush.json.
type Hook struct {
	// Event is Crush's name for the event (PreToolUse), however the file spelled it.
	Event string `json:"event"`
	Name  string `json:"name,omitempty"`
	// Matcher is a regular expression tested against the tool name, unanchored; "" matches every
	// tool.
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command"`
	// Timeout is the entry's timeout (whole seconds in the file), DefaultTimeout when unset.
	Timeout time.Duration `json:"timeout"`
	Pos     srcpos.Pos    `json:"pos"`
}

// File is the hooks a crush.json holds.
type File struct {
	File     string      `json:"file"`
	Hooks    []*Hook     `json:"hooks"`
	Problems srcpos.List `json:"problems,omitempty"`
}

// Usable reports whether the file decoded without an error.
func (f *File) Usable() bool { return !f.Problems.HasErrors() }

type decoder struct {
	src []byte
	out *File
}

func (d *decoder) errorf(off int, code, format string, args ...any) {
	d.out.Problems.Add(srcpos.At(d.out.File, d.src, off), srcpos.Error, code, fmt.Sprintf(format, args...))
}

func (d *decoder) warnf(off int, code, format string, args ...any) {
	d.out.Problems.Add(srcpos.At(d.out.File, d.src, off), srcpos.Warning, code, fmt.Sprintf(format, args...))
}

// DecodeConfig reads the "hooks" of a crush.json or .crush.json (the project's, walking up to
// the repository's root; ~/.config/crush/crush.json; /etc/crush/crush.json), read from file, as
// Crush's config loader and ValidateHooks read them: strict JSON (Crush refuses a file with
// comments), events named in any case or snake case, each entry a command with an optional name,
// matcher (a regular expression; one that does not compile stops Crush from starting) and
// timeout in whole seconds. The file's other settings are left alone. Every problem is reported
// with its line and column; a file with an error must not be used.
func DecodeConfig(file string, data []byte) *File {
	d := &decoder{src: data, out: &File{File: file}}
	d.root()
	sort.SliceStable(d.out.Problems, func(i, j int) bool { return d.out.Problems[i].Offset < d.out.Problems[j].Offset })
	return d.out
}

func (d *decoder) root() {
	root, off, err := jsonpos.ParseLimited(d.src, MaxFileSize, MaxFileDepth)
	if tl := (*jsonpos.TooLargeError)(nil); errors.As(err, &tl) {
		d.errorf(off, CodeRead, "crush.json is %v", err)
		return
	} else if err != nil {
		d.errorf(off, CodeSyntax, "invalid JSON (Crush reads crush.json as strict JSON): %v", err)
		return
	}
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "crush.json must be a JSON object")
		return
	}
	if h := root.Get("hooks"); h != nil {
		d.hooks(h)
	}
}

func (d *decoder) hooks(v *jsonpos.Value) {
	if v.Kind == jsonpos.Null {
		return
	}
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHooks, "hooks must be an object of events")
		return
	}
	for _, m := range v.Members {
		event := CanonicalEvent(m.Key)
		if m.Value.Kind == jsonpos.Null {
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array", m.Key)
			continue
		}
		if event == "" {
			d.warnf(m.KeyOff, CodeUnknownEvent, "Crush has no hook event %s (it has %s); these hooks never run", m.Key, strings.Join(Events, ", "))
		}
		for i, entry := range m.Value.Elems {
			d.entry(event, m.Key, i, entry)
		}
	}
}

func (d *decoder) entry(event, key string, i int, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a command")
		return
	}
	h := &Hook{Event: event, Timeout: DefaultTimeout, Pos: srcpos.At(d.out.File, d.src, v.Off)}
	ok := true
	str := func(m jsonpos.Member) string {
		if m.Value.Kind != jsonpos.String {
			d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
			ok = false
			return ""
		}
		return m.Value.Str
	}
	for _, m := range v.Members {
		switch m.Key {
		case "name":
			h.Name = str(m)
		case "matcher":
			h.Matcher = str(m)
			if _, err := regexp.Compile(h.Matcher); ok && err != nil {
				d.errorf(m.Value.Off, CodeMatcher, "hook %s[%d]: invalid matcher regex %q: %v (Crush does not start)", key, i, h.Matcher, err)
				ok = false
			}
		case "command":
			h.Command = str(m)
		case "timeout":
			n, err := m.Value.Num.Int64()
			if m.Value.Kind != jsonpos.Number || err != nil || n > 24*3600 {
				d.errorf(m.Value.Off, CodeField, "timeout must be a whole number of seconds (at most a day)")
				ok = false
				continue
			}
			if n > 0 {
				h.Timeout = time.Duration(n) * time.Second
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return
	case h.Command == "":
		d.errorf(v.Off, CodeCommand, "hook %s[%d]: command is required", key, i)
		return
	case event == "":
		return
	}
	d.out.Hooks = append(d.out.Hooks, h)
}

// MatcherTools returns the tool names a Crush matcher selects when it is one name or a list of
// names, anchored (^bash$, ^(edit|write)$) or not (bash, (?:edit|write), as agenthooks reads a
// plain one); ok is false for any other regular expression.
func MatcherTools(m string) (tools []string, ok bool) {
	s := strings.TrimSuffix(strings.TrimPrefix(m, "^"), "$")
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = strings.TrimPrefix(strings.TrimSuffix(s[1:], ")"), "?:")
	}
	if s == "" {
		return nil, false
	}
	for _, t := range strings.Split(s, "|") {
		if t == "" || strings.ContainsFunc(t, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
		}) {
			return nil, false
		}
		tools = append(tools, t)
	}
	return tools, true
}

// ToolsMatcher is the Crush matcher that selects exactly tools: ^name$ or ^(a|b)$.
func ToolsMatcher(tools []string) string {
	if len(tools) == 1 {
		return "^" + tools[0] + "$"
	}
	return "^(" + strings.Join(tools, "|") + ")$"
}
