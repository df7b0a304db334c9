package config

import (
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// AlsoReadBy lists the agents, other than the file's own, that run f as a hooks file of their
// own: each always runs the file's agent's files (Agent.Reads with no setting) and f is at one of
// its own places (VS Code runs every file of Copilot CLI's hooks folders). nil for most files.
func AlsoReadBy(f *File) []*dialect.Agent {
	var out []*dialect.Agent
	for _, a := range agents.All() {
		if a.Name == f.Source.Family || !a.ReadsAlways(f.Source.Family) {
			continue
		}
		if _, ok := LocationOf(a, f.Source.File); ok {
			out = append(out, a)
		}
	}
	return out
}

// SharedProblems are the problems of the files that other agents run as their own too
// (AlsoReadBy), as those agents read them, that the file's own agent's reading did not find:
// each at its file:line:col, its message naming the agent. A file of install's own (every hook
// runs agenthooks) is not read again: install writes it for all of them.
func (c *Config) SharedProblems() srcpos.List {
	var out srcpos.List
	for _, f := range c.Files {
		others := AlsoReadBy(f)
		if len(others) == 0 || allAgenthooks(f) {
			continue
		}
		data, err := readLimited(f.Source.File)
		if err != nil {
			continue // its own reading has said so
		}
		seen := map[string]bool{}
		for _, p := range f.Problems {
			seen[p.Pos.String()+"\x00"+p.Message] = true
		}
		for _, a := range others {
			l, _ := LocationOf(a, f.Source.File)
			src := f.Source
			src.Family = a.Name
			for _, p := range DecodeAs(src, data, l.Format).Problems {
				if seen[p.Pos.String()+"\x00"+p.Message] {
					continue
				}
				seen[p.Pos.String()+"\x00"+p.Message] = true
				if !strings.HasPrefix(p.Message, a.Short) {
					p.Message = a.Short + " reads this file too: " + p.Message
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// allAgenthooks reports whether f has hooks and every one runs agenthooks (install's own file).
func allAgenthooks(f *File) bool {
	for _, h := range f.Hooks {
		if !isAgenthooksCall(h.Command) {
			return false
		}
	}
	return len(f.Hooks) > 0
}

// isAgenthooksCall reports whether command is one call of a program named agenthooks (or
// agenthooks-guard, the shell guard's own binary), as bash
// or PowerShell (& 'C:\…\agenthooks.exe' …, the form install writes for Windows) runs it.
func isAgenthooksCall(command string) bool {
	command = strings.TrimSpace(command)
	if rest, ok := strings.CutPrefix(command, "& "); ok {
		command = rest // PowerShell's call operator
	}
	s := shell.Analyze(command, shell.Options{})
	if len(s.Invocations) != 1 || len(s.Invocations[0].Args) == 0 {
		return false
	}
	return dialect.OwnName(strings.ToLower(s.Invocations[0].Args[0].Value)) != ""
}
