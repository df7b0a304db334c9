package config

import (
	"github.com/agenthooks/agenthooks/dialect/antigravity"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeAntigravity validates an Antigravity CLI hooks.json (named groups) with
// dialect/antigravity's decoder and gives its handlers as agenthooks runs them: a command hook
// of a group that is switched on, with its matcher and timeout, reading agy's payload.
func DecodeAntigravity(src Source, data []byte) *File {
	af := antigravity.DecodeHooksFile(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), af.Problems...)}
	for _, ah := range af.Hooks {
		h := &Hook{Event: ah.Event, Dialect: src.Family, Type: ah.Type, Timeout: ah.Timeout, Matcher: ah.Matcher,
			Command: ah.Command, Source: &f.Source, LoopLimit: -1, Pos: ah.Pos}
		if err := compileMatcher(h); err != nil {
			f.Problems.Add(ah.Pos, srcpos.Error, CodeMatcher, "matcher is not a valid regular expression (RE2): "+err.Error())
			continue
		}
		switch {
		case !ah.Enabled:
			h.Unsupported = "its group " + ah.Group + " is switched off (enabled: false)"
		case ah.Type == "prompt":
			h.Unsupported = "agenthooks does not run prompt hooks; Antigravity runs them itself"
		case guard.UnsafeReason(h.Command) != "":
			h.Refused = guard.UnsafeReason(h.Command)
			f.Problems.Add(ah.Pos, srcpos.Error, CodeUnsafeCommand, "Hook command fails the safety check ("+h.Refused+"); this hook is refused")
		default:
			h.SelfRun = runsAgenthooks(h.Command)
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
