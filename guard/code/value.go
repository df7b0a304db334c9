package code

import (
	"encoding/base64"
	"encoding/hex"
	"path"
	"strings"
)

// vkind is the kind of a value computed from a program's tokens.
type vkind uint8

const (
	vUnknown vkind = iota // only known at run time
	vStr
	vList
	vObj // a map, hash, table or object literal: keys[i] names list[i] ("" for positional)
	vNum
	vBool
	vNone
)

// value is what an expression is known to be before the program runs. A vStr with dyn set
// holds Placeholder where its run-time parts go; home marks a path under the home folder.
type value struct {
	kind  vkind
	s     string
	dyn   bool
	truth bool
	list  []value
	keys  []string
}

func unknown() value { return value{kind: vUnknown, s: Placeholder, dyn: true} }

func str(s string) value { return value{kind: vStr, s: s} }

func (v value) literal() bool { return v.kind == vStr && !v.dyn }

// key returns the value under k in an object, if there.
func (v value) key(k string) (value, bool) {
	for i, n := range v.keys {
		if n == k {
			return v.list[i], true
		}
	}
	return value{}, false
}

// text renders v as text: strings as they are, anything else as Placeholder.
func (v value) text() (string, bool) {
	switch v.kind {
	case vStr:
		return v.s, v.dyn
	case vNum:
		return v.s, false
	}
	return Placeholder, true
}

// concatOp is the operator that joins strings in the language.
func concatOp(lang string) string {
	switch lang {
	case "perl", "php":
		return "."
	case "lua":
		return ".."
	case "awk", "r":
		return ""
	}
	return "+"
}

func (s *scanner) eval(a, b int) value { return s.evalD(a, b, 0) }

// evalD evaluates tokens [a, b) as one expression; anything beyond literals, their
// concatenations, lists, objects and the known path and home-folder expressions is unknown.
func (s *scanner) evalD(a, b, d int) value {
	for a < b && s.toks[a].kind == tNL {
		a++
	}
	for b > a && s.toks[b-1].kind == tNL {
		b--
	}
	if a >= b {
		return value{kind: vNone}
	}
	if b-a > 512 || d > 8 {
		return unknown()
	}
	if s.lang == "awk" {
		return s.awkConcat(a, b, d)
	}
	op := concatOp(s.lang)
	var parts []value
	var seps []string
	other, firstOther := false, -1
	start := a
	for i := a; i < b; i++ {
		t := s.toks[i]
		if t.kind == tStr && i > start && s.toks[i-1].kind == tStr && (s.lang == "python" || s.lang == "ruby") {
			parts = append(parts, s.primary(start, i, d)) // "rm -rf " "/": adjacent literals join
			seps = append(seps, "")
			start = i
			continue
		}
		if t.kind != tPunct {
			continue
		}
		switch t.val {
		case "(", "[", "{":
			i = min(s.match[i], b-1)
			continue
		}
		if i == start {
			continue // a unary operator
		}
		if op != "" && t.val == op || s.lang == "python" && t.val == "/" {
			parts = append(parts, s.primary(start, i, d))
			seps = append(seps, t.val)
			start = i + 1
			continue
		}
		if t.val == "." || t.val == "::" || t.val == "->" || t.val == "$" || t.val == ":" && s.lang == "lua" {
			continue // a member of a chain
		}
		if !other {
			other, firstOther = true, i
		}
	}
	parts = append(parts, s.primary(start, b, d))
	if other {
		// an expression beyond concatenation ("rm %s" % x): its first literal, marked dynamic
		v := parts[0]
		if firstOther >= 0 && len(seps) == 0 {
			v = s.primary(a, firstOther, d)
		}
		if v.kind != vStr {
			return unknown()
		}
		v.dyn = true
		if !strings.Contains(v.s, Placeholder) {
			v.s += " " + Placeholder
		}
		return v
	}
	if len(parts) == 1 {
		return parts[0]
	}
	if s.lang == "python" && parts[0].kind == vList {
		out := value{kind: vList}
		for _, p := range parts {
			if p.kind != vList {
				return unknown()
			}
			out.list = append(out.list, p.list...)
		}
		return out
	}
	out := value{kind: vStr}
	for n, p := range parts {
		t, dyn := p.text()
		if n > 0 && seps[n-1] == "/" {
			out.s = joinPath([]string{out.s, t})
			out.dyn = out.dyn || dyn
			continue
		}
		out.s += t
		out.dyn = out.dyn || dyn
	}
	return out
}

