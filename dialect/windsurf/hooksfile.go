package windsurf

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Limits on a hooks file.
const (
	MaxFileSize  = 1 << 20
	MaxFileDepth = 32
)

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeRead         = "read"
	CodeHooks        = "hooks"
	CodeUnknownEvent = "unknown_event"
	CodeHookEntry    = "hook_entry"
	CodeCommand      = "command"
	CodeField        = "field"
	CodeUnknownField = "unknown_field"
)

// Hook is one entry of a Cascade hooks.json.
type Hook struct {
	Event string `json:"event"`
	// Command runs on Linux and macOS (and on Windows when PowerShell is empty); PowerShell on
	// Windows.
	Command    string `json:"command,omitempty"`
	PowerShell string `json:"powershell,omitempty"`
	// ShowOutput: Cascade shows the hook's output in its panel.
	ShowOutput bool `json:"show_output,omitempty"`
	// WorkingDirectory is where Cascade runs the command; "" for the workspace root.
	WorkingDirectory string     `json:"working_directory,omitempty"`
	Pos              srcpos.Pos `json:"pos"`
}

// CommandFor returns the command the hook runs on goos.
func (h *Hook) CommandFor(goos string) string {
	if goos == "windows" && h.PowerShell != "" {
		return h.PowerShell
	}
	return h.Command
}

// File is what a Cascade hooks.json holds.
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

// DecodeHooksFile reads a Cascade hooks.json ({"hooks": {EVENT: [{"command": ..., "show_output":
// ..., "working_directory": ..., "powershell": ...}]}}), read from file. Every problem has its
// line and column; a file with an error must not be used.
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
	for _, m := range root.Members {
		switch m.Key {
		case "hooks":
			d.hooks(m.Value)
		case "$schema":
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q is ignored", m.Key)
		}
	}
}

func (d *decoder) hooks(v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHooks, "hooks must be an object of events")
		return
	}
	for _, m := range v.Members {
		if _, ok := events()[m.Key]; !ok {
			d.warnf(m.KeyOff, CodeUnknownEvent, "Unknown Cascade hook event: %s; its hooks are skipped (a newer version's event?). Valid events are: %s", m.Key, strings.Join(Events, ", "))
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array", m.Key)
			continue
		}
		for _, entry := range m.Value.Elems {
			d.entry(m.Key, entry)
		}
	}
}

func (d *decoder) entry(event string, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a command string")
		return
	}
	h := &Hook{Event: event, Pos: srcpos.At(d.out.File, d.src, v.Off)}
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
		case "command":
			h.Command = str(m)
		case "powershell":
			h.PowerShell = str(m)
		case "working_directory":
			h.WorkingDirectory = str(m)
		case "show_output":
			if m.Value.Kind != jsonpos.Bool {
				d.errorf(m.Value.Off, CodeField, "show_output must be a boolean")
				ok = false
				continue
			}
			h.ShowOutput = m.Value.Bool
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return
	case strings.TrimSpace(h.Command+h.PowerShell) == "":
		d.errorf(v.Off, CodeCommand, "a hook needs a command or powershell string")
		return
	case strings.TrimSpace(h.Command) == "":
		d.warnf(v.Off, CodeCommand, "this hook has only a powershell command: it does not run on Linux or macOS")
	}
	if h.ShowOutput && (event == "pre_user_prompt" || strings.HasPrefix(event, "post_cascade_response")) {
		d.warnf(v.Off, CodeField, "show_output has no effect on %s", event)
	}
	d.out.Hooks = append(d.out.Hooks, h)
}
