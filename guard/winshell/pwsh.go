package winshell

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// psp reads one PowerShell text.
type psp struct {
	r     *reader
	src   string
	i     int
	ls    lines
	depth int // nested shells
	nest  int // brackets
	top   *Script
	pipe  *pipeState
	dl    int // downloads seen so far in this text
	// vars holds the variables this text assigned a literal to ($p = 'C:\'), lower case;
	// aliases the aliases it defined (Set-Alias x Remove-Item).
	vars, aliases map[string]string
}

// pipeState is what a pipeline knows of its previous element.
type pipeState struct {
	dlStart        int // p.dl when the pipeline started
	cmd, prevCmd   *Command
	lits, prevLits []Arg // the element was only string literals
}

func (r *reader) parsePS(sc *Script, text string, depth int) {
	if !r.budgetOK(len(text)) {
		if !r.tooDeep {
			r.tooDeep = true
			r.fail(sc, FindingTooDeep, Pos{1, 1}, PowerShell, "the command holds more nested text than the guard reads")
		}
		return
	}
	p := &psp{r: r, src: text, ls: newLines(text), depth: depth, top: sc}
	p.statements(sc, 0, false, 0)
}

// nestedPS reads text, handed to a nested PowerShell, into a new script nested in sc.
func (r *reader) nestedPS(sc *Script, text, via string, depth int, pos Pos) {
	if !r.nestedOK(sc, depth, pos) {
		return
	}
	child := Script{Shell: PowerShell, Via: via, At: pos}
	r.parsePS(&child, text, depth)
	sc.Nested = append(sc.Nested, child)
}

func (p *psp) pos(off int) Pos { return p.ls.pos(off) }

func (p *psp) fail(kind string, off int, msg string) {
	p.r.fail(p.top, kind, p.pos(off), PowerShell, msg)
}

// abort stops reading this text.
func (p *psp) abort() { p.i = len(p.src) }

func (p *psp) eof() bool { return p.i >= len(p.src) }

func (p *psp) at(off int) byte {
	if p.i+off < len(p.src) && p.i+off >= 0 {
		return p.src[p.i+off]
	}
	return 0
}

func (p *psp) has(s string) bool { return strings.HasPrefix(p.src[p.i:], s) }

// quoteAt classifies the rune at i: '\” for the single quotes (' ‘ ’ ‚ ‛), '"' for the
// double quotes (" “ ” „), '-' for the dashes (- – — ―), else 0; and its size.
func quoteAt(s string, i int) (byte, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch c {
		case '\'', '"', '-':
			return c, 1
		}
		return 0, 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '\u2018', '\u2019', '\u201a', '\u201b':
		return '\'', n
	case '\u201c', '\u201d', '\u201e':
		return '"', n
	case '\u2013', '\u2014', '\u2015':
		return '-', n
	}
	return 0, n
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= utf8.RuneSelf
}

// skipSpace skips blanks, line continuations and comments, not newlines.
func (p *psp) skipSpace() {
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case isSpace(c) || c == 0xa0:
			p.i++
		case c == 0xc2 && p.at(1) == 0xa0: // no-break space
			p.i += 2
		case c == '`' && (p.at(1) == '\n' || p.at(1) == '\r'):
			p.i += 2
			if p.at(-1) == '\r' && p.at(0) == '\n' {
				p.i++
			}
		case c == '<' && p.at(1) == '#':
			end := strings.Index(p.src[p.i+2:], "#>")
			if end < 0 {
				p.fail(FindingParse, p.i, "unterminated <# comment")
				p.abort()
				return
			}
			p.i += 2 + end + 2
		case c == '#':
			end := strings.IndexAny(p.src[p.i:], "\r\n")
			if end < 0 {
				p.abort()
				return
			}
			p.i += end
		default:
			return
		}
	}
}

// skipSpaceNL skips blanks, comments and newlines.
func (p *psp) skipSpaceNL() {
	for {
		p.skipSpace()
		if p.eof() || (p.src[p.i] != '\n' && p.src[p.i] != '\r') {
			return
		}
		p.i++
	}
}

// atEnd reports whether the current pipeline element ends here.
func (p *psp) atEnd() bool {
	if p.eof() {
		return true
	}
	switch p.src[p.i] {
	case '\n', '\r', ';', '|', '&', ')', '}':
		return true
	}
	return false
}

// enter counts one more bracket level; false (and the text abandoned) past MaxNesting.
func (p *psp) enter() bool {
	p.nest++
	if p.nest > MaxNesting {
		if !p.r.tooDeep {
			p.r.tooDeep = true
			p.fail(FindingTooDeep, p.i, fmt.Sprintf("brackets nested more than %d deep", MaxNesting))
		}
		p.abort()
		return false
	}
	return true
}

