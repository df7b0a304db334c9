package shell

import (
	"errors"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agenthooks/agenthooks/guard/sqlc"
)

// Findings of what a command does to a database.
const (
	// FindingSQLDestroy is a statement or a framework command that destroys data: DROP,
	// TRUNCATE, DELETE without WHERE, FLUSHALL, dropDatabase(), rails db:drop, ...
	FindingSQLDestroy = "sql-destroy"
	// FindingSQLUnknown is SQL handed to a client that cannot be known before it runs.
	FindingSQLUnknown = "sql-unknown"
)

// database judges what a database client or a framework's database command does: its
// statements (from -c, -e, --eval, heredocs, pipes and -f files in the working directory), what
// they run as shell, and the framework commands that reset or drop a database.
func (a *analyzer) database(name string, args []Word, f *frame, ctx *callCtx, inv int) {
	argv := make([]string, len(args))
	for i, w := range args {
		argv[i] = w.Value
	}
	if destructive, why := sqlc.FrameworkCommand(argv); destructive {
		a.find(FindingSQLDestroy, ctx.pos, inv, why)
		return
	}
	stdin, known := "", true
	if ctx.stdin != nil || hasStdinString(ctx.stmt) || hasStdinFile(ctx.stmt) {
		stdin, known, _ = a.stdinText(ctx)
	}
	a.sqlFiles = 0
	texts, dialect, ok := sqlc.FromCommand(name, argv[1:], stdin, known, a.workspaceFile)
	if dialect == "" {
		return
	}
	n := -a.sqlFiles // the files were weighed as they were read
	for _, t := range texts {
		n += len(t.Text)
	}
	if !a.afford(max(n, 0)) {
		a.find(FindingSQLUnknown, ctx.pos, inv, name+" runs more SQL than the guard reads")
		return
	}
	stmts, ok := sqlc.ClassifyTexts(dialect, texts, ok)
	unknown := !ok
	for _, st := range stmts {
		switch {
		case st.Destructive:
			a.find(FindingSQLDestroy, ctx.pos, inv, name+" runs "+clipText(st.Text)+" ("+st.Kind+": "+st.Reason+")")
		case st.Effect == sqlc.Shell:
			if st.ShellOut == "" {
				a.find(FindingDynamicScript, ctx.pos, inv, name+" runs a shell command that is not known until it runs")
			} else {
				a.nested(st.ShellOut, f.with(name+" shell"), ctx)
			}
		case st.Effect == sqlc.Unknown:
			unknown = true
		}
	}
	if unknown {
		a.find(FindingSQLUnknown, ctx.pos, inv, name+" runs statements that cannot be known before they run")
	}
}

// workspaceFile reads a file a database client is handed (-f FILE), from the working directory
// only.
func (a *analyzer) workspaceFile(p string) ([]byte, error) {
	if !path.IsAbs(p) {
		if a.cwd == "" {
			return nil, errors.New("no working directory")
		}
		p = path.Join(a.cwd, p)
	}
	if text, ok := a.written[p]; ok && strings.HasPrefix(p, "/dev/fd/") {
		return []byte(text), nil // psql -f <(echo ...): what the command line printed
	}
	if a.cwd == "" || !strings.HasPrefix(path.Clean(p), a.cwd+"/") {
		return nil, errors.New("outside the working directory")
	}
	text, ok := a.scriptText(Word{Value: p, Static: true})
	if !ok {
		return nil, errors.New("cannot be read")
	}
	if !a.afford(len(text)) {
		return nil, errBudget
	}
	a.sqlFiles += len(text)
	return []byte(text), nil
}

// hasStdinFile reports whether a statement reads stdin from a file (< FILE).
func hasStdinFile(s *syntax.Stmt) bool {
	if s == nil {
		return false
	}
	for _, r := range s.Redirs {
		if r.Op == syntax.RdrIn {
			return true
		}
	}
	return false
}

func clipText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
