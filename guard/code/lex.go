package code

import (
	"strconv"
	"strings"
)

// tkind is the kind of a token.
type tkind uint8

const (
	tIdent tkind = iota + 1 // a name, with its sigil in Perl and PHP ($x, @a)
	tStr                    // a string literal (or a symbol), its text decoded
	tCmd                    // a literal that runs a shell: backticks, qx//, %x()
	tRegex                  // a regular expression literal (or s///, tr///)
	tNum                    // a number
	tPunct                  // an operator or a bracket
	tNL                     // the end of a line outside brackets
)

// token is one token of a program. For tStr and tCmd, val is the decoded text, with
// Placeholder for each interpolated part and dyn set.
type token struct {
	kind tkind
	dyn  bool
	val  string
	pos  int
}

// Bounds on what one Scan reads.
const (
	maxCode   = 1 << 20 // bytes of code read
	maxDepth  = 32      // nesting of interpolations and of code run from string literals
	maxTokens = 1 << 18 // tokens kept per program
)

// escape modes of string literals.
type escMode uint8

const (
	escC     escMode = iota // C-like escapes decoded (\n, \t, \xHH, \u...)
	escQuote                // only \\ and the backslashed delimiter (single quotes in Perl, Ruby, PHP)
	escRaw                  // backslashes kept as written (Python raw strings)
)

// interpolation modes of string literals.
type interpMode uint8

const (
	noInterp  interpMode = iota
	pyInterp             // {expr}, {{ and }}
	jsInterp             // ${expr}
	rbInterp             // #{expr}, #@var, #$var
	plInterp             // $var, @var, ${...}, @{...}
	phpInterp            // $var, {$expr}, ${expr}
)

// lexer turns a program into token streams: the main one, and one per interpolated
// expression or code-bearing literal (f-string fields, ${} in templates, s///e), each scanned
// for calls on its own.
type lexer struct {
	lang      string
	src       string
	pos       int
	toks      []token
	streams   [][]token
	unsure    []string
	depth     int
	paren     int
	hdLine    int // the newline after which pending heredoc bodies start, or -1
	hdNext    int // where the next heredoc body starts, and where reading resumes after the line
	stopped   bool
	noRegex   int // no regular expression closes before this offset (a failed attempt's line end)
	lastNL    int // one past the last newline of src, once a heredoc asked
	lastKnown bool
	scratch   [maxDepth][]token // reused token buffers for interpolations, per depth
}

func lex(lang, src string) (main []token, others [][]token, unsure []string) {
	l := &lexer{lang: lang, src: src, hdLine: -1}
	l.toks = make([]token, 0, min(len(src), 64<<10)+16) // one token per byte at most: no copying as it grows
	l.run(false)
	return l.toks, l.streams, l.unsure
}

func (l *lexer) note(why string) {
	for _, u := range l.unsure {
		if u == why {
			return
		}
	}
	l.unsure = append(l.unsure, why)
}

func (l *lexer) emit(k tkind, val string, dyn bool, pos int) {
	if len(l.toks) >= maxTokens {
		l.note("too many tokens: the rest of the code was not read")
		l.pos, l.stopped = len(l.src), true
		return
	}
	if len(l.toks) == cap(l.toks) {
		grown := make([]token, len(l.toks), 2*cap(l.toks)+16)
		copy(grown, l.toks)
		l.toks = grown
	}
	l.toks = append(l.toks, token{kind: k, val: val, dyn: dyn, pos: pos})
}

func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

func (l *lexer) lineStart() bool { return l.pos == 0 || l.src[l.pos-1] == '\n' }

// run reads tokens up to the end of the code or, in an interpolation, up to its closing brace.
func (l *lexer) run(interp bool) {
	braces := 0
	for l.pos < len(l.src) && !l.stopped {
		c := l.src[l.pos]
		switch c {
		case '\n':
			l.newline()
			continue
		case ' ', '\t', '\r', '\f', '\v':
			l.pos++
			continue
		case '\\':
			if l.peek(1) == '\n' && l.hdLine < 0 {
				l.pos += 2
				continue
			}
		case '{':
			if interp {
				braces++
			}
		case '}':
			if interp {
				if braces == 0 {
					l.pos++
					return
				}
				braces--
			}
		}
		start := l.pos
		if !l.special(c) {
			l.generic(c)
		}
		if l.pos == start { // never loop without reading
			l.pos++
		}
	}
	if interp {
		l.note("unterminated interpolation")
	}
}