// statements reads statements until closer (0: the end of the text). hash reads the
// key = value pairs of a hashtable literal.
func (p *psp) statements(sc *Script, closer byte, hash bool, open int) {
	for {
		p.skipSpaceNL()
		if p.eof() {
			if closer != 0 && !p.r.tooDeep {
				p.fail(FindingParse, open, fmt.Sprintf("missing closing %q", closer))
			}
			return
		}
		c := p.src[p.i]
		if c == ';' {
			p.i++
			continue
		}
		if closer != 0 && c == closer {
			p.i++
			return
		}
		if c == ')' || c == '}' {
			p.fail(FindingParse, p.i, fmt.Sprintf("unexpected %q", c))
			p.i++
			continue
		}
		start := p.i
		if hash {
			p.hashKey()
		}
		p.chain(sc)
		if p.i == start {
			p.i++
		}
	}
}

// hashKey skips "key =" at the start of a hashtable entry.
func (p *psp) hashKey() {
	j := p.i
	if q, n := quoteAt(p.src, j); q == '\'' || q == '"' {
		end := strings.IndexAny(p.src[j+n:], "'\"\u2019\u201d")
		if end < 0 {
			return
		}
		j += n + end + 1
	} else {
		for j < len(p.src) && (isWordByte(p.src[j]) || p.src[j] == '-' || p.src[j] == '.') {
			j++
		}
	}
	for j < len(p.src) && isSpace(p.src[j]) {
		j++
	}
	if j < len(p.src) && p.src[j] == '=' && (j+1 >= len(p.src) || p.src[j+1] != '=') {
		p.i = j + 1
	}
}

// chain reads pipelines joined by && and ||, and a trailing & (a background job).
func (p *psp) chain(sc *Script) {
	for {
		p.pipeline(sc)
		p.skipSpace()
		if p.has("&&") || p.has("||") {
			p.i += 2
			p.skipSpaceNL()
			continue
		}
		if p.at(0) == '&' {
			p.i++
		}
		return
	}
}

func (p *psp) pipeline(sc *Script) {
	saved := p.pipe
	ps := &pipeState{dlStart: p.dl}
	p.pipe = ps
	defer func() { p.pipe = saved }()
	first := true
	for {
		ps.prevCmd, ps.cmd = ps.cmd, nil
		ps.prevLits, ps.lits = ps.lits, nil
		p.skipSpace()
		start := p.i
		p.element(sc, first)
		first = false
		p.skipSpace()
		if p.at(0) == '|' && p.at(1) != '|' {
			p.i++
			p.skipSpaceNL()
			continue
		}
		if p.i == start && !p.eof() && !p.atEnd() {
			p.i++
		}
		return
	}
}

// element reads one pipeline element: a command or an expression.
func (p *psp) element(sc *Script, first bool) {
	p.skipSpace()
	if p.atEnd() {
		if p.at(0) == '&' && p.at(1) != '&' && !p.eof() {
			p.callOp(sc, "&")
		}
		return
	}
	c := p.src[p.i]
	if first && isWordByte(c) {
		j := p.i
		for j < len(p.src) && (isWordByte(p.src[j]) || p.src[j] == '-') {
			j++
		}
		switch strings.ToLower(p.src[p.i:j]) {
		case "if", "elseif", "else", "while", "for", "foreach", "do", "switch", "try", "catch", "finally",
			"until", "trap", "begin", "process", "end", "dynamicparam", "clean", "data", "param", "class",
			"enum", "using", "function", "filter", "workflow", "configuration", "parallel", "sequence",
			"inlinescript":
			p.i = j
			p.expr(sc)
			return
		case "return", "throw", "exit", "break", "continue":
			p.i = j
			p.element(sc, false)
			return
		}
	}
	switch {
	case c == '.' && (p.at(1) == ' ' || p.at(1) == '\t'):
		p.callOp(sc, ".")
	case c == '.' && p.at(1) == '{':
		p.callOp(sc, ".")
	case p.isCommandStart():
		p.command(sc, "")
	default:
		p.expr(sc)
	}
}

// isCommandStart reports whether a command name (not an expression) starts here.
func (p *psp) isCommandStart() bool {
	c := p.src[p.i]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '\\' || c == '/' || c == '~' || c == '%' || c == '?' || c == '*':
		return true
	case c == '.':
		return p.at(1) == '\\' || p.at(1) == '/' || p.at(1) == '.' || isWordByte(p.at(1))
	case c >= utf8.RuneSelf:
		q, _ := quoteAt(p.src, p.i)
		return q == 0
	case c >= '0' && c <= '9':
		// 7z, 2to3: a name that starts with a digit and is not a number
		j := p.i
		for j < len(p.src) && isWordByte(p.src[j]) {
			j++
		}
		w := strings.ToLower(p.src[p.i:j])
		for k := 0; k < len(w); k++ {
			if w[k] < '0' || w[k] > '9' {
				return !strings.HasPrefix(w, "0x") && !(k == len(w)-2 && strings.HasSuffix(w, "b")) &&
					!strings.HasSuffix(w, "kb") && !strings.HasSuffix(w, "mb") && !strings.HasSuffix(w, "gb") &&
					!strings.HasSuffix(w, "tb") && !strings.HasSuffix(w, "pb") && w[k] != 'e' && w[k] != 'd' && w[k] != 'l'
			}
		}
	}
	return false
}

