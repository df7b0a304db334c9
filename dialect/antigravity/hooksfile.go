package antigravity

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Limits on a hooks file.
const (
	MaxFileSize  = 1 << 20
	MaxFileDepth = 32
)

// DefaultTimeout is how long agy lets a command hook run when its handler sets no timeout.
const DefaultTimeout = 30 * time.Second

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeRead         = "read"
	CodeHooks        = "hooks"
	CodeUnknownEvent = "unknown_event"
	CodeUnknownType  = "unknown_type"
	CodeHookEntry    = "hook_entry"
	CodeCommand      = "command"
	CodeField        = "field"
	CodeUnknownField = "unknown_field"
)

// Hook is one handler of an Antigravity hooks.json.
type Hook struct {
	// Group is the named group the handler is in; Enabled is that group's switch.
	Group   string `json:"group"`
	Enabled bool   `json:"enabled"`
	// Event is the event's name as Events spells it.
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	// Type is command or prompt; agenthooks runs command hooks only.
	Type    string        `json:"type"`
	Command string        `json:"command,omitempty"`
	Prompt  string        `json:"prompt,omitempty"`
	Timeout time.Duration `json:"timeout"`
	Pos     srcpos.Pos    `json:"pos"`
}

// File is what an Antigravity hooks.json holds.
type File struct {
	File     string      `json:"file"`
	Hooks    []*Hook     `json:"hooks"`
	Problems srcpos.List `json:"problems,omitempty"`
}

// Usable reports whether the file decoded without an error (agy loads none of a file with one).
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

// DecodeHooksFile reads an Antigravity hooks.json: an object of named groups, each an object
// of events and an optional "enabled"; PreToolUse and PostToolUse hold matcher groups
// ({"matcher", "hooks": [handler]}), the other events handlers; a handler is {"type": command
// or prompt, "command", "timeout" (whole seconds)} or a prompt's {"prompt", "model"}. What agy
// refuses (after which it loads nothing of the file) is an error, what it ignores a warning,
// each with its line and column.
func DecodeHooksFile(file string, data []byte) *File {
	d := &decoder{src: data, out: &File{File: file}}
	d.root()
	sort.SliceStable(d.out.Problems, func(i, j int) bool { return d.out.Problems[i].Offset < d.out.Problems[j].Offset })
	return d.out
}

func (d *decoder) root() {
	root, off, err := jsonpos.ParseLimited(d.src, MaxFileSize, MaxFileDepth)
	if tl := (*jsonpos.TooLargeError)(nil); errors.As(err, &tl) {
		d.errorf(off, CodeRead, "hooks file is %v", err)
		return
	} else if err != nil {
		d.errorf(off, CodeSyntax, "invalid JSON: %v", err)
		return
	}
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "a hooks file must be a JSON object of named hook groups")
		return
	}
	for _, m := range root.Members {
		if m.Key == "enabled" {
			d.errorf(m.KeyOff, CodeHooks, "enabled belongs inside a named group: every top-level key is a group's name")
			continue
		}
		d.group(m.Key, m.Value)
	}
}

func (d *decoder) group(name string, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHooks, "the hook group %q must be an object of events", name)
		return
	}
	enabled := true
	if e := v.Get("enabled"); e != nil {
		if e.Kind != jsonpos.Bool {
			d.errorf(e.Off, CodeField, "enabled must be a boolean")
			return
		}
		enabled = e.Bool
	}
	for _, m := range v.Members {
		if m.Key == "enabled" {
			continue
		}
		event := canonical(m.Key)
		if event == "" {
			d.warnf(m.KeyOff, CodeUnknownEvent, "Unknown Antigravity hook event: %s (its hooks never run). Valid events are: %s", m.Key, strings.Join(Events, ", "))
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array", m.Key)
			continue
		}
		for _, el := range m.Value.Elems {
			if events()[event].groups {
				d.matcherGroup(name, enabled, event, el)
			} else {
				if el.Kind == jsonpos.Object && el.Get("matcher") != nil {
					d.warnf(el.Get("matcher").Off, CodeUnknownField, "a matcher on %s is ignored", event)
				}
				d.handler(name, enabled, event, "", el, true)
			}
		}
	}
}

func (d *decoder) matcherGroup(name string, enabled bool, event string, g *jsonpos.Value) {
	if g.Kind != jsonpos.Object {
		d.errorf(g.Off, CodeHookEntry, "a matcher group must be an object with a hooks array")
		return
	}
	matcher := ""
	for _, m := range g.Members {
		switch m.Key {
		case "matcher":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, "matcher must be a string")
				return
			}
			matcher = m.Value.Str
		case "hooks":
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a matcher group is ignored", m.Key)
		}
	}
	list := g.Get("hooks")
	if list == nil || list.Kind != jsonpos.Array {
		off := g.Off
		if list != nil {
			off = list.Off
		}
		d.errorf(off, CodeHookEntry, "a matcher group's hooks must be an array")
		return
	}
	for _, h := range list.Elems {
		d.handler(name, enabled, event, matcher, h, false)
	}
}

func (d *decoder) handler(name string, enabled bool, event, matcher string, v *jsonpos.Value, flat bool) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a command")
		return
	}
	h := &Hook{Group: name, Enabled: enabled, Event: event, Matcher: matcher, Type: "command", Timeout: DefaultTimeout,
		Pos: srcpos.At(d.out.File, d.src, v.Off)}
	ok := true
	var model *jsonpos.Value
	for _, m := range v.Members {
		switch m.Key {
		case "type":
			switch t := m.Value.Str; {
			case m.Value.Kind != jsonpos.String || t != "command" && t != "prompt" && (strings.EqualFold(t, "command") || strings.EqualFold(t, "prompt")):
				d.errorf(m.Value.Off, CodeField, "hook type must be command or prompt (case matters)")
				ok = false
				continue
			case t != "command" && t != "prompt":
				// A newer Antigravity's type: valid there; this hook alone is skipped.
				d.warnf(m.Value.Off, CodeUnknownType, "hook type %q is not one agenthooks knows (command, prompt); this hook is skipped", t)
				ok = false
				continue
			}
			h.Type = m.Value.Str
		case "command", "prompt":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
				ok = false
				continue
			}
			if m.Key == "command" {
				h.Command = m.Value.Str
			} else {
				h.Prompt = m.Value.Str
			}
		case "model":
			model = m.Value
		case "timeout":
			n, err := m.Value.Num.Float64()
			if m.Value.Kind != jsonpos.Number || err != nil || n != math.Trunc(n) || n < math.MinInt32 || n > math.MaxInt32 {
				d.errorf(m.Value.Off, CodeField, "timeout must be a whole number of seconds")
				ok = false
				continue
			}
			if n > 0 {
				h.Timeout = time.Duration(n) * time.Second
			}
		case "matcher":
			if !flat {
				d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return
	case h.Type == "command" && (h.Prompt != "" || model != nil):
		d.errorf(v.Off, CodeField, "a command hook cannot have a prompt or a model")
		return
	case h.Type == "prompt" && h.Command != "":
		d.errorf(v.Off, CodeField, "a prompt hook cannot have a command")
		return
	case h.Type == "command" && strings.TrimSpace(h.Command) == "":
		d.warnf(v.Off, CodeCommand, "this command hook has no command: it runs nothing")
		return
	}
	d.out.Hooks = append(d.out.Hooks, h)
}
