package guard_test

import (
	"testing"

	"github.com/agenthooks/agenthooks/guard"
)

// TestExitStatusInNestedScript: $? in a script handed to ssh or bash -c is an exit status, a
// number, so the script is known and judged by what it runs (a user's agent checked a router
// with `ssh root@HOST "opkg list-installed | grep -i ovpn; echo 'Exit code:' $?"`); what the
// script runs is still judged, and other unknown text still is not run unseen.
func TestExitStatusInNestedScript(t *testing.T) {
	t.Parallel()
	g := guard.Default()
	for _, c := range []struct {
		cmd  string
		want guard.Decision
	}{
		{`ssh root@192.0.2.1 "opkg list-installed | grep -i ovpn; echo 'Exit code:' $?"`, guard.Allow},
		{`bash -c "make test; echo exit=$?"`, guard.Allow},
		{`ssh host "ls /var/log; exit $?"`, guard.Allow},
		{`ssh host "rm -rf / ; echo $?"`, guard.Deny},
		{`bash -c "rm -rf ~; exit $?"`, guard.Deny},
		{`bash -c "$X; echo $?"`, guard.Deny},
		{`ssh host "kill $!"`, guard.Deny},
	} {
		if v := g.Check(c.cmd, corpusCtx); v.Decision != c.want {
			t.Errorf("%s: got %s (%s), want %s", c.cmd, v.Decision, v.Reason, c.want)
		}
	}
}
