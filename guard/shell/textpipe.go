package shell

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What bash computes before it runs anything: the text a pipeline of pure text filters makes
// (echo … | base64 -d | rev), and what a command substitution of a pure command prints
// ($(dirname "$PWD"), $(printf '%s/.%s' "$HOME" claude)). The guard computes it without running
// anything, so that text decoded on its way into a shell, and paths built by a substitution,
// are judged like text and paths written out. Only filters whose output is a function of their
// input and arguments are followed; anything else is not known.

// maxComputed bounds what one computation may produce.
const maxComputed = 64 << 10

// stageText is the text a pipeline stage writes, from its argv and the text it reads (in, known
// when inKnown). ok is false when the stage is not a pure filter the guard follows.
func (a *analyzer) stageText(argv []Word, in string, inKnown bool) (string, bool) {
	argv = unwrapSimple(argv)
	if len(argv) == 0 || !argv[0].Static {
		return "", false
	}
	for _, w := range argv {
		if !w.Static {
			return "", false
		}
	}
	name := path.Base(argv[0].Value)
	args := make([]string, len(argv)-1)
	for i, w := range argv[1:] {
		args[i] = w.Value
	}
	var out string
	switch name {
	case "echo":
		e := false
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E" || args[0] == "-ne" || args[0] == "-en") {
			e = e || strings.Contains(args[0], "e")
			args = args[1:]
		}
		out = strings.Join(args, " ")
		if e {
			out = unescape(out, false)
		}
		out += "\n"
	case "printf":
		if len(args) == 0 {
			return "", false
		}
		if args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || args[0] == "-v" {
			return "", false
		}
		out = printfText(args[0], args[1:])
	case "base64", "base32", "openssl":
		if name == "openssl" {
			if len(args) == 0 || args[0] != "base64" && args[0] != "enc" {
				return "", false
			}
			args = args[1:]
		}
		if !inKnown {
			return "", false
		}
		if !hasArg(args, "-d", "--decode", "-D") {
			if name == "base32" {
				out = base32.StdEncoding.EncodeToString([]byte(in)) + "\n"
			} else {
				out = base64.StdEncoding.EncodeToString([]byte(in)) + "\n"
			}
			break
		}
		clean := strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, in)
		var b []byte
		var err error
		if name == "base32" {
			b, err = base32.StdEncoding.DecodeString(clean)
		} else {
			b, err = base64.StdEncoding.DecodeString(clean)
			if err != nil {
				b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(clean, "="))
			}
		}
		if err != nil {
			return "", false
		}
		out = string(b)
	case "xxd":
		if !inKnown || !hasArg(args, "-r") || !hasArg(args, "-p", "-ps", "-plain") {
			return "", false
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		if err != nil {
			return "", false
		}
		out = string(b)
	case "rev":
		if !inKnown || len(args) > 0 {
			return "", false
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
			r := []rune(l)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			lines = append(lines, string(r))
		}
		out = strings.Join(lines, "\n") + "\n"
	case "tr":
		if !inKnown || len(args) != 2 {
			return "", false
		}
		from, to := expandSet(args[0]), expandSet(args[1])
		if len(from) == 0 || len(to) == 0 {
			return "", false
		}
		out = strings.Map(func(r rune) rune {
			if i := strings.IndexRune(string(from), r); i >= 0 {
				idx := len([]rune(string(from)[:i]))
				if idx >= len(to) {
					return to[len(to)-1]
				}
				return to[idx]
			}
			return r
		}, in)
	case "cat":
		if len(args) == 0 && inKnown {
			out = in
		} else {
			return "", false
		}
	case "dirname":
		if len(args) != 1 {
			return "", false
		}
		out = path.Dir(args[0]) + "\n"
	case "basename":
		if len(args) == 0 || len(args) > 2 {
			return "", false
		}
		out = path.Base(args[0])
		if len(args) == 2 {
			out = strings.TrimSuffix(out, args[1])
		}
		out += "\n"
	case "realpath", "readlink":
		if len(args) == 0 {
			return "", false
		}
		p := args[len(args)-1]
		if name == "readlink" && !hasArg(args, "-f", "-e", "-m", "--canonicalize") {
			return "", false
		}
		if !path.IsAbs(p) {
			if a.cwd == "" {
				return "", false
			}
			p = path.Join(a.cwd, p)
		}
		out = path.Clean(p) + "\n"
	case "pwd":
		if a.cwd == "" {
			return "", false
		}
		out = a.cwd + "\n"
	case "whoami", "logname":
		if a.opts.Home == "" || len(args) > 0 {
			return "", false
		}
		out = path.Base(a.opts.Home) + "\n"
	case "getent":
		// the passwd entry of the user whose home the guard was given; another user's is not known
		if a.opts.Home == "" || len(args) != 2 || args[0] != "passwd" || args[1] != path.Base(a.opts.Home) {
			return "", false
		}
		out = args[1] + ":x:1000:1000:" + args[1] + ":" + a.opts.Home + ":/bin/sh\n"
	case "cut":
		if !inKnown {
			return "", false
		}
		var ok bool
		if out, ok = cutFields(args, in); !ok {
			return "", false
		}
	case "id":
		if a.opts.Home == "" || !(len(args) == 1 && (args[0] == "-un" || args[0] == "-nu")) {
			return "", false
		}
		out = path.Base(a.opts.Home) + "\n"
	case "git":
		// the repository of the working directory, taken to be the working directory
		switch {
		case a.cwd == "":
			return "", false
		case len(args) == 2 && args[0] == "rev-parse" && args[1] == "--show-toplevel":
			out = a.cwd + "\n"
		case len(args) == 2 && args[0] == "rev-parse" && (args[1] == "--git-dir" || args[1] == "--absolute-git-dir"):
			out = path.Join(a.cwd, ".git") + "\n"
		default:
			return "", false
		}
	default:
		return "", false
	}
	if len(out) > maxComputed {
		return "", false
	}
	return out, true
}

