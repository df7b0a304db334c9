package vscode

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

// DefaultTimeout is how long VS Code lets a hook run when its entry sets no timeout.
const DefaultTimeout = 30 * time.Second

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeRead         = "read"
	CodeVersion      = "version"
	CodeHooks        = "hooks"
	CodeUnknownEvent = "unknown_event"
	CodeHookEntry    = "hook_entry"
	CodeCommand      = "command"
	CodeField        = "field"
	CodeUnknownField = "unknown_field"
	CodeNoEffect     = "no_effect"
)

// Hook is one command hook of a file VS Code reads from .github/hooks or ~/.copilot/hooks.
type Hook struct {
	// Event is VS Code's PascalCase name, also when the file named it in Copilot CLI's camelCase.
	Event string `json:"event"`
	// Command is the default command; Windows, Linux and OSX override it on that platform (a
	// Copilot CLI entry's powershell is Windows's, its bash Linux's and macOS's).
	Command string            `json:"command,omitempty"`
	Windows string            `json:"windows,omitempty"`
	Linux   string            `json:"linux,omitempty"`
	OSX     string            `json:"osx,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Timeout is timeout (or Copilot's timeoutSec), in seconds in the file.
	Timeout time.Duration `json:"timeout"`
	// Matcher is a Claude Code matcher group's, which VS Code parses and ignores.
	Matcher string     `json:"matcher,omitempty"`
	Pos     srcpos.Pos `json:"pos"`
}

// CommandFor returns the command VS Code runs for the hook on goos (runtime.GOOS values): the
// platform's override when the entry has one, else command. VS Code knows Windows, macOS and
// Linux; any other Unix counts as Linux.
func (h *Hook) CommandFor(goos string) string {
	var override string
	switch goos {
	case "windows":
		override = h.Windows
	case "darwin":
		override = h.OSX
	default:
		override = h.Linux
	}
	if override != "" {
		return override
	}
	return h.Command
}

// File is what a hooks file holds for VS Code.
type File struct {
	File string `json:"file"`
	// CopilotFormat: the file has a numeric "version", so VS Code reads it as Copilot CLI's
	// (camelCase events, bash and powershell).
	CopilotFormat bool        `json:"copilot_format,omitempty"`
	Hooks         []*Hook     `json:"hooks"`
	Problems      srcpos.List `json:"problems,omitempty"`
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

// DecodeHooksFile reads a hooks file as VS Code does ({"hooks": {EVENT: [ENTRY, ...]}}, an
// entry {"type": "command", "command": ..., "windows": ..., "linux": ..., "osx": ..., "cwd":
// ..., "env": {...}, "timeout": SECONDS} or a Claude Code matcher group of them; with a numeric
// "version", Copilot CLI's camelCase events and bash/powershell commands), read from file. Every
// problem has its line and column; a file with an error must not be used.
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
		d.errorf(root.Off, CodeHooks, "a hooks file must be a JSON object")
		return
	}
	var hooks *jsonpos.Value
	for _, m := range root.Members {
		switch m.Key {
		case "hooks":
			hooks = m.Value
		case "version":
			if m.Value.Kind != jsonpos.Number {
				d.errorf(m.Value.Off, CodeVersion, "version must be a number (VS Code reads a file with a numeric version as Copilot CLI's)")
				continue
			}
			d.out.CopilotFormat = true
		case "$schema", "disableAllHooks":
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q is ignored", m.Key)
		}
	}
	if hooks == nil {
		d.errorf(root.Off, CodeHooks, "a hooks file needs a \"hooks\" object")
		return
	}
	d.hooks(hooks)
}

func (d *decoder) hooks(v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHooks, "hooks must be an object of events")
		return
	}
	for _, m := range v.Members {
		event := m.Key
		if d.out.CopilotFormat {
			e, known := FromCopilotEvent(m.Key)
			switch {
			case !known:
				d.warnf(m.KeyOff, CodeUnknownEvent, "VS Code ignores %s in a Copilot CLI hooks file: it knows %s", m.Key, strings.Join(copilotEventNames(), ", "))
				continue
			case e == "":
				d.warnf(m.KeyOff, CodeNoEffect, "VS Code reads %s but never fires it: these hooks run only under Copilot CLI", m.Key)
				continue
			}
			event = e
		} else if _, ok := events()[m.Key]; !ok {
			d.warnf(m.KeyOff, CodeUnknownEvent, "VS Code ignores the event %s: its events are %s", m.Key, strings.Join(Events, ", "))
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array", m.Key)
			continue
		}
		for _, item := range m.Value.Elems {
			d.item(event, item)
		}
	}
}

// item is an entry of an event's list: a command object, or a Claude Code matcher group whose
// hooks VS Code runs for every tool.
func (d *decoder) item(event string, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a command")
		return
	}
	nested := v.Get("hooks")
	if nested == nil {
		d.entry(event, "", v)
		return
	}
	if nested.Kind != jsonpos.Array {
		d.errorf(nested.Off, CodeHookEntry, "a matcher group's hooks must be an array")
		return
	}
	matcher := ""
	for _, m := range v.Members {
		switch m.Key {
		case "hooks":
		case "matcher":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, "matcher must be a string")
				return
			}
			matcher = m.Value.Str
			if matcher != "" && matcher != "*" {
				d.warnf(m.Value.Off, CodeNoEffect, "VS Code ignores matchers: these hooks run for every tool, not only %q", matcher)
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a matcher group is ignored", m.Key)
		}
	}
	for _, h := range nested.Elems {
		d.entry(event, matcher, h)
	}
}

func (d *decoder) entry(event, matcher string, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a command")
		return
	}
	h := &Hook{Event: event, Matcher: matcher, Timeout: DefaultTimeout, Pos: srcpos.At(d.out.File, d.src, v.Off)}
	ok := true
	str := func(m jsonpos.Member) string {
		if m.Value.Kind != jsonpos.String {
			d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
			ok = false
			return ""
		}
		return m.Value.Str
	}
	var bash, powershell string
	var timeout, timeoutSec time.Duration
	for _, m := range v.Members {
		switch m.Key {
		case "type":
			if t := str(m); ok && t != "command" {
				d.warnf(m.Value.Off, CodeNoEffect, "VS Code runs only command hooks: this %q hook is skipped", t)
				return
			}
		case "command":
			h.Command = str(m)
		case "windows":
			h.Windows = str(m)
		case "linux":
			h.Linux = str(m)
		case "osx":
			h.OSX = str(m)
		case "bash":
			bash = str(m)
		case "powershell":
			powershell = str(m)
		case "cwd":
			h.Cwd = str(m)
		case "matcher":
			if s := str(m); s != "" && s != "*" {
				d.warnf(m.Value.Off, CodeNoEffect, "VS Code ignores matchers: this hook runs for every tool, not only %q", s)
			}
		case "comment", "description", "name", "statusMessage":
			str(m)
		case "timeout", "timeoutSec":
			n, err := m.Value.Num.Float64()
			if m.Value.Kind != jsonpos.Number || err != nil || n <= 0 || n > 24*3600 {
				d.errorf(m.Value.Off, CodeField, "%s must be a positive number of seconds (at most a day)", m.Key)
				ok = false
				continue
			}
			if n >= 1000 {
				d.warnf(m.Value.Off, CodeField, "%s is in seconds: %v s is more than 16 minutes (milliseconds?)", m.Key, n)
			}
			if m.Key == "timeout" {
				timeout = time.Duration(n * float64(time.Second))
			} else {
				timeoutSec = time.Duration(n * float64(time.Second))
			}
		case "env":
			if m.Value.Kind != jsonpos.Object {
				d.errorf(m.Value.Off, CodeField, "env must be an object of strings")
				ok = false
				continue
			}
			h.Env = map[string]string{}
			for _, kv := range m.Value.Members {
				if kv.Value.Kind != jsonpos.String {
					d.errorf(kv.Value.Off, CodeField, "env.%s must be a string", kv.Key)
					ok = false
					continue
				}
				h.Env[kv.Key] = kv.Value.Str
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	if !ok {
		return
	}
	// As VS Code's normalizeHookCommand: bash is Linux's and macOS's command and powershell
	// Windows's, where the entry has no override of its own; timeout wins over timeoutSec.
	if h.Linux == "" {
		h.Linux = bash
	}
	if h.OSX == "" {
		h.OSX = bash
	}
	if h.Windows == "" {
		h.Windows = powershell
	}
	switch {
	case timeout > 0:
		h.Timeout = timeout
	case timeoutSec > 0:
		h.Timeout = timeoutSec
	}
	if strings.TrimSpace(h.Command+h.Windows+h.Linux+h.OSX) == "" {
		d.errorf(v.Off, CodeCommand, "a hook needs at least one of command, windows, linux or osx (or bash, powershell)")
		return
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if strings.TrimSpace(h.CommandFor(goos)) == "" {
			d.warnf(v.Off, CodeCommand, "this hook has no command for %s: it does not run there", goos)
		}
	}
	d.out.Hooks = append(d.out.Hooks, h)
}

func copilotEventNames() []string {
	var out []string
	for n := range copilotNames() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
