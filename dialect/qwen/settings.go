package qwen

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Limits on a settings file.
const (
	MaxSettingsSize  = 1 << 20
	MaxSettingsDepth = 32
)

// DefaultTimeout is how long Qwen Code lets a command hook run when its entry has no timeout.
const DefaultTimeout = 60 * time.Second

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

// Hook is one hook entry of a Qwen Code settings file.
type Hook struct {
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	// Sequential is the matcher group's "sequential": its hooks run one after another.
	Sequential bool `json:"sequential,omitempty"`
	// Type is command, http, function or prompt; agenthooks runs command hooks only.
	Type    string            `json:"type"`
	Command string            `json:"command,omitempty"`
	URL     string            `json:"url,omitempty"`
	Name    string            `json:"name,omitempty"`
	Shell   string            `json:"shell,omitempty"` // bash or powershell
	Env     map[string]string `json:"env,omitempty"`
	Async   bool              `json:"async,omitempty"`
	// Timeout is the entry's timeout (milliseconds in the file), or DefaultTimeout.
	Timeout time.Duration `json:"timeout"`
	Pos     srcpos.Pos    `json:"pos"`
}

// Settings is what a Qwen Code settings.json says about hooks.
type Settings struct {
	File string `json:"file"`
	// DisableAllHooks is the top-level disableAllHooks, nil when absent.
	DisableAllHooks *bool `json:"disable_all_hooks,omitempty"`
	// Enabled is hooksConfig.enabled, nil when absent (Qwen's default is on).
	Enabled *bool `json:"enabled,omitempty"`
	// Disabled lists hooksConfig.disabled: hook names Qwen Code does not run.
	Disabled []string    `json:"disabled,omitempty"`
	Hooks    []*Hook     `json:"hooks"`
	Problems srcpos.List `json:"problems,omitempty"`
}

// Usable reports whether the file decoded without an error.
func (s *Settings) Usable() bool { return !s.Problems.HasErrors() }

type settingsDecoder struct {
	src []byte
	out *Settings
}

func (d *settingsDecoder) add(off int, sev srcpos.Severity, code, format string, args ...any) {
	d.out.Problems.Add(srcpos.At(d.out.File, d.src, off), sev, code, fmt.Sprintf(format, args...))
}

func (d *settingsDecoder) errorf(off int, code, format string, args ...any) {
	d.add(off, srcpos.Error, code, format, args...)
}

func (d *settingsDecoder) warnf(off int, code, format string, args ...any) {
	d.add(off, srcpos.Warning, code, format, args...)
}

// DecodeSettings reads the hooks of a Qwen Code settings.json (user ~/.qwen/settings.json,
// project .qwen/settings.json, or the system file), read from file. Settings other than hooks
// are Qwen's business and are left alone. Every problem is reported with its line and column;
// a file with an error must not be used.
func DecodeSettings(file string, data []byte) *Settings {
	d := &settingsDecoder{src: data, out: &Settings{File: file}}
	d.decode()
	sort.SliceStable(d.out.Problems, func(i, j int) bool { return d.out.Problems[i].Offset < d.out.Problems[j].Offset })
	return d.out
}

func (d *settingsDecoder) decode() {
	root, off, err := jsonpos.ParseLimited(d.src, MaxSettingsSize, MaxSettingsDepth)
	if tl := (*jsonpos.TooLargeError)(nil); errors.As(err, &tl) {
		d.errorf(off, CodeRead, "settings file is %v", err)
		return
	} else if err != nil {
		d.errorf(off, CodeSyntax, "invalid JSON: %v", err)
		return
	}
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "settings must be a JSON object")
		return
	}
	if v := root.Get("disableAllHooks"); v != nil {
		if v.Kind != jsonpos.Bool {
			d.errorf(v.Off, CodeField, "disableAllHooks must be a boolean")
		} else {
			b := v.Bool
			d.out.DisableAllHooks = &b
		}
	}
	if hc := root.Get("hooksConfig"); hc != nil {
		d.hooksConfig(hc)
	}
	if hooks := root.Get("hooks"); hooks != nil {
		d.hooks(hooks)
	}
}

func (d *settingsDecoder) hooksConfig(v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeField, "hooksConfig must be an object")
		return
	}
	if e := v.Get("enabled"); e != nil {
		if e.Kind != jsonpos.Bool {
			d.errorf(e.Off, CodeField, "hooksConfig.enabled must be a boolean")
		} else {
			b := e.Bool
			d.out.Enabled = &b
		}
	}
	if l := v.Get("disabled"); l != nil {
		names, ok := stringList(l)
		if !ok {
			d.errorf(l.Off, CodeField, "hooksConfig.disabled must be an array of hook names")
		}
		d.out.Disabled = names
	}
}

// stringList returns the strings of an array of strings.
func stringList(v *jsonpos.Value) ([]string, bool) {
	if v.Kind != jsonpos.Array {
		return nil, false
	}
	var out []string
	for _, e := range v.Elems {
		if e.Kind != jsonpos.String {
			return nil, false
		}
		out = append(out, e.Str)
	}
	return out, true
}