// cutFields is what `cut -d DELIM -f LIST` prints of in: the fields LIST names (N, N-M, N-, -M,
// separated by commas) of each line, joined by DELIM; a line without DELIM is printed whole, as
// cut does without -s. ok is false for any other use of cut.
func cutFields(args []string, in string) (string, bool) {
	delim, list := "\t", ""
	for i := 0; i < len(args); i++ {
		v := args[i]
		switch {
		case (v == "-d" || v == "-f") && i+1 < len(args):
			if v == "-d" {
				delim = args[i+1]
			} else {
				list = args[i+1]
			}
			i++
		case strings.HasPrefix(v, "--delimiter="):
			delim = strings.TrimPrefix(v, "--delimiter=")
		case strings.HasPrefix(v, "--fields="):
			list = strings.TrimPrefix(v, "--fields=")
		case strings.HasPrefix(v, "-d") && len(v) > 2:
			delim = v[2:]
		case strings.HasPrefix(v, "-f") && len(v) > 2:
			list = v[2:]
		default:
			return "", false
		}
	}
	if len(delim) != 1 || list == "" {
		return "", false
	}
	type span struct{ lo, hi int }
	var spans []span
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		s := span{1, 1 << 30}
		var err error
		if lo != "" {
			if s.lo, err = strconv.Atoi(lo); err != nil || s.lo < 1 {
				return "", false
			}
		}
		switch {
		case !isRange:
			s.hi = s.lo
		case hi != "":
			if s.hi, err = strconv.Atoi(hi); err != nil || s.hi < s.lo {
				return "", false
			}
		}
		spans = append(spans, s)
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		if !strings.Contains(line, delim) {
			b.WriteString(line + "\n")
			continue
		}
		var keep []string
		for i, f := range strings.Split(line, delim) {
			for _, s := range spans {
				if i+1 >= s.lo && i+1 <= s.hi {
					keep = append(keep, f)
					break
				}
			}
		}
		b.WriteString(strings.Join(keep, delim) + "\n")
	}
	return b.String(), true
}

// pipelineText is the text the stage src (and the stages before it) writes, when every stage is
// a pure filter the guard follows.
func (a *analyzer) pipelineText(src *stdinSource, depth int) (string, bool) {
	if src == nil || depth > 16 || len(src.inv) == 0 {
		return "", false
	}
	in, inKnown := "", false
	if src.prev != nil {
		in, inKnown = a.pipelineText(src.prev, depth+1)
	} else if src.stmt != nil {
		for _, r := range src.stmt.Redirs {
			switch r.Op {
			case syntax.WordHdoc:
				w := a.literal(r.Word)
				in, inKnown = w.Value+"\n", w.Static
			case syntax.Hdoc, syntax.DashHdoc:
				w := a.document(r)
				in, inKnown = w.Value, w.Static
			}
		}
	}
	return a.stageText(src.inv, in, inKnown)
}

