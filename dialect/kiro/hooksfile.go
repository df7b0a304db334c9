package kiro

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

// Limits on a hooks file or an agent configuration.
const (
	MaxFileSize  = 1 << 20
	MaxFileDepth = 32
)

// FileVersion is the version a hooks file must name.
const FileVersion = "v1"

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeRead         = "read"
	CodeHooks        = "hooks"
	CodeVersion      = "version"
	CodeUnknownEvent = "unknown_event"
	CodeUnknownType  = "unknown_type"
	CodeHookEntry    = "hook_entry"
	CodeCommand      = "command"
	CodeField        = "field"
	CodeUnknownField = "unknown_field"
)

// Hook is one hook of a Kiro hooks file or of an agent configuration.
type Hook struct {
	// Name is the hook's name in a hooks file; the agent's name for an agent-config hook.
	Name string `json:"name,omitempty"`
	// Event is the hooks-file trigger (an agent-config event is given as its trigger: preToolUse
	// is PreToolUse).
	Event string `json:"event"`
	// Matcher is a regular expression over the tool's name (tool triggers) or the file's path
	// (file triggers); "" for every one.
	Matcher string `json:"matcher,omitempty"`
	// Type is the action's type: command, or agent (a prompt Kiro adds to the context).
	Type    string        `json:"type"`
	Command string        `json:"command,omitempty"`
	Prompt  string        `json:"prompt,omitempty"`
	Timeout time.Duration `json:"timeout"`
	Enabled bool          `json:"enabled"`
	// Agent: the hook is in a kiro-cli agent configuration, run only for that agent.
	Agent bool       `json:"agent,omitempty"`
	Pos   srcpos.Pos `json:"pos"`
}

// File is what a Kiro hooks file or agent configuration holds.
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

func (d *decoder) parse(what string) *jsonpos.Value {
	root, off, err := jsonpos.ParseLimited(d.src, MaxFileSize, MaxFileDepth)
	if tl := (*jsonpos.TooLargeError)(nil); errors.As(err, &tl) {
		d.errorf(off, CodeRead, "%s is %v", what, err)
		return nil
	} else if err != nil {
		d.errorf(off, CodeSyntax, "invalid JSON: %v", err)
		return nil
	}
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "%s must be a JSON object", what)
		return nil
	}
	return root
}

func (d *decoder) done() *File {
	sort.SliceStable(d.out.Problems, func(i, j int) bool { return d.out.Problems[i].Offset < d.out.Problems[j].Offset })
	return d.out
}

// DecodeHooksFile reads a Kiro hooks file ({"version":"v1","hooks":[{"name":...,"trigger":...,
// "matcher":...,"action":{"type":"command","command":...},"timeout":...,"enabled":...}]}), read
// from file. Every problem has its line and column; a file with an error must not be used.
func DecodeHooksFile(file string, data []byte) *File {
	d := &decoder{src: data, out: &File{File: file}}
	root := d.parse("a hooks file")
	if root == nil {
		return d.done()
	}
	var hooks *jsonpos.Value
	version := false
	for _, m := range root.Members {
		switch m.Key {
		case "version":
			version = true
			if m.Value.Kind != jsonpos.String || m.Value.Str != FileVersion {
				d.errorf(m.Value.Off, CodeVersion, "version must be %q (Kiro's hooks file schema)", FileVersion)
			}
		case "hooks":
			hooks = m.Value
		case "$schema":
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q is ignored", m.Key)
		}
	}
	if !version {
		d.errorf(root.Off, CodeVersion, "a hooks file needs \"version\": %q", FileVersion)
	}
	switch {
	case hooks == nil:
		d.errorf(root.Off, CodeHooks, "a hooks file needs a hooks array")
	case hooks.Kind != jsonpos.Array:
		d.errorf(hooks.Off, CodeHooks, "hooks must be an array of hooks")
	default:
		for _, h := range hooks.Elems {
			d.hook(h)
		}
	}
	return d.done()
}

