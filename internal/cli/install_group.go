package cli

import (
	"bytes"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// installGroup writes the agent's entries as the named group install owns (Install.Group) in a
// file of named groups (Antigravity's hooks.json): the group is agenthooks' own, so it is
// written whole, each event once, tool events (those whose matcher names a tool) as matcher
// groups and the others as plain handlers; every other group is left as it is. It says what
// it changed: nothing when the group is already so.
func installGroup(root *jsonpos.Value, agent *dialect.Agent, prog string) []string {
	d := agent.Dialect(dialect.AskAsDeny)
	group := jsonpos.Obj()
	var added []string
	for _, en := range installEntries(agent) {
		command := prog + " " + en.args
		handler := jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(command))
		if agent.Install.Timeout > 0 {
			handler.Set("timeout", number(agent.Install.Timeout.Seconds()))
		}
		list := arrayAt(group, en.event)
		if spec, ok := d.Lookup(en.event); ok && spec.Target != dialect.NoTarget {
			g := jsonpos.Obj()
			if en.matcher != "" {
				g.Set("matcher", jsonpos.Str(en.matcher))
			}
			g.Set("hooks", jsonpos.Arr(handler))
			list.Elems = append(list.Elems, g)
		} else {
			list.Elems = append(list.Elems, handler)
		}
		added = append(added, "added "+en.event+": "+command)
	}
	old := root.Get(agent.Install.Group)
	if old != nil && bytes.Equal(old.Encode(), group.Encode()) {
		return nil
	}
	root.Set(agent.Install.Group, group)
	if old != nil {
		return []string{"rewrote the group " + agent.Install.Group}
	}
	return added
}

// uninstallGroup deletes the named group install owns.
func uninstallGroup(root *jsonpos.Value, agent *dialect.Agent) []string {
	if root.Get(agent.Install.Group) == nil {
		return nil
	}
	root.Delete(agent.Install.Group)
	return []string{"removed the group " + agent.Install.Group}
}
