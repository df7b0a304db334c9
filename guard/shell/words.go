package shell

import (
	"io"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// env is the expander's view of variables: those assigned earlier in the command line, HOME and
// PWD from the options; anything else is dynamic, never empty (an unset $X must not turn
// `rm -rf $X/` into `rm -rf /`).
type env struct{ a *analyzer }

func (e env) Get(name string) expand.Variable {
	switch name {
	case "IFS":
		if v, ok := e.a.vars[name]; ok && !strings.Contains(v, Dyn) {
			return str(v)
		}
		return expand.Variable{}
	case "@", "*":
		if e.a.params != nil {
			return expand.Variable{Set: true, Kind: expand.Indexed, List: e.a.params}
		}
	case "?":
		// the last exit status: a number from 0 to 255, which no value can turn into a path, a
		// word break or shell syntax; `ssh host "make; echo $?"` runs a script known but for it
		return str("0")
	case "#":
		if e.a.params != nil {
			return str(strconv.Itoa(len(e.a.params)))
		}
	case "HOME":
		if v, ok := e.a.vars[name]; ok {
			return str(v)
		}
		if e.a.opts.Home != "" {
			return str(e.a.opts.Home)
		}
	case "USER", "LOGNAME":
		// the user whose home the guard was given, as whoami answers
		if v, ok := e.a.vars[name]; ok {
			return str(v)
		}
		if e.a.opts.Home != "" {
			return str(path.Base(e.a.opts.Home))
		}
	case "PWD":
		if v, ok := e.a.vars[name]; ok {
			return str(v)
		}
		if e.a.cwd != "" {
			return str(e.a.cwd)
		}
	default:
		if v, ok := e.a.arrayVar(name); ok {
			return v
		}
		if v, ok := e.a.vars[name]; ok {
			return str(v)
		}
	}
	return str(Dyn)
}

func (e env) Each(fn func(name string, vr expand.Variable) bool) {
	for k, v := range e.a.vars {
		if !fn(k, str(v)) {
			return
		}
	}
}

func str(v string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: v}
}

// config is the analysis's expander; it reads variables and the directory live, so one serves
// the whole analysis.
func (a *analyzer) config() *expand.Config {
	if a.cfg != nil {
		return a.cfg
	}
	a.cfg = &expand.Config{
		Env: env{a},
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			if a.cwd != "" && isPwd(cs.Stmts) {
				_, err := io.WriteString(w, a.cwd)
				return err
			}
			if text, ok := a.substText(cs.Stmts); ok && !strings.Contains(text, Dyn) {
				_, err := io.WriteString(w, strings.TrimRight(text, "\n"))
				return err
			}
			if dir := mktempDir(cs.Stmts); dir != "" {
				// a new, empty file or folder in the temporary folder
				_, err := io.WriteString(w, path.Join(dir, "tmp.mktemp"))
				return err
			}
			if name := lookupOf(cs.Stmts); name != "" && a.opts.LookPath != nil {
				if p := a.opts.LookPath(name); p != "" {
					_, err := io.WriteString(w, p)
					return err
				}
			}
			_, err := io.WriteString(w, Dyn)
			return err
		},
		ProcSubst: a.procSubst,
	}
	return a.cfg
}

