package code

import "strings"

// definers are the keywords that make the following name a definition, not a call.
func definer(v string) bool {
	switch v {
	case "def", "function", "sub", "fn", "func", "method", "async", "alias", "undef", "defined", "exists", "typeof", "class":
		return true
	}
	return false
}

// calls finds the calls of the receiver chain that starts at i and reports the known ones.
func (s *scanner) calls(i int) {
	if i > 0 && s.toks[i-1].kind == tIdent && definer(s.toks[i-1].val) {
		return
	}
	if !s.mayCall(i) {
		return
	}
	segs, end := s.chain(i)
	for k, sg := range segs {
		if k == 0 && sg.call >= 0 && oneOf(sg.name, "require", "import", "__import__", "import_module") {
			continue // the module itself, named by the segments that follow
		}
		if sg.call < 0 && k < len(segs)-1 {
			continue
		}
		q := s.qualified(segs[:k+1])
		o, q, ok := s.lookup(q, sg.name, k > 0)
		if !ok && !oneOf(sg.name, "send", "public_send", "__send__", "call_user_func", "call_user_func_array", "do.call") &&
			!(s.lang == "php" && oneOf(sg.name, "array_map", "array_walk")) {
			continue
		}
		var args []arg
		bare := -1
		switch {
		case sg.call >= 0:
			args = s.args(sg.call)
			if s.lang == "javascript" && s.punct(s.match[sg.call]+1, "{") {
				continue // a method definition: exec(cmd) { ... }
			}
		case k == len(segs)-1:
			a, b, ok := s.bareArgs(end)
			if !ok {
				if o.kind == opFork { // Perl's and Ruby's fork, with no arguments and no parentheses
					s.spawns = append(s.spawns, spawned{at: sg.at, call: q, fork: true})
				}
				if !(s.lang == "ruby" && k > 0 && o.at < 0) { // Ruby's path.rmtree needs no parentheses
					continue
				}
			}
			args, bare = s.split(a, b), a
		default:
			continue
		}
		if sg.call2 >= 0 {
			args = s.args(sg.call2) // getattr(os, 'system')('...')
		}
		if s.lang == "php" && len(args) == 2 && oneOf(sg.name, "array_map", "array_walk") {
			// array_map('unlink', LIST), array_walk(LIST, 'unlink'): the function named runs on
			// each element of the list, as call_user_func_array would on all of them
			if sg.name == "array_walk" {
				args = []arg{args[1], args[0]}
			}
			name := s.eval(args[0].a, args[0].b)
			o, ok = ops(s.lang, strings.ToLower(name.s))
			if !name.literal() || !ok {
				continue
			}
			q = strings.ToLower(name.s)
			args = args[1:]
		} else if len(args) > 0 && oneOf(sg.name, "send", "public_send", "__send__", "call_user_func", "call_user_func_array", "do.call") {
			// Kernel.send(:system, "..."), call_user_func('system', ...), do.call("system", list(...))
			name := s.eval(args[0].a, args[0].b)
			if !name.literal() {
				if args[0].b-args[0].a != 1 || s.toks[args[0].a].kind != tIdent {
					continue
				}
				name = str(s.toks[args[0].a].val)
			}
			q = name.s
			if k > 0 && s.lang == "ruby" {
				q = s.qualified(segs[:k]) + "." + q
			}
			if s.lang == "php" {
				q = strings.ToLower(q)
			}
			q = strings.TrimPrefix(q, "Kernel.")
			if o, ok = ops(s.lang, q); !ok {
				continue
			}
			args = args[1:]
			if len(args) == 1 && sg.name != "send" && sg.name != "public_send" && sg.name != "__send__" && sg.name != "call_user_func" {
				if l := s.eval(args[0].a, args[0].b); l.kind == vList && s.punct(args[0].a, "[") || s.is(args[0].a, tIdent, "list") || s.is(args[0].a, tIdent, "array") {
					args = s.listArgs(args[0])
				}
			}
		} else if !ok {
			continue
		}
		c := call{name: q, pos: s.base + s.toks[sg.at].pos, at: sg.at, args: args, recv: segs[:k], bare: bare}
		s.apply(o, c)
	}
}

