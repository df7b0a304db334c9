package winshell

import (
	"fmt"
	"strings"
)

// Markers around the text of a %VAR% whose value is not known: the word holding it is dynamic.
const (
	dynOpen  = "\uE000"
	dynClose = "\uE001"
)

// cmdp reads one cmd.exe text, after %VAR% expansion.
type cmdp struct {
	r     *reader
	s     string
	i     int
	ls    lines  // of the text as given
	spans []span // where expansion moved offsets
	depth int
	nest  int
	top   *Script
}

// span says that from offset exp of the expanded text on, offsets are orig - exp further in the
// text as given.
type span struct{ exp, orig int }

func (r *reader) nestedCmd(sc *Script, text, via string, depth int, pos Pos) {
	if !r.nestedOK(sc, depth, pos) {
		return
	}
	child := Script{Shell: Cmd, Via: via, At: pos}
	r.parseCmd(&child, text, depth)
	sc.Nested = append(sc.Nested, child)
}

func (r *reader) parseCmd(sc *Script, text string, depth int) {
	if !r.budgetOK(len(text)) {
		if !r.tooDeep {
			r.tooDeep = true
			r.fail(sc, FindingTooDeep, Pos{1, 1}, Cmd, "the command holds more nested text than the guard reads")
		}
		return
	}
	s, spans := r.expandPercent(text)
	p := &cmdp{r: r, s: s, ls: newLines(text), spans: spans, depth: depth, top: sc}
	p.lines(sc, false, 0)
}

// expandPercent replaces %VAR% as cmd does before it parses a line: known variables by their
// values, the others (and %1, %~dp0, %%i, %VAR:~0,3%) kept as written between markers.
func (r *reader) expandPercent(text string) (string, []span) {
	if strings.ContainsAny(text, dynOpen+dynClose) {
		// same length: positions hold
		text = strings.NewReplacer(dynOpen, "\uFFFD", dynClose, "\uFFFD").Replace(text)
	}
	if !strings.ContainsAny(text, "%!") {
		return text, nil
	}
	var b strings.Builder
	var spans []span
	mark := func(i int) { // the original offset i now continues at b.Len()
		if b.Len() != i || len(spans) > 0 {
			spans = append(spans, span{exp: b.Len(), orig: i})
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c == '!' {
			// !VAR! delayed expansion: dynamic when enabled, and it may be
			if end := strings.IndexAny(text[i+1:], "!\r\n"); end > 0 && text[i+1+end] == '!' && !strings.ContainsAny(text[i+1:i+1+end], " \t") {
				b.WriteString(dynOpen + text[i:i+2+end] + dynClose)
				i += 2 + end
				mark(i)
				continue
			}
			b.WriteByte(c)
			i++
			continue
		}
		if c != '%' {
			b.WriteByte(c)
			i++
			continue
		}
		rest := text[i+1:]
		switch {
		case strings.HasPrefix(rest, "%"): // %%i, %%~nxi: a for variable in a batch file
			j := i + 2
			if j < len(text) && text[j] == '~' {
				for j < len(text) && text[j] != ' ' && !isWordByte(text[j]) || j < len(text) && strings.IndexByte("~fdpnxsatz$", text[j]) >= 0 && j+1 < len(text) && isWordByte(text[j+1]) {
					j++
				}
			}
			if j < len(text) {
				j++
			}
			b.WriteString(dynOpen + text[i:j] + dynClose)
			i = j
			mark(i)
			continue
		case len(rest) > 0 && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == '*'):
			b.WriteString(dynOpen + text[i:i+2] + dynClose)
			i += 2
			mark(i)
			continue
		case strings.HasPrefix(rest, "~"):
			j := i + 2
			for j < len(text) && (isWordByte(text[j]) || text[j] == '$' || text[j] == ':') && !(text[j] >= '0' && text[j] <= '9') {
				j++
			}
			if j < len(text) && (text[j] >= '0' && text[j] <= '9' || text[j] == '*') {
				j++
			}
			b.WriteString(dynOpen + text[i:j] + dynClose)
			i = j
			mark(i)
			continue
		}
		end := strings.IndexAny(rest, "%\r\n")
		if end > 0 && rest[end] == '%' {
			name := rest[:end]
			if strings.EqualFold(name, "homedrive") && len(rest) >= end+11 && strings.EqualFold(rest[end+1:end+11], "%homepath%") {
				b.WriteString(r.home) // %HOMEDRIVE%%HOMEPATH%
				i += end + 12
				mark(i)
				continue
			}
			if v, ok := r.envVar(name); ok && !strings.Contains(name, ":") {
				b.WriteString(v)
			} else if strings.EqualFold(name, "cd") {
				b.WriteString(".")
			} else if isWordByte(rest[0]) && strings.ContainsAny(name, " \t()") {
				// no variable is named "d in (": %d is a for variable typed at the prompt and
				// the % after it opens the next name (for %d in (%USERPROFILE%\*) do ...)
				b.WriteString(dynOpen + text[i:i+2] + dynClose)
				i += 2
				mark(i)
				continue
			} else {
				b.WriteString(dynOpen + text[i:i+end+2] + dynClose)
			}
			i += end + 2
			mark(i)
			continue
		}
		if len(rest) > 0 && isWordByte(rest[0]) {
			// %i: a for variable typed at the prompt
			b.WriteString(dynOpen + text[i:i+2] + dynClose)
			i += 2
			mark(i)
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), spans
}

func (p *cmdp) eof() bool { return p.i >= len(p.s) }

func (p *cmdp) at(off int) byte {
	if p.i+off < len(p.s) && p.i+off >= 0 {
		return p.s[p.i+off]
	}
	return 0
}

func (p *cmdp) has(s string) bool { return strings.HasPrefix(p.s[p.i:], s) }

// pos maps an offset of the expanded text to a position in the text as given.
func (p *cmdp) pos(off int) Pos {
	lo, hi := -1, len(p.spans)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if p.spans[m].exp <= off {
			lo = m
		} else {
			hi = m
		}
	}
	if lo >= 0 {
		off += p.spans[lo].orig - p.spans[lo].exp
	}
	return p.ls.pos(off)
}

