// Package cli is the agenthooks command line: each subcommand is a params struct filled by the
// flag layer and a function that takes writers, so tests call it with buffers. It is the only
// package that touches the process's stdin, stdout, arguments and exit code (through Main's
// parameters and return value). Exit codes: 0 done (including a deny delivered as JSON), 1 an
// error of agenthooks itself or of its input, 2 only where an agent's contract says "blocked"
// (the guard under Claude Code), never for an internal error.
package cli