func (d *decoder) hook(v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a trigger and an action")
		return
	}
	h := &Hook{Enabled: true, Timeout: DefaultTimeout, Pos: srcpos.At(d.out.File, d.src, v.Off)}
	ok := true
	str := func(m jsonpos.Member) string {
		if m.Value.Kind != jsonpos.String {
			d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
			ok = false
		}
		return m.Value.Str
	}
	var action *jsonpos.Value
	for _, m := range v.Members {
		switch m.Key {
		case "name":
			h.Name = str(m)
		case "description":
			str(m)
		case "trigger":
			t := str(m)
			if m.Value.Kind == jsonpos.String {
				switch _, known := events()[t]; {
				case !known:
					// A newer Kiro's trigger: the file stays valid, and this hook alone is skipped.
					d.warnf(m.Value.Off, CodeUnknownEvent, "Unknown Kiro hook trigger: %s; this hook is skipped (a newer version's trigger?). Valid triggers are: %s", t, strings.Join(Events, ", "))
					ok = false
				case Trigger(t) != t:
					// A trigger Kiro has, in another spelling: a mistake, not a newer trigger.
					d.errorf(m.Value.Off, CodeUnknownEvent, "Unknown Kiro hook trigger: %s. Valid triggers are: %s", t, strings.Join(Events, ", "))
					ok = false
				}
			}
			h.Event = t
		case "matcher":
			h.Matcher = str(m)
		case "action":
			action = m.Value
		case "timeout":
			if !d.timeout(m.Value, time.Second, h) {
				ok = false
			}
		case "enabled":
			if m.Value.Kind != jsonpos.Bool {
				d.errorf(m.Value.Off, CodeField, "enabled must be a boolean")
				ok = false
				continue
			}
			h.Enabled = m.Value.Bool
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	if h.Event == "" && ok {
		d.errorf(v.Off, CodeHookEntry, "a hook needs a trigger")
		return
	}
	if action == nil {
		d.errorf(v.Off, CodeHookEntry, "a hook needs an action")
		return
	}
	if !d.action(action, h) || !ok {
		return
	}
	if h.Name == "" {
		d.warnf(v.Off, CodeField, "this hook has no name")
	}
	d.out.Hooks = append(d.out.Hooks, h)
}

// timeout reads a whole number of units; 0, which switches Kiro's timeout off, is kept as the
// default with a warning: agenthooks runs no hook without one.
func (d *decoder) timeout(v *jsonpos.Value, unit time.Duration, h *Hook) bool {
	n, err := v.Num.Float64()
	if v.Kind != jsonpos.Number || err != nil || n != math.Trunc(n) || n < 0 || n > float64(math.MaxInt64/int64(unit)) {
		name := map[bool]string{true: "timeout must be a whole number of seconds", false: "timeout_ms must be a whole number of milliseconds"}[unit == time.Second]
		d.errorf(v.Off, CodeField, "%s", name)
		return false
	}
	if n == 0 {
		d.warnf(v.Off, CodeField, "a timeout of 0 switches Kiro's timeout off; agenthooks gives this hook %s", DefaultTimeout)
		return true
	}
	h.Timeout = time.Duration(n) * unit
	return true
}

func (d *decoder) action(v *jsonpos.Value, h *Hook) bool {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "action must be an object with a type")
		return false
	}
	ok := true
	for _, m := range v.Members {
		switch m.Key {
		case "type", "command", "prompt":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
				ok = false
				continue
			}
			switch m.Key {
			case "type":
				if m.Value.Str != "command" && m.Value.Str != "agent" {
					// A newer Kiro's action: valid there; this hook alone is skipped.
					d.warnf(m.Value.Off, CodeUnknownType, "action type %q is not one agenthooks knows (command, agent); this hook is skipped", m.Value.Str)
					ok = false
				}
				h.Type = m.Value.Str
			case "command":
				h.Command = m.Value.Str
			default:
				h.Prompt = m.Value.Str
			}
		case "timeout":
			if !d.timeout(m.Value, time.Second, h) {
				ok = false
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in an action is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return false
	case h.Type == "":
		d.errorf(v.Off, CodeHookEntry, "an action needs a type: command or agent")
		return false
	case h.Type == "command" && h.Prompt != "":
		d.errorf(v.Off, CodeField, "a command action cannot have a prompt")
		return false
	case h.Type == "agent" && h.Command != "":
		d.errorf(v.Off, CodeField, "an agent action cannot have a command")
		return false
	case h.Type == "command" && strings.TrimSpace(h.Command) == "":
		d.errorf(v.Off, CodeCommand, "a command action needs a command")
		return false
	case h.Type == "agent" && strings.TrimSpace(h.Prompt) == "":
		d.errorf(v.Off, CodeField, "an agent action needs a prompt")
		return false
	}
	return true
}