// primary evaluates one operand.
func (s *scanner) primary(a, b, d int) value {
	if a >= b {
		return unknown()
	}
	t := s.toks[a]
	if b-a == 1 {
		switch t.kind {
		case tStr:
			return value{kind: vStr, s: t.val, dyn: t.dyn}
		case tNum:
			return value{kind: vNum, s: t.val}
		case tIdent:
			switch t.val {
			case "True", "true", "TRUE", "T":
				return value{kind: vBool, truth: true}
			case "False", "false", "FALSE", "F":
				return value{kind: vBool}
			case "None", "null", "nil", "undef", "NULL", "undefined":
				return value{kind: vNone}
			}
			if v, ok := s.consts[t.val]; ok {
				return v
			}
			if s.lang == "ruby" && t.val == "Dir.home" {
				return str("~")
			}
		}
	}
	if t.kind == tPunct && t.val == "-" && b-a == 2 && s.toks[a+1].kind == tNum {
		return value{kind: vNum, s: "-" + s.toks[a+1].val}
	}
	if t.kind == tPunct && s.match[a] == b-1 {
		switch t.val {
		case "[":
			return s.list(a+1, b-1, d)
		case "(":
			inner := s.split(a+1, b-1)
			if len(inner) > 1 || s.lang == "perl" {
				return s.list(a+1, b-1, d)
			}
			return s.evalD(a+1, b-1, d+1)
		case "{":
			return s.object(a+1, b-1, d)
		}
	}
	if t.kind == tPunct && t.val == "[" && s.match[a] > a && s.match[a]+4 < b && s.punct(s.match[a]+1, ".") &&
		s.toks[s.match[a]+2].kind == tIdent && s.toks[s.match[a]+2].val == "pack" && s.punct(s.match[a]+3, "(") && s.match[s.match[a]+3] == b-1 {
		// Ruby's ["726d…"].pack("H*"): the text the hex digits spell
		args := s.args(s.match[a] + 3)
		l := s.list(a+1, s.match[a], d)
		if len(args) == 1 && len(l.list) == 1 {
			if f := s.evalD(args[0].a, args[0].b, d+1); f.literal() && (f.s == "H*" || f.s == "H") {
				return hexText(l.list[0])
			}
		}
		return unknown()
	}
	if t.kind == tIdent && t.val == "new" && a+1 < b {
		a++
		t = s.toks[a]
	}
	if t.kind == tStr && b-a >= 5 && s.punct(a+1, ".") && s.toks[a+2].kind == tIdent && s.punct(a+3, "(") && s.match[a+3] == b-1 {
		args := s.args(a + 3)
		switch s.toks[a+2].val {
		case "join":
			if len(args) == 1 {
				l := s.evalD(args[0].a, args[0].b, d+1)
				if l.kind == vList {
					var parts []string
					dyn := false
					for _, e := range l.list {
						x, dy := e.text()
						parts = append(parts, x)
						dyn = dyn || dy
					}
					return value{kind: vStr, s: strings.Join(parts, t.val), dyn: dyn}
				}
			}
		case "format":
			return value{kind: vStr, s: t.val, dyn: true}
		}
		return unknown()
	}
	if t.kind == tIdent {
		segs, end := s.chain(a)
		if end == b {
			return s.chainValue(segs, d)
		}
	}
	return unknown()
}

func (s *scanner) list(a, b, d int) value {
	v := value{kind: vList}
	for _, e := range s.split(a, b) {
		if e.a >= e.b {
			continue
		}
		x := s.evalD(e.a, e.b, d+1)
		if x.kind == vList && s.lang == "perl" {
			v.list = append(v.list, x.list...) // Perl lists flatten
			continue
		}
		v.list = append(v.list, x)
	}
	return v
}

