package code

import (
	"path"
	"strings"
)

// Language returns the language Scan reads for an interpreter's program name or a language
// name (python3.12, node, deno, bun, perl5.36, ruby, php8.2, lua5.4, luajit, gawk, Rscript,
// javascript, r, ...), or "" when it is none of them.
func Language(name string) string {
	name = strings.ToLower(path.Base(name))
	name = strings.TrimSuffix(name, ".exe")
	switch {
	case versioned(name, "python") || versioned(name, "pypy") || name == "py":
		return "python"
	case name == "javascript" || name == "js" || name == "node" || name == "nodejs" || name == "deno" || name == "bun":
		return "javascript"
	case versioned(name, "perl"):
		return "perl"
	case versioned(name, "ruby") || name == "jruby" || name == "truffleruby":
		return "ruby"
	case versioned(name, "php"):
		return "php"
	case versioned(name, "lua") || name == "luajit":
		return "lua"
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "busybox-awk":
		return "awk"
	case name == "r" || name == "rscript":
		return "r"
	case versioned(name, "julia"):
		return "julia"
	}
	return ""
}

// versioned reports whether name is base followed only by digits and dots (python3.12).
func versioned(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	return ok && strings.Trim(rest, "0123456789.-") == ""
}

// Scan reads a program in lang (a language or interpreter name, as Language takes) and reports
// the calls it makes that a guard judges. It never panics and reads at most 1 MiB; what it could
// not read with certainty is said in Report.Unsure.
func Scan(lang, code string) Report {
	var r Report
	l := Language(lang)
	if l == "" {
		r.Unsure = append(r.Unsure, "unknown language "+lang)
		return r
	}
	if len(code) > maxCode {
		code = code[:maxCode]
		r.note("code over 1 MiB: only the first MiB was read")
	}
	scanCode(&r, l, code, 0, 0)
	return r
}

func (r *Report) note(why string) {
	for _, u := range r.Unsure {
		if u == why {
			return
		}
	}
	r.Unsure = append(r.Unsure, why)
}

// scanCode scans code, at offset base of the outermost program, depth levels of eval deep.
func scanCode(r *Report, lang, code string, base, depth int) {
	main, others, unsure := lex(lang, code)
	for _, u := range unsure {
		r.note(u)
	}
	s := &scanner{lang: lang, src: code, r: r, base: base, depth: depth, aliases: map[string]string{}}
	s.stream(main)
	for _, o := range others {
		if len(o) > 1 { // a lone name (${dir}) calls nothing
			s.stream(o)
		}
	}
}

// scanner finds the calls in the token streams of one program.
type scanner struct {
	lang     string
	src      string
	r        *Report
	base     int
	depth    int
	aliases  map[string]string // local name → qualified name (import os as o, const cp = require(...))
	stars    []string          // modules imported whole into the namespace (from os import *)
	consts   map[string]value  // names assigned once, to a value known before the program runs
	assigned map[string]bool
	toks     []token
	match    []int     // index of the matching bracket, or len(toks) when it has none
	spawns   []spawned // forks and asynchronous spawns in this stream, for fork loops
	indents  []int32   // indentation of each token's line (Python), built on first use
	chdir    int8      // whether the stream changes its working directory: 0 not yet known, 1 no, 2 yes
}

type spawned struct {
	at   int // token index
	call string
	fork bool
}

func (s *scanner) stream(toks []token) {
	s.toks, s.spawns, s.indents, s.chdir = toks, s.spawns[:0], nil, 0
	s.match = matchBrackets(toks)
	deletes := len(s.r.Deletes)
	s.imports()
	s.reassigned()
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tCmd:
			s.r.ShellOuts = append(s.r.ShellOuts, ShellOut{Call: "`…`", Offset: s.base + t.pos, Command: t.val, Dynamic: t.dyn})
			s.spawns = append(s.spawns, spawned{at: i, call: "`…`"})
		case tIdent:
			if i > 0 && isSep(s.lang, toks[i-1]) {
				continue
			}
			s.calls(i)
		case tPunct:
			if s.lang == "awk" {
				s.awkPipe(i)
			}
		}
	}
	s.forkLoops()
	s.listingLoops(deletes)
	s.evalRefs()
}

