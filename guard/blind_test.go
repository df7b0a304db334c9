package guard_test

import (
	"testing"

	"github.com/agenthooks/agenthooks/guard"
)

// TestBlindSet judges the sets reviewers wrote from the README alone, without the rules or the
// corpus (guard/testdata/blind.tsv and blind2.tsv: destructive commands meant to slip past and
// everyday ones that look like them), with the protected paths the CLI derives for the same home.
// It holds the guard to what it reached on each set, so that a change that loses ground fails:
// no everyday command denied, at most 3% interrupted, and the destructive ones denied at least at
// the recorded rate (raise a floor when the guard gets better; never lower it to pass). blind2.tsv
// was measured before any fix made for it: 85.3% denied, 10.6% let through.
func TestBlindSet(t *testing.T) {
	t.Parallel()
	ctx := cliCtx()
	g := guard.Default()
	for _, set := range []struct {
		file              string
		floorDenied       float64
		minDeny, minAllow int
	}{
		{"testdata/blind.tsv", 0.995, 500, 200},
		{"testdata/blind2.tsv", blind2Floor, 500, 300},
	} {
		var deny, denyDenied, allow, allowInterrupted int
		for _, c := range readCorpus(t, set.file) {
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
					t.Errorf("%s:%d: an everyday command is denied: %s (%s)", set.file, c.Line, cmd, v.Reason)
				}
				if v.Decision != guard.Allow {
					allowInterrupted++
				}
			}
		}
		if deny < set.minDeny || allow < set.minAllow {
			t.Fatalf("%s has %d destructive and %d everyday commands, want at least %d and %d", set.file, deny, allow, set.minDeny, set.minAllow)
		}
		if rate := float64(allowInterrupted) / float64(allow); rate > 0.03 {
			t.Errorf("%s: %.1f%% of everyday commands interrupted, more than 3%%", set.file, 100*rate)
		}
		if rate := float64(denyDenied) / float64(deny); rate < set.floorDenied {
			t.Errorf("%s: %.1f%% of destructive commands denied, below the %.1f%% reached before", set.file, 100*rate, 100*set.floorDenied)
		}
		t.Logf("%s: destructive denied %d/%d, everyday interrupted %d/%d", set.file, denyDenied, deny, allowInterrupted, allow)
	}
}

// blind2Floor is the share of blind2.tsv's destructive commands the guard denied after the fixes
// made for it.
const blind2Floor = 0.99
