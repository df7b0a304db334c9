package config

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// glob is filepath.Glob for the locations' patterns, which run in every guard process that
// computes the protected paths: a name is tried with filepath.Match only when it has the
// pattern's literal prefix and suffix, so a folder of a thousand names (a workspace at /tmp,
// a home folder) costs a read of its names and a string comparison each, not a thousand
// backtracking matches. The result is filepath.Glob's, sorted; a malformed pattern has none.
func glob(pattern string) []string {
	if !hasMeta(pattern) {
		if _, err := os.Lstat(pattern); err != nil {
			return nil
		}
		return []string{pattern}
	}
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil
	}
	dir, file := filepath.Split(pattern)
	dir = cleanGlobDir(dir)
	var dirs []string
	if hasMeta(dir) && dir != pattern {
		dirs = glob(dir)
	} else {
		dirs = []string{dir}
	}
	var out []string
	for _, d := range dirs {
		out = globIn(d, file, out)
	}
	sort.Strings(out)
	return out
}

// globIn appends the names in folder dir that match pattern, joined to dir.
func globIn(dir, pattern string, out []string) []string {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return out
	}
	f, err := os.Open(dir)
	if err != nil {
		return out
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	prefix, suffix := literalEnds(pattern)
	for _, n := range names {
		if len(n) < len(prefix)+len(suffix) || !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, suffix) {
			continue
		}
		if ok, _ := filepath.Match(pattern, n); ok {
			out = append(out, join(dir, n))
		}
	}
	return out
}

// literalEnds is what every name pattern matches starts and ends with: the text before its
// first special character and after its last one.
func literalEnds(pattern string) (prefix, suffix string) {
	special := `*?[`
	if runtime.GOOS != "windows" {
		special += `\`
	}
	first := strings.IndexAny(pattern, special)
	if first < 0 {
		return pattern, ""
	}
	last := strings.LastIndexAny(pattern, special+"]")
	return pattern[:first], pattern[last+1:]
}

// cleanGlobDir is filepath.Glob's: a trailing separator gone, the root kept.
func cleanGlobDir(dir string) string {
	switch {
	case dir == "":
		return "."
	case len(dir) == 1 && os.IsPathSeparator(dir[0]):
		return dir
	case runtime.GOOS == "windows" && len(dir) <= 3 && filepath.VolumeName(dir) != "":
		return dir
	}
	return dir[:len(dir)-1]
}

func hasMeta(p string) bool {
	for i := 0; i < len(p); i++ { // not strings.ContainsAny, which builds a set of four for each short name
		switch p[i] {
		case '*', '?', '[':
			return true
		case '\\':
			if runtime.GOOS != "windows" {
				return true
			}
		}
	}
	return false
}