func (p *cmdp) fail(kind string, off int, msg string) {
	p.r.fail(p.top, kind, p.pos(off), Cmd, msg)
}

func (p *cmdp) abort() { p.i = len(p.s) }

func (p *cmdp) skipBlanks() {
	for !p.eof() && isSpace(p.s[p.i]) {
		p.i++
	}
}

// lines reads commands joined by & && || | and newlines, until the end of the text or, in a
// block, its closing parenthesis.
func (p *cmdp) lines(sc *Script, block bool, open int) {
	var prev *Command
	for {
		for !p.eof() && (isSpace(p.s[p.i]) || p.s[p.i] == ';' || p.s[p.i] == ',' || p.s[p.i] == '=' || p.s[p.i] == '@') {
			p.i++
		}
		if p.eof() {
			if block && !p.r.tooDeep {
				p.fail(FindingParse, open, "missing closing ')'")
			}
			return
		}
		c := p.s[p.i]
		switch {
		case c == '\n' || c == '\r':
			p.i++
			prev = nil
			continue
		case c == ')':
			p.i++
			if block {
				return
			}
			continue
		case c == ':':
			p.skipLine() // a label, or a :: comment
			continue
		}
		start := p.i
		cmd := p.command(sc, block, prev)
		p.skipBlanks()
		prev = nil
		switch {
		case p.has("&&") || p.has("||"):
			p.i += 2
		case p.has("|"):
			p.i++
			prev = cmd
		case p.has("&"):
			p.i++
		}
		if p.i == start {
			p.i++
		}
	}
}

func (p *cmdp) skipLine() {
	end := strings.IndexAny(p.s[p.i:], "\r\n")
	if end < 0 {
		p.abort()
		return
	}
	p.i += end
}

// word is one word of a cmd command line.
type word struct {
	value, raw string
	static     bool
	quoted     bool // some part was quoted
	off        int
}

