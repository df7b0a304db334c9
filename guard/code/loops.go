package code

// Bounds on the fork-loop search.
const (
	maxLoops  = 128  // loops checked per stream
	maxBody   = 1024 // tokens of one loop's body
	maxSpawns = 256  // forks and spawns matched against loops
)

// forkLoops reports the loops of the current stream that fork, or spawn without waiting, on
// every turn with no bound: an always-true condition (while True, for(;;), loop, repeat) or a
// condition that forks itself (while (fork())), in block or statement-modifier form. A fork
// counts whatever the body does; a spawn only when the body has no break, return or exit.
func (s *scanner) forkLoops() {
	if len(s.spawns) > maxSpawns {
		s.spawns = s.spawns[:maxSpawns]
		s.r.note("too many forks and spawns: only the first were checked for fork loops")
	}
	if len(s.spawns) == 0 {
		return
	}
	reported := map[int]bool{}
	s.recursiveForks(reported)
	loops := 0
	for i, t := range s.toks {
		if t.kind != tIdent {
			continue
		}
		if loops >= maxLoops {
			s.r.note("too many loops: only the first were checked for fork loops")
			return
		}
		var condA, condB, bodyA, bodyB int
		infinite := false
		switch t.val {
		case "while", "until":
			if i > 0 && !s.stmtStart(i) && !s.punct(i-1, "}") && s.toks[i-1].kind != tNL && (s.lang == "perl" || s.lang == "ruby") {
				// a statement modifier: body while cond
				bodyA, bodyB = s.stmtBegin(i), i
				condA, condB = i+1, s.stmtEnd(i+1)
			} else if i > 0 && s.punct(i-1, "}") && s.match[i-1] < i-1 && s.is(s.match[i-1]-1, tIdent, "do") {
				// do { ... } while (cond)
				bodyA, bodyB = s.match[i-1], i-1
				condA, condB = s.condition(i + 1)
			} else {
				condA, condB = s.condition(i + 1)
				bodyA, bodyB = s.body(i, condB)
			}
			infinite = s.alwaysTrue(condA, condB, t.val == "until")
		case "for":
			if s.punct(i+1, "(") && s.match[i+1] == i+4 && s.punct(i+2, ";") && s.punct(i+3, ";") {
				infinite = true
				condA, condB = i+1, i+5
				bodyA, bodyB = s.body(i, condB)
			}
		case "loop":
			if s.lang == "ruby" && (s.is(i+1, tIdent, "do") || s.punct(i+1, "{")) {
				infinite = true
				condA, condB = i+1, i+1
				bodyA, bodyB = s.body(i, i+1)
			}
		case "repeat":
			if s.lang == "r" && s.punct(i+1, "{") {
				infinite = true
				condA, condB = i+1, i+1
				bodyA, bodyB = i+1, s.match[i+1]
			}
			if s.lang == "lua" {
				bodyA, bodyB = i+1, i+1
				for bodyB < len(s.toks) && bodyB < i+maxBody && !s.is(bodyB, tIdent, "until") {
					bodyB++
				}
				condA, condB = bodyB+1, s.stmtEnd(bodyB+1)
				infinite = s.alwaysTrue(condA, condB, true)
			}
		default:
			continue
		}
		loops++
		bodyB = min(bodyB, bodyA+maxBody)
		var fork, spawn *spawned
		stop := false
		for n := range s.spawns {
			sp := &s.spawns[n]
			inCond := sp.at >= condA && sp.at < condB
			inBody := sp.at >= bodyA && sp.at < bodyB
			if inCond && sp.fork {
				infinite = true
			}
			if inBody || inCond {
				if sp.fork && fork == nil {
					fork = sp
				} else if !sp.fork && spawn == nil {
					spawn = sp
				}
			}
		}
		if !infinite {
			continue
		}
		if fork == nil && spawn != nil {
			for j := bodyA; j < bodyB && j < len(s.toks); j++ {
				if s.toks[j].kind == tIdent && oneOf(s.toks[j].val, "break", "return", "exit", "last", "die", "raise", "throw", "_exit", "exit!", "abort", "quit") {
					stop = true
					break
				}
			}
			if stop {
				continue
			}
			fork = spawn
		}
		if fork == nil || reported[fork.at] {
			continue
		}
		reported[fork.at] = true
		s.r.ForkLoops = append(s.r.ForkLoops, ForkLoop{Call: fork.call, Offset: s.base + s.toks[fork.at].pos})
	}
}

// condition returns the tokens of a loop's condition starting at j.
func (s *scanner) condition(j int) (int, int) {
	if s.punct(j, "(") && s.lang != "python" && s.lang != "ruby" && s.lang != "lua" && s.lang != "julia" {
		return j, min(s.match[j]+1, len(s.toks))
	}
	k := j
	for k < len(s.toks) && k < j+256 {
		t := s.toks[k]
		if t.kind == tNL || t.kind == tPunct && (t.val == ":" && s.lang == "python" || t.val == ";" || t.val == "{") ||
			t.kind == tIdent && t.val == "do" {
			break
		}
		if t.kind == tPunct && (t.val == "(" || t.val == "[") {
			k = s.match[k]
		}
		k++
	}
	return j, min(k, len(s.toks))
}

// body returns the tokens of the body of the loop whose keyword is at i and condition ends at j.
func (s *scanner) body(i, j int) (int, int) {
	if j >= len(s.toks) {
		return j, j
	}
	switch {
	case s.punct(j, "{"):
		return j, s.match[j]
	case s.lang == "python" && s.punct(j, ":"):
		if !s.is(j+1, tNL, "") {
			return j + 1, s.stmtEnd(j + 1)
		}
		indent := s.indentOf(i)
		k := j + 2
		for k < len(s.toks) && k < j+maxBody {
			if s.toks[k].kind == tNL && k+1 < len(s.toks) && s.indentOf(k+1) <= indent {
				break
			}
			k++
		}
		return j + 1, k
	case s.lang == "ruby" || s.lang == "lua" || s.lang == "julia":
		if s.is(j, tIdent, "do") {
			j++
		}
		return j, s.endOf(j)
	}
	return j, s.stmtEnd(j)
}

