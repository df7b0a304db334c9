//go:build unix

package coverage

import (
	"errors"
	"os"
	"syscall"
)

// openTranscript opens a transcript for reading without following a symbolic link or waiting
// on a FIFO (a file swapped after it was listed), and refuses what is not a regular file.
func openTranscript(path string) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.New("not a regular file: not read")
	}
	return f, nil
}
