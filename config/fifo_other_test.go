//go:build !unix

package config

import "errors"

// errNoFifo is mkfifo's answer where the system has no named pipes in the file system.
var errNoFifo = errors.New("no FIFOs in the file system on this system")

func mkfifo(string) error { return errNoFifo }
