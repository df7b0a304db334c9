package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// procSubst names the file a process substitution stands for. When what <(...) prints can be
// computed (echo, printf, a pipeline of text filters), it becomes a file the command line
// wrote, so whatever reads it (python3 <(echo ...), make -f <(printf ...), psql -f <(echo ...),
// sqlite3 db < <(echo ...)) is judged by its text; otherwise, and for >(...), it is a file
// not known until it runs.
func (a *analyzer) procSubst(ps *syntax.ProcSubst) (string, error) {
	if ps.Op != syntax.CmdIn {
		return "/dev/fd/" + Dyn, nil
	}
	if p, ok := a.substFiles[ps]; ok {
		return p, nil
	}
	text, ok := a.substText(ps.Stmts)
	if !ok || strings.Contains(text, Dyn) || len(a.substFiles) >= 64 {
		return "/dev/fd/" + Dyn, nil
	}
	if a.substFiles == nil {
		a.substFiles = map[*syntax.ProcSubst]string{}
	}
	if a.written == nil {
		a.written = map[string]string{}
	}
	p := "/dev/fd/" + strconv.Itoa(63-len(a.substFiles))
	for a.written[p] != "" {
		p += "_"
	}
	a.substFiles[ps] = p
	a.written[p] = text
	return p, nil
}

// isProcSubst reports whether a word is a process substitution reading what it prints, <(...).
func isProcSubst(w Word) bool { return strings.HasPrefix(w.Raw, "<(") }
