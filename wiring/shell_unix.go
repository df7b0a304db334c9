//go:build !windows

package wiring

import (
	"io/fs"

	"github.com/agenthooks/agenthooks/dialect"
)

// canaryShell is the shell agent a runs a hook's command line with: sh -c, the runner's
// default, for every agent outside Windows.
func canaryShell(dialect.Name) []string { return nil }

// executable reports whether a file's mode lets someone run it.
func executable(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o111 != 0 }
