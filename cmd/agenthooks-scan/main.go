// Command agenthooks-scan is agenthooks' secret-scanning helper: text on stdin, findings as JSON
// on stdout (gitleaks' rules). The read and prompt guards run it; install it beside agenthooks.
package main

import (
	"os"

	"github.com/agenthooks/agenthooks/internal/scanner"
)

func main() { os.Exit(scanner.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