// substText is what a command substitution prints when its commands are pure: one command,
// a pipeline of filters, or cd DIR && pwd.
func (a *analyzer) substText(stmts []*syntax.Stmt) (string, bool) {
	if len(stmts) != 1 || a.substDepth > 4 {
		return "", false
	}
	a.substDepth++
	defer func() { a.substDepth-- }()
	s := stmts[0]
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return "", false
		}
		in, inKnown := "", false
		for _, r := range s.Redirs {
			switch r.Op {
			case syntax.WordHdoc:
				w := a.literal(r.Word)
				in, inKnown = w.Value+"\n", w.Static
			default:
				return "", false
			}
		}
		argv := a.freshFields(c.Args)
		if len(argv) > 1 && argv[0].Static && argv[0].Value == "eval" && !inKnown {
			return a.evalText(argv[1:]) // $(eval echo ~dev)
		}
		return a.stageText(argv, in, inKnown)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe {
			var stages []*syntax.Stmt
			var flatten func(s *syntax.Stmt)
			flatten = func(s *syntax.Stmt) {
				if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe {
					flatten(b.X)
					flatten(b.Y)
					return
				}
				stages = append(stages, s)
			}
			flatten(s)
			var src *stdinSource
			for _, st := range stages {
				call, ok := st.Cmd.(*syntax.CallExpr)
				if !ok {
					return "", false
				}
				src = &stdinSource{stmt: st, inv: a.freshFields(call.Args), prev: src}
			}
			return a.pipelineText(src, 0)
		}
		// cd DIR && pwd
		if c.Op == syntax.AndStmt {
			cd, ok1 := c.X.Cmd.(*syntax.CallExpr)
			pwd, ok2 := c.Y.Cmd.(*syntax.CallExpr)
			if ok1 && ok2 && len(cd.Args) == 2 && cd.Args[0].Lit() == "cd" && len(pwd.Args) == 1 && pwd.Args[0].Lit() == "pwd" {
				dir := a.freshFields(cd.Args[1:])
				if len(dir) != 1 || !dir[0].Static {
					return "", false
				}
				p := dir[0].Value
				if !path.IsAbs(p) {
					if a.cwd == "" {
						return "", false
					}
					p = path.Join(a.cwd, p)
				}
				return path.Clean(p) + "\n", true
			}
		}
	}
	return "", false
}

func hasArg(args []string, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a == n {
				return true
			}
		}
	}
	return false
}

// expandSet expands tr's ranges (a-z) and escapes; classes like [:upper:] are not followed.
func expandSet(s string) []rune {
	if strings.Contains(s, "[:") || len(s) > 256 {
		return nil
	}
	r := []rune(unescape(s, false))
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out
}

// printfText formats as printf does for the directives agents and attackers use: %s, %b, %d,
// %c, %%, and the escapes of the format; the format is reused while arguments remain.
func printfText(format string, args []string) string {
	var b strings.Builder
	for first := true; first || len(args) > 0; first = false {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' {
				j := escapeEnd(format, i)
				b.WriteString(unescape(format[i:j], true))
				i = j - 1
				continue
			}
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			i++
			for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
				i++
			}
			if i >= len(format) {
				break
			}
			arg := ""
			if format[i] != '%' {
				if len(args) > 0 {
					arg, args = args[0], args[1:]
					used = true
				}
			}
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 'b':
				b.WriteString(unescape(arg, true))
			case 'c':
				if arg != "" {
					b.WriteByte(arg[0])
				}
			default:
				b.WriteString(arg)
			}
		}
		if !used || b.Len() > maxComputed {
			break
		}
	}
	return b.String()
}