func (l *lexer) newline() {
	nl := l.pos
	l.pos++
	if l.hdLine == nl {
		l.pos, l.hdLine = l.hdNext, -1
	}
	if l.paren == 0 && len(l.toks) > 0 && l.toks[len(l.toks)-1].kind != tNL {
		l.emit(tNL, "", false, nl)
	}
}

// special reads what is particular to the language at c, reporting whether it did.
func (l *lexer) special(c byte) bool {
	switch l.lang {
	case "python":
		return l.python(c)
	case "javascript":
		return l.javascript(c)
	case "perl":
		return l.perl(c)
	case "ruby":
		return l.ruby(c)
	case "php":
		return l.php(c)
	case "lua":
		return l.lua(c)
	case "awk":
		return l.awk(c)
	case "r":
		return l.r(c)
	case "julia":
		return l.julia(c)
	}
	return false
}

func isLetter(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWord(c byte) bool { return isLetter(c) || isDigit(c) }

// word reads a name from l.pos.
func (l *lexer) word() string {
	start := l.pos
	for l.pos < len(l.src) && (isWord(l.src[l.pos]) || l.lang == "javascript" && l.src[l.pos] == '$' ||
		l.lang == "r" && l.src[l.pos] == '.') {
		l.pos++
	}
	return l.src[start:l.pos]
}

// ops are the operators of more than one character that the call finder needs whole.
var multiOps = [...]string{"<<-", "...", "->", "::", "=>", "..", "<-", ">>", "|&", "&&", "||", "==", "!=", "<=", ">=", "=~", "!~", "**", "+=", "-="}

func (l *lexer) generic(c byte) {
	start := l.pos
	switch {
	case isLetter(c) || c == '$' && l.lang == "javascript" || c == '.' && l.lang == "r" && isLetter(l.peek(1)):
		l.emit(tIdent, l.word(), false, start)
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		l.pos++
		for l.pos < len(l.src) && (isWord(l.src[l.pos]) || l.src[l.pos] == '.' && isDigit(l.peek(1))) {
			l.pos++
		}
		l.emit(tNum, l.src[start:l.pos], false, start)
	default:
		if strings.IndexByte("<.-:=>|&!*+", c) >= 0 {
			rest := l.src[l.pos:]
			for _, op := range multiOps {
				if op[0] == c && strings.HasPrefix(rest, op) {
					l.pos += len(op)
					l.emit(tPunct, op, false, start)
					return
				}
			}
		}
		l.pos++
		switch c {
		case '(', '[', '{':
			l.paren++
		case ')', ']', '}':
			if l.paren > 0 {
				l.paren--
			}
		}
		l.emit(tPunct, l.src[start:l.pos], false, start)
	}
}

// valueBefore reports whether the last token ends a value, so that '/' divides rather than
// starts a regular expression.
func (l *lexer) valueBefore() bool {
	if len(l.toks) == 0 {
		return false
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tNum, tStr, tCmd, tRegex:
		return true
	case tIdent:
		switch t.val {
		case "return", "typeof", "case", "in", "of", "delete", "void", "throw", "new", "else", "do", "and", "or",
			"not", "if", "while", "unless", "until", "split", "grep", "map", "join", "push", "when", "yield",
			"print", "printf", "elsif", "xor", "await", "instanceof", "match", "gsub", "sub":
			return false
		}
		return true
	case tPunct:
		return t.val == ")" || t.val == "]"
	}
	return false
}

func (l *lexer) skipLine() {
	if i := strings.IndexByte(l.src[l.pos:], '\n'); i >= 0 {
		l.pos += i
	} else {
		l.pos = len(l.src)
	}
}

// skipBlock skips to the end of close, noting an unterminated comment.
func (l *lexer) skipBlock(close string) {
	if i := strings.Index(l.src[l.pos:], close); i >= 0 {
		l.pos += i + len(close)
		return
	}
	l.pos = len(l.src)
	l.note("unterminated comment")
}

// str reads a string literal whose opening delimiter has been read, up to term. open, when not
// 0, is the opening bracket of a delimiter pair, nested inside. A oneLine literal ends at a
// newline (the languages reject it; reading on would hide the code after it).
func (l *lexer) str(term string, open byte, esc escMode, im interpMode, oneLine bool) (string, bool) {
	var b strings.Builder
	dyn, nest := false, 0
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if open != 0 && c == open {
			nest++
			b.WriteByte(c)
			l.pos++
			continue
		}
		if c == term[0] && strings.HasPrefix(l.src[l.pos:], term) {
			if nest > 0 {
				nest--
				b.WriteByte(c)
				l.pos++
				continue
			}
			l.pos += len(term)
			return b.String(), dyn
		}
		if c == '\n' && oneLine {
			break
		}
		if c == '\\' && l.pos+1 < len(l.src) {
			n := l.src[l.pos+1]
			switch esc {
			case escRaw:
				b.WriteByte(c)
				b.WriteByte(n)
				l.pos += 2
				continue
			case escQuote:
				if n == '\\' || n == term[0] || open != 0 && n == open {
					b.WriteByte(n)
				} else {
					b.WriteByte(c)
					b.WriteByte(n)
				}
				l.pos += 2
				continue
			}
			l.pos += 2
			l.escape(&b, n)
			continue
		}
		if im != noInterp {
			if handled, d := l.interpolate(&b, c, im); handled {
				dyn = dyn || d
				continue
			}
		}
		b.WriteByte(c)
		l.pos++
	}
	l.note("unterminated string")
	return b.String(), dyn
}

