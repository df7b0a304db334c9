package install

import (
	"bytes"
	"fmt"
	"strings"

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
	prog := o.program()
	of := fileAgent(a) // VS Code's file is Copilot CLI's, written as for it
	var list []dialect.InstallEntry
	for _, en := range entries(a) {
		list = append(list, prog.dialectEntry(en))
	}
	c.New = of.Install.Own(prog.cmd, prog.path, list)
	if c.Exists && bytes.Equal(c.Old, c.New) {
		return
	}
	verb := "written"
	if c.Exists {
		verb = "rewritten"
	}
	msg := fmt.Sprintf("%s with %d entries: %s", verb, len(list), describe(of, list))
	if of != a {
		msg += fmt.Sprintf("; it is %s's file, from which %s runs the guard and the runner on %d events", of.Title, a.Short, len(a.Install.Events))
	}
	c.Changes = []string{msg}
}

// planEdit plans the file of an agent whose hooks share a text file of its own format with its
// other settings (Install.Edit, Kimi Code's config.toml): the agent's package adds install's
// entries and takes them out, keeping every other byte. A file it cannot edit safely is an
// error and is left untouched.
func planEdit(c *Change, o Options, remove bool) error {
	if remove && !c.Exists {
		c.Missing, c.New = true, c.Old
		return nil
	}
	prog := o.program()
	var list []dialect.InstallEntry
	for _, en := range entries(c.Agent) {
		list = append(list, prog.dialectEntry(en))
	}
	out, changes, err := c.Agent.Install.Edit(c.Old, prog.cmd, list, remove)
	if err != nil {
		return fmt.Errorf("%s: %v", c.File, err)
	}
	c.New, c.Changes = out, changes
	return nil
}

// describe says what entries hold, in their order, for install's message: the guards on their
// events (the shell and edit guards as one entry when Install.OneGuard joins them), the runner
// on so many events.
func describe(a *dialect.Agent, list []dialect.InstallEntry) string {
	var parts []string
	runner, at := 0, -1
	for _, en := range list {
		if !strings.HasPrefix(en.Args, "guard ") {
			if runner++; at < 0 {
				at = len(parts)
				parts = append(parts, "")
			}
			continue
		}
		switch en.Matcher {
		case a.Install.ShellMatcher:
			parts = append(parts, "the shell guard on "+en.Event)
		case a.Install.EditMatcher:
			parts = append(parts, "the edit guard on "+en.Event)
		default:
			parts = append(parts, "the shell and edit guards as one entry on "+en.Event+" ("+en.Matcher+")")
		}
	}
	if at >= 0 {
		parts[at] = fmt.Sprintf("the runner on %d events", runner)
	}
	return strings.Join(parts, ", ")
}