// isPwd reports whether stmts is just `pwd` (or `pwd -L` / `pwd -P`).
func isPwd(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 {
		return false
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(c.Args) > 2 || c.Args[0].Lit() != "pwd" {
		return false
	}
	return len(c.Args) == 1 || c.Args[1].Lit() == "-L" || c.Args[1].Lit() == "-P"
}

// mktempDir returns the folder mktemp makes its file or folder in when stmts is just mktemp
// with literal arguments: -p DIR, --tmpdir=DIR, or /tmp. A template with a folder in it, or
// anything else, gives "".
func mktempDir(stmts []*syntax.Stmt) string {
	if len(stmts) != 1 || len(stmts[0].Redirs) > 0 {
		return ""
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || c.Args[0].Lit() != "mktemp" {
		return ""
	}
	dir := "/tmp"
	for i := 1; i < len(c.Args); i++ {
		v := c.Args[i].Lit()
		switch {
		case v == "":
			return ""
		case v == "-p" || v == "--tmpdir":
			if i+1 >= len(c.Args) || c.Args[i+1].Lit() == "" {
				return ""
			}
			dir = c.Args[i+1].Lit()
			i++
		case strings.HasPrefix(v, "--tmpdir="):
			dir = strings.TrimPrefix(v, "--tmpdir=")
		case strings.HasPrefix(v, "-"):
		case strings.Contains(v, "/"):
			return ""
		}
	}
	if !path.IsAbs(dir) {
		return ""
	}
	return path.Clean(dir)
}

// lookupOf returns NAME when stmts is just a lookup of a program in PATH: `which NAME`,
// `command -v NAME`, `type -p NAME` or `type -P NAME`.
func lookupOf(stmts []*syntax.Stmt) string {
	if len(stmts) != 1 || len(stmts[0].Redirs) > 0 {
		return ""
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return ""
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		if words[i] = w.Lit(); words[i] == "" {
			return ""
		}
	}
	switch {
	case len(words) == 2 && words[0] == "which":
		return words[1]
	case len(words) == 3 && (words[0] == "command" && words[1] == "-v" || words[0] == "type" && (words[1] == "-p" || words[1] == "-P")):
		return words[2]
	}
	return ""
}

// fields resolves words as bash would split them into arguments.
func (a *analyzer) fields(words []*syntax.Word) []Word {
	out := make([]Word, 0, len(words))
	cfg := a.config()
	for _, w := range words {
		raw := a.source(w)
		w = extGlobAsStar(w)
		glob := hasGlob(w)
		var fs []string
		var err error
		var one [1]string
		if v, ok := plainLiteral(w); ok {
			one[0] = v // what expand.Fields gives it, without its allocations
			fs = one[:]
		} else {
			fs, err = expand.Fields(cfg, w)
		}
		if err != nil {
			out = append(out, Word{Value: Dyn, Raw: raw})
			continue
		}
		if len(fs) == 0 && strings.Contains(raw, "$") {
			// An expansion that vanished: only a known-empty variable does that.
			continue
		}
		for _, v := range fs {
			if strings.HasPrefix(v, Dyn) {
				v = a.tildeForm(raw, v)
			}
			out = append(out, Word{Value: v, Static: !strings.Contains(v, Dyn), Glob: glob || a.globVals[v], Raw: raw})
		}
	}
	return out
}

// plainLiteral returns the value of a word that is one literal with nothing for expansion to do:
// no tilde at its start, no backslash, no brace. expand.Fields gives such a word as the one
// field of its value (the guard's expander reads no directory, so a glob stays as written);
// TestPlainLiteralAsFields and FuzzPlainLiteralAsFields hold the two equal.
func plainLiteral(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.HasPrefix(l.Value, "~") || strings.ContainsAny(l.Value, `\{`) {
		return "", false
	}
	return l.Value, true
}

// tildeForm resolves the tilde forms the expander leaves unknown: ~+ is the working directory,
// and ~USER the home folder when USER is its owner's name.
func (a *analyzer) tildeForm(raw, v string) string {
	head, rest, _ := strings.Cut(raw, "/")
	var dir string
	switch {
	case head == "~+" && a.cwd != "":
		dir = a.cwd
	case a.opts.Home != "" && head == "~"+path.Base(a.opts.Home):
		dir = a.opts.Home
	default:
		return v
	}
	if strings.ContainsAny(rest, "$`*?[") {
		return v
	}
	if rest == "" {
		return dir
	}
	return path.Join(dir, rest)
}

// literal resolves a word without splitting, as in an assignment or a redirection: with its
// unquoted backslashes removed and ~USER resolved, as bash does (> .claude/settings\.json and
// > ~dev/.bashrc write .claude/settings.json and ~/.bashrc; expand.Literal leaves both as written).
func (a *analyzer) literal(w *syntax.Word) Word {
	raw := a.source(w)
	v, err := expand.Literal(a.config(), unescaped(w))
	if err != nil {
		return Word{Value: Dyn, Raw: raw}
	}
	if strings.HasPrefix(raw, "~") && (strings.HasPrefix(v, "~") || strings.HasPrefix(v, Dyn)) {
		v = a.tildeForm(raw, v)
	}
	return Word{Value: v, Static: !strings.Contains(v, Dyn), Glob: hasGlob(w) || a.globVals[v], Raw: raw}
}

// unescaped is w with the backslashes of its unquoted literal parts removed, as bash's quote
// removal does; a leading \~ stays a literal ~ (quoted), which no tilde expansion takes.
func unescaped(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	tilde := false
	for i, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok || !strings.Contains(l.Value, `\`) {
			continue
		}
		if parts == nil {
			parts = append([]syntax.WordPart(nil), w.Parts...)
		}
		var b strings.Builder
		for j := 0; j < len(l.Value); j++ {
			if l.Value[j] == '\\' && j+1 < len(l.Value) {
				j++
			}
			b.WriteByte(l.Value[j])
		}
		c := *l
		c.Value = b.String()
		parts[i] = &c
		if i == 0 && strings.HasPrefix(l.Value, `\~`) {
			c.Value = c.Value[1:]
			tilde = true
		}
	}
	if parts == nil {
		return w
	}
	if tilde {
		parts = append([]syntax.WordPart{&syntax.SglQuoted{Value: "~"}}, parts...)
	}
	return &syntax.Word{Parts: parts}
}

// document resolves a heredoc body (expanded unless its delimiter was quoted).
func (a *analyzer) document(r *syntax.Redirect) Word {
	if r.Hdoc == nil {
		return Word{Value: "", Static: true} // an empty body
	}
	if quotedDelim(r.Word) {
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			}
		}
		return Word{Value: b.String(), Static: true}
	}
	v, err := expand.Document(a.config(), r.Hdoc)
	if err != nil {
		return Word{Value: Dyn}
	}
	return Word{Value: v, Static: !strings.Contains(v, Dyn)}
}

func quotedDelim(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.(*syntax.Lit).Value, `\`) {
				return true
			}
		}
	}
	return false
}

// hasGlob reports whether a word has unquoted glob characters.
// extGlobAsStar returns w with each extended glob (bash's *(x), ?(x), +(x), @(x), !(x); the
// parser reads zsh's glob qualifiers, ~/*(D), the same way) as a plain *: it matches no name
// that * does not, and a delete of ~/*(D) is a delete of everything in the home folder.
func extGlobAsStar(w *syntax.Word) *syntax.Word {
	found := false
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.ExtGlob); ok {
			found = true
			break
		}
	}
	if !found {
		return w
	}
	out := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		if g, ok := p.(*syntax.ExtGlob); ok {
			p = &syntax.Lit{ValuePos: g.Pos(), ValueEnd: g.End(), Value: "*"}
		}
		out.Parts[i] = p
	}
	return out
}

func hasGlob(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(unescapeLit(l.Value), "*?[") {
			return true
		}
	}
	return false
}

func unescapeLit(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			continue // an escaped character is not a glob
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// source returns a node's text in the script being analysed.
func (a *analyzer) source(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(a.src) || start > end {
		return ""
	}
	return a.src[start:end]
}
