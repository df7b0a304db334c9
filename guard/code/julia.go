package code

import "sync"

// Julia: its comments (# and nested #= =#), strings with $name and $(expr) interpolation, and
// command literals (`rm -rf $dir`), which run(...), read(...) and pipeline(...) start without a
// shell; its calls take keyword arguments after a semicolon (rm(p; recursive=true)).

// julia reads what is particular to Julia at c.
func (l *lexer) julia(c byte) bool {
	start := l.pos
	switch {
	case c == '#' && l.peek(1) == '=':
		l.pos += 2
		depth := 1
		for l.pos < len(l.src) && depth > 0 {
			switch {
			case l.src[l.pos] == '#' && l.peek(1) == '=':
				depth++
				l.pos += 2
			case l.src[l.pos] == '=' && l.peek(1) == '#':
				depth--
				l.pos += 2
			default:
				l.pos++
			}
		}
		if depth > 0 {
			l.note("unterminated comment")
		}
	case c == '#':
		l.skipLine()
	case c == '"' && l.peek(1) == '"' && l.peek(2) == '"':
		l.pos += 3
		val, dyn := l.juliaStr(`"""`)
		l.emit(tStr, val, dyn, start)
	case c == '"':
		l.pos++
		val, dyn := l.juliaStr(`"`)
		l.emit(tStr, val, dyn, start)
	case c == '`':
		l.pos++
		val, dyn := l.juliaStr("`")
		l.emit(tCmd, val, dyn, start)
	case c == '\'' && !l.valueBefore():
		// a character literal: 'a', '\n'; after a value it is the adjoint operator
		l.pos++
		val, _ := l.str("'", 0, escC, noInterp, true)
		l.emit(tStr, val, false, start)
	default:
		return false
	}
	return true
}

// juliaStr reads a string or command literal up to term, decoding escapes; an interpolation
// ($name, $(expr)) is Placeholder.
func (l *lexer) juliaStr(term string) (string, bool) {
	var out []byte
	dyn := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case len(l.src)-l.pos >= len(term) && l.src[l.pos:l.pos+len(term)] == term:
			l.pos += len(term)
			return string(out), dyn
		case c == '\\' && l.pos+1 < len(l.src):
			n := l.src[l.pos+1]
			l.pos += 2
			switch n {
			case 'n':
				out = append(out, '\n')
			case 't':
				out = append(out, '\t')
			case '\n':
			default:
				out = append(out, n)
			}
		case c == '$' && l.peek(1) == '(':
			l.pos += 2
			depth := 1
			for l.pos < len(l.src) && depth > 0 {
				switch l.src[l.pos] {
				case '(':
					depth++
				case ')':
					depth--
				}
				l.pos++
			}
			out, dyn = append(out, Placeholder...), true
		case c == '$' && isLetter(l.peek(1)):
			l.pos++
			l.word()
			out, dyn = append(out, Placeholder...), true
		default:
			out = append(out, c)
			l.pos++
		}
	}
	l.note("unterminated string")
	return string(out), dyn
}

var (
	juliaOnce  sync.Once
	juliaTable map[string]op
)

// juliaOp is the meaning of a known Julia call, its table built on first use.
func juliaOp(name string) (op, bool) {
	juliaOnce.Do(func() {
		rdelKw := op{kind: opDelete} // recursive when recursive=true
		juliaTable = map[string]op{}
		for _, n := range []string{"rm", "Base.rm", "Filesystem.rm", "Base.Filesystem.rm"} {
			juliaTable[n] = rdelKw
		}
		for _, n := range []string{"write", "Base.write"} {
			juliaTable[n] = op{kind: opWrite}
		}
		for _, n := range []string{"cp", "mv", "Base.cp", "Base.mv"} {
			juliaTable[n] = op{kind: opWrite, at: 1}
		}
		juliaTable["open"] = op{kind: opOpen, mode: 1}
		for _, n := range []string{"eval", "Core.eval", "include_string", "Meta.parse", "Base.eval"} {
			juliaTable[n] = op{kind: opEval}
		}
		for _, n := range []string{"download", "Downloads.download", "HTTP.get", "HTTP.request", "Sockets.connect", "connect"} {
			juliaTable[n] = op{kind: opNet}
		}
		for _, n := range []string{"HTTP.post", "HTTP.put"} {
			juliaTable[n] = op{kind: opNet, send: true}
		}
	})
	o, ok := juliaTable[name]
	return o, ok
}
