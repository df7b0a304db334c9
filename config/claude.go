package config

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/codex"
	"github.com/agenthooks/agenthooks/dialect/gemini"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// ClaudeManagedDir returns the folder of Claude Code's managed settings on a platform.
func ClaudeManagedDir(goos string) string { return claude.ManagedDir(goos) }

// ClaudeCandidates lists, in priority order, the settings files of Claude Code: managed
// (managed-settings.json, then managed-settings.d/*.json in name order), team bundles synced in
// Claude Code's format (~/.cursor/managed/team_*/hooks/settings.json), local, project and user.
func ClaudeCandidates(env Env) []Candidate { return AgentCandidates(env, &claude.Agent) }

// CodexCandidates lists Codex's hook files, in priority order: each workspace's .codex/hooks.json
// and the [hooks] of its .codex/config.toml (used only when the workspace is trusted), then the
// user's, in $CODEX_HOME or ~/.codex. Codex loads them all; so does agenthooks.
func CodexCandidates(env Env) []Candidate { return AgentCandidates(env, &codex.Agent) }

// GeminiCandidates lists Gemini CLI's settings files, in priority order: each workspace's
// .gemini/settings.json (used only when the workspace is trusted) and the user's.
func GeminiCandidates(env Env) []Candidate { return AgentCandidates(env, &gemini.Agent) }

// claudeEventList is Claude Code's list of events, as the error message prints it.
func claudeEventList() string { return strings.Join(claude.Names(), ", ") }

// ifEvents are the events where a handler's "if" is evaluated; elsewhere it never runs.
var ifEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true,
	"PermissionRequest": true, "PermissionDenied": true}

