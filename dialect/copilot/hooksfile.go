package copilot

import (
	"errors"
	"fmt"
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

// DefaultTimeout is how long Copilot CLI lets a command hook run when its entry has no timeoutSec.
const DefaultTimeout = 30 * time.Second

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeRead         = "read"
	CodeVersion      = "version"
	CodeHooks        = "hooks"
	CodeUnknownEvent = "unknown_event"
	CodeUnknownType  = "unknown_type"
	CodeHookEntry    = "hook_entry"
	CodeCommand      = "command"
	CodeField        = "field"
	CodeUnknownField = "unknown_field"
)

// Hook is one hook entry of a Copilot hooks file.
type Hook struct {
	// Event is Copilot's camelCase name, also when the file used Claude Code's PascalCase one.
	Event string `json:"event"`
	// ClaudeForm is set when the file named the event in PascalCase: Copilot then sends VS
	// Code's snake_case payload (Claude Code's shape and tool names).
	ClaudeForm bool   `json:"claude_form,omitempty"`
	Matcher    string `json:"matcher,omitempty"`
	// Type is command, http or prompt; agenthooks runs command hooks only.
	Type string `json:"type"`
	// Bash and PowerShell are the command on Unix and on Windows; Command is the
	// cross-platform alias, used where the platform's own is missing.
	Bash       string            `json:"bash,omitempty"`
	PowerShell string            `json:"powershell,omitempty"`
	Command    string            `json:"command,omitempty"`
	URL        string            `json:"url,omitempty"`
	Cwd        string            `json:"cwd,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	// Timeout is timeoutSec (or its alias timeout), in seconds in the file.
	Timeout time.Duration `json:"timeout"`
	Pos     srcpos.Pos    `json:"pos"`
}

// CommandFor returns the command the hook runs on goos ("windows" runs powershell).
func (h *Hook) CommandFor(goos string) string {
	if goos == "windows" {
		if h.PowerShell != "" {
			return h.PowerShell
		}
	} else if h.Bash != "" {
		return h.Bash
	}
	return h.Command
}

// File is what a Copilot hooks file (or the "hooks" of its settings.json) holds.
type File struct {
	File string `json:"file"`
	// DisableAllHooks is the top-level disableAllHooks, nil when absent.
	DisableAllHooks *bool       `json:"disable_all_hooks,omitempty"`
	Hooks           []*Hook     `json:"hooks"`
	Problems        srcpos.List `json:"problems,omitempty"`
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

// DecodeHooksFile reads a Copilot CLI hooks file (.github/hooks/NAME.json or
// ~/.copilot/hooks/NAME.json: {"version": 1, "hooks": {EVENT: [ENTRY, ...]}}), read from file.
// Every problem is reported with its line and column; a file with an error must not be used.
func DecodeHooksFile(file string, data []byte) *File {
	return decode(file, data, false)
}

// DecodeSettings reads the hooks of a Copilot CLI settings.json (~/.copilot/settings.json,
// .github/copilot/settings.json and their settings.local.json): its "hooks" key, in the hooks
// file's schema, and disableAllHooks. Other settings are left alone.
func DecodeSettings(file string, data []byte) *File {
	return decode(file, data, true)
}

func decode(file string, data []byte, settings bool) *File {
	d := &decoder{src: data, out: &File{File: file}}
	d.root(settings)
	sort.SliceStable(d.out.Problems, func(i, j int) bool { return d.out.Problems[i].Offset < d.out.Problems[j].Offset })
	return d.out
}

func (d *decoder) root(settings bool) {
	root, off, err := jsonpos.ParseLimited(d.src, MaxFileSize, MaxFileDepth)
	if tl := (*jsonpos.TooLargeError)(nil); errors.As(err, &tl) {
		d.errorf(off, CodeRead, "hooks file is %v", err)
		return
	} else if err != nil {
		d.errorf(off, CodeSyntax, "invalid JSON: %v", err)
		return
	}
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "a hooks file must be a JSON object")
		return
	}
	for _, m := range root.Members {
		switch m.Key {
		case "version":
			if settings {
				continue
			}
			if n, err := m.Value.Num.Int64(); m.Value.Kind != jsonpos.Number || err != nil || n != 1 {
				d.errorf(m.Value.Off, CodeVersion, "version must be 1")
			}
		case "disableAllHooks":
			if m.Value.Kind != jsonpos.Bool {
				d.errorf(m.Value.Off, CodeField, "disableAllHooks must be a boolean")
				continue
			}
			b := m.Value.Bool
			d.out.DisableAllHooks = &b
		case "hooks":
			d.hooks(m.Value)
		default:
			if !settings {
				d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q is ignored", m.Key)
			}
		}
	}
}

func (d *decoder) hooks(v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHooks, "hooks must be an object of events")
		return
	}
	for _, m := range v.Members {
		event, claudeForm := m.Key, false
		if _, ok := events()[event]; !ok {
			if c := FromClaudeEvent(event); c != "" {
				event, claudeForm = c, true
			} else {
				// A newer Copilot's event: the file stays valid, and only its hooks are skipped.
				d.warnf(m.KeyOff, CodeUnknownEvent, "Unknown Copilot CLI hook event: %s; its hooks are skipped (a newer version's event?). Valid events are: %s", m.Key, strings.Join(Events, ", "))
				continue
			}
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array", m.Key)
			continue
		}
		for _, entry := range m.Value.Elems {
			if entry.Kind == jsonpos.Object && entry.Get("hooks") != nil {
				d.group(event, claudeForm, entry) // Claude Code's nested matcher group
				continue
			}
			d.entry(event, claudeForm, "", entry)
		}
	}
}

func (d *decoder) group(event string, claudeForm bool, g *jsonpos.Value) {
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
	if list.Kind != jsonpos.Array {
		d.errorf(list.Off, CodeHookEntry, "a matcher group's hooks must be an array")
		return
	}
	for _, e := range list.Elems {
		d.entry(event, claudeForm, matcher, e)
	}
}

func (d *decoder) entry(event string, claudeForm bool, matcher string, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a bash, powershell or command string")
		return
	}
	h := &Hook{Event: event, ClaudeForm: claudeForm, Matcher: matcher, Type: "command", Timeout: DefaultTimeout,
		Pos: srcpos.At(d.out.File, d.src, v.Off)}
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
		case "type":
			switch t := str(m); t {
			case "command", "http", "prompt":
				h.Type = t
			case "":
			default:
				// A newer Copilot's type: valid there; this hook alone is skipped.
				d.warnf(m.Value.Off, CodeUnknownType, "hook type %q is not one agenthooks knows (command, http, prompt); this hook is skipped", t)
				ok = false
			}
		case "bash":
			h.Bash = str(m)
		case "powershell":
			h.PowerShell = str(m)
		case "command":
			h.Command = str(m)
		case "url":
			h.URL = str(m)
		case "cwd":
			h.Cwd = str(m)
		case "matcher":
			h.Matcher = str(m)
		case "comment", "prompt", "description", "name", "statusMessage":
			str(m)
		case "timeoutSec", "timeout":
			n, err := m.Value.Num.Float64()
			if m.Value.Kind != jsonpos.Number || err != nil || n <= 0 || n > 24*3600 {
				d.errorf(m.Value.Off, CodeField, "%s must be a positive number of seconds (at most a day)", m.Key)
				ok = false
				continue
			}
			if n >= 1000 {
				d.warnf(m.Value.Off, CodeField, "%s is in seconds: %v s is more than 16 minutes (milliseconds?)", m.Key, n)
			}
			h.Timeout = time.Duration(n * float64(time.Second))
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
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return
	case h.Type == "command" && strings.TrimSpace(h.Bash+h.PowerShell+h.Command) == "":
		d.errorf(v.Off, CodeCommand, "a command hook needs a bash, powershell or command string")
		return
	case h.Type == "command" && strings.TrimSpace(h.Bash+h.Command) == "":
		d.warnf(v.Off, CodeCommand, "this hook has only a powershell command: it does not run on Linux or macOS")
	case h.Type == "http" && h.URL == "":
		d.errorf(v.Off, CodeField, "an http hook needs a url")
		return
	}
	d.out.Hooks = append(d.out.Hooks, h)
}
