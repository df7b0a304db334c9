package codex

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A reader of the literal subset of Starlark that Codex's .rules files are written in: top-level
// calls whose arguments are strings, lists, numbers, True, False and None. It is not an
// evaluator; what it does not know is an error with its line.

type tokKind int

const (
	tokEOF tokKind = iota
	tokNewline
	tokIdent
	tokString
	tokNumber
	tokPunct
)

type token struct {
	kind tokKind
	text string // the identifier, punctuation or number as written; a string's value
	line int
	// fstring marks an f-string, whose value is computed: not a literal.
	fstring bool
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "the end of the file"
	case tokNewline:
		return "the end of the line"
	case tokString:
		return "a string"
	case tokNumber:
		return "the number " + t.text
	}
	return fmt.Sprintf("%q", t.text)
}

type starlarkLexer struct {
	file string
	src  string
	pos  int
	line int
}

// errorf is an error at a line of the file: "file:line: text".
func (l *starlarkLexer) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", l.file, line, fmt.Sprintf(format, args...))
}

// starlarkNumber is a number literal, as written.
type starlarkNumber string

// maxStarlarkDepth bounds the nesting of lists in an argument.
const maxStarlarkDepth = 32

func (l *starlarkLexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.pos++
		case c == '\\' && strings.HasPrefix(l.src[l.pos+1:], "\n"):
			l.pos += 2
			l.line++
		case c == '\\' && strings.HasPrefix(l.src[l.pos+1:], "\r\n"):
			l.pos += 3
			l.line++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '\n':
			l.pos++
			l.line++
			return token{kind: tokNewline, line: l.line - 1}, nil
		default:
			return l.token()
		}
	}
	return token{kind: tokEOF, line: l.line}, nil
}

func (l *starlarkLexer) token() (token, error) {
	start, line := l.pos, l.line
	c := l.src[l.pos]
	switch {
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for l.pos < len(l.src) && isIdentByte(l.src[l.pos]) {
			l.pos++
		}
		word := l.src[start:l.pos]
		if l.pos < len(l.src) && (l.src[l.pos] == '"' || l.src[l.pos] == '\'') && isStringPrefix(word) {
			return l.str(line, strings.ContainsAny(word, "rR"), strings.ContainsAny(word, "fF"))
		}
		return token{kind: tokIdent, text: word, line: line}, nil
	case c == '"' || c == '\'':
		return l.str(line, false, false)
	case c >= '0' && c <= '9' || c == '.' && l.pos+1 < len(l.src) && l.src[l.pos+1] >= '0' && l.src[l.pos+1] <= '9':
		for l.pos < len(l.src) && (isIdentByte(l.src[l.pos]) || l.src[l.pos] == '.') {
			l.pos++
		}
		return token{kind: tokNumber, text: l.src[start:l.pos], line: line}, nil
	}
	for _, op := range []string{"**=", "//=", ">>=", "<<=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "//", "<<", ">>", "->"} {
		if strings.HasPrefix(l.src[l.pos:], op) {
			l.pos += len(op)
			return token{kind: tokPunct, text: op, line: line}, nil
		}
	}
	r, n := utf8.DecodeRuneInString(l.src[l.pos:])
	if strings.ContainsRune("()[]{},;:=.+-*/%&|^~<>", r) {
		l.pos += n
		return token{kind: tokPunct, text: string(r), line: line}, nil
	}
	return token{}, l.errorf(line, "unexpected character %q", r)
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isStringPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "b", "f", "rb", "br", "rf", "fr":
		return true
	}
	return false
}