// atOp reports whether an operator or the end of the command is at p.i.
func (p *cmdp) atOp(block bool) bool {
	if p.eof() {
		return true
	}
	switch p.s[p.i] {
	case '&', '|', '\n', '\r':
		return true
	case ')':
		return block
	}
	return false
}

// redirect reads a redirection at p.i: [n]> [n]>> < >&n [n]>&m.
func (p *cmdp) redirect() (string, bool) {
	j := p.i
	if j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' && j+1 < len(p.s) && (p.s[j+1] == '>' || p.s[j+1] == '<') {
		j++
	}
	if j >= len(p.s) || (p.s[j] != '>' && p.s[j] != '<') {
		return "", false
	}
	j++
	if j < len(p.s) && p.s[j] == '>' && p.s[j-1] == '>' {
		j++
	}
	if j+1 < len(p.s) && p.s[j] == '&' && p.s[j+1] >= '0' && p.s[j+1] <= '9' {
		j += 2
	}
	op := p.s[p.i:j]
	p.i = j
	return op, true
}

// word reads one word: quotes group blanks and operators, ^ escapes the next byte (and joins
// lines), builtins also split at , ; =.
func (p *cmdp) word(block, builtin bool) word {
	w := word{static: true, off: p.i}
	var v, raw strings.Builder
	quoted := false
	for !p.eof() {
		c := p.s[p.i]
		if strings.HasPrefix(p.s[p.i:], dynOpen) || strings.HasPrefix(p.s[p.i:], dynClose) {
			w.static = false
			p.i += len(dynOpen)
			continue
		}
		if quoted {
			if c == '"' {
				quoted = false
				raw.WriteByte(c)
				p.i++
				continue
			}
			if c == '\n' || c == '\r' {
				break
			}
			v.WriteByte(c)
			raw.WriteByte(c)
			p.i++
			continue
		}
		if c == '"' {
			quoted, w.quoted = true, true
			raw.WriteByte(c)
			p.i++
			continue
		}
		if c == '^' {
			p.i++
			if p.eof() {
				break
			}
			if p.s[p.i] == '\r' {
				p.i++
			}
			if !p.eof() && p.s[p.i] == '\n' {
				p.i++ // line continuation
				continue
			}
			if !p.eof() {
				v.WriteByte(p.s[p.i])
				raw.WriteByte(p.s[p.i])
				p.i++
			}
			continue
		}
		if isSpace(c) || p.atOp(block) || c == '<' || c == '>' || builtin && (c == ',' || c == ';' || c == '=') {
			break
		}
		v.WriteByte(c)
		raw.WriteByte(c)
		p.i++
	}
	w.value, w.raw = v.String(), raw.String()
	return w
}

// words reads the words and redirections of a command up to its operator.
func (p *cmdp) words(block, builtin bool) ([]word, []Redirect) {
	var ws []word
	var rs []Redirect
	for {
		p.skipBlanks()
		if builtin {
			for !p.eof() && (p.s[p.i] == ',' || p.s[p.i] == ';' || p.s[p.i] == '=') {
				p.i++
				p.skipBlanks()
			}
		}
		if p.atOp(block) {
			return ws, rs
		}
		if op, ok := p.redirect(); ok {
			r := Redirect{Op: op}
			if !strings.Contains(op, "&") {
				p.skipBlanks()
				if !p.atOp(block) {
					t := p.word(block, false)
					r.Target = Arg{Value: t.value, Static: t.static, Raw: t.raw}
				}
			}
			rs = append(rs, r)
			if len(rs)&63 == 63 && !p.r.wordsOK(p.top, len(ws)+len(rs), p.pos(p.i)) {
				p.abort()
				return ws, rs
			}
			continue
		}
		if len(ws)&63 == 63 && !p.r.wordsOK(p.top, len(ws)+len(rs), p.pos(p.i)) {
			p.abort()
			return ws, rs
		}
		start := p.i
		w := p.word(block, builtin)
		if p.i == start {
			p.i++
			continue
		}
		ws = append(ws, w)
	}
}

