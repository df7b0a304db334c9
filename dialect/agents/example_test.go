package agents_test

import (
	"cmp"
	"fmt"

	"github.com/agenthooks/agenthooks/dialect/agents"
)

// The capability matrix says, for each agent's event, what a hook's answer can do there and how
// that is known.
func ExampleMatrix() {
	for _, a := range agents.Matrix()[:1] {
		for _, ev := range a.Events[:1] {
			fmt.Println(a.Title, ev.Event)
			for _, c := range agents.Capabilities {
				s := ev.Support(c)
				fmt.Println(" ", c, s.Can, s.Proof, "proven by", cmp.Or(s.Test, "the dialect's tests"))
			}
		}
	}
	// Output:
	// Claude Code PreToolUse
	//   block true e2e proven by TestClaudeShellGuard
	//   ask true fixtures proven by the dialect's tests
	//   rewrite true e2e proven by TestClaudeConfine
	//   context true fixtures proven by the dialect's tests
}