// mayCall is a quick test that the name at i can start a call: it is followed by '(' or a
// member, or, where calls need no parentheses, it is a known function.
func (s *scanner) mayCall(i int) bool {
	if i+1 >= len(s.toks) {
		return (s.lang == "perl" || s.lang == "ruby") && s.known(s.toks[i].val)
	}
	n := s.toks[i+1]
	if n.kind == tPunct && (n.val == "(" || n.val == "[" || n.val == "{" || isSep(s.lang, n)) {
		return true
	}
	switch s.lang {
	case "perl", "ruby":
		return s.known(s.toks[i].val)
	case "javascript", "lua":
		return n.kind == tStr
	}
	return false
}

func (s *scanner) known(name string) bool {
	q := s.resolveName(strings.ReplaceAll(name, "::", "."))
	_, ok := ops(s.lang, q)
	if !ok && s.lang == "perl" {
		_, ok = ops(s.lang, strings.TrimPrefix(strings.TrimPrefix(q, "CORE.GLOBAL."), "CORE."))
	}
	if !ok && s.lang == "ruby" {
		_, ok = ops(s.lang, strings.TrimPrefix(q, "Kernel."))
	}
	return ok
}

// listArgs returns the elements of a list literal ([...], list(...), array(...)) as arguments.
func (s *scanner) listArgs(a arg) []arg {
	open := a.a
	if s.toks[open].kind == tIdent {
		open++
	}
	if !s.punct(open, "[") && !s.punct(open, "(") || s.match[open] >= a.b {
		return []arg{a}
	}
	return s.split(open+1, s.match[open])
}

// call is one call of a known function.
type call struct {
	name string
	pos  int
	at   int
	args []arg
	recv []seg // the receiver chain, for methods
	bare int   // first token of the arguments of a call without parentheses, or -1
}

// bareArgs finds the arguments of a call written without parentheses, where the language
// allows it: Perl and Ruby (system "ls"), Lua (os.execute "ls", f{...}), JavaScript tagged
// templates (Bun.$`ls`).
func (s *scanner) bareArgs(j int) (int, int, bool) {
	if j >= len(s.toks) {
		return 0, 0, false
	}
	t := s.toks[j]
	switch s.lang {
	case "javascript":
		if t.kind == tStr && s.src != "" && t.pos < len(s.src) && s.src[t.pos] == '`' {
			return j, j + 1, true
		}
		return 0, 0, false
	case "lua":
		if t.kind == tStr {
			return j, j + 1, true
		}
		if s.punct(j, "{") && s.match[j] < len(s.toks) {
			return j, s.match[j] + 1, true
		}
		return 0, 0, false
	case "perl", "ruby":
		if s.lang == "perl" && s.punct(j, "{") && s.match[j] < len(s.toks) {
			j = s.match[j] + 1 // system { $prog } @args: the block names the program
			if j >= len(s.toks) {
				return 0, 0, false
			}
			t = s.toks[j]
		}
	default:
		return 0, 0, false
	}
	switch {
	case t.kind == tStr || t.kind == tCmd || t.kind == tNum || t.kind == tIdent && !stopWord(t.val):
	case t.kind == tPunct && (t.val == "-" || t.val == "(" || t.val == "[" && s.lang == "ruby"):
	default:
		return 0, 0, false
	}
	b := j
	for ; b < len(s.toks) && b < j+maxBare; b++ {
		t := s.toks[b]
		if t.kind == tNL {
			break
		}
		if t.kind == tIdent && stopWord(t.val) {
			break
		}
		if t.kind == tPunct {
			if t.val == ";" || t.val == "}" || t.val == ")" || t.val == "]" {
				break
			}
			if t.val == "(" || t.val == "[" || t.val == "{" {
				b = s.match[b]
			}
		}
	}
	return j, min(b, len(s.toks)), true
}

