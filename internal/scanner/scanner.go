// Package scanner is the agenthooks-scan helper: it scans text on stdin for secrets with
// gitleaks (guard/secrets) and prints the findings as JSON. It is a separate program so that
// gitleaks, whose packages take milliseconds to initialise, is not linked into agenthooks
// itself, which starts before every tool call an agent makes.
package scanner

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agenthooks/agenthooks/guard/secrets"
	"github.com/agenthooks/agenthooks/guard/secrets/client"
)

// Main runs the helper and returns its exit status: 0 with the result on stdout, 1 on an
// error, client.ExitBudget when the scan ran out of time.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agenthooks-scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxBytes := fs.Int("max-bytes", 1<<20, "scan at most this many bytes")
	budget := fs.Duration("budget", 500*time.Millisecond, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	text, err := io.ReadAll(io.LimitReader(stdin, int64(*maxBytes)+1))
	if err != nil {
		fmt.Fprintln(stderr, "agenthooks-scan:", err)
		return 1
	}
	found, truncated, err := secrets.Scan(string(text), *maxBytes, *budget)
	if errors.Is(err, secrets.ErrBudget) {
		fmt.Fprintln(stderr, "agenthooks-scan:", err)
		return client.ExitBudget
	}
	if err != nil {
		fmt.Fprintln(stderr, "agenthooks-scan:", err)
		return 1
	}
	res := client.Result{Findings: found, Truncated: truncated}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		return 1
	}
	return 0
}