func (s *scanner) object(a, b, d int) value {
	v := value{kind: vObj}
	for _, e := range s.split(a, b) {
		if e.a >= e.b {
			continue
		}
		key := e.key
		x := s.evalD(e.a, e.b, d+1)
		if key == "" && s.lang == "lua" && e.b-e.a >= 3 && s.toks[e.a].kind == tIdent && s.punct(e.a+1, "=") {
			key, x = s.toks[e.a].val, s.evalD(e.a+2, e.b, d+1)
		}
		if key == "" && e.b-e.a == 1 && s.toks[e.a].kind == tIdent && s.lang == "javascript" {
			key = s.toks[e.a].val // shorthand {recursive}
		}
		v.keys = append(v.keys, key)
		v.list = append(v.list, x)
	}
	return v
}

// envHome reports whether an environment lookup names the home folder.
func envHome(k value) bool {
	return k.literal() && (k.s == "HOME" || k.s == "USERPROFILE")
}

// chainValue evaluates a receiver chain: the home folder by expression, path joins, list
// constructors, environment lookups of HOME.
func (s *scanner) chainValue(segs []seg, d int) value {
	q := s.qualified(segs)
	last := segs[len(segs)-1]
	name := last.name
	switch q {
	case "process.env.HOME", "Bun.env.HOME", "import.meta.env.HOME", "Dir.home", "process.env.USERPROFILE", "$HOME",
		"os.environ.HOME", "ENV.HOME", "$_server.home", "$_env.home", "ENVIRON.HOME", "Deno.env.HOME":
		if last.call < 0 || len(s.args(last.call)) == 0 {
			return str("~")
		}
	}
	if last.index >= 0 && last.call < 0 {
		k := s.evalD(last.index+1, min(s.match[last.index], len(s.toks)), d+1)
		if s.lang == "perl" && s.match[last.index] == last.index+2 && s.toks[last.index+1].kind == tIdent {
			k = str(s.toks[last.index+1].val)
		}
		switch q {
		case "os.environ", "process.env", "ENV", "$ENV", "$_server", "$_env", "ENVIRON", "Bun.env", "Sys.getenv":
			if envHome(k) {
				return str("~")
			}
		}
		return unknown()
	}
	if last.call < 0 {
		if len(segs) == 1 {
			if v, ok := s.consts[name]; ok {
				return v
			}
		}
		return unknown()
	}
	args := s.args(last.call)
	pos := positional(args)
	argv := func(i int) value {
		if i < len(pos) {
			return s.evalD(pos[i].a, pos[i].b, d+1)
		}
		return value{kind: vNone}
	}
	short := q
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		short = q[i+1:]
	}
	switch {
	case oneOf(q, "process.cwd", "os.getcwd", "os.getcwdb", "Path.cwd", "pathlib.Path.cwd", "Dir.pwd", "Dir.getwd",
		"getcwd", "Deno.cwd", "pwd", "getwd", "Cwd.getcwd", "Cwd.cwd", "cwd"):
		if s.changesDir() {
			return unknown()
		}
		return str(".") // the working directory the program started in
	case oneOf(q, "os.homedir", "Path.home", "pathlib.Path.home", "Dir.home", "fs.path_home", "os.userInfo.homedir",
		"Deno.homeDir", "homedir", "os.path.expanduser.home", "Etc.getpwuid.dir", "path.home"):
		return str("~")
	case oneOf(short, "getenv", "Sys.getenv", "get", "fetch") && oneOf(q, "getenv", "os.getenv", "Sys.getenv", "os.environ.get",
		"ENV.fetch", "Deno.env.get", "System.getenv", "process.env.get"):
		if envHome(argv(0)) {
			return str("~")
		}
	case oneOf(q, "path.expand", "normalizePath", "fs.path_expand", "fs.path_norm") || oneOf(short, "expanduser", "expand_path", "path.expand", "normalizePath", "path_expand", "realpath", "abspath",
		"normpath", "resolve", "absolute", "str", "String", "normalize", "Pathname", "path_norm", "canonicalize") ||
		oneOf(q, "URI", "URI.parse", "URL", "urlparse", "Request", "urllib.request.Request") ||
		oneOf(q, "glob", "bsd_glob", "File.Glob.bsd_glob", "glob.glob", "Dir.glob"): // a pattern names what it matches
		if len(pos) == 0 && len(segs) > 1 {
			return s.chainValue(segs[:len(segs)-1], d+1) // Path('~').expanduser()
		}
		return argv(0)
	case oneOf(q, "os.path.join", "path.join", "path.resolve", "posixpath.join", "File.join", "file.path", "Path",
		"pathlib.Path", "PurePath", "pathlib.PurePath", "PosixPath", "Pathname.new", "fs.path", "path.posix.join",
		"File.expand_path", "Path.join", "filepath.Join", "joinpath", "paste0") ||
		short == "joinpath" && len(segs) > 1:
		var parts []string
		dyn := false
		if short == "joinpath" && len(segs) > 1 {
			r := s.chainValue(segs[:len(segs)-1], d+1)
			t, dy := r.text()
			parts, dyn = append(parts, t), dy
		}
		for i := range pos {
			v := argv(i)
			if v.kind == vObj {
				continue
			}
			t, dy := v.text()
			parts = append(parts, t)
			dyn = dyn || dy
		}
		if q == "paste0" {
			return value{kind: vStr, s: strings.Join(parts, ""), dyn: dyn}
		}
		if len(parts) == 0 {
			return str(".")
		}
		return value{kind: vStr, s: joinPath(parts), dyn: dyn}
	case q == "paste":
		sep := " "
		if k, ok := keyword(args, "sep"); ok {
			v := s.evalD(k.a, k.b, d+1)
			if !v.literal() {
				return unknown()
			}
			sep = v.s
		}
		var parts []string
		dyn := false
		for i := range pos {
			t, dy := argv(i).text()
			parts = append(parts, t)
			dyn = dyn || dy
		}
		return value{kind: vStr, s: strings.Join(parts, sep), dyn: dyn}
	case oneOf(q, "base64.b64decode", "base64.standard_b64decode", "base64.decodebytes", "base64.urlsafe_b64decode", "b64decode",
		"atob", "Base64.decode64", "Base64.strict_decode64", "base64_decode", "decode_base64", "MIME::Base64::decode_base64",
		"base64.decode", "base64enc::base64decode") ||
		q == "Buffer.from" && len(pos) == 2 && argv(1).literal() && argv(1).s == "base64":
		// text decoded from a literal is that text: exec(base64.b64decode('…')) runs what it says
		v := argv(0)
		if !v.literal() {
			return unknown()
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(v.s))
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(strings.TrimSpace(v.s)); err != nil {
				return unknown()
			}
		}
		return str(string(b))
	case q == "pack" && s.lang == "perl" && len(pos) == 2 ||
		oneOf(q, "bytes.fromhex", "bytearray.fromhex", "binascii.unhexlify", "binascii.a2b_hex", "unhexlify", "hex2bin") ||
		oneOf(q, "Buffer.from", "codecs.decode") && len(pos) == 2 && argv(1).literal() && argv(1).s == "hex":
		// text decoded from hex digits is that text: system pack("H*", "726d…") runs what it says
		arg := argv(0)
		if q == "pack" {
			if f := argv(0); !f.literal() || f.s != "H*" && f.s != "H" {
				return unknown()
			}
			arg = argv(1)
		}
		return hexText(arg)
	case len(segs) > 1 && oneOf(short, "decode", "toString", "force_encoding", "to_s", "decode_utf8") && len(pos) <= 1:
		// bytes made text: b64decode(…).decode(), Buffer.from(…).toString()
		if r := s.chainValue(segs[:len(segs)-1], d+1); r.literal() {
			return r
		}
		return unknown()
	case oneOf(q, "c", "list", "array", "tuple", "Array.of", "Array", "vector"):
		v := value{kind: vList}
		for _, a := range args {
			x := s.evalD(a.a, a.b, d+1)
			if x.kind == vList && q != "array" {
				v.list = append(v.list, x.list...)
				continue
			}
			if a.key != "" {
				v.kind = vObj
			}
			v.keys = append(v.keys, a.key)
			v.list = append(v.list, x)
		}
		if q == "list" && s.lang == "python" && len(v.list) == 1 && v.list[0].kind == vList {
			return v.list[0]
		}
		return v
	}
	return unknown()
}