// maxBare bounds the tokens read as the arguments of a call without parentheses.
const maxBare = 256

func stopWord(v string) bool {
	switch v {
	case "if", "unless", "while", "until", "or", "and", "do", "for", "foreach", "then", "end", "rescue":
		return true
	}
	return false
}

// argVal evaluates positional argument i of c (-1: the receiver).
func (s *scanner) argVal(c call, i int) value {
	if i < 0 {
		if len(c.recv) == 0 {
			return unknown()
		}
		return s.chainValue(c.recv, 0)
	}
	pos := positional(c.args)
	if i < len(pos) {
		return s.eval(pos[i].a, pos[i].b)
	}
	return value{kind: vNone}
}

func (s *scanner) apply(o op, c call) {
	r := s.r
	if o.known && len(c.recv) > 0 && s.chainValue(c.recv, 0).kind == vUnknown {
		return // h.delete(:key), tarfile.open(...): not a path
	}
	switch o.kind {
	case opShell, opJoin, opProg, opExecl, opSpawnObj, opTemplate:
		cmd, argv, dyn, ok := s.command(o, c)
		if !ok {
			return
		}
		r.ShellOuts = append(r.ShellOuts, ShellOut{Call: c.name, Offset: c.pos, Command: cmd, Argv: argv, Dynamic: dyn})
		if o.async || strings.HasSuffix(strings.TrimSpace(cmd), "&") {
			s.spawns = append(s.spawns, spawned{at: c.at, call: c.name})
		}
	case opDelete:
		rec := o.rec || s.recursive(c, o)
		for _, v := range s.targets(c, o) {
			r.Deletes = append(r.Deletes, Delete{Call: c.name, Offset: c.pos, Target: target(v), Recursive: rec})
		}
	case opWrite:
		v := s.argVal(c, o.at)
		if k, ok := keyword(c.args, "file", "con", "path", "filename"); ok {
			v = s.eval(k.a, k.b)
		} else if v.kind == vNone {
			return
		}
		app := o.append
		if c.name == "file_put_contents" && len(positional(c.args)) > 2 {
			app = true // FILE_APPEND, or flags not known: appending is the lesser claim
		}
		s.write(c, v, app)
	case opOpen:
		s.open(o, c)
	case opKill:
		s.kill(o, c)
	case opFork:
		s.spawns = append(s.spawns, spawned{at: c.at, call: c.name, fork: true})
	case opNet:
		s.net(o, c)
	case opEval:
		s.eval1(o, c)
	}
}

