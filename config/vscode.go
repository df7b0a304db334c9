package config

import (
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect/vscode"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeVSCode validates a hooks file as VS Code reads it (.github/hooks/*.json,
// ~/.copilot/hooks/*.json) with dialect/vscode's decoder and gives its hooks as agenthooks runs
// them: the command for this platform (an entry's windows, linux or osx override, else its
// command), the timeout, and no matcher, as VS Code ignores matchers.
func DecodeVSCode(src Source, data []byte) *File {
	vf := vscode.DecodeHooksFile(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), vf.Problems...)}
	goos := runtime.GOOS
	for _, vh := range vf.Hooks {
		h := &Hook{Event: vh.Event, Dialect: src.Family, Type: "command", Timeout: vh.Timeout,
			Source: &f.Source, LoopLimit: -1, Pos: vh.Pos, Command: vh.CommandFor(goos)}
		if vh.Cwd != "" || len(vh.Env) > 0 {
			f.Problems.Add(vh.Pos, srcpos.Warning, CodeNoEffect, "cwd and env apply when VS Code runs this hook; agenthooks, running it for another agent, runs it in its file's folder with its own environment")
		}
		switch {
		case strings.TrimSpace(h.Command) == "":
			h.Unsupported = "it has no command for this platform"
		case guard.UnsafeReason(h.Command) != "":
			h.Refused = guard.UnsafeReason(h.Command)
			f.Problems.Add(vh.Pos, srcpos.Error, CodeUnsafeCommand, "Hook command fails the safety check ("+h.Refused+"); this hook is refused")
		default:
			h.SelfRun = runsAgenthooks(h.Command)
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