// matchBrackets pairs brackets in one pass.
func matchBrackets(toks []token) []int {
	m := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		m[i] = len(toks)
		if t.kind != tPunct {
			continue
		}
		switch t.val {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			open := "("
			if t.val == "]" {
				open = "["
			} else if t.val == "}" {
				open = "{"
			}
			for len(stack) > 0 {
				j := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if toks[j].val == open {
					m[j], m[i] = i, j
					break
				}
			}
		}
	}
	return m
}

// isSep reports whether t joins a receiver to a member.
func isSep(lang string, t token) bool {
	if t.kind != tPunct {
		return false
	}
	switch t.val {
	case ".":
		return lang != "perl" && lang != "php"
	case "::", "->":
		return true
	case ":":
		return lang == "lua"
	case "$", "@":
		return lang == "r"
	}
	return false
}

// adjacent reports whether token j follows the previous one with no space between.
func (s *scanner) adjacent(j int) bool {
	p := s.toks[j].pos
	return p > 0 && p <= len(s.src) && s.src[p-1] != ' ' && s.src[p-1] != '\t'
}

func (s *scanner) is(i int, k tkind, v string) bool {
	return i >= 0 && i < len(s.toks) && s.toks[i].kind == k && s.toks[i].val == v
}

func (s *scanner) punct(i int, v string) bool { return s.is(i, tPunct, v) }

// seg is one name of a receiver chain, with the brackets that follow it.
type seg struct {
	name  string
	call  int // index of the '(' of its arguments, or -1
	call2 int // index of a second '(' when the first call names the function: getattr(os, 'system')(...)
	index int // index of a '[' (or Perl's '{') subscript, or -1
	at    int // index of the name
}

// chain reads a.b.c(...)[...].d from the name at i, returning its segments and the index after it.
func (s *scanner) chain(i int) ([]seg, int) {
	var segs []seg
	j := i
	for len(segs) < 16 {
		sg := seg{name: s.toks[j].val, call: -1, call2: -1, index: -1, at: j}
		j++
		for j < len(s.toks) && s.toks[j].kind == tPunct {
			v := s.toks[j].val
			if v == "(" && sg.call < 0 && sg.index < 0 {
				sg.call = j
			} else if v == "(" && sg.call2 < 0 && sg.index < 0 && len(segs) == 0 && sg.name == "getattr" {
				sg.call2 = j
			} else if v == "[" && sg.call < 0 && sg.index < 0 && s.adjacent(j) && s.match[j] == j+2 && s.toks[j+1].kind == tStr &&
				!s.toks[j+1].dyn && s.lang != "perl" && len(segs) < 15 {
				// a member by its name as a string: cp['execSync'](...), os["execute"]
				segs = append(segs, sg)
				sg = seg{name: s.toks[j+1].val, call: -1, call2: -1, index: -1, at: j + 1}
			} else if (v == "[" || v == "{" && s.lang == "perl" && strings.HasPrefix(sg.name, "$")) && sg.index < 0 && s.adjacent(j) {
				sg.index = j
			} else {
				break
			}
			j = s.match[j] + 1
		}
		segs = append(segs, sg)
		if j+1 < len(s.toks) && isSep(s.lang, s.toks[j]) && s.toks[j+1].kind == tIdent {
			j++
			continue
		}
		break
	}
	return segs, j
}

// qualified returns the name of the chain up to segment k, its first name resolved through the
// imports (require('fs').rm is fs.rm; getattr(os, 'system') is os.system).
func (s *scanner) qualified(segs []seg) string {
	if len(segs) == 1 && segs[0].call < 0 && s.lang != "php" && !strings.Contains(segs[0].name, "::") {
		if q, ok := s.aliases[segs[0].name]; ok {
			return q
		}
		return segs[0].name
	}
	var b strings.Builder
	for n, sg := range segs {
		name := sg.name
		if n == 0 {
			name = s.resolveFirst(sg)
		} else if mod := s.moduleArg(sg); mod != "" {
			b.Reset() // importlib.import_module('os').system, module.require('fs').rm
			b.WriteString(mod)
			continue
		}
		if name == "__dict__" || name == "prototype" {
			continue
		}
		name = strings.ReplaceAll(name, "::", ".") // Perl's File::Path::rmtree
		if n > 0 {
			b.WriteByte('.')
		}
		b.WriteString(name)
	}
	q := b.String()
	switch s.lang {
	case "perl":
		q = strings.TrimPrefix(strings.TrimPrefix(q, "CORE.GLOBAL."), "CORE.")
	case "ruby":
		q = strings.TrimPrefix(q, "Kernel.")
	case "php":
		q = strings.ToLower(q)
	case "r":
		q = strings.TrimPrefix(q, "base.")
	case "python":
		q = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(q, "builtins."), "__builtins__."), "sys.modules.")
	case "javascript":
		q = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(q, "globalThis."), "window."), "global.")
	case "lua":
		q = strings.TrimPrefix(strings.TrimPrefix(q, "_G."), "_ENV.")
	}
	return q
}