// escape decodes the escape whose letter n has been read.
func (l *lexer) escape(b *strings.Builder, n byte) {
	switch n {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		end := l.pos
		for end < len(l.src) && end < l.pos+2 && l.src[end] >= '0' && l.src[end] <= '7' {
			end++
		}
		v, _ := strconv.ParseUint(l.src[l.pos-1:end], 8, 8)
		b.WriteByte(byte(v))
		l.pos = end
	case 'x':
		end := l.pos
		for end < len(l.src) && end < l.pos+2 && isHex(l.src[end]) {
			end++
		}
		if v, err := strconv.ParseUint(l.src[l.pos:end], 16, 8); err == nil {
			b.WriteByte(byte(v))
			l.pos = end
		} else {
			b.WriteByte('x')
		}
	case 'u':
		digits := l.src[l.pos:]
		brace := strings.HasPrefix(digits, "{")
		if brace {
			digits = digits[1:]
		}
		n := 0
		for n < len(digits) && n < 8 && isHex(digits[n]) && (brace || n < 4) {
			n++
		}
		if v, err := strconv.ParseUint(digits[:n], 16, 32); err == nil && n > 0 {
			b.WriteRune(rune(v))
			l.pos += n
			if brace && strings.HasPrefix(l.src[l.pos+1:], "}") {
				l.pos += 2
			}
		} else {
			b.WriteByte('u')
		}
	case '\n':
	default:
		b.WriteByte(n)
	}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// interpolate reads an interpolated part at c, if one starts there, writing Placeholder.
func (l *lexer) interpolate(b *strings.Builder, c byte, im interpMode) (handled, dyn bool) {
	n := l.peek(1)
	switch im {
	case pyInterp:
		if c == '{' && n == '{' || c == '}' && n == '}' {
			b.WriteByte(c)
			l.pos += 2
			return true, false
		}
		if c == '{' {
			l.pos++
			l.code()
			b.WriteString(Placeholder)
			return true, true
		}
	case jsInterp:
		if c == '$' && n == '{' {
			l.pos += 2
			l.code()
			b.WriteString(Placeholder)
			return true, true
		}
	case rbInterp:
		if c == '#' && n == '{' {
			l.pos += 2
			l.code()
			b.WriteString(Placeholder)
			return true, true
		}
		if c == '#' && (n == '@' || n == '$') {
			l.pos += 2
			l.word()
			b.WriteString(Placeholder)
			return true, true
		}
	case plInterp, phpInterp:
		if im == phpInterp && c == '{' && n == '$' {
			l.pos++
			l.code()
			b.WriteString(Placeholder)
			return true, true
		}
		if (c == '$' || c == '@' && im == plInterp) && n == '{' {
			l.pos += 2
			l.code()
			b.WriteString(Placeholder)
			return true, true
		}
		if (c == '$' || c == '@' && im == plInterp) && (isLetter(n) || n == ':' && c == '$') {
			l.pos++
			for l.pos < len(l.src) && (isWord(l.src[l.pos]) || l.src[l.pos] == ':' && l.peek(1) == ':') {
				if l.src[l.pos] == ':' {
					l.pos++
				}
				l.pos++
			}
			l.subscripts()
			b.WriteString(Placeholder)
			return true, true
		}
	}
	return false, false
}

// subscripts skips the subscripts of an interpolated variable: [..], {..}, ->[..], ->{..}.
func (l *lexer) subscripts() {
	for {
		s := l.src[l.pos:]
		if strings.HasPrefix(s, "->") && len(s) > 2 && (s[2] == '[' || s[2] == '{') {
			l.pos += 2
			s = s[2:]
		}
		if len(s) == 0 || s[0] != '[' && s[0] != '{' {
			return
		}
		open, close := s[0], byte(']')
		if open == '{' {
			close = '}'
		}
		depth := 0
		for i := 0; i < len(s) && i < 64; i++ {
			switch s[i] {
			case open:
				depth++
			case close:
				depth--
			case '"', '\n':
				return
			}
			if depth == 0 {
				l.pos += i + 1
				break
			}
		}
		if depth != 0 {
			return
		}
	}
}

// code reads an interpolated expression, after its opening brace, into a stream of its own.
func (l *lexer) code() {
	if l.depth >= maxDepth {
		l.note("interpolations nested too deep")
		depth := 1
		for l.pos < len(l.src) && depth > 0 {
			switch l.src[l.pos] {
			case '{':
				depth++
			case '}':
				depth--
			}
			l.pos++
		}
		return
	}
	saved, paren := l.toks, l.paren
	l.toks, l.paren = l.scratch[l.depth][:0], 0
	l.depth++
	l.run(true)
	l.depth--
	if len(l.toks) > 1 { // a lone name (${dir}) calls nothing
		l.streams = append(l.streams, append([]token(nil), l.toks...))
	}
	l.scratch[l.depth] = l.toks[:0]
	l.toks, l.paren = saved, paren
}

// subCode reads text that the program runs as code of its own language (Perl's s///e).
func (l *lexer) subCode(text string, pos int) {
	if l.depth >= maxDepth {
		l.note("code nested too deep")
		return
	}
	sub := &lexer{lang: l.lang, src: text, hdLine: -1, depth: l.depth + 1}
	sub.run(false)
	for i := range sub.toks {
		sub.toks[i].pos = pos
	}
	for _, s := range sub.streams {
		for i := range s {
			s[i].pos = pos
		}
	}
	if len(sub.toks) > 0 {
		l.streams = append(l.streams, sub.toks)
	}
	l.streams = append(l.streams, sub.streams...)
	for _, u := range sub.unsure {
		l.note(u)
	}
}

// heredoc reads the body of a heredoc whose terminator is tag; the body starts after the
// current line (or after the previous heredoc of the same line) and reading resumes after it.
func (l *lexer) heredoc(tag string, indented bool, esc escMode, im interpMode) (string, bool) {
	start := l.hdNext
	if l.hdLine < l.pos {
		if !l.lastKnown {
			l.lastNL, l.lastKnown = strings.LastIndexByte(l.src, '\n')+1, true
		}
		nl := -1
		if l.pos < l.lastNL {
			nl = strings.IndexByte(l.src[l.pos:], '\n')
		}
		if nl < 0 {
			l.note("heredoc without a body")
			return "", false
		}
		l.hdLine = l.pos + nl
		start = l.hdLine + 1
	}
	end, next := len(l.src), len(l.src)
	for i := start; i < len(l.src); {
		j := strings.IndexByte(l.src[i:], '\n')
		line := l.src[i:]
		if j >= 0 {
			line = l.src[i : i+j]
		}
		t := line
		if indented {
			t = strings.TrimLeft(t, " \t")
		}
		t = strings.TrimRight(t, "\r")
		if t == tag || l.lang == "php" && strings.HasPrefix(t, tag) && !isWord(t[min(len(tag), len(t)-1)]) {
			end = i
			next = i + len(line)
			break
		}
		if j < 0 {
			l.note("unterminated heredoc")
			break
		}
		i += j + 1
	}
	l.hdNext = next
	body := l.src[start:end]
	if indented {
		body = dedent(body)
	}
	if esc == escRaw && im == noInterp {
		return body, false
	}
	sub := &lexer{lang: l.lang, src: body, hdLine: -1, depth: l.depth + 1}
	if l.depth >= maxDepth {
		return body, true
	}
	val, dyn := sub.str("\x00\x00", 0, esc, im, false)
	for _, st := range sub.streams {
		for i := range st {
			st[i].pos += start
		}
	}
	l.streams = append(l.streams, sub.streams...)
	return val, dyn
}

// dedent removes the indentation common to the lines of a heredoc body (<<~ in Ruby and Perl,
// PHP's indented closing marker).
func dedent(body string) string {
	lines := strings.SplitAfter(body, "\n")
	common := -1
	for _, ln := range lines {
		t := strings.TrimLeft(ln, " \t")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if n := len(ln) - len(t); common < 0 || n < common {
			common = n
		}
	}
	if common <= 0 {
		return body
	}
	var b strings.Builder
	for _, ln := range lines {
		if len(ln) >= common && strings.TrimLeft(ln[:common], " \t") == "" {
			ln = ln[common:]
		}
		b.WriteString(ln)
	}
	return b.String()
}
