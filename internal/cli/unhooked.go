package cli

import (
	"fmt"
	"io"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// printUnhooked notes, for each agent agenthooks is installed in (seen), the tool calls it
// fires no hook for: no guard sees them, whatever is installed.
func printUnhooked(w io.Writer, seen map[dialect.Name]bool) {
	for _, a := range agents.All() {
		if seen[a.Name] && a.Unhooked != "" {
			fmt.Fprintf(w, "note: %s fires no hook for %s\n", a.Title, a.Unhooked)
		}
	}
}
