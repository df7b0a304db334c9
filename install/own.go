package install

import (
	"bytes"
	"fmt"

	"github.com/agenthooks/agenthooks/dialect"
)

// planOwn plans the file of an agent whose install file is agenthooks' own (Install.Own, an
// agent that reads every file of a folder, as Copilot CLI its hooks folder): install writes it
// whole, and a second install with the same program changes nothing; uninstall deletes it. No
// other file of the agent's is touched.
func planOwn(c *Change, o Options, remove bool) {
	a := c.Agent
	if remove {
		c.Missing, c.New = !c.Exists, nil
		if c.Exists {
			c.Delete = true
			c.Changes = []string{"removed (the file was agenthooks' own)"}
		}
		return
	}
	prog := o.Program
	if prog == "" {
		prog = "agenthooks"
	}
	path := prog
	if unquoted, _, ok := Call(prog + " run"); ok {
		path = unquoted
	}
	var list []dialect.InstallEntry
	for _, en := range entries(a) {
		list = append(list, dialect.InstallEntry{Event: en.event, Matcher: en.matcher, Args: en.args, FailClosed: en.failClosed})
	}
	c.New = a.Install.Own(prog, path, list)
	if c.Exists && bytes.Equal(c.Old, c.New) {
		return
	}
	verb := "written"
	if c.Exists {
		verb = "rewritten"
	}
	c.Changes = []string{fmt.Sprintf("%s with %d entries: the shell guard on %s, the runner on %d events, the edit guard on %s",
		verb, len(list), a.Shell.Event, len(a.Install.Events), a.Install.EditEvent)}
}
