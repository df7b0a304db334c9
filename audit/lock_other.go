//go:build !unix

package audit

import "os"

// lockFile relies on O_APPEND alone where there is no flock: one write per record.
func lockFile(*os.File) (func(), error) { return func() {}, nil }

// openAppend opens the spool for appending.
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}