// moduleArg returns the module a require('m') or import_module('m') segment names, or "".
func (s *scanner) moduleArg(sg seg) string {
	if sg.call < 0 || !oneOf(sg.name, "require", "__import__", "import", "import_module") {
		return ""
	}
	if args := s.args(sg.call); len(args) > 0 {
		if v := s.eval(args[0].a, args[0].b); v.literal() {
			return module(v.s)
		}
	}
	return ""
}

func (s *scanner) resolveFirst(sg seg) string {
	if mod := s.moduleArg(sg); mod != "" {
		return mod
	}
	if sg.call >= 0 {
		args := s.args(sg.call)
		switch sg.name {
		case "getattr":
			if len(args) > 1 {
				recv, ok := s.getattrReceiver(args[0])
				v := s.eval(args[1].a, args[1].b)
				switch {
				case ok && v.kind == vStr && !v.dyn:
					return recv + "." + v.s
				case ok && mostDestructive(s.lang, recv) != "":
					return recv + "." + mostDestructive(s.lang, recv) // a member chosen at run time
				}
			}
		}
	}
	return s.resolveName(sg.name)
}

func (s *scanner) resolveName(name string) string {
	if q, ok := s.aliases[name]; ok {
		return q
	}
	return name
}

// module normalises a module name: node:fs/promises is fs.promises.
func module(m string) string {
	m = strings.TrimPrefix(m, "node:")
	return strings.ReplaceAll(m, "/", ".")
}

// arg is one argument of a call: tokens [a, b), with its keyword when it has one.
type arg struct {
	key  string
	a, b int
}

// args splits the arguments of the call whose '(' is at open.
func (s *scanner) args(open int) []arg {
	end := s.match[open]
	return s.split(open+1, min(end, len(s.toks)))
}

// split cuts tokens [a, b) at the top-level commas.
func (s *scanner) split(a, b int) []arg {
	var out []arg
	start := a
	for i := a; i <= b && len(out) < 64; i++ {
		if i < b {
			t := s.toks[i]
			if t.kind == tPunct && (t.val == "(" || t.val == "[" || t.val == "{") {
				i = min(s.match[i], b)
				continue
			}
			if !(t.kind == tPunct && (t.val == "," || t.val == ";" && s.lang == "julia")) {
				continue
			}
		}
		if i > start || i < b {
			out = append(out, s.keyed(start, i))
		}
		start = i + 1
	}
	return out
}

// keyed recognises name=value (Python, R), name: value (Ruby, JavaScript objects) and
// "name" => value (Ruby, PHP).
func (s *scanner) keyed(a, b int) arg {
	for a < b && s.toks[a].kind == tNL {
		a++
	}
	if b-a >= 3 {
		k, p := s.toks[a], s.toks[a+1]
		if (k.kind == tIdent || k.kind == tStr) && p.kind == tPunct && (p.val == "=" && (s.lang == "python" || s.lang == "r" || s.lang == "julia") ||
			p.val == ":" && (s.lang == "ruby" || s.lang == "javascript") || p.val == "=>") {
			return arg{key: k.val, a: a + 2, b: b}
		}
	}
	return arg{a: a, b: b}
}

// positional returns the arguments without keywords.
func positional(args []arg) []arg {
	var out []arg
	for _, a := range args {
		if a.key == "" {
			out = append(out, a)
		}
	}
	return out
}

func keyword(args []arg, names ...string) (arg, bool) {
	for _, a := range args {
		for _, n := range names {
			if a.key == n {
				return a, true
			}
		}
	}
	return arg{}, false
}
