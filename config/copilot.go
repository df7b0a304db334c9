package config

import (
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/copilot"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeCopilot validates a GitHub Copilot CLI hooks file (.github/hooks/*.json,
// ~/.copilot/hooks/*.json), or with settings the "hooks" of its settings.json, with dialect/copilot's
// decoder, and gives its command hooks as agenthooks runs them: the bash command (the
// PowerShell one on Windows), the timeout, the matcher anchored as Copilot anchors it. An entry
// named in Claude Code's PascalCase speaks Claude Code's dialect, as Copilot then sends it
// Claude Code's payload and reads its answer.
func DecodeCopilot(src Source, data []byte, settings bool) *File {
	decode := copilot.DecodeHooksFile
	if settings {
		decode = copilot.DecodeSettings
	}
	cf := decode(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), cf.Problems...), DisableAllHooks: cf.DisableAllHooks}
	goos := runtime.GOOS
	for _, ch := range cf.Hooks {
		h := &Hook{Event: ch.Event, Dialect: src.Family, Type: ch.Type, URL: ch.URL, Timeout: ch.Timeout,
			Matcher: ch.Matcher, Source: &f.Source, LoopLimit: -1, Pos: ch.Pos}
		if ch.ClaudeForm {
			h.Dialect = dialect.Claude
			if h.Matcher != "" && plainMatcher().MatchString(h.Matcher) {
				// Written against Claude Code's tool names (Bash), which Copilot then sends; the
				// call is matched in Copilot's own view (bash).
				names := strings.Split(h.Matcher, "|")
				for i, n := range names {
					names[i] = copilot.CopilotTool(strings.TrimSpace(n))
				}
				h.Matcher = strings.Join(names, "|")
			}
		}
		if h.Matcher != "" && h.Matcher != "*" && !plainMatcher().MatchString(h.Matcher) {
			h.Matcher = "^(?:" + h.Matcher + ")$" // Copilot's matcher must match the whole tool name
		}
		if err := compileMatcher(h); err != nil {
			f.Problems.Add(ch.Pos, srcpos.Error, CodeMatcher, "matcher is not a valid regular expression (RE2): "+err.Error())
			continue
		}
		if ch.Cwd != "" || len(ch.Env) > 0 {
			f.Problems.Add(ch.Pos, srcpos.Warning, CodeNoEffect, "cwd and env apply when Copilot CLI runs this hook; agenthooks, running it for another agent, runs it in its file's folder with its own environment")
		}
		switch ch.Type {
		case "command":
			h.Command = ch.CommandFor(goos)
			if goos == "windows" && ch.PowerShell != "" {
				h.Shell = "powershell"
			}
			if strings.TrimSpace(h.Command) == "" {
				h.Unsupported = "it has no command for this platform"
			} else if reason := guard.UnsafeReason(h.Command); reason != "" {
				h.Refused = reason
				f.Problems.Add(ch.Pos, srcpos.Error, CodeUnsafeCommand, "Hook command fails the safety check ("+reason+"); this hook is refused")
			} else {
				h.SelfRun = runsAgenthooks(h.Command)
			}
		case "prompt":
			h.Unsupported = "agenthooks does not run prompt hooks; Copilot CLI runs them itself"
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