// DecodeAgentFile reads the hooks of a kiro-cli agent configuration ({"name":...,"hooks":
// {"preToolUse":[{"matcher":...,"command":...,"timeout_ms":...,"cache_ttl_seconds":...}]}}),
// read from file. The agent's other fields are its own and not checked; an event other than
// the five is an error, as kiro-cli agent validate says.
func DecodeAgentFile(file string, data []byte) *File {
	d := &decoder{src: data, out: &File{File: file}}
	root := d.parse("an agent configuration")
	if root == nil {
		return d.done()
	}
	name := ""
	if n := root.Get("name"); n != nil && n.Kind == jsonpos.String {
		name = n.Str
	}
	hooks := root.Get("hooks")
	if hooks == nil {
		return d.done()
	}
	if hooks.Kind != jsonpos.Object {
		d.errorf(hooks.Off, CodeHooks, "hooks must be an object of events")
		return d.done()
	}
	var valid []string
	for _, a := range AgentEvents {
		valid = append(valid, a[0])
	}
	for _, m := range hooks.Members {
		trigger := ""
		for _, a := range AgentEvents {
			if a[0] == m.Key {
				trigger = a[1]
			}
		}
		if trigger == "" {
			d.warnf(m.KeyOff, CodeUnknownEvent, "Unknown kiro-cli hook event: %s; its hooks are skipped (a newer version's event?). Valid events are: %s", m.Key, strings.Join(valid, ", "))
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "hooks for %s must be an array", m.Key)
			continue
		}
		for _, e := range m.Value.Elems {
			d.agentHook(name, m.Key, trigger, e)
		}
	}
	return d.done()
}

func (d *decoder) agentHook(agent, event, trigger string, v *jsonpos.Value) {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "a hook must be an object with a command")
		return
	}
	h := &Hook{Name: agent, Event: trigger, Type: "command", Enabled: true, Agent: true, Timeout: AgentDefaultTimeout,
		Pos: srcpos.At(d.out.File, d.src, v.Off)}
	ok := true
	for _, m := range v.Members {
		switch m.Key {
		case "command", "matcher":
			if m.Value.Kind != jsonpos.String {
				d.errorf(m.Value.Off, CodeField, "%s must be a string", m.Key)
				ok = false
				continue
			}
			if m.Key == "command" {
				h.Command = m.Value.Str
			} else {
				h.Matcher = m.Value.Str
			}
		case "timeout_ms":
			if !d.timeout(m.Value, time.Millisecond, h) {
				ok = false
			}
		case "cache_ttl_seconds", "max_output_size":
			if n, err := m.Value.Num.Float64(); m.Value.Kind != jsonpos.Number || err != nil || n < 0 {
				d.errorf(m.Value.Off, CodeField, "%s must be a number that is not negative", m.Key)
				ok = false
			}
		default:
			d.warnf(m.KeyOff, CodeUnknownField, "unknown field %q in a hook is ignored", m.Key)
		}
	}
	switch {
	case !ok:
		return
	case strings.TrimSpace(h.Command) == "":
		d.errorf(v.Off, CodeCommand, "a hook needs a command")
		return
	case h.Matcher != "" && (event == "stop" || event == "agentSpawn" || event == "userPromptSubmit"):
		d.warnf(v.Off, CodeField, "a matcher has no effect on %s", event)
	}
	d.out.Hooks = append(d.out.Hooks, h)
}
