package config

import (
	"path/filepath"
	"strings"
)

// The protected paths are some 280 paths joined from a few bases (the home folder, the
// workspaces, the managed folders) and the descriptors' relative paths, which are clean
// already: cleaning each again, as filepath.Join and filepath.Abs do, was a third of what
// computing them cost in a guard process. These skip the cleaning when it cannot change
// anything, and fall back to the standard library otherwise.

// join is filepath.Join(base, filepath.FromSlash(rel)).
func join(base, rel string) string {
	if filepath.Separator == '/' && cleanAbs(base) && cleanRel(rel) {
		if base == "/" {
			return base + rel
		}
		return base + "/" + rel
	}
	return filepath.Join(base, filepath.FromSlash(rel))
}

// absPath is filepath.Abs(p), cleaned, or filepath.Clean(p) where Abs fails.
func absPath(p string) string {
	if filepath.Separator == '/' && cleanAbs(p) {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// cleanAbs reports whether p is an absolute slash-separated path that filepath.Clean leaves as
// it is: "/", or "/" followed by elements that are neither empty, "." nor "..".
func cleanAbs(p string) bool {
	if p == "/" {
		return true
	}
	return len(p) > 1 && p[0] == '/' && cleanRel(p[1:])
}

// cleanRel reports whether r is a relative slash-separated path that filepath.Clean leaves as it
// is and that joins without a separator of its own: elements that are neither empty, "." nor "..".
func cleanRel(r string) bool {
	for {
		e, rest, more := strings.Cut(r, "/")
		if e == "" || e == "." || e == ".." { // a leading, trailing or doubled slash, or . or ..
			return false
		}
		if !more {
			return true
		}
		r = rest
	}
}
