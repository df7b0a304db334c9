package code

import "strings"

// A loop over a folder's listing that deletes what it is handed is a recursive delete of that
// folder: for r, _, fs in os.walk(X): os.remove(...), [os.unlink(p) for p in glob.glob(X)],
// fs.readdirSync(X).forEach(f => fs.unlinkSync(f)), Dir.glob(X).each { |f| File.delete(f) }.
// The delete's own target is computed from the loop variable, so without this it reads as a
// delete of something unknown; the listing says what it reaches. A loop that picks some names
// (a pattern with more than wildcards, a condition in its body: if f.endswith('.pyc')) deletes
// only those, as find -name does, and is left as it was.

// listingCall reports whether a call named q (its last name last) lists a folder, and whether
// the folder is its receiver (Path(X).rglob('*')) rather than its first argument.
func listingCall(lang, q, last string) (ok, recv bool) {
	switch lang {
	case "python":
		switch q {
		case "os.walk", "os.listdir", "os.scandir", "glob.glob", "glob.iglob", "os.fwalk", "scandir.walk":
			return true, false
		}
		switch last {
		case "rglob", "iterdir", "walk":
			return true, true
		}
	case "javascript":
		switch q {
		case "fs.readdirSync", "fs.readdir", "fs.promises.readdir", "fsPromises.readdir", "readdirSync", "readdir",
			"glob.sync", "globSync", "glob", "fg.sync", "fast-glob.sync", "fse.readdirSync", "Deno.readDirSync", "Deno.readDir":
			return true, false
		}
	case "ruby":
		switch q {
		case "Dir.glob", "Dir.children", "Dir.entries", "Dir.each_child", "Dir.foreach", "Find.find", "Dir":
			return true, false
		}
	case "perl":
		switch q {
		case "glob", "File.Find.find", "find", "finddepth", "readdir":
			return true, false
		}
	case "php":
		switch q {
		case "scandir", "glob":
			return true, false
		}
	case "lua":
		switch q {
		case "lfs.dir":
			return true, false
		}
	case "julia":
		switch q {
		case "readdir", "walkdir", "Base.Filesystem.readdir", "Base.Filesystem.walkdir":
			return true, false
		}
	case "r":
		switch q {
		case "list.files", "dir", "fs.dir_ls", "dir_ls":
			return true, false
		}
	}
	return false, false
}

// listingLoops adds, for every loop over a folder's listing whose body deletes something
// computed, a recursive delete of that folder. from is the first delete of this stream.
func (s *scanner) listingLoops(from int) {
	if from >= len(s.r.Deletes) {
		return
	}
	var at []int       // token index of each computed delete of this stream
	var calls []string // and its call
	for _, d := range s.r.Deletes[from:] {
		if d.Target.Kind != KindDynamic {
			continue
		}
		if k := s.tokenAt(d.Offset - s.base); k >= 0 && len(at) < maxSpawns {
			at, calls = append(at, k), append(calls, d.Call)
		}
	}
	if len(at) == 0 {
		return
	}
	loops := 0
	for i, t := range s.toks {
		if t.kind != tIdent || loops >= maxLoops {
			continue
		}
		var lsA, lsB, bodyA, bodyB int
		switch {
		case t.val == "for" || t.val == "foreach":
			loops++
			lsA, lsB = s.condition(i + 1)
			if s.lang == "python" && !s.stmtStart(i) {
				// a comprehension: [DELETE for x in LISTING], the body before the for
				open := s.enclosing(i)
				if open < 0 {
					continue
				}
				bodyA, bodyB = open+1, i
				lsB = min(s.match[open], len(s.toks))
			} else {
				bodyA, bodyB = s.body(i, lsB)
			}
		case oneOf(t.val, "forEach", "each", "each_child", "map", "each_entry") && i > 1 && isSep(s.lang, s.toks[i-1]):
			// LISTING(X).forEach(f => ...), Dir.glob(X).each { |f| ... }
			loops++
			end := i - 1
			if s.punct(end-1, ")") || s.punct(end-1, "]") {
				lsA, lsB = s.stmtBegin(end-1), end
			} else {
				continue
			}
			j := i + 1
			switch {
			case s.punct(j, "(") || s.punct(j, "{"):
				bodyA, bodyB = j, min(s.match[j], len(s.toks))
			case s.is(j, tIdent, "do"):
				bodyA, bodyB = j, s.endOf(j+1)
			default:
				continue
			}
		default:
			continue
		}
		bodyB = min(bodyB, bodyA+maxBody)
		del, delCall := -1, ""
		for n, k := range at {
			if k >= bodyA && k < bodyB {
				del, delCall = k, calls[n]
				break
			}
		}
		if del < 0 || s.picks(bodyA, bodyB) || s.lang == "python" && bodyB == i && s.picks(i, lsB) {
			continue
		}
		if v, call, picked, ok := s.listing(lsA, lsB); ok && !picked {
			s.r.Deletes = append(s.r.Deletes, Delete{Call: delCall + " over " + call, Offset: s.base + s.toks[del].pos,
				Target: target(v), Recursive: true})
		}
	}
}