// command works out the shell text of a shell-out.
func (s *scanner) command(o op, c call) (cmd string, argv, dyn, ok bool) {
	pos := positional(c.args)
	if o.kind == opTemplate {
		if c.bare < 0 {
			return "", false, false, false
		}
		t := s.toks[c.bare]
		return t.val, false, t.dyn, true
	}
	if len(pos) == 0 {
		if k, found := keyword(c.args, "args", "cmd", "command"); found {
			pos = []arg{k}
		} else {
			return "", false, false, false
		}
	}
	at := min(o.at, len(pos)-1)
	if o.kind == opJoin && o.at >= len(pos) {
		return "", false, false, false
	}
	switch o.kind {
	case opShell:
		return shellText(s.eval(pos[at].a, pos[at].b))
	case opJoin:
		var words []value
		for _, p := range pos[min(o.at, len(pos)):] {
			v := s.eval(p.a, p.b)
			if v.kind == vObj {
				continue // an environment or options hash
			}
			words = append(words, v)
		}
		if len(words) == 1 {
			return shellText(words[0])
		}
		if len(words) == 0 {
			return "", false, false, false
		}
		var flat []value
		for _, w := range words {
			if w.kind == vList {
				flat = append(flat, w.list...)
			} else {
				flat = append(flat, w)
			}
		}
		cmd, dyn = argvText(flat)
		return cmd, true, dyn, true
	case opProg:
		prog := s.eval(pos[at].a, pos[at].b)
		if prog.kind == vList {
			return shellText(prog)
		}
		words := []value{prog}
		shellOpt := false
		for n, p := range pos[at+1:] {
			v := s.eval(p.a, p.b)
			switch v.kind {
			case vList:
				if n == 0 {
					words = append(words, v.list...)
				}
			case vObj:
				if a, ok := v.key("args"); ok && a.kind == vList {
					words = append(words, a.list...)
				}
				if sh, ok := v.key("shell"); ok && (sh.kind != vBool || sh.truth) {
					shellOpt = true
				}
			case vStr, vUnknown:
				if n == 0 && !s.isFunction(p) { // the arguments; later ones are options or callbacks
					words = append(words, v)
				}
			}
		}
		if k, ok := keyword(c.args, "args"); ok {
			if v := s.eval(k.a, k.b); v.kind == vList {
				words = append(words, v.list...)
			} else {
				words = append(words, v)
			}
		}
		if shellOpt || c.name == "system2" {
			// the words reach a shell as they are
			var parts []string
			for _, w := range words {
				t, d := w.text()
				parts = append(parts, t)
				dyn = dyn || d
			}
			return strings.Join(parts, " "), false, dyn, true
		}
		if len(words) == 1 && prog.kind == vStr && strings.ContainsAny(prog.s, " \t") && s.lang == "r" {
			return shellText(prog)
		}
		cmd, dyn = argvText(words)
		return cmd, true, dyn, true
	case opExecl:
		prog := s.eval(pos[at].a, pos[at].b)
		words := []value{prog}
		for i, p := range pos[at+1:] {
			v := s.eval(p.a, p.b)
			if i == 0 || v.kind == vObj || v.kind == vNone {
				continue // argv[0], then the environment of the e variants
			}
			words = append(words, v)
		}
		cmd, dyn = argvText(words)
		return cmd, true, dyn, true
	case opSpawnObj:
		v := s.eval(pos[at].a, pos[at].b)
		if v.kind == vObj {
			if c, ok := v.key("cmd"); ok {
				v = c
			}
		}
		return shellText(v)
	}
	return "", false, false, false
}

// isFunction reports whether an argument is a function literal (a callback, not arguments).
func (s *scanner) isFunction(p arg) bool {
	for i := p.a; i < p.b; i++ {
		t := s.toks[i]
		if t.kind == tPunct && t.val == "=>" || t.kind == tIdent && (t.val == "function" || t.val == "lambda") {
			return true
		}
	}
	return false
}

// shellText is the command of a value: a string is shell text, a list is words.
func shellText(v value) (string, bool, bool, bool) {
	switch v.kind {
	case vStr:
		return v.s, false, v.dyn, true
	case vList:
		cmd, dyn := argvText(v.list)
		return cmd, true, dyn, true
	}
	return Placeholder, false, true, true
}

// targets lists the paths a delete hits, a list argument giving one each.
func (s *scanner) targets(c call, o op) []value {
	var vals []value
	if o.all {
		pos := positional(c.args)
		for i := max(o.at, 0); i < len(pos); i++ {
			vals = append(vals, s.eval(pos[i].a, pos[i].b))
		}
		if len(pos) == 0 && o.at >= 0 {
			vals = append(vals, unknown())
		}
	} else {
		vals = append(vals, s.argVal(c, o.at))
	}
	var out []value
	for _, v := range vals {
		switch {
		case v.kind == vList:
			out = append(out, v.list...)
		case v.kind == vObj || v.kind == vBool || v.kind == vNone && len(vals) > 1:
		default:
			out = append(out, v)
		}
	}
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}