// redirects reads the redirections that follow a block, and nothing else.
func (p *cmdp) redirects(block bool) []Redirect {
	var rs []Redirect
	for {
		p.skipBlanks()
		if p.atOp(block) {
			return rs
		}
		op, ok := p.redirect()
		if !ok {
			return rs
		}
		r := Redirect{Op: op}
		if !strings.Contains(op, "&") {
			p.skipBlanks()
			if !p.atOp(block) {
				t := p.word(block, false)
				r.Target = Arg{Value: t.value, Static: t.static, Raw: t.raw}
			}
		}
		rs = append(rs, r)
	}
}

// isBuiltin reports whether name is a cmd built-in that splits its arguments at , ; = too.
func isBuiltin(name string) bool {
	switch name {
	case "del", "erase", "rd", "rmdir", "dir", "copy", "move", "md", "mkdir", "ren", "rename", "type", "cd", "chdir", "pushd":
		return true
	}
	return false
}

// command reads one command (a block, if, for, rem, start, call, or a plain command) and
// returns the plain command it added, if any.
func (p *cmdp) command(sc *Script, block bool, prev *Command) *Command {
	p.skipBlanks()
	if p.eof() {
		return nil
	}
	start := p.i
	if p.s[p.i] == '(' {
		p.i++
		if !p.enter(start) {
			return nil
		}
		p.lines(sc, true, start)
		p.nest--
		p.addBlockRedirects(sc, p.redirects(block), start)
		return nil
	}
	// the command name ends at blanks, operators and, unquoted, at / (rd/s/q)
	first := p.word(block, false)
	if first.value == "" && !first.quoted {
		p.i = start
		if _, ok := p.redirect(); ok { // >file command
			p.i = start
			rs := p.redirects(block)
			if c := p.command(sc, block, prev); c != nil {
				c.Redirects = append(rs, c.Redirects...)
				return c
			}
			p.addBlockRedirects(sc, rs, start)
		}
		return nil
	}
	nameVal, nameRaw := first.value, first.raw
	var glued []word
	if !first.quoted {
		if k := strings.IndexByte(nameVal, '/'); k > 0 {
			glued = append(glued, word{value: nameVal[k:], raw: nameVal[k:], static: first.static, off: first.off + k})
			nameVal, nameRaw = nameVal[:k], nameVal[:k]
		}
	}
	lname := strings.ToLower(nameVal)
	switch lname {
	case "rem":
		p.skipLine()
		return nil
	case "if", "for":
		if !p.enter(start) {
			return nil
		}
		if lname == "if" {
			p.ifCmd(sc, block)
		} else {
			p.forCmd(sc, block)
		}
		p.nest--
		return nil
	}
	ws, rs := p.words(block, isBuiltin(lname))
	ws = append(glued, ws...)
	c := &Command{Name: canonName(nameVal, Cmd), Raw: nameRaw, Shell: Cmd, Redirects: rs, Pos: p.pos(start), Input: prev}
	if !first.static {
		c.Name = ""
		p.r.find(sc, FindingDynamicName, c.Pos, fmt.Sprintf("the command name %s is known only when it runs", nameRaw))
	}
	for _, w := range ws {
		c.Args = append(c.Args, Arg{Value: w.value, Static: w.static, Raw: w.raw})
	}
	markSwitches(c)
	switch lname {
	case "start":
		p.add(sc, c)
		p.startCmd(sc, c)
		return &sc.Commands[len(sc.Commands)-1]
	case "call":
		p.add(sc, c)
		if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0].Value, ":") {
			p.sub(sc, c, c.Args, "call")
		}
		return &sc.Commands[len(sc.Commands)-1]
	}
	p.r.dispatch(sc, c, p.depth)
	if !p.add(sc, c) {
		return nil
	}
	return &sc.Commands[len(sc.Commands)-1]
}

