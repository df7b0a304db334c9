package confine

import "strings"

// ParseShellCommand is the inverse of ShellCommand: it reports whether line is exactly a
// command line that ShellCommand writes, and returns its parts. Anything else (another
// program, extra words, a different quoting) is not a confined command.
func ParseShellCommand(line string) (self, project, command string, ok bool) {
	rest := line
	take := func(literal string) bool {
		var found bool
		rest, found = strings.CutPrefix(rest, literal)
		return found
	}
	if self, rest, ok = unquote(rest); !ok || !take(" confine --project ") {
		return "", "", "", false
	}
	if project, rest, ok = unquote(rest); !ok || !take(" -- bash -c ") {
		return "", "", "", false
	}
	if command, rest, ok = unquote(rest); !ok || rest != "" {
		return "", "", "", false
	}
	return self, project, command, true
}

// unquote reads one word that shellQuote wrote at the start of s: single-quoted runs joined,
// for each single quote in the word, by a backslash-escaped quote. It returns the word and
// what follows it.
func unquote(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", s, false
	}
	var b strings.Builder
	for {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", s, false
		}
		b.WriteString(s[1 : 1+end])
		s = s[2+end:]
		if !strings.HasPrefix(s, `\''`) {
			return b.String(), s, true
		}
		b.WriteByte('\'')
		s = s[2:] // the escaped quote; the next run opens with the quote left
	}
}