// listing finds a listing call in tokens [a, b) and returns the folder it lists, and whether
// its pattern picks some names only.
func (s *scanner) listing(a, b int) (v value, call string, picked, ok bool) {
	for k := a; k < b && k < len(s.toks); k++ {
		if s.toks[k].kind != tIdent || k > 0 && isSep(s.lang, s.toks[k-1]) {
			continue
		}
		segs, _ := s.chain(k)
		for n := range segs {
			sg := segs[n]
			q := s.qualified(segs[:n+1])
			ok, recv := listingCall(s.lang, q, sg.name)
			if !ok && s.lang == "ruby" && sg.name == "Dir" && sg.index >= 0 {
				// Dir["~/**/*"]
				v, picked := folderOf(s.eval(sg.index+1, min(s.match[sg.index], len(s.toks))))
				return v, "Dir[]", picked, true
			}
			if !ok {
				continue
			}
			if recv {
				if n == 0 {
					continue
				}
				v, picked := folderOf(s.chainValue(segs[:n], 0))
				if sg.call >= 0 {
					if pos := positional(s.args(sg.call)); len(pos) > 0 {
						pat := s.eval(pos[0].a, pos[0].b)
						picked = picked || !pat.literal() || strings.Trim(pat.s, "*/") != ""
					}
				}
				return v, q, picked, true
			}
			if sg.call < 0 {
				continue
			}
			pos := positional(s.args(sg.call))
			if q == "File.Find.find" || q == "find" || q == "finddepth" {
				pos = pos[min(1, len(pos)):] // find(\&wanted, DIR)
			}
			if len(pos) == 0 {
				return str("."), q, false, true
			}
			v, picked := folderOf(s.eval(pos[0].a, pos[0].b))
			return v, q, picked, true
		}
	}
	return value{}, "", false, false
}

// picks reports whether tokens [a, b) choose some of what a loop is handed: a condition or a
// name test.
func (s *scanner) picks(a, b int) bool {
	for k := a; k < b && k < len(s.toks); k++ {
		if t := s.toks[k]; t.kind == tIdent && oneOf(t.val, "if", "unless", "when", "filter", "select", "reject", "grep",
			"endswith", "startswith", "end_with?", "start_with?", "match", "test", "includes", "fnmatch", "suffix", "continue", "next", "case", "switch") {
			return true
		}
	}
	return false
}

// folderOf is the folder a listing pattern reaches: a glob's part before its first wildcard. A
// pattern that picks names (*.pyc) picks.
func folderOf(v value) (value, bool) {
	if v.kind != vStr || v.dyn {
		return v, false
	}
	p := v.s
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		if strings.Trim(p[i:], "*/") != "" {
			return v, true
		}
		p = p[:i]
		if j := strings.LastIndexByte(p, '/'); j >= 0 {
			p = p[:j]
			if p == "" {
				p = "/"
			}
		} else {
			p = "."
		}
	}
	return str(p), false
}

// enclosing returns the index of the bracket that holds token i, or -1.
func (s *scanner) enclosing(i int) int {
	for k := i - 1; k >= 0 && k > i-maxBody; k-- {
		if s.toks[k].kind == tPunct && (s.toks[k].val == "[" || s.toks[k].val == "(" || s.toks[k].val == "{") && s.match[k] > i {
			return k
		}
	}
	return -1
}

// tokenAt returns the index of the token at byte offset pos of this stream, or -1.
func (s *scanner) tokenAt(pos int) int {
	lo, hi := 0, len(s.toks)
	for lo < hi {
		m := (lo + hi) / 2
		if s.toks[m].pos < pos {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.toks) && s.toks[lo].pos == pos {
		return lo
	}
	return -1
}