// enter counts one more level of blocks, if and for; false (and the text abandoned) past
// MaxNesting.
func (p *cmdp) enter(off int) bool {
	p.nest++
	if p.nest > MaxNesting {
		if !p.r.tooDeep {
			p.r.tooDeep = true
			p.fail(FindingTooDeep, off, fmt.Sprintf("blocks, if and for nested more than %d deep", MaxNesting))
		}
		p.abort()
		return false
	}
	return true
}

func (p *cmdp) add(sc *Script, c *Command) bool {
	if !p.r.addCommand(sc, *c) {
		p.abort()
		return false
	}
	return true
}

// addBlockRedirects records the redirections of a parenthesised block as a command of its own.
func (p *cmdp) addBlockRedirects(sc *Script, rs []Redirect, start int) {
	if len(rs) > 0 {
		p.add(sc, &Command{Name: "()", Raw: "()", Shell: Cmd, Redirects: rs, Pos: p.pos(start)})
	}
}

// sub adds the command that start or call runs: args[0] is the program.
func (p *cmdp) sub(sc *Script, c *Command, args []Arg, via string) {
	if len(args) == 0 {
		return
	}
	s := &Command{Name: canonName(args[0].Value, Cmd), Raw: args[0].Value, Shell: Cmd, Args: args[1:], Via: via, Pos: c.Pos}
	if !args[0].Static {
		s.Name = ""
		p.r.find(sc, FindingDynamicName, c.Pos, fmt.Sprintf("%s of a program known only when it runs", via))
	}
	markSwitches(s)
	p.r.dispatch(sc, s, p.depth)
	p.add(sc, s)
}

// startCmd reads start ["title"] [/switches] program args.
func (p *cmdp) startCmd(sc *Script, c *Command) {
	args := c.Args
	i := 0
	if i < len(args) && strings.HasPrefix(args[i].Raw, `"`) {
		i++ // the title
	}
	for i < len(args) && strings.HasPrefix(args[i].Value, "/") {
		switch strings.ToLower(args[i].Value) {
		case "/d", "/affinity", "/node":
			i++
		}
		i++
	}
	if i < len(args) {
		rest := make([]Arg, len(args)-i)
		copy(rest, args[i:])
		for k := range rest {
			rest[k].Param = false
		}
		p.sub(sc, c, rest, "start")
	}
}

// ifCmd reads if [/i] [not] condition command [else command].
func (p *cmdp) ifCmd(sc *Script, block bool) {
	next := func() string {
		p.skipBlanks()
		if p.atOp(block) {
			return ""
		}
		return strings.ToLower(p.word(block, false).value)
	}
	w := next()
	if w == "/i" {
		w = next()
	}
	if w == "not" {
		w = next()
	}
	switch {
	case w == "exist" || w == "defined" || w == "errorlevel" || w == "cmdextversion":
		next()
	case strings.Contains(w, "==") && !strings.HasSuffix(w, "=="):
	case strings.HasSuffix(w, "=="):
		next()
	default:
		p.skipBlanks()
		save := p.i
		op := next()
		switch {
		case op == "==" || op == "equ" || op == "neq" || op == "lss" || op == "leq" || op == "gtr" || op == "geq":
			next()
		case strings.HasPrefix(op, "=="):
		default:
			p.i = save
		}
	}
	p.command(sc, block, nil)
	p.skipBlanks()
	if p.eof() {
		return
	}
	if strings.HasPrefix(strings.ToLower(p.s[p.i:]), "else") && (p.i+4 >= len(p.s) || isSpace(p.s[p.i+4]) || p.s[p.i+4] == '(') {
		p.i += 4
		p.command(sc, block, nil)
	}
}