// hexText is the text a literal string of hex digits spells, or unknown.
func hexText(v value) value {
	if !v.literal() {
		return unknown()
	}
	b, err := hex.DecodeString(strings.Join(strings.Fields(v.s), ""))
	if err != nil {
		return unknown()
	}
	return str(string(b))
}

func oneOf(s string, list ...string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// joinPath joins path parts the way os.path.join does: an absolute part starts over.
func joinPath(parts []string) string {
	out := ""
	for _, p := range parts {
		switch {
		case out == "" || strings.HasPrefix(p, "/"):
			out = p
		case p == "":
		case strings.HasSuffix(out, "/"):
			out += p
		default:
			out += "/" + p
		}
	}
	return out
}

// target classifies a path value.
func target(v value) Target {
	switch v.kind {
	case vStr:
		if v.dyn {
			return Target{Kind: KindDynamic, Path: v.s}
		}
		p := v.s
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			return Target{Kind: KindHome, Path: p}
		case strings.HasPrefix(p, "/") && strings.Trim(path.Clean(p), "/") == "":
			return Target{Kind: KindRoot, Path: "/"}
		case strings.HasPrefix(p, "/") && (strings.TrimRight(p, "/*") == "" || strings.TrimRight(p, "/.") == ""):
			return Target{Kind: KindRoot, Path: "/"}
		}
		return Target{Kind: KindPath, Path: p}
	case vNum:
		return Target{Kind: KindPath, Path: v.s}
	}
	return Target{Kind: KindDynamic}
}