// str reads a string literal whose opening quote is at l.pos.
func (l *starlarkLexer) str(line int, raw, fstring bool) (token, error) {
	q := l.src[l.pos : l.pos+1]
	if strings.HasPrefix(l.src[l.pos:], q+q+q) {
		q = q + q + q
	}
	l.pos += len(q)
	var b strings.Builder
	for {
		if l.pos >= len(l.src) {
			return token{}, l.errorf(line, "string not closed")
		}
		if strings.HasPrefix(l.src[l.pos:], q) {
			l.pos += len(q)
			return token{kind: tokString, text: b.String(), line: line, fstring: fstring}, nil
		}
		c := l.src[l.pos]
		switch {
		case c == '\n' && len(q) == 1:
			return token{}, l.errorf(line, "string not closed before the end of the line")
		case c == '\n':
			l.line++
			b.WriteByte(c)
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src):
			if raw {
				b.WriteString(l.src[l.pos : l.pos+2])
				if l.src[l.pos+1] == '\n' {
					l.line++
				}
				l.pos += 2
				continue
			}
			if err := l.escape(&b, line); err != nil {
				return token{}, err
			}
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
}

// escape decodes the escape sequence at l.pos into b.
func (l *starlarkLexer) escape(b *strings.Builder, line int) error {
	e := l.src[l.pos+1]
	l.pos += 2
	simple := map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '\\': "\\", '\'': "'", '"': "\"", 'a': "\a", 'b': "\b", 'f': "\f", 'v': "\v"}
	if s, ok := simple[e]; ok {
		b.WriteString(s)
		return nil
	}
	hex := func(n int) error {
		if l.pos+n > len(l.src) {
			return l.errorf(line, "escape sequence cut short")
		}
		v, err := strconv.ParseUint(l.src[l.pos:l.pos+n], 16, 32)
		if err != nil || v > utf8.MaxRune {
			return l.errorf(line, "bad escape sequence \\%c%s", e, l.src[l.pos:l.pos+n])
		}
		l.pos += n
		if n == 2 {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
		return nil
	}
	switch {
	case e == '\n':
		l.line++
		return nil
	case e == 'x':
		return hex(2)
	case e == 'u':
		return hex(4)
	case e == 'U':
		return hex(8)
	case e >= '0' && e <= '7':
		v := int(e - '0')
		for i := 0; i < 2 && l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '7'; i++ {
			v = v*8 + int(l.src[l.pos]-'0')
			l.pos++
		}
		b.WriteByte(byte(v))
		return nil
	}
	return l.errorf(line, "unknown escape sequence \\%c", e)
}

// starlarkArg is one argument of a call: its name ("" when positional) and its literal value
// (string, []any, starlarkNumber, bool or nil).
type starlarkArg struct {
	name  string
	value any
}

// callArgs reads a call's arguments up to its closing parenthesis. When literal is false (a
// call whose arguments do not matter) they are skipped, brackets balanced.
func (l *starlarkLexer) callArgs(literal bool) ([]starlarkArg, error) {
	if !literal {
		depth := 1
		for depth > 0 {
			t, err := l.next()
			if err != nil {
				return nil, err
			}
			switch {
			case t.kind == tokEOF:
				return nil, l.errorf(t.line, "a call is not closed")
			case t.kind == tokPunct && strings.Contains("([{", t.text):
				depth++
			case t.kind == tokPunct && strings.Contains(")]}", t.text):
				depth--
			}
		}
		return nil, nil
	}
	var args []starlarkArg
	for {
		t, err := l.skipNewlines()
		if err != nil {
			return nil, err
		}
		if t.kind == tokPunct && t.text == ")" {
			return args, nil
		}
		var a starlarkArg
		if t.kind == tokIdent && t.text != "True" && t.text != "False" && t.text != "None" {
			eq, err := l.skipNewlines()
			if err != nil {
				return nil, err
			}
			if eq.kind != tokPunct || eq.text != "=" {
				return nil, l.errorf(t.line, "%s is not a literal (only literal arguments are read)", t.text)
			}
			a.name = t.text
			if t, err = l.skipNewlines(); err != nil {
				return nil, err
			}
		}
		if a.value, err = l.literal(t, 0); err != nil {
			return nil, err
		}
		args = append(args, a)
		sep, err := l.skipNewlines()
		if err != nil {
			return nil, err
		}
		switch {
		case sep.kind == tokPunct && sep.text == ")":
			return args, nil
		case sep.kind != tokPunct || sep.text != ",":
			return nil, l.errorf(sep.line, "%s where , or ) belongs (only literal arguments are read)", sep.describe())
		}
	}
}

func (l *starlarkLexer) skipNewlines() (token, error) {
	for {
		t, err := l.next()
		if err != nil || t.kind != tokNewline {
			return t, err
		}
	}
}

// literal reads the literal that starts with t.
func (l *starlarkLexer) literal(t token, depth int) (any, error) {
	switch {
	case t.kind == tokString && t.fstring:
		return nil, l.errorf(t.line, "an f-string is computed, not a literal")
	case t.kind == tokString:
		return t.text, nil
	case t.kind == tokNumber:
		return starlarkNumber(t.text), nil
	case t.kind == tokIdent && t.text == "True":
		return true, nil
	case t.kind == tokIdent && t.text == "False":
		return false, nil
	case t.kind == tokIdent && t.text == "None":
		return nil, nil
	case t.kind == tokPunct && t.text == "[":
		if depth >= maxStarlarkDepth {
			return nil, l.errorf(t.line, "lists nested more than %d deep", maxStarlarkDepth)
		}
		list := []any{}
		for {
			el, err := l.skipNewlines()
			if err != nil {
				return nil, err
			}
			if el.kind == tokPunct && el.text == "]" {
				return list, nil
			}
			v, err := l.literal(el, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			sep, err := l.skipNewlines()
			if err != nil {
				return nil, err
			}
			switch {
			case sep.kind == tokPunct && sep.text == "]":
				return list, nil
			case sep.kind != tokPunct || sep.text != ",":
				return nil, l.errorf(sep.line, "%s where , or ] belongs (only literal lists are read)", sep.describe())
			}
		}
	}
	return nil, l.errorf(t.line, "%s is not a literal (only literal arguments are read)", t.describe())
}
