package config

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Limits on a config file.
const (
	MaxFileSize = 1 << 20
	MaxDepth    = 32
)

// Stable problem codes, shared by lint --json and anything that reads them.
const (
	CodeSyntax        = "syntax"
	CodeRead          = "read"
	CodeVersion       = "version"
	CodeHooks         = "hooks"
	CodeUnknownEvent  = "unknown_event"
	CodeHookEntry     = "hook_entry"
	CodeCommand       = "command"
	CodeField         = "field"
	CodeMatcher       = "matcher"
	CodeUnknownField  = "unknown_field"
	CodeDuplicateKey  = "duplicate_key"
	CodeUnsafeCommand = "unsafe_command"
	CodeNoEffect      = "no_effect"
	// CodeUnknownType is a hook of a type agenthooks does not run (a prompt hook, a newer
	// agent's type): a warning, and that hook alone is skipped.
	CodeUnknownType = "unknown_type"
)

// skippedNewer ends the warning for an event agenthooks does not know: the file is valid for
// an agent that has the event (a newer version's), so only that event's hooks are skipped.
const skippedNewer = "its hooks are skipped and the rest of the file runs (a newer version's event?)"

// decoder validates one file, collecting problems.
type decoder struct {
	src  []byte
	file *File
}

func (d *decoder) add(off int, sev srcpos.Severity, code, msg string) {
	d.file.Problems.Add(srcpos.At(d.file.Source.File, d.src, off), sev, code, msg)
}

func (d *decoder) errorf(off int, code, format string, args ...any) {
	d.add(off, srcpos.Error, code, fmt.Sprintf(format, args...))
}

func (d *decoder) warnf(off int, code, format string, args ...any) {
	d.add(off, srcpos.Warning, code, fmt.Sprintf(format, args...))
}

// Problem returns the position of a JSON syntax error in data read from file.
func Problem(file string, data []byte, err error) srcpos.Pos {
	var se *jsonpos.SyntaxError
	if errors.As(err, &se) {
		return srcpos.At(file, data, se.Off)
	}
	return srcpos.Pos{File: file}
}

// Decode validates the hooks.json in data, read from src.File. Problems are in the returned
// File; it is Usable only when there is no error (an unsafe hook command refuses that hook alone).
func Decode(src Source, data []byte) *File {
	if src.Family == "" {
		src.Family = agents.Default().Name // a hooks.json is Cursor's
	}
	f := &File{Source: src}
	d := &decoder{src: data, file: f}
	if len(data) > MaxFileSize {
		d.errorf(0, CodeRead, "config file is %d bytes, more than the limit of %d", len(data), MaxFileSize)
		return f
	}
	root, err := jsonpos.Parse(data, MaxDepth)
	if err != nil {
		var se *jsonpos.SyntaxError
		off := 0
		if errors.As(err, &se) {
			off = se.Off
		}
		d.errorf(off, CodeSyntax, "invalid JSON: %s", err.Error())
		return f
	}
	d.root(root)
	sort.SliceStable(f.Problems, func(i, j int) bool { return f.Problems[i].Offset < f.Problems[j].Offset })
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}

func hasStructuralErrors(l srcpos.List) bool {
	for _, p := range l {
		if p.Severity == srcpos.Error && p.Code != CodeUnsafeCommand {
			return true
		}
	}
	return false
}

func (d *decoder) root(root *jsonpos.Value) {
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "Config must be an object")
		return
	}
	d.duplicates(root)
	version := root.Get("version")
	switch {
	case version == nil || version.Kind != jsonpos.Number:
		off := root.Off
		if version != nil {
			off = version.Off
		}
		// Cursor reports both: a value that is not a number is not a positive integer either.
		d.errorf(off, CodeVersion, "Config version must be a number")
		d.errorf(off, CodeVersion, "Config version must be a positive integer")
	default:
		if n, err := version.Num.Float64(); err != nil || n < 1 || n != math.Trunc(n) {
			d.errorf(version.Off, CodeVersion, "Config version must be a positive integer")
		}
	}
	for _, m := range root.Members {
		switch m.Key {
		case "version", "hooks", "$schema": // $schema names the file's JSON Schema, for editors
		case "sequential":
			d.sequential(m.Value)
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "Unknown field %q is ignored", m.Key)
		}
	}
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonpos.Object {
		off := root.Off
		if hooks != nil {
			off = hooks.Off
		}
		d.errorf(off, CodeHooks, "Config hooks must be an object")
		return
	}
	d.duplicates(hooks)
	for _, m := range hooks.Members {
		ev, ok := cursor.Lookup(m.Key)
		if !ok {
			// A newer Cursor's event, or a misspelt one: Cursor's own file, valid for the Cursor
			// that has it, so its hooks are skipped and the rest of the file runs (NewerFormat).
			d.warnf(m.KeyOff, CodeUnknownEvent, "%s; %s", unknownEvent(m.Key), skippedNewer)
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "Hooks for %s must be an array", m.Key)
			continue
		}
		for _, el := range m.Value.Elems {
			if h := d.hook(ev, el); h != nil {
				d.file.Hooks = append(d.file.Hooks, h)
			}
		}
	}
}

