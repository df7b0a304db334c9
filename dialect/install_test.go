package dialect

import (
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
)

// gatesOn is a dialect whose events are pre, which can block, and stop, which cannot.
type gatesOn struct{}

func (gatesOn) Name() Name { return "test" }
func (gatesOn) Lookup(name string) (*Spec, bool) {
	if name != "pre" && name != "stop" {
		return nil, false
	}
	return &Spec{Name: name, Gates: name == "pre"}, true
}
func (gatesOn) Names() []string                                     { return []string{"pre", "stop"} }
func (gatesOn) Interpret(*Spec, int, []byte, []byte, int64) Outcome { return Outcome{} }
func (gatesOn) Encode(*Spec, decide.Decision) Reply                 { return Reply{} }
func (gatesOn) Messages(*Spec, decide.Decision) (string, string)    { return "", "" }

// TestInstallEntries: the shell guard, the runner on each event, the edit guard; with OneGuard
// and the edit guard on the shell guard's event, one guard entry matching both tools, first. The
// runner is fail-closed on the event that can block (pre), for the agent too where it has a
// setting for it, and left as it is on the other (stop).
func TestInstallEntries(t *testing.T) {
	t.Parallel()
	own := func(string, string, []InstallEntry) []byte { return nil }
	agent := func(oneGuard bool, editEvent string) *Agent {
		return &Agent{Dialect: func(AskAs) Dialect { return gatesOn{} }, Shell: Shell{Event: "pre"}, Install: Install{ShellMatcher: "bash", Events: []string{"pre", "stop"},
			RunArgs: "run", EditEvent: editEvent, EditMatcher: "create|edit", OneGuard: oneGuard, FailClosed: true, Own: own}}
	}
	const g = "guard bash --fail-closed"
	runner := []InstallEntry{{Event: "pre", Args: "run --fail-closed pre", FailClosed: true}, {Event: "stop", Args: "run stop"}}
	cases := []struct {
		name string
		a    *Agent
		want []InstallEntry
	}{
		{"two entries", agent(false, "pre"), append(append([]InstallEntry{{Event: "pre", Matcher: "bash", Args: g, FailClosed: true}}, runner...),
			InstallEntry{Event: "pre", Matcher: "create|edit", Args: g, FailClosed: true})},
		{"one entry", agent(true, "pre"), append([]InstallEntry{{Event: "pre", Matcher: "bash|create|edit", Args: g, FailClosed: true}}, runner...)},
		{"one guard, but the edit guard on another event", agent(true, "edit"), append(append([]InstallEntry{{Event: "pre", Matcher: "bash", Args: g, FailClosed: true}}, runner...),
			InstallEntry{Event: "edit", Matcher: "create|edit", Args: g, FailClosed: true})},
		{"one guard, but a file of the user's", func() *Agent { a := agent(true, "pre"); a.Install.Own = nil; return a }(),
			append(append([]InstallEntry{{Event: "pre", Matcher: "bash", Args: g, FailClosed: true}}, runner...),
				InstallEntry{Event: "pre", Matcher: "create|edit", Args: g, FailClosed: true})},
		// an agent with no fail-closed setting of its own: run --fail-closed, nothing marked
		{"no fail-closed setting", func() *Agent { a := agent(false, "pre"); a.Install.FailClosed = false; return a }(),
			[]InstallEntry{{Event: "pre", Matcher: "bash", Args: g}, {Event: "pre", Args: "run --fail-closed pre"}, {Event: "stop", Args: "run stop"},
				{Event: "pre", Matcher: "create|edit", Args: g}}},
	}
	for _, c := range cases {
		if got := c.a.InstallEntries(g); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