// callOp reads "& name args" or ". name args" (the call operator and dot-sourcing).
func (p *psp) callOp(sc *Script, via string) {
	p.i++ // & or .
	p.skipSpace()
	if p.atEnd() {
		return
	}
	if p.at(0) == '{' {
		open := p.i
		p.block(sc, "{}", open)
		p.args(sc, &Command{}) // arguments to the block: read for what they nest
		return
	}
	p.command(sc, via)
}

// block reads a bracketed part starting at p.i ({ ( $( @( @{) into a nested script.
func (p *psp) block(sc *Script, via string, open int) {
	closer := byte('}')
	hash := false
	switch via {
	case "()", "$()", "@()":
		closer = ')'
	case "@{}":
		hash = true
	}
	p.i += len(via) - 1
	if !p.enter() {
		return
	}
	child := Script{Shell: PowerShell, Via: via, At: p.pos(open)}
	saved := p.pipe
	p.pipe = nil
	p.statements(&child, closer, hash, open)
	p.pipe = saved
	p.nest--
	if len(child.Commands) > 0 || len(child.Nested) > 0 || len(child.Findings) > 0 || len(child.EnvSets) > 0 {
		sc.Nested = append(sc.Nested, child)
	}
}

// command reads a command: its name, arguments and redirections.
func (p *psp) command(sc *Script, via string) {
	pos := p.pos(p.i)
	name := p.argToken(sc)
	c := &Command{Raw: name.Raw, Shell: PowerShell, Via: via, Pos: pos}
	if name.Static {
		c.Raw = name.Value
		c.Name = canonName(name.Value, PowerShell)
		if a, ok := p.aliases[strings.ToLower(name.Value)]; ok {
			c.Name = canonName(a, PowerShell)
		}
	} else {
		p.r.find(sc, FindingDynamicName, pos, fmt.Sprintf("the command name %s is known only when it runs", name.Raw))
	}
	p.args(sc, c)
	if via == "" && p.pipe != nil && p.pipe.prevCmd != nil {
		c.Input = p.pipe.prevCmd
	}
	if p.pipe != nil && p.pipe.prevLits != nil {
		c.Input = &Command{Name: "Write-Output", Raw: "(literal)", Shell: PowerShell, Args: p.pipe.prevLits}
	}
	p.finish(sc, c)
}

// args reads a command's arguments and redirections up to the end of its pipeline element.
func (p *psp) args(sc *Script, c *Command) {
	comma := false
	for {
		p.skipSpace()
		if p.atEnd() {
			return
		}
		if len(c.Args)&63 == 63 && !p.r.wordsOK(sc, len(c.Args), c.Pos) {
			p.abort()
			return
		}
		start := p.i
		if op, ok := p.redirectOp(); ok {
			r := Redirect{Op: op}
			if !strings.Contains(op, "&") {
				p.skipSpace()
				if !p.atEnd() {
					r.Target = p.argToken(sc)
				}
			}
			c.Redirects = append(c.Redirects, r)
			continue
		}
		if p.src[p.i] == ',' {
			p.i++
			comma = true
			continue
		}
		if p.has("--%") {
			// stop-parsing: the rest of the line goes to the program as written
			p.i += 3
			end := strings.IndexAny(p.src[p.i:], "\r\n")
			if end < 0 {
				end = len(p.src) - p.i
			}
			for _, f := range strings.Fields(p.src[p.i : p.i+end]) {
				c.Args = append(c.Args, Arg{Value: f, Static: !strings.Contains(f, "%"), Raw: f})
			}
			p.i += end
			continue
		}
		if q, n := quoteAt(p.src, p.i); q == '-' && p.i+n < len(p.src) {
			if nc := p.src[p.i+n]; nc >= 'a' && nc <= 'z' || nc >= 'A' && nc <= 'Z' || nc == '_' || nc == '?' {
				j := p.i + n
				for j < len(p.src) && !isSpace(p.src[j]) && !strings.ContainsRune("\r\n:;|&(){},<>'\"`", rune(p.src[j])) {
					j++
				}
				name := p.src[p.i+n : j]
				a := Arg{Value: "-" + name, Static: true, Param: true, Raw: p.src[p.i:j]}
				if canon, _, ok := resolveParam(c.Name, name); ok {
					a.Value = "-" + canon
				}
				c.Args = append(c.Args, a)
				p.i = j
				if p.at(0) == ':' {
					p.i++
					v := p.argToken(sc)
					v.Bound = true
					c.Args = append(c.Args, v)
				}
				comma = false
				continue
			}
		}
		a := p.argToken(sc)
		a.Comma = comma
		comma = false
		c.Args = append(c.Args, a)
		if p.i == start {
			p.i++
		}
	}
}