// escapeEnd is where the backslash escape at s[i] ends: \xHH, up to four octal digits after
// \0 (three otherwise), or one character.
func escapeEnd(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return j
	}
	switch c := s[j]; {
	case c == 'x' || c == 'X':
		j++
		for k := 0; k < 2 && j < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0; k++ {
			j++
		}
	case c >= '0' && c <= '7':
		limit := 3
		if c == '0' {
			limit = 4
		}
		for k := 0; k < limit && j < len(s) && s[j] >= '0' && s[j] <= '7'; k++ {
			j++
		}
	default:
		j++
	}
	return j
}

// unescape turns backslash escapes into the characters they stand for: \n \t \\ \xHH \NNN (and
// \0NNN when octal0 is set, as %b and printf's format read it).
func unescape(s string, octal0 bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == 'n':
			b.WriteByte('\n')
		case c == 't':
			b.WriteByte('\t')
		case c == 'r':
			b.WriteByte('\r')
		case c == '\\':
			b.WriteByte('\\')
		case c == 'x' || c == 'X':
			j := i + 1
			for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if v, err := strconv.ParseUint(s[i+1:j], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i = j - 1
			} else {
				b.WriteString(`\x`)
			}
		case c >= '0' && c <= '7':
			j := i
			limit := i + 3
			if c == '0' && octal0 {
				limit = i + 4
			}
			for j < len(s) && j < limit && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			if v, err := strconv.ParseUint(s[i:j], 8, 8); err == nil {
				b.WriteByte(byte(v))
			}
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// setParams sets the positional parameters: words[0] is $0, the rest $1 and on.
func (a *analyzer) setParams(words []Word) {
	a.params = []string{}
	for i, w := range words {
		if i == 0 {
			a.vars["0"] = w.Value
			continue
		}
		a.vars[strconv.Itoa(i)] = w.Value
		a.params = append(a.params, w.Value)
	}
}

// callFunction follows a call of a function the command line defined, with its arguments as
// the positional parameters.
func (a *analyzer) callFunction(args []Word, f *frame, ctx *callCtx) {
	body := a.funcBodies[args[0].Value]
	a.callDepth++
	defer func() { a.callDepth-- }()
	a.scoped(func() {
		a.setParams(args)
		a.stmt(body, f.with("call "+args[0].Value), nil)
	})
}

// defineAliases keeps alias NAME=VALUE definitions for the rest of the command line.
func (a *analyzer) defineAliases(args []Word) {
	for _, w := range args {
		name, value, ok := strings.Cut(w.Value, "=")
		if !ok || !w.Static || name == "" {
			continue
		}
		if a.aliases == nil {
			a.aliases = map[string]string{}
		}
		a.aliases[name] = value
	}
}

// xargsCommand is the command xargs runs: its own arguments and, when the text on its stdin is
// known (echo ~ | xargs rm -rf, xargs rm <<< ~), the words of that text in place of stdin.
func (a *analyzer) xargsCommand(rest []Word, ctx *callCtx) []Word {
	cmd := xargsArgs(rest)
	if len(cmd) > 0 && path.Base(cmd[0].Value) == "kill" && ctx.stdin != nil && listsEveryPid(ctx.stdin) {
		a.find(FindingKillAll, ctx.pos, -1, "xargs kill of every process ps lists")
	}
	text, known, _ := a.stdinText(ctx)
	t, ok, given := a.xargsFile(rest)
	if given {
		text, known = t, ok // xargs -a FILE reads its items from FILE, not stdin
	} else if from := a.pipedFrom(ctx.stdin); from != "" {
		// the items are what the pipeline before it prints: the words they stand in for
		// carry it (redis-cli --scan | xargs redis-cli del: every key)
		for i := range cmd {
			if cmd[i].Source == "stdin" && !cmd[i].Static {
				cmd[i].From = append(cmd[i].From, from)
			}
		}
	}
	if !known || strings.Contains(text, Dyn) {
		return cmd
	}
	nul := hasAnyFlag(rest, "-0", "--null")
	var items []string
	if nul {
		items = strings.FieldsFunc(text, func(r rune) bool { return r == 0 || r == '\n' })
	} else {
		items = strings.Fields(text)
	}
	if len(items) == 0 || len(items) > 64 {
		return cmd
	}
	out := make([]Word, 0, len(cmd)+len(items))
	for _, w := range cmd {
		if w.Source != "stdin" {
			out = append(out, w)
			continue
		}
		if strings.Contains(w.Value, Dyn) && w.Value != Dyn {
			// -I {}: one command per item; the first stands for each
			out = append(out, Word{Value: strings.ReplaceAll(w.Value, Dyn, items[0]), Static: true, Raw: w.Raw, Source: "stdin"})
			continue
		}
		for _, it := range items {
			out = append(out, Word{Value: it, Static: true, Raw: it, Source: "stdin"})
		}
	}
	return out
}

// substScript judges a shell that runs what a process substitution prints: a download is a
// download piped into a shell; text the guard cannot compute cannot be seen.
func (a *analyzer) substScript(raw, name string, ctx *callCtx, inv int) {
	inner := strings.TrimSuffix(strings.TrimPrefix(raw, "<("), ")")
	fields := strings.Fields(inner)
	if len(fields) > 0 && downloaders.has(path.Base(fields[0])) {
		a.find(FindingPipeToShell, ctx.pos, inv, "a download ("+path.Base(fields[0])+") is run by "+name)
		return
	}
	if envGenerator("$(" + strings.TrimPrefix(raw, "<(")) {
		return
	}
	a.find(FindingShellStdin, ctx.pos, inv, name+" runs what "+raw+" prints, which cannot be seen")
}

// freshFields expands words with a configuration of their own: the expander keeps state while
// it works, so a command substitution computed in the middle of another expansion must not
// share it.
func (a *analyzer) freshFields(words []*syntax.Word) []Word {
	outer := a.cfg
	a.cfg = nil
	defer func() { a.cfg = outer }()
	return a.fields(words)
}

// listsEveryPid reports whether a pipeline stage, with nothing between it and the consumer that
// picks lines, is ps listing every process (ps -e, ps ax, pgrep .).
func listsEveryPid(src *stdinSource) bool {
	for s := src; s != nil; s = s.prev {
		argv := unwrapSimple(s.inv)
		if len(argv) == 0 || !argv[0].Static {
			return false
		}
		switch path.Base(argv[0].Value) {
		case "ps":
			for _, w := range argv[1:] {
				v := w.Value
				if v == "-e" || v == "-A" || v == "ax" || v == "aux" || v == "-ef" || v == "axo" || strings.HasPrefix(v, "-e") && !strings.HasPrefix(v, "--") {
					return true
				}
			}
			return false
		case "awk", "cut", "tr", "sort", "uniq", "tail", "sed", "jq", "column":
			vals := make([]string, len(argv))
			for i, w := range argv {
				vals[i] = w.Value
			}
			if !KeepsEveryLine(vals) {
				return false
			}
		default:
			return false // grep, head, pgrep NAME: some processes
		}
	}
	return false
}

// KeepsEveryLine reports whether a pipeline stage (argv) passes on every line it reads, perhaps
// cut down or tidied: column pickers and tidiers (awk '{print $3}', cut -f1, tr, sort, uniq,
// tail -n +2 past a header, jq without select). awk or sed with a pattern, grep, head, and
// anything else may pick some lines.
func KeepsEveryLine(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := path.Base(argv[0])
	switch name {
	case "awk", "cut", "tr", "sort", "uniq", "tail", "sed", "jq", "column":
	default:
		return false
	}
	if name == "tail" && len(argv) < 2 {
		return false // the last ten lines
	}
	for i, v := range argv[1:] {
		if strings.Contains(v, "/") || strings.Contains(v, "~") || strings.Contains(v, "==") {
			return false
		}
		switch {
		case name == "tail":
			// only tail -n +2 (every line from the second: past a header)
			n := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(v, "--lines="), "-n"), "--lines")
			if n == "" && i+2 < len(argv) {
				n = argv[i+2]
			}
			if !strings.HasPrefix(n, "+") && !(i > 0 && (argv[i] == "-n" || argv[i] == "--lines")) {
				return false
			}
		case name == "jq" && strings.Contains(v, "select"):
			return false
		case name == "awk" && strings.Contains(v, "{") && !strings.HasPrefix(strings.TrimSpace(v), "{"):
			return false // a pattern before the action: NR>1 {print $1}
		case name == "awk" && (strings.Contains(v, "if") || strings.Contains(v, "next") || strings.Contains(v, "exit")):
			return false
		}
	}
	return true
}
