//go:build !unix

package coverage

import "errors"

func syscallMkfifo(string) error { return errors.New("no FIFOs on this system") }
