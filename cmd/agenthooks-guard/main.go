// Command agenthooks-guard is agenthooks' shell guard in a binary of its own:
// `agenthooks-guard bash` is `agenthooks guard bash`, linking nothing else, so that the process
// an agent starts before every shell command starts faster. agenthooks install writes it into
// the agents' hooks when it lies beside agenthooks.
package main

import (
	"os"

	"github.com/agenthooks/agenthooks/internal/cli"
	_ "github.com/agenthooks/agenthooks/internal/prestack" // the stack grown once, before the rest initialises
)

func main() {
	os.Exit(cli.GuardMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
