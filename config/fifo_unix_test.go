//go:build unix

package config

import (
	"errors"
	"syscall"
)

// errNoFifo is mkfifo's answer where the system has no named pipes in the file system.
var errNoFifo = errors.New("no FIFOs on this system")

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
