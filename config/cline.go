package config

import (
	"path/filepath"
	"runtime"

	"github.com/agenthooks/agenthooks/dialect/cline"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeCline reads one file of a Cline hooks folder as Cline does: a file named after an
// event (with an extension Cline runs) is one hook for that event, run by its shebang's
// interpreter or its extension; any other file is none of Cline's, and has no hooks. A wrapper
// agenthooks install wrote is read as its agenthooks calls (the runner's marked SelfRun, so it
// never runs from here); one edited out of shape is one hook marked SelfRun.
func DecodeCline(src Source, data []byte) *File {
	f := &File{Source: src, Usable: true}
	event := cline.HookFileEvent(filepath.Base(src.File))
	if event == "" {
		return f
	}
	if prog, steps, lines, ok := cline.WrapperSteps(data); ok {
		// agenthooks' own wrapper: each step is an agenthooks call, as an entry in a hooks file
		// would be, so that doctor and status check the program it runs.
		for i, args := range steps {
			cmd := shell.Quote(prog)
			for _, a := range args {
				cmd += " " + shell.Quote(a)
			}
			f.Hooks = append(f.Hooks, &Hook{Event: event, Dialect: src.Family, Type: "command", Command: cmd,
				Timeout: cline.DefaultTimeout, Source: &f.Source, LoopLimit: -1, Pos: srcpos.Pos{File: src.File, Line: lines[i], Col: 1},
				SelfRun: runsAgenthooks(cmd)})
		}
		return f
	}
	argv := cline.HookCommand(src.File, data, runtime.GOOS)
	h := &Hook{Event: event, Dialect: src.Family, Type: "command", Command: argv[0], Args: argv[1:],
		Timeout: cline.DefaultTimeout, Source: &f.Source, LoopLimit: -1, Pos: srcpos.Pos{File: src.File, Line: 1, Col: 1},
		SelfRun: cline.IsWrapper(data)}
	f.Hooks = append(f.Hooks, h)
	return f
}
