//go:build unix

package config

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// errNoSpecialFile is the answer of mkfifo and linkDevice where the system has no such files.
var errNoSpecialFile = errors.New("no FIFOs or device files on this system")

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

func linkDevice(path string) error { return os.Symlink("/dev/zero", path) }

// private reports whether a file's mode keeps it to its owner.
func private(fi fs.FileInfo) bool { return fi.Mode().Perm() == 0o600 }
