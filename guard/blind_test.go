package guard_test

import (
	"testing"

	"github.com/agenthooks/agenthooks/guard"
)

// TestBlindSet judges the set a reviewer wrote from the README alone, without the rules or the
// corpus (guard/testdata/blind.tsv: destructive commands meant to slip past and everyday ones
// that look like them), with the protected paths the CLI derives for the same home. It holds
// the guard to what it reached on that set, so that a change that loses ground fails: no
// everyday command denied, at most 3% interrupted, and the destructive ones denied at least at
// the recorded rate (raise the floor when the guard gets better; never lower it to pass).
func TestBlindSet(t *testing.T) {
	t.Parallel()
	ctx := cliCtx()
	const floorDenied = 0.995
	g := guard.Default()
	var deny, denyDenied, allow, allowInterrupted int
	for _, c := range readCorpus(t, "testdata/blind.tsv") {
		cmd := c.Command
		v := g.Check(cmd, ctx)
		switch c.Want {
		case guard.Deny:
			deny++
			if v.Decision == guard.Deny {
				denyDenied++
			}
		case guard.Allow:
			allow++
			if v.Decision == guard.Deny {
				t.Errorf("blind.tsv:%d: an everyday command is denied: %s (%s)", c.Line, cmd, v.Reason)
			}
			if v.Decision != guard.Allow {
				allowInterrupted++
			}
		}
	}
	if deny < 500 || allow < 200 {
		t.Fatalf("blind.tsv has %d destructive and %d everyday commands, want at least 500 and 200", deny, allow)
	}
	if rate := float64(allowInterrupted) / float64(allow); rate > 0.03 {
		t.Errorf("%.1f%% of everyday commands interrupted, more than 3%%", 100*rate)
	}
	if rate := float64(denyDenied) / float64(deny); rate < floorDenied {
		t.Errorf("%.1f%% of destructive commands denied, below the %.1f%% reached before", 100*rate, 100*floorDenied)
	}
	t.Logf("destructive denied %d/%d, everyday interrupted %d/%d", denyDenied, deny, allowInterrupted, allow)
}
