package shell

import (
	"path"
	"strings"
)

// Tcl (tclsh, wish, expect, jimsh): a program is read as the commands it runs. exec (and
// expect's spawn) runs a program with its arguments, without a shell (judged as that command
// line); file delete
// removes paths, recursively with -force; open "|CMD" starts a pipe; eval, uplevel and every
// braced word (the bodies of if, foreach, proc, while, catch) are read as Tcl in turn. A word
// built from a variable or a [command] the guard cannot compute is dynamic. Reading is bounded
// in size, depth and commands.

// Bounds on reading Tcl.
const (
	maxTclDepth    = 8
	maxTclCommands = 512
)

// isTcl reports whether name is a Tcl interpreter.
func isTcl(name string) bool {
	return versioned(name, "tclsh") || versioned(name, "wish") || name == "expect" || name == "jimsh"
}

// tclArgs judges a Tcl interpreter run: its script from -c (expect), a file, or stdin.
func (a *analyzer) tclArgs(args []Word, f *frame, ctx *callCtx) {
	name := path.Base(args[0].Value)
	var text string
	known, fed := false, false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-c" && i+1 < len(args):
			text, known, fed = args[i+1].Value, args[i+1].Static, true
			i = len(args)
		case v == "-" || v == "-f" || v == "-encoding" || v == "-b" || v == "-i" || v == "-d" || v == "-n" || v == "-N":
			if v == "-encoding" || v == "-f" {
				i++
			}
			if v == "-f" && i < len(args) {
				text, known = a.scriptText(args[i])
				fed = true
			}
		case strings.HasPrefix(v, "-") && args[i].Static:
		default:
			text, known = a.scriptText(args[i])
			fed = true
			i = len(args)
		}
	}
	if !fed {
		t, ok := a.stdinScript(args, name, f.with(name+" <stdin>"), ctx, "interpreter")
		if !ok {
			return
		}
		text, known = t, true
	}
	i := a.record(args, name, f, ctx)
	if !known {
		if fed && args[len(args)-1].Static {
			return // a script file the guard cannot read, as for other interpreters
		}
		a.find(FindingDynamicScript, ctx.pos, i, name+" runs code that is not known until it runs")
		return
	}
	t := &tclReader{a: a, vars: map[string]string{}}
	t.script(text, f.with(name+" code"), ctx, 0)
}

type tclReader struct {
	a        *analyzer
	vars     map[string]string // set NAME VALUE with a known value
	commands int
}

// tclWord is one word of a Tcl command: its value (Dyn where unknown) and whether it was braced.
type tclWord struct {
	value  string
	braced bool
	static bool
}

// script reads the commands of a Tcl script, each judged before the next is read, so that
// what set assigns is known to the commands after it.
func (t *tclReader) script(src string, f *frame, ctx *callCtx, depth int) {
	if depth > maxTclDepth {
		t.a.find(FindingTooDeep, ctx.pos, -1, "Tcl code nested more than 8 deep")
		return
	}
	for len(src) > 0 {
		if t.commands >= maxTclCommands {
			t.a.find(FindingTooDeep, ctx.pos, -1, "Tcl code with more than 512 commands")
			return
		}
		cmd, n := t.next(src, depth, f, ctx)
		t.command(cmd, f, ctx, depth)
		src = src[max(n, 1):]
	}
}

// next reads the first command of src: its words and the length it took.
func (t *tclReader) next(src string, depth int, f *frame, ctx *callCtx) ([]tclWord, int) {
	var cur []tclWord
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' || c == ';':
			if len(cur) > 0 {
				return cur, i + 1
			}
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '#' && len(cur) == 0:
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					i++
				}
				i++
			}
		default:
			w, n := t.word(src[i:], depth, f, ctx)
			cur = append(cur, w)
			i += max(n, 1)
		}
	}
	return cur, len(src)
}

// word reads one word at the start of s, returning it and its length.
func (t *tclReader) word(s string, depth int, f *frame, ctx *callCtx) (tclWord, int) {
	if s == "" {
		return tclWord{static: true}, 0
	}
	if strings.HasPrefix(s, "{*}") {
		_, n := t.word(s[3:], depth, f, ctx)
		return tclWord{value: Dyn}, n + 3 // expanded into words not known here
	}
	switch s[0] {
	case '{':
		d := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '{':
				d++
			case '}':
				d--
				if d == 0 {
					return tclWord{value: s[1:i], braced: true, static: true}, i + 1
				}
			}
		}
		return tclWord{value: s[1:], braced: true, static: true}, len(s)
	case '"':
		var b strings.Builder
		static := true
		for i := 1; i < len(s); i++ {
			switch c := s[i]; c {
			case '"':
				return tclWord{value: b.String(), static: static}, i + 1
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteString(tclEscape(s[i]))
				}
			case '$', '[':
				v, n, ok := t.subst(s[i:], depth, f, ctx)
				b.WriteString(v)
				static = static && ok
				i += n - 1
			default:
				b.WriteByte(c)
			}
		}
		return tclWord{value: b.String(), static: static}, len(s)
	}
	var b strings.Builder
	static := true
	i := 0
	for i < len(s) {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '\r' {
			break
		}
		switch c {
		case '\\':
			if i+1 < len(s) {
				b.WriteString(tclEscape(s[i+1]))
			}
			i += 2
			continue
		case '$', '[':
			v, n, ok := t.subst(s[i:], depth, f, ctx)
			b.WriteString(v)
			static = static && ok
			i += max(n, 1)
			continue
		}
		b.WriteByte(c)
		i++
	}
	return tclWord{value: b.String(), static: static}, i
}