// indentOf returns the indentation of the line of token k (Python), computing every line's
// once per stream.
func (s *scanner) indentOf(k int) int {
	if s.indents == nil {
		s.indents = make([]int32, len(s.toks))
		for n := range s.toks {
			if n > 0 && s.toks[n-1].kind != tNL {
				s.indents[n] = s.indents[n-1]
				continue
			}
			pos := s.toks[n].pos
			if pos > len(s.src) {
				continue
			}
			start := pos
			for start > 0 && s.src[start-1] != '\n' && pos-start < 4096 {
				start--
			}
			ind := 0
			for start+ind < pos && (s.src[start+ind] == ' ' || s.src[start+ind] == '\t') {
				ind++
			}
			s.indents[n] = int32(ind)
		}
	}
	return int(s.indents[k])
}

// endOf finds the 'end' that closes the block starting at j (Ruby, Lua).
func (s *scanner) endOf(j int) int {
	depth, header := 0, false
	for k := j; k < len(s.toks) && k < j+maxBody; k++ {
		t := s.toks[k]
		if t.kind == tNL {
			header = false
			continue
		}
		if t.kind != tIdent {
			continue
		}
		switch t.val {
		case "end":
			if depth == 0 {
				return k
			}
			depth--
		case "do":
			if !header {
				depth++
			}
			header = false
		case "def", "function", "begin", "case", "class", "module":
			depth++
		case "if", "unless":
			if s.stmtStart(k) {
				depth++
			}
		case "while", "until", "for":
			if s.stmtStart(k) {
				depth++
				header = true
			}
		}
	}
	return len(s.toks)
}

// stmtBegin returns the first token of the statement holding i.
func (s *scanner) stmtBegin(i int) int {
	for j := i - 1; j >= 0 && i-j < 256; j-- {
		t := s.toks[j]
		if t.kind == tNL || t.kind == tPunct && (t.val == ";" || t.val == "{" || t.val == "}") {
			return j + 1
		}
		if t.kind == tPunct && (t.val == ")" || t.val == "]") && s.match[j] < j {
			j = s.match[j]
		}
	}
	return max(i-256, 0)
}

// stmtEnd returns the end of the statement starting at j.
func (s *scanner) stmtEnd(j int) int {
	k := j
	for k < len(s.toks) {
		t := s.toks[k]
		if t.kind == tNL || t.kind == tPunct && (t.val == ";" || t.val == "}") {
			break
		}
		if t.kind == tPunct && (t.val == "(" || t.val == "[" || t.val == "{") {
			k = s.match[k]
		}
		k++
	}
	return min(k, len(s.toks))
}

// alwaysTrue reports whether a loop condition is a constant that never ends the loop.
func (s *scanner) alwaysTrue(a, b int, until bool) bool {
	for a < b && s.punct(a, "(") && s.match[a] == b-1 {
		a, b = a+1, b-1
	}
	if b-a != 1 {
		return false
	}
	t := s.toks[a]
	truthy := false
	switch t.kind {
	case tNum:
		truthy = t.val != "0"
	case tStr:
		truthy = t.val != "" && t.val != "0"
	case tIdent:
		switch t.val {
		case "True", "true", "TRUE", "T":
			truthy = true
		case "False", "false", "FALSE", "nil", "None", "F", "undef":
		default:
			return false
		}
	default:
		return false
	}
	return truthy != until
}

// recursiveForks reports functions that fork (or spawn without waiting) and call themselves
// with no condition in their body: def f(): os.fork(); f(), sub f { fork; f() }.
func (s *scanner) recursiveForks(reported map[int]bool) {
	defs := 0
	for i, t := range s.toks {
		if t.kind != tIdent || !oneOf(t.val, "def", "function", "sub") || i+1 >= len(s.toks) || s.toks[i+1].kind != tIdent {
			continue
		}
		if defs++; defs > maxLoops {
			return
		}
		name := s.toks[i+1].val
		j := i + 2
		if s.punct(j, "(") {
			j = s.match[j] + 1
		}
		var a, b int
		switch {
		case s.punct(j, "{"):
			a, b = j, s.match[j]
		case s.lang == "python" && s.punct(j, ":"):
			a, b = s.body(i, j)
		case s.lang == "ruby" || s.lang == "lua":
			a, b = j, s.endOf(j)
		default:
			continue
		}
		b = min(b, a+maxBody, len(s.toks))
		var fork *spawned
		for n := range s.spawns {
			if sp := &s.spawns[n]; sp.at >= a && sp.at < b && fork == nil {
				fork = sp
			}
		}
		if fork == nil || reported[fork.at] {
			continue
		}
		self, bounded := false, false
		for k := a; k < b; k++ {
			switch tk := s.toks[k]; {
			case tk.kind == tIdent && tk.val == name && !s.punct(k-1, ".") && !s.punct(k-1, "->"):
				self = true
			case tk.kind == tIdent && oneOf(tk.val, "if", "unless", "return", "while", "until", "for", "break", "exit", "die", "raise", "and", "or"),
				tk.kind == tPunct && oneOf(tk.val, "?", "&&", "||"):
				bounded = true
			}
		}
		if self && !bounded {
			reported[fork.at] = true
			s.r.ForkLoops = append(s.r.ForkLoops, ForkLoop{Call: fork.call, Offset: s.base + s.toks[fork.at].pos})
		}
	}
}
