package config

import (
	"cmp"

	"github.com/agenthooks/agenthooks/dialect/opencode"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeOpenCode reads the OpenCode plugin agenthooks install writes (.opencode/plugin/
// agenthooks.js, ~/.config/opencode/plugin/agenthooks.js) with dialect/opencode's decoder, and
// gives its entries as the plugin runs them: agenthooks by its absolute path with the entry's
// arguments, no shell, the matcher anchored to the whole tool name, fail-closed on
// the events that gate (tool.execute.before, chat.message).
func DecodeOpenCode(src Source, data []byte) *File {
	d := opencode.DecodePlugin(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), d.Problems...)}
	for _, oh := range d.Hooks {
		prog := cmp.Or(oh.Program, d.Program)
		h := &Hook{Event: oh.Event, Dialect: src.Family, Type: "command", Command: prog, Args: oh.Args,
			Timeout: d.Timeout, Matcher: oh.Matcher, FailClosed: opencode.Agent.Gates(oh.Event), Source: &f.Source, LoopLimit: -1, Pos: oh.Pos}
		if h.Matcher != "" && h.Matcher != "*" {
			h.Matcher = "^(?:" + h.Matcher + ")$" // the plugin matches the whole tool name
		}
		if err := compileMatcher(h); err != nil {
			f.Problems.Add(oh.Pos, srcpos.Error, CodeMatcher, "matcher is not a valid regular expression (RE2): "+err.Error())
			continue
		}
		h.SelfRun = prog != "" && runsAgenthooks(shell.Quote(prog)+" "+oh.Args[0])
		if prog == "" {
			h.Unsupported = "the plugin names no agenthooks to run"
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
