//go:build !unix

package coverage

import (
	"errors"
	"os"
)

// openTranscript opens a transcript for reading, refusing what is not a regular file.
func openTranscript(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file: not read")
	}
	return os.Open(path)
}