// redirectOp reads a redirection operator: > >> 2> 2>> *> 3>&1 < ...
func (p *psp) redirectOp() (string, bool) {
	j := p.i
	if j < len(p.src) && (p.src[j] >= '1' && p.src[j] <= '6' || p.src[j] == '*') && j+1 < len(p.src) && p.src[j+1] == '>' {
		j++
	}
	if j >= len(p.src) || (p.src[j] != '>' && p.src[j] != '<') {
		return "", false
	}
	j++
	if p.src[j-1] == '>' && j < len(p.src) && p.src[j] == '>' {
		j++
	} else if p.src[j-1] == '>' && j+1 < len(p.src) && p.src[j] == '&' && p.src[j+1] >= '1' && p.src[j+1] <= '6' {
		j += 2
	}
	op := p.src[p.i:j]
	p.i = j
	return op, true
}

// argToken reads one argument in argument mode: barewords, quoted parts, variables,
// subexpressions, script blocks, concatenated as PowerShell does.
func (p *psp) argToken(sc *Script) Arg {
	start := p.i
	var b strings.Builder
	static := true
	if p.eof() {
		return Arg{Static: true}
	}
	switch c := p.src[p.i]; {
	case c == '@' && (p.at(1) == '(' || p.at(1) == '{'):
		via := "@()"
		if p.at(1) == '{' {
			via = "@{}"
		}
		p.block(sc, via, start)
		static = false
	case c == '@' && isWordByte(p.at(1)):
		p.i++
		for !p.eof() && isWordByte(p.src[p.i]) {
			p.i++
		}
		return Arg{Value: p.src[start:p.i], Static: false, Raw: p.src[start:p.i]}
	case c == '@' && (p.at(1) == '\'' || p.at(1) == '"') && p.hereStart():
		v, st := p.hereString(sc)
		return Arg{Value: v, Static: st, Raw: p.src[start:p.i]}
	case c == '{':
		p.block(sc, "{}", start)
		return Arg{Value: p.src[start:p.i], Static: false, Raw: p.src[start:p.i]}
	case c == '(':
		p.block(sc, "()", start)
		static = false
	case c == '~' && (p.at(1) == 0 || p.at(1) == '\\' || p.at(1) == '/' || isSpace(p.at(1)) || p.at(1) == '\n' || p.at(1) == '\r' || p.at(1) == ';' || p.at(1) == '|' || p.at(1) == ',' || p.at(1) == ')'):
		b.WriteString(p.r.home)
		p.i++
	}
loop:
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case isSpace(c), c == '\n', c == '\r', c == ';', c == '|', c == '&', c == ')', c == '}', c == '{', c == ',', c == '(', c == '<':
			break loop
		case c == '>':
			break loop
		case c == '`':
			if p.at(1) == '\n' || p.at(1) == '\r' || p.at(1) == 0 {
				break loop
			}
			_, n := utf8.DecodeRuneInString(p.src[p.i+1:])
			b.WriteString(p.src[p.i+1 : p.i+1+n])
			p.i += 1 + n
		case c == '$':
			v, st := p.variable(sc, false)
			b.WriteString(v)
			static = static && st
		default:
			q, n := quoteAt(p.src, p.i)
			switch q {
			case '\'':
				b.WriteString(p.singleQuoted())
			case '"':
				v, st := p.doubleQuoted(sc)
				b.WriteString(v)
				static = static && st
			default:
				b.WriteString(p.src[p.i : p.i+n])
				p.i += n
			}
		}
	}
	return Arg{Value: p.r.fixHome(b.String()), Static: static, Raw: p.src[start:p.i]}
}

// singleQuoted reads '...' (” is one quote) and returns its content.
func (p *psp) singleQuoted() string {
	open := p.i
	_, n := quoteAt(p.src, p.i)
	p.i += n
	var b strings.Builder
	for !p.eof() {
		q, n := quoteAt(p.src, p.i)
		if q == '\'' {
			if q2, n2 := p.quoteAfter(n); q2 == '\'' {
				b.WriteString(p.src[p.i : p.i+n])
				p.i += n + n2
				continue
			}
			p.i += n
			return b.String()
		}
		b.WriteString(p.src[p.i : p.i+n])
		p.i += n
	}
	p.fail(FindingParse, open, "unterminated single-quoted string")
	return b.String()
}

