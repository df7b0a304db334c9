package config

import (
	"github.com/agenthooks/agenthooks/dialect/crush"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeCrush validates the "hooks" of a Crush crush.json with dialect/crush's decoder and gives
// its hooks as agenthooks runs them. A matcher keeps Crush's meaning, a regular expression
// found anywhere in the tool name ("edit" also matches multiedit), so a plain name is not read
// as one exact tool name as in Claude Code's files.
func DecodeCrush(src Source, data []byte) *File {
	cf := crush.DecodeConfig(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), cf.Problems...)}
	for _, ch := range cf.Hooks {
		h := &Hook{Event: ch.Event, Dialect: src.Family, Type: "command", Command: ch.Command, Timeout: ch.Timeout,
			Matcher: ch.Matcher, Source: &f.Source, LoopLimit: -1, Pos: ch.Pos}
		if h.Matcher != "" && plainMatcher().MatchString(h.Matcher) {
			h.Matcher = "(?:" + h.Matcher + ")" // unanchored, as Crush matches
		}
		if err := compileMatcher(h); err != nil {
			f.Problems.Add(ch.Pos, srcpos.Error, CodeMatcher, "matcher is not a valid regular expression (RE2): "+err.Error())
			continue
		}
		if reason := guard.UnsafeReason(h.Command); reason != "" {
			h.Refused = reason
			f.Problems.Add(ch.Pos, srcpos.Error, CodeUnsafeCommand, "Hook command fails the safety check ("+reason+"); this hook is refused")
		} else {
			h.SelfRun = runsAgenthooks(h.Command)
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