func (d *decoder) duplicates(obj *jsonpos.Value) {
	seen := map[string]bool{}
	for _, m := range obj.Members {
		if seen[m.Key] {
			d.warnf(m.KeyOff, CodeDuplicateKey, "Duplicate key %q: the last one is used", m.Key)
		}
		seen[m.Key] = true
	}
}

func (d *decoder) sequential(v *jsonpos.Value) {
	switch v.Kind {
	case jsonpos.Bool:
		if v.Bool {
			d.file.Sequential = []string{"*"}
		}
		return
	case jsonpos.Array:
		for _, el := range v.Elems {
			if el.Kind != jsonpos.String {
				d.errorf(el.Off, CodeField, "Config sequential must be a boolean or an array of hook types")
				continue
			}
			if _, ok := cursor.Lookup(el.Str); !ok {
				d.warnf(el.Off, CodeUnknownEvent, "%s; it is ignored here", unknownEvent(el.Str))
				continue
			}
			d.file.Sequential = append(d.file.Sequential, el.Str)
		}
		return
	}
	d.errorf(v.Off, CodeField, "Config sequential must be a boolean or an array of hook types")
}

func (d *decoder) hook(ev *cursor.Event, v *jsonpos.Value) *Hook {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "Hook script must be an object with a command property")
		return nil
	}
	d.duplicates(v)
	if t := v.Get("type"); t != nil && t.Kind == jsonpos.String && t.Str != "command" {
		// Cursor's prompt hooks, or a type of a newer Cursor's: valid for Cursor, which runs
		// them; agenthooks skips this hook alone, says so, and runs the rest of the file.
		d.warnf(t.Off, CodeUnknownType, "Hook type %q is not run by agenthooks, which runs command hooks only; this hook is skipped", t.Str)
		return nil
	}
	cmd := v.Get("command")
	if cmd == nil || cmd.Kind != jsonpos.String {
		off := v.Off
		if cmd != nil {
			off = cmd.Off
		}
		d.errorf(off, CodeCommand, "Hook script command must be a string")
		return nil
	}
	h := &Hook{Event: ev.Name, Dialect: dialect.Cursor, Type: "command", Command: cmd.Str, Source: &d.file.Source,
		LoopLimit: DefaultLoopLimit, Pos: srcpos.At(d.file.Source.File, d.src, v.Off)}
	if cmd.Str == "" {
		d.errorf(cmd.Off, CodeCommand, "Hook script command must not be empty")
	}
	h.SelfRun = runsAgenthooks(cmd.Str)
	if reason := guard.UnsafeReason(cmd.Str); reason != "" {
		h.Refused = reason
		d.errorf(cmd.Off, CodeUnsafeCommand, "Hook script command fails the safety check (%s); this hook is refused", reason)
	}
	for _, m := range v.Members {
		switch m.Key {
		case "command":
		case "dialect":
			d.dialectField(h, ev.Kind, m.Value)
		case "type":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, `Hook type must be a string such as "command"`)
			}
		case "timeout":
			n, ok := number(m.Value)
			if !ok || n <= 0 || n > math.MaxInt64/float64(time.Second) {
				d.errorf(m.Value.Off, CodeField, "Hook timeout must be a positive number of seconds")
				continue
			}
			h.Timeout = time.Duration(n * float64(time.Second))
		case "failClosed":
			if m.Value.Kind != jsonpos.Bool {
				d.errorf(m.Value.Off, CodeField, "Hook failClosed must be a boolean")
				continue
			}
			h.FailClosed = m.Value.Bool
			if h.FailClosed && !ev.Gates {
				d.warnf(m.KeyOff, CodeNoEffect, "failClosed has no effect on %s, which cannot block", ev.Name)
			}
		case "matcher":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeMatcher, "Hook matcher must be a string")
				continue
			}
			h.Matcher = m.Value.Str
			if err := compileMatcher(h); err != nil {
				d.errorf(m.Value.Off, CodeMatcher, "Hook matcher is not a valid regular expression: %s", err.Error())
				continue
			}
			if ev.Target == dialect.NoTarget {
				d.warnf(m.KeyOff, CodeNoEffect, "matcher has no effect on %s", ev.Name)
			}
		case "loop_limit":
			if m.Value.Kind == jsonpos.Null {
				h.LoopLimit = -1
				continue
			}
			n, ok := number(m.Value)
			if !ok || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
				d.errorf(m.Value.Off, CodeField, "Hook loop_limit must be a non-negative integer or null")
				continue
			}
			h.LoopLimit = int(n)
			if !ev.Loop {
				d.warnf(m.KeyOff, CodeNoEffect, "loop_limit has no effect on %s", ev.Name)
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "Unknown field %q in hook is ignored", m.Key)
		}
	}
	return h
}