// subst reads a $variable or [command] substitution at the start of s: its value (Dyn when
// not known), its length, and whether it is known. A [command] is read as Tcl in turn.
func (t *tclReader) subst(s string, depth int, f *frame, ctx *callCtx) (string, int, bool) {
	if s[0] == '[' {
		d := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '[':
				d++
			case ']':
				d--
				if d == 0 {
					t.script(s[1:i], f, ctx, depth+1)
					return Dyn, i + 1, false
				}
			}
		}
		t.script(s[1:], f, ctx, depth+1)
		return Dyn, len(s), false
	}
	// $name, $::name, ${name}, $name(index)
	i := 1
	var name string
	if i < len(s) && s[i] == '{' {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return Dyn, len(s), false
		}
		name, i = s[2:end], end+1
	} else {
		for i < len(s) && (isTclNameChar(s[i]) || s[i] == ':') {
			i++
		}
		name = s[1:i]
		if name == "" {
			return "$", 1, true
		}
		if i < len(s) && s[i] == '(' {
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				return Dyn, len(s), false
			}
			index := s[i+1 : i+end]
			i += end + 1
			if strings.TrimLeft(name, ":") == "env" && (index == "HOME" || index == "USERPROFILE") && t.a.opts.Home != "" {
				return t.a.opts.Home, i, true
			}
			return Dyn, i, false
		}
	}
	if v, ok := t.vars[strings.TrimLeft(name, ":")]; ok {
		return v, i, !strings.Contains(v, Dyn)
	}
	return Dyn, i, false
}

func isTclNameChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func tclEscape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '\n':
		return " "
	}
	return string(c)
}

// command judges one Tcl command.
func (t *tclReader) command(words []tclWord, f *frame, ctx *callCtx, depth int) {
	t.commands++
	if t.commands > maxTclCommands || len(words) == 0 {
		return
	}
	for _, w := range words[1:] {
		if w.braced && strings.ContainsAny(w.value, " \n;[") {
			t.script(w.value, f, ctx, depth+1) // a body: if, foreach, proc, while, catch
		}
	}
	switch words[0].value {
	case "set":
		if len(words) == 3 {
			t.vars[words[1].value] = words[2].value
		}
	case "exec", "spawn":
		argv := words[1:]
		for len(argv) > 0 && strings.HasPrefix(argv[0].value, "-") {
			if argv[0].value == "--" {
				argv = argv[1:]
				break
			}
			argv = argv[1:] // -ignorestderr, -keepnewline
		}
		t.shell(argv, words[0].value, f, ctx) // spawn (expect): the same, under a terminal
	case "open":
		if len(words) > 1 && strings.HasPrefix(words[1].value, "|") {
			t.a.nested(strings.TrimPrefix(words[1].value, "|"), f.with("Tcl open |"), ctx)
		}
	case "eval", "uplevel":
		var parts []string
		for _, w := range words[1:] {
			parts = append(parts, w.value)
		}
		src := strings.Join(parts, " ")
		if strings.Contains(src, Dyn) {
			t.a.find(FindingDynamicScript, ctx.pos, -1, "Tcl evaluates code that is not known until it runs")
			return
		}
		t.script(src, f, ctx, depth+1)
	case "file":
		if len(words) < 3 || words[1].value != "delete" {
			return
		}
		args := []Word{{Value: "rm", Static: true, Raw: "file delete", Source: "code"}}
		for _, w := range words[2:] {
			switch {
			case w.value == "-force":
				args = append(args, Word{Value: "-rf", Static: true, Raw: "-force", Source: "code"})
			case w.value == "--":
			default:
				args = append(args, t.pathWord(w))
			}
		}
		t.a.record(args, "rm", f.with("Tcl file delete"), ctx)
	}
}

// pathWord is a Tcl word as a path: ~ is the home folder (Tcl's file commands expand it).
func (t *tclReader) pathWord(w tclWord) Word {
	v := w.value
	if home := t.a.opts.Home; home != "" && (v == "~" || strings.HasPrefix(v, "~/")) {
		v = home + v[1:]
	}
	return Word{Value: v, Static: w.static && !strings.Contains(v, Dyn), Raw: w.value, Source: "code"}
}

// tclRedirects are exec's redirection words that read as the shell's.
var tclRedirects = words{"2>", "2>>", "<", "<<", ">", ">>", "|", "|&"}

// shell judges an exec'd command line: words quoted for the shell, unknown ones as a variable
// the analysis does not know.
func (t *tclReader) shell(argv []tclWord, via string, f *frame, ctx *callCtx) {
	var parts []string
	for _, w := range argv {
		switch {
		case w.value == "&" || w.value == "2>@1" || w.value == "2>@" || w.value == ">@":
			continue
		case strings.Contains(w.value, Dyn):
			parts = append(parts, `"$TCL_UNKNOWN_"`)
		case w.value == "~":
			parts = append(parts, "~")
		case strings.HasPrefix(w.value, "~/"):
			parts = append(parts, "~/"+Quote(w.value[2:]))
		case tclRedirects.has(w.value):
			parts = append(parts, w.value) // exec's redirections are the shell's
		case len(w.value) > 1 && (w.value[0] == '>' || w.value[0] == '<') && !strings.ContainsAny(w.value[1:], "<>&@"):
			parts = append(parts, w.value[:1], Quote(w.value[1:])) // >file
		default:
			parts = append(parts, Quote(w.value))
		}
	}
	if len(parts) > 0 {
		t.a.nested(strings.Join(parts, " "), f.with("Tcl "+via), ctx)
	}
}