func (d *settingsDecoder) hooks(v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHooks, "hooks must be an object of events")
		return
	}
	for _, m := range v.Members {
		if slices.Contains([]string{"enabled", "disabled", "notifications"}, m.Key) {
			continue // hooksConfig's fields, which Qwen also accepts here
		}
		if _, ok := events()[m.Key]; !ok {
			d.warnf(m.KeyOff, CodeUnknownEvent, "Unknown Qwen Code hook event: %s; its hooks are skipped (a newer version's event?). Valid events are: %s", m.Key, strings.Join(Events, ", "))
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array of matcher groups", m.Key)
			continue
		}
		for _, g := range m.Value.Elems {
			d.group(m.Key, g)
		}
	}
}

func (d *settingsDecoder) group(event string, g *jsonpos.Value) {
	if g.Kind != jsonpos.Object {
		d.errorf(g.Off, CodeHookEntry, "a matcher group must be an object with a hooks array")
		return
	}
	matcher, sequential := "", false
	for _, m := range g.Members {
		switch m.Key {
		case "matcher":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, "matcher must be a string")
				return
			}
			matcher = m.Value.Str
		case "sequential":
			if m.Value.Kind != jsonpos.Bool {
				d.errorf(m.Value.Off, CodeField, "sequential must be a boolean")
				return
			}
			sequential = m.Value.Bool
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
		d.errorf(off, CodeHookEntry, "a matcher group must be an object with a hooks array")
		return
	}
	for _, hv := range list.Elems {
		if h := d.hook(event, matcher, sequential, hv); h != nil {
			d.out.Hooks = append(d.out.Hooks, h)
		}
	}
}

func (d *settingsDecoder) hook(event, matcher string, sequential bool, v *jsonpos.Value) *Hook {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a type")
		return nil
	}
	h := &Hook{Event: event, Matcher: matcher, Sequential: sequential, Timeout: DefaultTimeout,
		Pos: srcpos.At(d.out.File, d.src, v.Off)}
	t := v.Get("type")
	if t == nil || t.Kind != jsonpos.String {
		d.errorf(v.Off, CodeField, "a hook must have a type: command, http, function or prompt")
		return nil
	}
	switch t.Str {
	case "command", "http", "function", "prompt":
		h.Type = t.Str
	default:
		// A newer Qwen Code's type: valid there; this hook alone is skipped.
		d.warnf(t.Off, CodeUnknownType, "hook type %q is not one agenthooks knows (command, http, function, prompt); this hook is skipped", t.Str)
		return nil
	}
	ok := true
	str := func(m jsonpos.Member) (string, bool) {
		if m.Value.Kind != jsonpos.String {
			d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
			ok = false
			return "", false
		}
		return m.Value.Str, true
	}
	for _, m := range v.Members {
		switch m.Key {
		case "type":
		case "command":
			h.Command, _ = str(m)
		case "url":
			h.URL, _ = str(m)
		case "name":
			h.Name, _ = str(m)
		case "description", "statusMessage", "prompt", "id", "model":
			str(m)
		case "shell":
			if s, isStr := str(m); isStr {
				if s != "bash" && s != "powershell" {
					d.errorf(m.Value.Off, CodeField, "shell must be bash or powershell")
					ok = false
				}
				h.Shell = s
			}
		case "timeout":
			n, err := m.Value.Num.Float64()
			if m.Value.Kind != jsonpos.Number || err != nil || n <= 0 || n > 24*3600*1000 {
				d.errorf(m.Value.Off, CodeField, "timeout must be a positive number of milliseconds (at most a day)")
				ok = false
				continue
			}
			if n < 1000 {
				d.warnf(m.Value.Off, CodeField, "timeout is in milliseconds: %v ms is less than a second", n)
			}
			h.Timeout = time.Duration(n * float64(time.Millisecond))
		case "async":
			if m.Value.Kind != jsonpos.Bool {
				d.errorf(m.Value.Off, CodeField, "async must be a boolean")
				ok = false
				continue
			}
			h.Async = m.Value.Bool
		case "env", "headers":
			if m.Value.Kind != jsonpos.Object {
				d.errorf(m.Value.Off, CodeField, "%s must be an object of strings", m.Key)
				ok = false
				continue
			}
			vals := map[string]string{}
			for _, kv := range m.Value.Members {
				if kv.Value.Kind != jsonpos.String {
					d.errorf(kv.Value.Off, CodeField, "%s.%s must be a string", m.Key, kv.Key)
					ok = false
					continue
				}
				vals[kv.Key] = kv.Value.Str
			}
			if m.Key == "env" {
				h.Env = vals
			}
		case "allowedEnvVars":
			if _, isList := stringList(m.Value); !isList {
				d.errorf(m.Value.Off, CodeField, "allowedEnvVars must be an array of strings")
				ok = false
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return nil
	case h.Type == "command" && strings.TrimSpace(h.Command) == "":
		d.errorf(v.Off, CodeCommand, "a command hook needs a command string")
		return nil
	case h.Type == "http" && h.URL == "":
		d.errorf(v.Off, CodeField, "an http hook needs a url")
		return nil
	}
	return h
}