func (p *psp) quoteAfter(n int) (byte, int) {
	if p.i+n < len(p.src) {
		return quoteAt(p.src, p.i+n)
	}
	return 0, 0
}

// doubleQuoted reads "..." with its escapes and expansions.
func (p *psp) doubleQuoted(sc *Script) (string, bool) {
	open := p.i
	_, n := quoteAt(p.src, p.i)
	p.i += n
	var b strings.Builder
	static := true
	for !p.eof() {
		c := p.src[p.i]
		switch c {
		case '`':
			p.i++
			if p.eof() {
				continue // unterminated: the loop ends and says so
			}
			b.WriteString(backtickEscape(p.src[p.i]))
			_, n := utf8.DecodeRuneInString(p.src[p.i:])
			if p.src[p.i] < utf8.RuneSelf {
				n = 1
			}
			if strings.ContainsRune("0abefnrtv", rune(p.src[p.i])) || p.src[p.i] == 'u' {
				if p.src[p.i] == 'u' && p.at(1) == '{' {
					if end := strings.IndexByte(p.src[p.i:], '}'); end > 0 && end < 10 {
						n = end + 1
					}
				}
			} else {
				b.WriteString(p.src[p.i : p.i+n])
			}
			p.i += n
			continue
		case '$':
			v, st := p.variable(sc, true)
			b.WriteString(v)
			static = static && st
			continue
		}
		q, n := quoteAt(p.src, p.i)
		if q == '"' {
			if q2, n2 := p.quoteAfter(n); q2 == '"' {
				b.WriteByte('"')
				p.i += n + n2
				continue
			}
			p.i += n
			return b.String(), static
		}
		b.WriteString(p.src[p.i : p.i+n])
		p.i += n
	}
	p.fail(FindingParse, open, "unterminated double-quoted string")
	return b.String(), static
}

// backtickEscape is what `c stands for in a double-quoted string when c is a special escape;
// "" when c stands for itself.
func backtickEscape(c byte) string {
	switch c {
	case '0':
		return "\x00"
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 'e':
		return "\x1b"
	case 'f':
		return "\f"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	case 'v':
		return "\v"
	case 'u':
		return "\uFFFD"
	}
	return ""
}

// hereStart reports whether @' or @" at p.i opens a here-string (the rest of its line blank).
func (p *psp) hereStart() bool {
	j := p.i + 2
	for j < len(p.src) && isSpace(p.src[j]) {
		j++
	}
	return j < len(p.src) && (p.src[j] == '\n' || p.src[j] == '\r')
}