// forCmd reads for [/d] [/r [dir]] [/l] [/f ["options"]] %%v in (set) do command; the set of
// for /f may be a command ('...', or `...` with usebackq), read as a nested script.
func (p *cmdp) forCmd(sc *Script, block bool) {
	f, backq, numbers := false, false, false
	forVar := ""
	for {
		p.skipBlanks()
		if p.atOp(block) {
			return
		}
		before := p.i
		w := p.word(block, false)
		if p.i == before {
			p.i++ // < or >: not a word, and no progress otherwise
			continue
		}
		lw := strings.ToLower(w.value)
		if lw == "/f" {
			f = true
		}
		if lw == "/l" {
			numbers = true
		}
		if strings.Contains(w.value, "%") {
			forVar = w.value
		}
		if strings.Contains(lw, "usebackq") {
			backq = true
		}
		if lw == "in" {
			break
		}
	}
	p.skipBlanks()
	if p.eof() || p.s[p.i] != '(' {
		return
	}
	open := p.i
	depth := 0
	var q byte
	j := p.i
	for ; j < len(p.s); j++ {
		c := p.s[j]
		if q != 0 {
			if c == q {
				q = 0
			}
			continue
		}
		switch c {
		case '"', '\'', '`':
			q = c
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(p.s) {
		p.fail(FindingParse, open, "for: missing closing ')' of the set")
		p.abort()
		return
	}
	set := strings.TrimSpace(p.s[open+1 : j])
	p.i = j + 1
	if f && len(set) >= 2 {
		qc := byte('\'')
		if backq {
			qc = '`'
		}
		if set[0] == qc && set[len(set)-1] == qc {
			p.r.nestedCmd(sc, set[1:len(set)-1], "for /f", p.depth+1, p.pos(open))
		}
	}
	p.skipBlanks()
	if strings.HasPrefix(strings.ToLower(p.s[p.i:]), "do") {
		p.i += 2
		start := p.i
		p.command(sc, block, nil)
		if !f && !numbers && forVar != "" {
			p.forEach(sc, forVar, set, p.s[start:p.i], open)
		}
	}
}

// forEach reads a for loop's body once more for each item of a set cmd knows before it runs
// (names, paths, wildcards: for /d %d in (%USERPROFILE%\*) do rd /s /q %d removes every folder
// in home), with the loop variable replaced by the item; a wildcard stands for everything it
// matches, as it does in rd or del. Sets of more than 16 items are read by their first 16.
func (p *cmdp) forEach(sc *Script, forVar, set, body string, open int) {
	if strings.ContainsAny(set, dynOpen+dynClose) || !strings.Contains(body, forVar) {
		return
	}
	items := strings.FieldsFunc(set, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == ';' })
	if len(items) > 16 {
		items = items[:16]
	}
	plain := strings.NewReplacer(dynOpen, "", dynClose, "")
	for _, item := range items {
		text := plain.Replace(strings.ReplaceAll(body, forVar, item))
		p.r.nestedCmd(sc, text, "for", p.depth+1, p.pos(open))
	}
}

// shortSwitches reports whether parts are the letters of glued switches (/s/q, /f/t/im).
func shortSwitches(parts []string) bool {
	if len(parts) > 16 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 {
			return false
		}
	}
	return true
}

// markSwitches marks cmd switches (/S) as parameters and splits glued ones (/S/Q) for the
// built-ins and the system tools that take them.
func markSwitches(c *Command) {
	split := false
	switch c.Name {
	case "del", "rmdir", "dir", "copy", "move", "xcopy", "robocopy", "taskkill", "shutdown", "format", "reg",
		"vssadmin", "wbadmin", "bcdedit", "cipher", "attrib", "mkdir", "cmd", "schtasks", "wevtutil", "takeown":
		split = true
	}
	var out []Arg
	for _, a := range c.Args {
		if a.Static && len(a.Value) >= 2 && a.Value[0] == '/' && !strings.HasPrefix(a.Raw, `"`) {
			parts := strings.SplitN(a.Value[1:], "/", 18)
			if split && len(parts) > 1 && !strings.Contains(a.Value, ":") && shortSwitches(parts) {
				for _, part := range parts {
					out = append(out, Arg{Value: "/" + part, Static: true, Param: true, Raw: "/" + part})
				}
				continue
			}
			if len(parts) == 1 && (split || len(a.Value) <= 4) && len(a.Value) <= 16 {
				a.Param = true
			}
		}
		out = append(out, a)
	}
	c.Args = out
}
