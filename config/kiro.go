package config

import (
	"github.com/agenthooks/agenthooks/dialect/kiro"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeKiro validates a Kiro hooks file (agentFile false) or a kiro-cli agent configuration
// (true) with dialect/kiro's decoders and gives their hooks as agenthooks runs them: a command
// hook that is switched on, with its trigger, matcher and timeout, reading Kiro's payload. An
// agent prompt is Kiro's to add, and an agent configuration's hook runs only while kiro-cli runs
// that agent, so agenthooks lists both and runs neither.
func DecodeKiro(src Source, data []byte, agentFile bool) *File {
	decode := kiro.DecodeHooksFile
	if agentFile {
		decode = kiro.DecodeAgentFile
	}
	kf := decode(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), kf.Problems...)}
	for _, kh := range kf.Hooks {
		h := &Hook{Event: kh.Event, Dialect: src.Family, Type: kh.Type, Timeout: kh.Timeout, Matcher: kh.Matcher,
			Command: kh.Command, Source: &f.Source, LoopLimit: -1, Pos: kh.Pos}
		if err := compileMatcher(h); err != nil {
			f.Problems.Add(kh.Pos, srcpos.Error, CodeMatcher, "matcher is not a valid regular expression (RE2): "+err.Error())
			continue
		}
		switch {
		case !kh.Enabled:
			h.Unsupported = "it is switched off (enabled: false)"
		case kh.Type == "agent":
			h.Unsupported = "an agent action is a prompt Kiro adds to the context; agenthooks runs commands only"
		case kh.Agent:
			h.Unsupported = "it belongs to the kiro-cli agent configuration " + kh.Name + ", run only while that agent runs"
		case guard.UnsafeReason(h.Command) != "":
			h.Refused = guard.UnsafeReason(h.Command)
			f.Problems.Add(kh.Pos, srcpos.Error, CodeUnsafeCommand, "Hook command fails the safety check ("+h.Refused+"); this hook is refused")
		default:
			h.SelfRun = runsAgenthooks(h.Command)
		}
		if isGuard, format := guardFormat(h.Command); isGuard && format != string(kiro.Name) && kh.Enabled && h.Refused == "" {
			// Kiro's hooks-file payload is Claude Code's to the letter, and Kiro honours only
			// exit 2: a guard that takes it for Claude Code's answers a deny Kiro ignores
			f.Problems.Add(kh.Pos, srcpos.Warning, CodeNoEffect, "this agenthooks guard does not name --format kiro: Kiro's payload reads as Claude Code's "+
				"(a hooks file's UserPromptSubmit is Claude Code's to the letter), so its deny may come in a form Kiro does not honour (Kiro honours exit 2 alone); add --format kiro")
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
