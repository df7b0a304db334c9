package code

// evalRefs reports the code evaluators a program hands on as values rather than calls:
// fetch(u).then(r => r.text()).then(eval), .then(new Function), map(exec, chunks). Whatever
// they are later called with is code built at run time.
func (s *scanner) evalRefs() {
	for i, t := range s.toks {
		if t.kind != tIdent || !evalRef(s.lang, t.val) || i == 0 || i+1 >= len(s.toks) {
			continue
		}
		if i > 0 && isSep(s.lang, s.toks[i-1]) {
			continue // obj.eval: a method of something else
		}
		prev := i - 1
		if s.is(prev, tIdent, "new") {
			prev--
		}
		if !(s.punct(prev, "(") || s.punct(prev, ",")) || !(s.punct(i+1, ")") || s.punct(i+1, ",")) {
			continue
		}
		open := prev
		if s.punct(prev, ",") {
			open = s.enclosing(i)
		}
		if open < 1 || !s.punct(open, "(") || s.toks[open-1].kind != tIdent || !callsBack(s.toks[open-1].val) {
			continue // console.log(eval): named, not run
		}
		s.r.Evals = append(s.r.Evals, Eval{Call: t.val, Offset: s.base + t.pos, Dynamic: true})
	}
}

// callsBack reports whether a function or method of this name calls the function it is handed.
func callsBack(name string) bool {
	return oneOf(name, "then", "map", "forEach", "reduce", "call", "apply", "bind", "on", "once", "pipe", "setTimeout",
		"setInterval", "setImmediate", "queueMicrotask", "nextTick", "addEventListener", "filter", "every", "some", "list",
		"starmap", "submit", "run_in_executor", "Thread", "Process", "apply_async", "reduce")
}

// evalRef reports whether name, in lang, is a function that runs the code it is given.
func evalRef(lang, name string) bool {
	switch lang {
	case "javascript":
		return name == "eval" || name == "Function"
	case "python":
		return name == "exec" || name == "eval"
	}
	return false
}

// reassigned forgets the names a program changes after assigning them once: a compound
// assignment anywhere (b += chunk, $s .= $x), or a plain one inside an expression or a
// callback body (r.on('data', d => { b = b + d })). Its value is then only known when it runs.
func (s *scanner) reassigned() {
	if len(s.consts) == 0 && len(s.aliases) == 0 {
		return
	}
	for i := 0; i+1 < len(s.toks); i++ {
		t := s.toks[i]
		if t.kind != tIdent || i > 0 && isSep(s.lang, s.toks[i-1]) {
			continue
		}
		n := s.toks[i+1]
		if n.kind != tPunct {
			continue
		}
		compound := n.val == "+=" || n.val == "-=" || n.val == ".=" && s.lang != "javascript" && s.lang != "python" ||
			n.val == "<<" && s.lang == "ruby" || n.val == "." && s.lang == "perl" && s.punct(i+2, "=") && s.adjacent(i+2)
		plain := n.val == "=" && !s.stmtStart(i) && !s.is(i-1, tIdent, "let") && !s.is(i-1, tIdent, "const") &&
			!s.is(i-1, tIdent, "var") && !s.is(i-1, tIdent, "my") && !s.is(i-1, tIdent, "local") && !s.punct(i-1, ",") && !s.punct(i-1, "(")
		if compound || plain {
			delete(s.consts, t.val)
		}
	}
}

// changesDir reports whether the program changes its working directory (os.chdir,
// process.chdir, Dir.chdir, setwd, cd): the directory a later getcwd() names is then not known.
func (s *scanner) changesDir() bool {
	if s.chdir == 0 {
		s.chdir = 1
		for _, t := range s.toks {
			if t.kind == tIdent && oneOf(t.val, "chdir", "setwd", "cd", "fchdir", "chroot", "Dir.chdir", "os.chdir", "process.chdir") {
				s.chdir = 2
				break
			}
		}
	}
	return s.chdir == 2
}