// hereString reads @'...'@ or @"..."@ (which expands variables and subexpressions).
func (p *psp) hereString(sc *Script) (string, bool) {
	open := p.i
	q := p.src[p.i+1]
	nl := strings.IndexByte(p.src[p.i:], '\n')
	body := p.i + nl + 1
	// the closing '@ or "@ starts a line (after blanks)
	end := -1
	closing := string(q) + "@"
	for j := body; j < len(p.src); {
		k := strings.Index(p.src[j:], closing)
		if k < 0 {
			break
		}
		ls := j + k // the line's start: back over blanks to a newline or the body's start
		for ls > body && isSpace(p.src[ls-1]) {
			ls--
		}
		if ls == body || p.src[ls-1] == '\n' {
			end = ls
			break
		}
		j += k + 2
	}
	if end < 0 {
		p.fail(FindingParse, open, "unterminated here-string")
		p.abort()
		return "", false
	}
	contentEnd := end - 1 // the newline before the closing line
	if contentEnd > body && p.src[contentEnd-1] == '\r' {
		contentEnd--
	}
	if contentEnd < body {
		contentEnd = body
	}
	content := p.src[body:contentEnd]
	close := end + strings.Index(p.src[end:], string(q)+"@") + 2
	if q == '\'' {
		p.i = close
		return content, true
	}
	// expand: read the content with this reader, then continue after the closing line
	var b strings.Builder
	static := true
	p.i = body
	for p.i < contentEnd {
		c := p.src[p.i]
		switch c {
		case '`':
			p.i++
			if p.i >= contentEnd {
				continue
			}
			if e := backtickEscape(p.src[p.i]); e != "" {
				b.WriteString(e)
			} else {
				b.WriteByte(p.src[p.i])
			}
			p.i++
		case '$':
			v, st := p.variable(sc, true)
			b.WriteString(v)
			static = static && st
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	p.i = close
	return b.String(), static
}

// variable reads $name, ${name}, $(...) or a lone $. It returns the value (the variable as
// written when it is not known) and whether it is known.
func (p *psp) variable(sc *Script, inString bool) (string, bool) {
	start := p.i
	p.i++ // $
	if p.eof() {
		return "$", true
	}
	c := p.src[p.i]
	switch {
	case c == '(':
		p.i = start
		p.block(sc, "$()", start)
		return p.src[start:p.i], false
	case c == '{':
		end := strings.IndexByte(p.src[p.i:], '}')
		if end < 0 {
			p.fail(FindingParse, start, "unterminated ${")
			p.abort()
			return "", false
		}
		name := p.src[p.i+1 : p.i+end]
		p.i += end + 1
		if v, ok := p.vars[strings.ToLower(name)]; ok {
			return v, true
		}
		if v, ok := p.r.psVar(name); ok {
			return v, true
		}
		return p.src[start:p.i], false
	case c == '$' || c == '?' || c == '^':
		p.i++
		return p.src[start:p.i], false
	case isWordByte(c):
		for !p.eof() && isWordByte(p.src[p.i]) {
			p.i++
		}
		if p.at(0) == ':' && isWordByte(p.at(1)) {
			p.i++
			for !p.eof() && isWordByte(p.src[p.i]) {
				p.i++
			}
		}
		name := p.src[start+1 : p.i]
		if v, ok := p.vars[strings.ToLower(name)]; ok {
			return v, true
		}
		if v, ok := p.r.psVar(name); ok {
			return v, true
		}
		return p.src[start:p.i], false
	}
	return "$", true
}

// expr reads an expression element: it finds the commands in its brackets, the downloads in
// its member calls, the code in its [scriptblock]::Create, and an assignment's right side.
func (p *psp) expr(sc *Script) {
	var lits []Arg
	pure := true
	firstVar := "" // the variable the element starts with
	afterGroup := false
	for n := 0; ; n++ {
		p.skipSpace()
		if p.atEnd() {
			break
		}
		start := p.i
		c := p.src[p.i]
		if n == 0 && c == '$' && isWordByte(p.at(1)) {
			j := p.i + 1
			for j < len(p.src) && (isWordByte(p.src[j]) || p.src[j] == ':') {
				j++
			}
			firstVar = strings.ToLower(p.src[p.i+1 : j])
		}
		assignTo := "" // the variable assigned when the element so far is just $name
		if n == 1 {
			assignTo = firstVar
		}
		switch {
		case c == '(':
			p.block(sc, "()", start)
			pure = false
		case c == '$' && p.at(1) == '(':
			p.block(sc, "$()", start)
			pure = false
		case c == '@' && p.at(1) == '(':
			p.block(sc, "@()", start)
			pure = false
		case c == '@' && p.at(1) == '{':
			p.block(sc, "@{}", start)
			pure = false
		case c == '{':
			p.block(sc, "{}", start)
			pure = false
		case c == '@' && (p.at(1) == '\'' || p.at(1) == '"') && p.hereStart():
			v, st := p.hereString(sc)
			lits = append(lits, Arg{Value: v, Static: st, Raw: p.src[start:p.i]})
			pure = pure && st
		case c == '[':
			p.typeExpr(sc)
			pure = false
		case c == '.' || (c == ':' && p.at(1) == ':'):
			if c == ':' {
				p.i++
			}
			p.i++
			p.member(sc, "", p.pos(p.i))
			pure = false
		case c == '=' && p.at(1) != '=':
			p.i++
			if !p.enter() {
				return
			}
			p.element(sc, true)
			p.nest--
			envSet(sc, assignTo)
			if assignTo != "" {
				if p.vars == nil {
					p.vars = map[string]string{}
				}
				if l := p.pipe.lits; len(l) == 1 && l[0].Static {
					p.vars[assignTo] = l[0].Value
				} else {
					delete(p.vars, assignTo)
				}
			}
			p.pipe.lits = nil
			return
		case strings.IndexByte("+-*/%?", c) >= 0 && p.at(1) == '=' || c == '?' && p.at(1) == '?' && p.at(2) == '=':
			for p.src[p.i] != '=' {
				p.i++
			}
			p.i++
			if !p.enter() {
				return
			}
			p.element(sc, true)
			p.nest--
			envSet(sc, assignTo)
			delete(p.vars, assignTo)
			p.pipe.lits = nil
			return
		case c == ',':
			p.i++
		case c == '$':
			p.variable(sc, false)
			pure = false
		default:
			if q, n := quoteAt(p.src, p.i); q == '\'' {
				v := p.singleQuoted()
				lits = append(lits, Arg{Value: v, Static: true, Raw: p.src[start:p.i]})
			} else if q == '"' {
				v, st := p.doubleQuoted(sc)
				lits = append(lits, Arg{Value: p.r.fixHome(v), Static: st, Raw: p.src[start:p.i]})
				pure = pure && st
			} else if isWordByte(c) && afterGroup && p.isCommandStart() && !continuesStatement(p.wordAt()) {
				// param($p) Remove-Item ...: a command after a keyword's group starts a new
				// statement
				if !p.enter() {
					return
				}
				p.element(sc, true)
				p.nest--
				return
			} else if isWordByte(c) || q == '-' {
				p.i += n
				for !p.eof() && (isWordByte(p.src[p.i]) || p.src[p.i] == '-') {
					p.i++
				}
				pure = false
			} else {
				p.i += n
				pure = false
			}
		}
		if p.i == start {
			p.i++
		}
		afterGroup = p.i > 0 && (p.src[p.i-1] == ')' || p.src[p.i-1] == '}')
	}
	if p.pipe != nil && pure && len(lits) > 0 {
		p.pipe.lits = lits
	}
}

// wordAt is the bareword at p.i, lower case.
func (p *psp) wordAt() string {
	j := p.i
	for j < len(p.src) && (isWordByte(p.src[j]) || p.src[j] == '-') {
		j++
	}
	return strings.ToLower(p.src[p.i:j])
}

// continuesStatement reports the words that go on a statement after a group: else, catch, ...
// and the operators written as words.
func continuesStatement(w string) bool {
	switch w {
	case "else", "elseif", "catch", "finally", "while", "until", "in":
		return true
	}
	return false
}

// typeExpr reads [Type] and what follows it: ::Method(...) static calls this package knows
// become commands ([System.IO.Directory]::Delete, [scriptblock]::Create).
func (p *psp) typeExpr(sc *Script) {
	open := p.i
	depth := 0
	j := p.i
	for ; j < len(p.src); j++ {
		if p.src[j] == '[' {
			depth++
		} else if p.src[j] == ']' {
			depth--
			if depth == 0 {
				break
			}
		} else if p.src[j] == '\n' {
			break
		}
	}
	if j >= len(p.src) || p.src[j] != ']' {
		p.i = j // no type here: skip what was scanned, never scan it again
		return
	}
	typ := strings.ToLower(strings.TrimSpace(p.src[p.i+1 : j]))
	typ = strings.TrimPrefix(typ, "system.")
	p.i = j + 1
	if p.has("::") {
		p.i += 2
		p.member(sc, typ, p.pos(open))
	}
}

// member reads a member name after . or :: and, when a call follows, its arguments.
func (p *psp) member(sc *Script, typ string, pos Pos) {
	j := p.i
	for j < len(p.src) && (isWordByte(p.src[j])) {
		j++
	}
	name := strings.ToLower(p.src[p.i:j])
	p.i = j
	switch name {
	case "downloadstring", "downloaddata", "downloadfile", "openread", "getstringasync", "getasync", "getbytearrayasync", "downloadstringtaskasync", "downloaddatataskasync", "downloadfiletaskasync":
		p.dl++
	}
	if p.at(0) != '(' {
		return
	}
	open := p.i
	args := p.callArgs()
	p.i = open
	p.block(sc, "()", open)
	key := typ + "::" + name
	switch key {
	case "io.file::delete", "io.directory::delete", "io.file::writealltext", "io.file::writeallbytes",
		"io.file::writealllines", "io.file::appendalltext", "io.file::appendalllines", "io.file::copy",
		"io.file::move", "io.directory::move", "diagnostics.process::start", "environment::setenvironmentvariable",
		"io.file::replace":
		p.finish(sc, &Command{Name: "[System." + dotnetName(key), Raw: "[" + typ + "]::" + name, Shell: PowerShell, Args: args, Pos: pos})
	case "management.automation.scriptblock::create", "scriptblock::create", "::invokescript", "::newscriptblock":
		if len(args) > 0 && args[0].Static {
			p.r.nestedPS(sc, args[0].Value, "[scriptblock]::Create", p.depth+1, pos)
		} else {
			p.r.find(sc, FindingDynamic, pos, "[scriptblock]::Create of text known only when it runs")
		}
	}
}

// dotnetName spells a known static method as documented: io.file::delete → IO.File::Delete.
func dotnetName(key string) string {
	typ, m, _ := strings.Cut(key, "::")
	switch typ {
	case "io.file":
		typ = "IO.File"
	case "io.directory":
		typ = "IO.Directory"
	case "diagnostics.process":
		typ = "Diagnostics.Process"
	case "environment":
		typ = "Environment"
	}
	switch m {
	case "writealltext":
		m = "WriteAllText"
	case "writeallbytes":
		m = "WriteAllBytes"
	case "writealllines":
		m = "WriteAllLines"
	case "appendalltext":
		m = "AppendAllText"
	case "appendalllines":
		m = "AppendAllLines"
	case "setenvironmentvariable":
		m = "SetEnvironmentVariable"
	default:
		m = titleParts(m)
	}
	return typ + "]::" + m
}

// callArgs pre-reads the arguments of a method call at p.i ('('): literals and known variables
// become static arguments, anything else one dynamic argument. It does not record anything:
// the caller reads the same text again as a nested script.
func (p *psp) callArgs() []Arg {
	var out []Arg
	j := p.i + 1
	for {
		for j < len(p.src) && (isSpace(p.src[j]) || p.src[j] == '\n' || p.src[j] == '\r') {
			j++
		}
		if j >= len(p.src) || p.src[j] == ')' {
			return out
		}
		start := j
		val, end, ok := p.scanString(j)
		if !ok && p.src[j] == '$' {
			k := j + 1
			for k < len(p.src) && (isWordByte(p.src[k]) || p.src[k] == ':') {
				k++
			}
			if v, known := p.r.psVar(p.src[j+1 : k]); known {
				val, end, ok = v, k, true
			}
		}
		if ok {
			k := end
			for k < len(p.src) && isSpace(p.src[k]) {
				k++
			}
			if k < len(p.src) && (p.src[k] == ',' || p.src[k] == ')') {
				out = append(out, Arg{Value: val, Static: true, Raw: p.src[start:end]})
				if p.src[k] == ')' {
					return out
				}
				j = k + 1
				continue
			}
		}
		return append(out, Arg{Value: p.src[start:min(len(p.src), start+64)], Static: false})
	}
}

// scanString reads a string at i whose value is known without running anything: '...', or
// "..." whose variables are known (no subexpression). It records nothing.
func (p *psp) scanString(i int) (string, int, bool) {
	s := p.src
	q, n := quoteAt(s, i)
	if q != '"' {
		return scanLiteral(s, i)
	}
	var b strings.Builder
	j := i + n
	for j < len(s) {
		q2, n2 := quoteAt(s, j)
		switch {
		case q2 == '"':
			if j+n2 < len(s) {
				if q3, n3 := quoteAt(s, j+n2); q3 == '"' {
					b.WriteByte('"')
					j += n2 + n3
					continue
				}
			}
			return p.r.fixHome(b.String()), j + n2, true
		case s[j] == '`':
			if j+1 >= len(s) {
				return "", i, false
			}
			if e := backtickEscape(s[j+1]); e != "" {
				b.WriteString(e)
			} else {
				b.WriteByte(s[j+1])
			}
			j += 2
			continue
		case s[j] == '$':
			k := j + 1
			var name string
			if k < len(s) && s[k] == '{' {
				end := strings.IndexByte(s[k:], '}')
				if end < 0 {
					return "", i, false
				}
				name, k = s[k+1:k+end], k+end+1
			} else {
				for k < len(s) && isWordByte(s[k]) {
					k++
				}
				if k < len(s) && s[k] == ':' && k+1 < len(s) && isWordByte(s[k+1]) {
					k++
					for k < len(s) && isWordByte(s[k]) {
						k++
					}
				}
				name = s[j+1 : k]
			}
			v, ok := p.vars[strings.ToLower(name)]
			if !ok {
				v, ok = p.r.psVar(name)
			}
			if !ok || name == "" {
				return "", i, false
			}
			b.WriteString(v)
			j = k
			continue
		}
		b.WriteString(s[j : j+n2])
		j += n2
	}
	return "", i, false
}

// scanLiteral reads a string literal with no expansion at i: '...' or "..." without $ and `.
func scanLiteral(s string, i int) (string, int, bool) {
	q, n := quoteAt(s, i)
	if q != '\'' && q != '"' {
		return "", i, false
	}
	var b strings.Builder
	j := i + n
	for j < len(s) {
		q2, n2 := quoteAt(s, j)
		if q2 == q {
			if j+n2 < len(s) {
				if q3, n3 := quoteAt(s, j+n2); q3 == q {
					b.WriteString(s[j : j+n2])
					j += n2 + n3
					continue
				}
			}
			return b.String(), j + n2, true
		}
		if q == '"' && (s[j] == '$' || s[j] == '`') {
			return "", i, false
		}
		b.WriteString(s[j : j+n2])
		j += n2
	}
	return "", i, false
}

// envSet notes in sc an assignment to an environment variable ($env:NAME = …, $env:NAME += …),
// given the assigned variable's lower-case name ("env:name"), or "" for none.
func envSet(sc *Script, assignTo string) {
	if name, ok := strings.CutPrefix(assignTo, "env:"); ok && name != "" {
		sc.EnvSets = append(sc.EnvSets, strings.ToUpper(name))
	}
}
