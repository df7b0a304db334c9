package policy

// hasGlob reports whether s holds a glob metacharacter: * or ?, and [ when bracket is set. It
// is strings.ContainsAny(s, "*?[") without its cost: for a short s that calls IndexRune on
// every byte, and rules and protected paths test every word of every command this way.
func hasGlob(s string, bracket bool) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?':
			return true
		case '[':
			if bracket {
				return true
			}
		}
	}
	return false
}