// recursive reads the options that make a delete recursive: {recursive: true} (fs.rm,
// fs.rmdir, Deno.remove), recursive=TRUE (R's unlink), Perl's and Ruby's are in their names.
func (s *scanner) recursive(c call, o op) bool {
	if k, ok := keyword(c.args, "recursive"); ok {
		v := s.eval(k.a, k.b)
		return v.kind != vBool || v.truth
	}
	for _, p := range positional(c.args) {
		v := s.eval(p.a, p.b)
		if v.kind == vObj {
			if r, ok := v.key("recursive"); ok {
				return r.kind != vBool || r.truth
			}
		}
	}
	return false
}

// rawDisk reports whether a path is a block device.
func rawDisk(p string) bool {
	for _, d := range []string{"/dev/sd", "/dev/nvme", "/dev/disk", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/mapper/", "/dev/rdisk", "/dev/md", "/dev/dm-", "/dev/loop"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

func (s *scanner) write(c call, v value, app bool) {
	t := target(v)
	w := Write{Call: c.name, Offset: c.pos, Target: t, Append: app}
	if t.Kind == KindPath && rawDisk(t.Path) {
		s.r.RawDisk = append(s.r.RawDisk, w)
		return
	}
	s.r.Writes = append(s.r.Writes, w)
}

// open reports an open for writing: a mode with w, a, x or +, or flags that write.
func (s *scanner) open(o op, c call) {
	if s.lang == "perl" {
		s.perlOpen(c)
		return
	}
	p := s.argVal(c, o.at)
	if (s.lang == "ruby" && (c.name == "open" || c.name == "IO.open" || c.name == "Kernel.open")) && p.kind == vStr && strings.HasPrefix(p.s, "|") {
		s.r.ShellOuts = append(s.r.ShellOuts, ShellOut{Call: c.name, Offset: c.pos, Command: strings.TrimSpace(p.s[1:]), Dynamic: p.dyn})
		return
	}
	var mode value
	switch {
	case o.mode == -2: // os.open(path, flags)
		pos := positional(c.args)
		if len(pos) < 2 {
			return
		}
		text := ""
		for i := pos[1].a; i < pos[1].b; i++ {
			text += s.toks[i].val + " "
		}
		if !strings.Contains(text, "O_WRONLY") && !strings.Contains(text, "O_RDWR") && !strings.Contains(text, "O_CREAT") &&
			!strings.Contains(text, "O_TRUNC") && !strings.Contains(text, "O_APPEND") {
			return
		}
		s.write(c, p, strings.Contains(text, "O_APPEND"))
		return
	default:
		if k, ok := keyword(c.args, "mode", "flags", "flag"); ok {
			mode = s.eval(k.a, k.b)
		} else {
			mode = s.argVal(c, o.mode)
			if o.at < 0 {
				mode = s.argVal(c, 0)
			}
		}
	}
	if mode.kind == vObj { // fs.createWriteStream(p, {flags: 'a'}), fs.open(p, {flag})
		if f, ok := mode.key("flags"); ok {
			mode = f
		} else if f, ok := mode.key("flag"); ok {
			mode = f
		} else {
			return
		}
	}
	switch mode.kind {
	case vNone:
		return // read by default
	case vStr:
		if !mode.dyn && !strings.ContainsAny(mode.s, "wax+") {
			return
		}
	case vNum: // File.open(p, File::WRONLY...) reads as a chain; a number is a flag set
	}
	s.write(c, p, mode.kind == vStr && strings.Contains(mode.s, "a"))
}

// perlOpen reads Perl's open: 2-argument modes in the name (">f", ">>f", "| cmd", "cmd |") and
// 3-argument modes ('>', '>>', '+<', '|-', '-|').
func (s *scanner) perlOpen(c call) {
	pos := positional(c.args)
	if len(pos) < 2 {
		return
	}
	m := s.eval(pos[1].a, pos[1].b)
	if len(pos) == 2 {
		if m.kind != vStr {
			return
		}
		t := strings.TrimSpace(m.s)
		switch {
		case strings.HasPrefix(t, "|"):
			s.r.ShellOuts = append(s.r.ShellOuts, ShellOut{Call: "open", Offset: c.pos, Command: strings.TrimSpace(t[1:]), Dynamic: m.dyn})
		case strings.HasSuffix(t, "|"):
			s.r.ShellOuts = append(s.r.ShellOuts, ShellOut{Call: "open", Offset: c.pos, Command: strings.TrimSpace(t[:len(t)-1]), Dynamic: m.dyn})
		case strings.HasPrefix(t, ">>"):
			s.write(c, value{kind: vStr, s: strings.TrimSpace(t[2:]), dyn: m.dyn}, true)
		case strings.HasPrefix(t, ">") || strings.HasPrefix(t, "+<") || strings.HasPrefix(t, "+>"):
			s.write(c, value{kind: vStr, s: strings.TrimSpace(strings.TrimLeft(t, "+<>")), dyn: m.dyn}, false)
		}
		return
	}
	if !m.literal() {
		if m.kind == vStr || m.kind == vUnknown {
			s.write(c, s.eval(pos[2].a, pos[2].b), false) // a mode known only at run time
		}
		return
	}
	mode := strings.TrimSpace(m.s)
	if i := strings.IndexByte(mode, ':'); i >= 0 {
		mode = strings.TrimSpace(mode[:i]) // '>:utf8'
	}
	switch mode {
	case "|-", "-|":
		var words []value
		for _, p := range pos[2:] {
			v := s.eval(p.a, p.b)
			if v.kind == vList {
				words = append(words, v.list...)
			} else {
				words = append(words, v)
			}
		}
		if len(words) == 1 {
			cmd, _, dyn, _ := shellText(words[0])
			s.r.ShellOuts = append(s.r.ShellOuts, ShellOut{Call: "open", Offset: c.pos, Command: cmd, Dynamic: dyn})
			return
		}
		cmd, dyn := argvText(words)
		s.r.ShellOuts = append(s.r.ShellOuts, ShellOut{Call: "open", Offset: c.pos, Command: cmd, Argv: true, Dynamic: dyn})
	case ">", ">>", "+<", "+>", "+>>":
		s.write(c, s.eval(pos[2].a, pos[2].b), strings.Contains(mode, ">>"))
	}
}

// kill reports kills of every process (pid -1), of a process group (0, a negative pid, a
// negative signal in Perl, killpg) and of pids not known before the program runs when the
// call kills a group.
func (s *scanner) kill(o op, c call) {
	pos := positional(c.args)
	if o.all { // Perl kill SIGNAL, LIST; Ruby Process.kill(SIGNAL, *pids)
		group := false
		if len(pos) > 0 {
			if sig := s.eval(pos[0].a, pos[0].b); sig.kind == vNum && strings.HasPrefix(sig.s, "-") ||
				sig.kind == vStr && strings.HasPrefix(sig.s, "-") {
				group = true
			}
		}
		for i := 1; i < len(pos); i++ {
			v := s.eval(pos[i].a, pos[i].b)
			if pid, ok := wide(v); ok || group {
				if !ok {
					pid, _ = v.text()
				}
				s.r.Kills = append(s.r.Kills, Kill{Call: c.name, Offset: c.pos, PID: pid, Group: group || pid != "-1"})
			}
		}
		return
	}
	v := s.argVal(c, o.at)
	pid, ok := wide(v)
	if o.group {
		if !ok {
			pid, _ = v.text()
		}
		s.r.Kills = append(s.r.Kills, Kill{Call: c.name, Offset: c.pos, PID: pid, Group: true})
		return
	}
	if ok {
		s.r.Kills = append(s.r.Kills, Kill{Call: c.name, Offset: c.pos, PID: pid, Group: pid != "-1"})
	}
}

// wide returns a pid that names more than one process: -1, 0 or a negative number.
func wide(v value) (string, bool) {
	if v.kind == vNum || v.kind == vStr && !v.dyn {
		p := strings.TrimSpace(v.s)
		if p == "0" || strings.HasPrefix(p, "-") && len(p) > 1 {
			return p, true
		}
	}
	return "", false
}

// net reports a network call with its address.
func (s *scanner) net(o op, c call) {
	v := s.argVal(c, o.at)
	if v.kind == vNone {
		if k, ok := keyword(c.args, "url", "host", "PeerAddr", "PeerHost"); ok {
			v = s.eval(k.a, k.b)
		}
	}
	n := Net{Call: c.name, Offset: c.pos, Send: o.send}
	switch v.kind {
	case vStr:
		n.URL, n.Dynamic = v.s, v.dyn
	case vNum: // net.connect(port, host)
		n.URL = v.s
		if h := s.argVal(c, o.at+1); h.kind == vStr {
			n.URL = h.s + ":" + v.s
			n.Dynamic = h.dyn
		}
	case vList: // socket.create_connection(("host", 80))
		var parts []string
		for _, e := range v.list {
			t, d := e.text()
			parts = append(parts, t)
			n.Dynamic = n.Dynamic || d
		}
		n.URL = strings.Join(parts, ":")
	case vObj: // http.request({host, port}), IO::Socket::INET->new(PeerAddr => ...)
		for _, k := range []string{"PeerAddr", "PeerHost", "host", "hostname", "url"} {
			if h, ok := v.key(k); ok {
				n.URL, n.Dynamic = h.text()
				break
			}
		}
		if m, ok := v.key("method"); ok && m.kind == vStr && !oneOf(strings.ToUpper(m.s), "GET", "HEAD", "OPTIONS") {
			n.Send = true
		}
	default:
		n.Dynamic = true
	}
	if c.name == "file_get_contents" && !(strings.HasPrefix(n.URL, "http:") || strings.HasPrefix(n.URL, "https:") || strings.HasPrefix(n.URL, "ftp:")) {
		return // a local file
	}
	for _, a := range c.args {
		if oneOf(a.key, "data", "json", "files", "body", "content") {
			n.Send = true
		}
	}
	for _, p := range positional(c.args) {
		if v := s.eval(p.a, p.b); v.kind == vObj {
			if _, ok := v.key("body"); ok {
				n.Send = true
			}
			if m, ok := v.key("method"); ok && m.kind == vStr && !oneOf(strings.ToUpper(m.s), "GET", "HEAD", "OPTIONS") {
				n.Send = true
			}
		}
	}
	s.r.Net = append(s.r.Net, n)
}

// eval1 scans the literal code a call runs, or lists it as dynamic.
func (s *scanner) eval1(o op, c call) {
	pos := positional(c.args)
	if len(pos) == 0 {
		k, ok := keyword(c.args, "text")
		if !ok {
			return
		}
		pos = []arg{k}
	}
	if k, ok := keyword(c.args, "text"); ok {
		pos = []arg{k}
	}
	at := pos[0]
	switch c.name {
	case "Function":
		at = pos[len(pos)-1] // new Function('a', 'b', 'body')
	case "setTimeout", "setInterval":
		if v := s.eval(at.a, at.b); v.kind != vStr {
			return // a function, not a string
		}
	}
	if s.lang == "perl" && s.punct(at.a, "{") {
		return // eval { ... } is a block
	}
	if s.lang == "ruby" && c.bare < 0 && len(c.args) == 0 {
		return
	}
	v := s.eval(at.a, at.b)
	if v.kind == vNone {
		return
	}
	if !v.literal() {
		s.r.Evals = append(s.r.Evals, Eval{Call: c.name, Offset: c.pos, Dynamic: true})
		return
	}
	s.r.Evals = append(s.r.Evals, Eval{Call: c.name, Offset: c.pos})
	if s.depth >= maxDepth {
		s.r.note("code run from strings nested too deep")
		return
	}
	scanCode(s.r, s.lang, v.s, c.pos, s.depth+1)
}