// runsAgenthooks reports whether a command runs `agenthooks run` anywhere in it.
func runsAgenthooks(command string) bool {
	s := shell.Analyze(command, shell.Options{})
	for _, inv := range s.Invocations {
		if inv.Name == "agenthooks" && len(inv.Args) > 1 && inv.Args[1].Value == "run" {
			return true
		}
	}
	return false
}

// guardFormat reports whether command calls one of agenthooks' built-in guards (agenthooks
// guard bash, read, prompt or mcp, or agenthooks-guard bash), and the --format it names ("" for
// none).
func guardFormat(command string) (bool, string) {
	s := shell.Analyze(command, shell.Options{})
	for _, inv := range s.Invocations {
		if len(inv.Args) == 0 {
			continue
		}
		var words []string
		for _, w := range inv.Args[1:] {
			words = append(words, w.Value)
		}
		args, own := dialect.OwnArgs(inv.Name, words) // agenthooks-guard bash is agenthooks guard bash
		if !own || len(args) < 2 || args[0] != "guard" {
			continue
		}
		switch args[1] {
		case "bash", "read", "prompt", "mcp":
		default:
			continue
		}
		format := ""
		for i := 2; i < len(args); i++ {
			a := args[i]
			if a == "--format" && i+1 < len(args) {
				format = args[i+1]
			} else if v, ok := strings.CutPrefix(a, "--format="); ok {
				format = v
			}
		}
		return true, format
	}
	return false, ""
}

// dialectField reads an entry's "dialect": the dialect its command speaks, when not its file's.
func (d *decoder) dialectField(h *Hook, kind dialect.Kind, v *jsonpos.Value) {
	if _, ok := agents.Lookup(v.Str); v.Kind != jsonpos.String || !ok {
		var names []string
		for _, a := range agents.ByFilePriority() {
			names = append(names, strconv.Quote(string(a.Name)))
		}
		d.errorf(v.Off, CodeField, "Hook dialect must be %s or %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
		return
	}
	h.Dialect = dialect.Name(v.Str)
	if h.Dialect != d.file.Source.Family && translate.EventFor(h.Dialect, kind) == "" {
		d.errorf(v.Off, CodeField, "%s has no %s counterpart: a hook here cannot speak %s", h.Event, h.Dialect, h.Dialect)
	}
}

func number(v *jsonpos.Value) (float64, bool) {
	if v.Kind != jsonpos.Number {
		return 0, false
	}
	n, err := strconv.ParseFloat(string(v.Num), 64)
	return n, err == nil && !math.IsInf(n, 0)
}

// dirOf returns the absolute folder of file, so that commands relative to a config file named by
// a relative path never become bare names looked up in PATH.
func dirOf(file string) string {
	if file == "" {
		return ""
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return filepath.Dir(file)
	}
	return dir
}