// quote makes s one word for a POSIX shell (as guard/shell.Quote does).
func quote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._+:,@%-", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// argvText joins the words of a list with shell quoting; run-time words become Placeholder.
func argvText(words []value) (string, bool) {
	var b strings.Builder
	dyn := false
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case w.kind == vStr && !w.dyn:
			b.WriteString(quote(w.s))
		case w.kind == vNum:
			b.WriteString(w.s)
		case w.kind == vStr:
			b.WriteString(w.s) // keeps the placeholder a parameter, not a quoted literal
			dyn = true
		default:
			b.WriteString(Placeholder)
			dyn = true
		}
	}
	return b.String(), dyn
}

// awkConcat evaluates awk's concatenation by juxtaposition: "rm -rf " dir.
func (s *scanner) awkConcat(a, b, d int) value {
	out := value{kind: vStr}
	for i := a; i < b; {
		j := s.awkOperand(i, b)
		if j <= i {
			// an operator: the value is computed at run time
			if out.s == "" {
				return unknown()
			}
			out.s += Placeholder
			out.dyn = true
			return out
		}
		v := s.primary(i, j, d)
		if j-i == 1 && a == i && j == b {
			return v
		}
		t, dyn := v.text()
		out.s += t
		out.dyn = out.dyn || dyn
		i = j
	}
	return out
}

// awkOperand returns the end of the awk operand at i, or i when an operator is there.
func (s *scanner) awkOperand(i, b int) int {
	t := s.toks[i]
	switch {
	case t.kind == tStr || t.kind == tNum || t.kind == tRegex:
		return i + 1
	case t.kind == tPunct && t.val == "$":
		if i+1 < b {
			return max(s.awkOperand(i+1, b), i+1)
		}
		return i + 1
	case t.kind == tIdent:
		if i+1 < b && (s.punct(i+1, "(") || s.punct(i+1, "[")) {
			return min(s.match[i+1]+1, b)
		}
		return i + 1
	case t.kind == tPunct && t.val == "(":
		return min(s.match[i]+1, b)
	}
	return i
}