// ifRule is Claude Code's permission-rule syntax: Tool or Tool(pattern).
var ifRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$`) })

// DecodeSettings validates the hooks of a Claude Code settings.json. Other settings are not
// agenthooks' business and are left alone; disableAllHooks and allowManagedHooksOnly are read.
func DecodeSettings(src Source, data []byte) *File {
	f := &File{Source: src}
	d := &decoder{src: data, file: f}
	if len(data) > MaxFileSize {
		d.errorf(0, CodeRead, "settings file is %d bytes, more than the limit of %d", len(data), MaxFileSize)
		return f
	}
	root, err := jsonpos.Parse(data, MaxDepth)
	if err != nil {
		off := 0
		if se, ok := err.(*jsonpos.SyntaxError); ok {
			off = se.Off
		}
		d.errorf(off, CodeSyntax, "invalid JSON: %s", err.Error())
		return f
	}
	if root.Kind != jsonpos.Object {
		d.errorf(root.Off, CodeHooks, "Settings must be an object")
		return f
	}
	for _, key := range []string{"disableAllHooks", "allowManagedHooksOnly"} {
		if v := root.Get(key); v != nil && agentOf(src.Family).HookSwitches {
			if v.Kind != jsonpos.Bool {
				d.errorf(v.Off, CodeField, "%s must be a boolean", key)
				continue
			}
			if key == "disableAllHooks" {
				b := v.Bool
				f.DisableAllHooks = &b
			} else {
				f.AllowManagedHooksOnly = v.Bool
			}
		}
	}
	if hooks := root.Get("hooks"); hooks != nil {
		d.settingsHooks(hooks)
	}
	sort.SliceStable(f.Problems, func(i, j int) bool { return f.Problems[i].Offset < f.Problems[j].Offset })
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}

func (d *decoder) settingsHooks(hooks *jsonpos.Value) {
	if hooks.Kind != jsonpos.Object {
		d.errorf(hooks.Off, CodeHooks, "hooks must be an object of events")
		return
	}
	d.duplicates(hooks)
	settings := agentOf(d.file.Source.Family).Settings.HooksSettings
	for _, m := range hooks.Members {
		if slices.Contains(settings, m.Key) {
			continue // one of the agent's settings beside its events (Droid's hooksDisabled)
		}
		ev, ok, unknown := d.settingsEvent(m.Key)
		if !ok {
			if unknown != "" {
				// A newer version's event, or a misspelt one: the agent's own file stays valid
				// for the agent that has it, so only that event's hooks are skipped.
				d.warnf(m.KeyOff, CodeUnknownEvent, "%s; %s", unknown, skippedNewer)
			} else {
				d.warnf(m.KeyOff, CodeNoEffect, "Codex's %s has no counterpart in other agents; agenthooks does not run these hooks", m.Key)
			}
			continue
		}
		if m.Value.Kind != jsonpos.Array {
			d.errorf(m.Value.Off, CodeHooks, "Hooks for %s must be an array of matcher groups", m.Key)
			continue
		}
		for _, group := range m.Value.Elems {
			d.matcherGroup(ev, group)
		}
	}
}

// settingsEvent looks an event up in the file's agent: Claude Code's, Codex's (Claude Code's
// names, its own list) or Gemini CLI's. When it is not found, unknown is the error to report, or
// empty for an event agenthooks knows but does not run (Codex's Interrupt).
func (d *decoder) settingsEvent(name string) (ev *claude.Event, ok bool, unknown string) {
	a := agentOf(d.file.Source.Family)
	if a.Speaks == "" {
		if ev, ok := claude.Lookup(name); ok {
			return ev, true, ""
		}
		return nil, false, fmt.Sprintf("Unknown hook event: %s. Valid events are: %s", name, claudeEventList())
	}
	own := a.Dialect(dialect.AskAsDeny)
	s, ok := own.Lookup(name)
	if !ok {
		return nil, false, fmt.Sprintf("Unknown %s hook event: %s. Valid events are: %s", a.Title, name, strings.Join(own.Names(), ", "))
	}
	if a.ToSpoken != nil {
		return &claude.Event{Spec: *s}, true, "" // its own event, in Claude Code's shape
	}
	if ev, ok := claude.Lookup(name); ok {
		return ev, true, "" // Claude Code's event, in the agent's list
	}
	return nil, false, ""
}

func (d *decoder) matcherGroup(ev *claude.Event, g *jsonpos.Value) {
	if g.Kind != jsonpos.Object {
		d.errorf(g.Off, CodeHookEntry, "A matcher group must be an object with a hooks array")
		return
	}
	matcher := ""
	if m := g.Get("matcher"); m != nil {
		if m.Kind != jsonpos.String {
			d.errorf(m.Off, CodeMatcher, "matcher must be a string")
			return
		}
		matcher = m.Str
		if matcher == "*" && agentOf(d.file.Source.Family).Settings.RegexMatcher {
			d.warnf(m.Off, CodeMatcher, "%s reads matcher as a regular expression, and a bare * is none: it skips this group; leave matcher out to match everything", agentOf(d.file.Source.Family).Title)
			return
		}
		probe := &Hook{Matcher: matcher}
		if err := compileMatcher(probe); err != nil {
			d.errorf(m.Off, CodeMatcher, "matcher is not a valid regular expression (RE2, where Claude Code uses JavaScript's RegExp: no lookaround or backreferences): %s", err.Error())
			return
		}
		if matcher != "" && matcher != "*" && ev.Target == dialect.NoTarget {
			d.warnf(m.Off, CodeNoEffect, "Claude Code ignores a matcher on %s", ev.Name)
		}
	}
	for _, k := range g.Members {
		if k.Key != "matcher" && k.Key != "hooks" && !slices.Contains(agentOf(d.file.Source.Family).Settings.GroupFields, k.Key) {
			d.warnf(k.KeyOff, CodeUnknownField, "Unknown field %q in matcher group is ignored", k.Key)
		}
	}
	list := g.Get("hooks")
	if list == nil || list.Kind != jsonpos.Array {
		off := g.Off
		if list != nil {
			off = list.Off
		}
		d.errorf(off, CodeHookEntry, "A matcher group must be an object with a hooks array")
		return
	}
	for _, hv := range list.Elems {
		if h := d.handler(ev, matcher, hv); h != nil {
			if agentOf(d.file.Source.Family).Settings.RegexMatcher {
				h.names = nil // an unanchored regular expression, never a list of exact names
			}
			d.file.Hooks = append(d.file.Hooks, h)
		}
	}
}

func (d *decoder) handler(ev *claude.Event, matcher string, v *jsonpos.Value) *Hook {
	if v.Kind != jsonpos.Object {
		d.errorf(v.Off, CodeHookEntry, "A hook must be an object with a type")
		return nil
	}
	d.duplicates(v)
	family := agents.Fallback().Name // Claude Code's
	if f := d.file.Source.Family; agentOf(f).Speaks != "" {
		family = f // Claude Code's format, the agent's events and answers
	}
	h := &Hook{Event: ev.Name, Dialect: family, Matcher: matcher, Source: &d.file.Source, LoopLimit: -1,
		Pos: srcpos.At(d.file.Source.File, d.src, v.Off)}
	_ = compileMatcher(h)
	t := v.Get("type")
	if dt := agentOf(d.file.Source.Family).Settings.DefaultType; t == nil && dt != "" {
		t = &jsonpos.Value{Kind: jsonpos.String, Str: dt, Off: v.Off}
	}
	if t == nil || t.Kind != jsonpos.String {
		d.errorf(v.Off, CodeField, "A hook must be an object with a type")
		return nil
	}
	h.Type = t.Str
	switch t.Str {
	case "command", "http":
	case "mcp_tool", "prompt", "agent":
		h.Unsupported = "agenthooks does not run " + t.Str + " hooks; Claude Code runs them itself"
	default:
		// A type of a newer Claude Code's: valid there, and Claude Code runs it; agenthooks
		// skips this hook alone and says so.
		d.warnf(t.Off, CodeUnknownType, "Hook type %q is not one agenthooks knows (command, http, mcp_tool, prompt, agent); this hook is skipped", t.Str)
		return nil
	}
	for _, m := range v.Members {
		d.handlerField(ev, h, m)
	}
	switch {
	case h.Type == "command" && h.Command == "":
		if c := v.Get("command"); c == nil || c.Kind == jsonpos.String {
			// a command of another type has had its own error: one problem, one error
			d.errorf(v.Off, CodeCommand, "A command hook needs a command string")
		}
		return nil
	case h.Type == "http" && h.URL == "":
		d.errorf(v.Off, CodeField, "An http hook needs a url")
		return nil
	}
	if h.Type == "command" && len(h.Args) == 0 {
		if reason := guard.UnsafeReason(h.Command); reason != "" {
			h.Refused = reason
			d.errorf(v.Get("command").Off, CodeUnsafeCommand, "Hook command fails the safety check (%s); this hook is refused", reason)
		}
		h.SelfRun = runsAgenthooks(h.Command)
	}
	if h.If != "" && !ifEvents[ev.Name] {
		d.warnf(v.Get("if").Off, CodeNoEffect, "Claude Code never runs a hook with \"if\" on %s", ev.Name)
	}
	return h
}

func (d *decoder) handlerField(ev *claude.Event, h *Hook, m jsonpos.Member) {
	v := m.Value
	str := func(name string) (string, bool) {
		if v.Kind != jsonpos.String {
			d.errorf(v.Off, CodeField, "%s must be a string", name)
			return "", false
		}
		return v.Str, true
	}
	switch m.Key {
	case "type":
	case "command":
		if s, ok := str("command"); ok {
			h.Command = s
		}
	case "args":
		if v.Kind != jsonpos.Array {
			d.errorf(v.Off, CodeField, "args must be an array of strings")
			return
		}
		for _, a := range v.Elems {
			if a.Kind != jsonpos.String {
				d.errorf(a.Off, CodeField, "args must be an array of strings")
				return
			}
			h.Args = append(h.Args, a.Str)
		}
	case "timeout":
		unit, what := time.Second, "seconds"
		if u := agentOf(d.file.Source.Family).Settings.TimeoutUnit; u > 0 {
			unit, what = u, map[time.Duration]string{time.Millisecond: "milliseconds", time.Second: "seconds"}[u] // Gemini CLI's are milliseconds
			if what == "" {
				what = "units of " + u.String()
			}
		}
		n, ok := number(v)
		if !ok || n <= 0 || n > math.MaxInt64/float64(unit) {
			d.errorf(v.Off, CodeField, "timeout must be a positive number of %s", what)
			return
		}
		h.Timeout = time.Duration(n * float64(unit))
	case "on_failure":
		a := agentOf(d.file.Source.Family)
		if !a.Settings.OnFailure {
			d.warnf(m.KeyOff, CodeUnknownField, "Unknown field %q in hook is ignored", m.Key)
			return
		}
		if v.Kind != jsonpos.String || v.Str != "allow" && v.Str != "block" {
			d.errorf(v.Off, CodeField, `on_failure must be "allow" or "block" (%s refuses the whole file otherwise)`, a.Title)
			return
		}
		if ev.Name != "PreToolUse" {
			d.warnf(m.KeyOff, CodeNoEffect, "%s honours on_failure on PreToolUse only", a.Title)
			return
		}
		h.FailClosed = v.Str == "block"
	case "name", "description":
		if !slices.Contains(agentOf(d.file.Source.Family).Settings.HandlerFields, m.Key) {
			d.warnf(m.KeyOff, CodeUnknownField, "Unknown field %q in hook is ignored", m.Key)
		}
	case "if":
		s, ok := str("if")
		if !ok {
			return
		}
		if !ifRule().MatchString(s) {
			d.errorf(v.Off, CodeField, "if must be one permission rule such as Bash(git *) or Edit(*.ts)")
			return
		}
		h.If = s
	case "shell":
		if s, ok := str("shell"); ok {
			if s != "bash" && s != "powershell" {
				d.errorf(v.Off, CodeField, `shell must be "bash" or "powershell"`)
				return
			}
			h.Shell = s
		}
	case "async", "asyncRewake":
		if v.Kind != jsonpos.Bool {
			d.errorf(v.Off, CodeField, "%s must be a boolean", m.Key)
			return
		}
		h.Async = h.Async || v.Bool
	case "url":
		if s, ok := str("url"); ok {
			if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
				d.errorf(v.Off, CodeField, "url must be an http or https URL")
				return
			}
			h.URL = s
		}
	case "headers":
		if v.Kind != jsonpos.Object {
			d.errorf(v.Off, CodeField, "headers must be an object of strings")
			return
		}
		h.Headers = map[string]string{}
		for _, hm := range v.Members {
			if hm.Value.Kind != jsonpos.String {
				d.errorf(hm.Value.Off, CodeField, "headers must be an object of strings")
				continue
			}
			h.Headers[hm.Key] = hm.Value.Str
		}
	case "allowedEnvVars":
		if v.Kind != jsonpos.Array {
			d.errorf(v.Off, CodeField, "allowedEnvVars must be an array of names")
			return
		}
		for _, a := range v.Elems {
			if a.Kind == jsonpos.String {
				h.AllowedEnvVars = append(h.AllowedEnvVars, a.Str)
			}
		}
	case "failClosed":
		if v.Kind != jsonpos.Bool {
			d.errorf(v.Off, CodeField, "failClosed must be a boolean")
			return
		}
		h.FailClosed = v.Bool
	case "dialect":
		d.dialectField(h, KindOf(d.file.Source.Family, ev.Name), v)
	case "statusMessage", "once", "server", "tool", "input", "prompt", "model", "continueOnBlock":
	default:
		d.warnf(m.KeyOff, CodeUnknownField, "Unknown field %q in hook is ignored", m.Key)
	}
}
