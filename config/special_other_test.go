//go:build !unix

package config

import (
	"errors"
	"io/fs"
)

// errNoSpecialFile is the answer of mkfifo and linkDevice where the system has no such files.
var errNoSpecialFile = errors.New("no FIFOs or device files in the file system on this system")

func mkfifo(string) error { return errNoSpecialFile }

func linkDevice(string) error { return errNoSpecialFile }

// private reports whether a file's mode keeps it to its owner: Windows has no mode bits (its
// files are kept private by the ACLs they inherit from the user's profile), so any mode does.
func private(fs.FileInfo) bool { return true }
