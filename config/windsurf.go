package config

import (
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect/windsurf"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeWindsurf validates a Windsurf (Devin Desktop) Cascade hooks.json with dialect/windsurf's
// decoder and gives its hooks as agenthooks runs them: the command (the powershell one on
// Windows), with the agent's default timeout, as hooks of the file's family that read Cascade's
// payload.
func DecodeWindsurf(src Source, data []byte) *File {
	wf := windsurf.DecodeHooksFile(src.File, data)
	f := &File{Source: src, Problems: append(srcpos.List(nil), wf.Problems...)}
	goos := runtime.GOOS
	for _, wh := range wf.Hooks {
		h := &Hook{Event: wh.Event, Dialect: src.Family, Type: "command", Timeout: windsurf.DefaultTimeout,
			Source: &f.Source, LoopLimit: -1, Pos: wh.Pos, Command: wh.CommandFor(goos)}
		if goos == "windows" && wh.PowerShell != "" {
			h.Shell = "powershell"
		}
		if wh.WorkingDirectory != "" && wh.WorkingDirectory != "." {
			f.Problems.Add(wh.Pos, srcpos.Warning, CodeUnknownField, "working_directory is Cascade's: agenthooks runs this hook in the workspace")
		}
		switch {
		case strings.TrimSpace(h.Command) == "":
			h.Unsupported = "it has no command for this platform"
		case guard.UnsafeReason(h.Command) != "":
			h.Refused = guard.UnsafeReason(h.Command)
			f.Problems.Add(wh.Pos, srcpos.Error, CodeUnsafeCommand, "Hook command fails the safety check ("+h.Refused+"); this hook is refused")
		default:
			h.SelfRun = runsAgenthooks(h.Command)
		}
		f.Hooks = append(f.Hooks, h)
	}
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
