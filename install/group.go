package install

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// group writes the agent's entries as the named group install owns (Install.Group) in a file
// of named groups (Antigravity's hooks.json): the group is agenthooks' own, so it is written
// whole, each event once, tool events (those whose matcher names a tool) as matcher groups and
// the others as plain handlers; every other group is left as it is. It says what it changed:
// nothing when the group is already so.
func group(root *jsonpos.Value, agent *dialect.Agent, prog program) []string {
	d := agent.Dialect(dialect.AskAsDeny)
	g := jsonpos.Obj()
	var added []string
	for _, en := range entries(agent) {
		command := prog.dialectEntry(en).Command(prog.cmd)
		handler := jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(command))
		if agent.Install.Timeout > 0 {
			handler.Set("timeout", &jsonpos.Value{Kind: jsonpos.Number, Num: json.Number(strconv.FormatFloat(agent.Install.Timeout.Seconds(), 'f', -1, 64))})
		}
		list := g.At(en.event, jsonpos.Array)
		if spec, ok := d.Lookup(en.event); ok && spec.Target != dialect.NoTarget {
			mg := jsonpos.Obj()
			if en.matcher != "" {
				mg.Set("matcher", jsonpos.Str(en.matcher))
			}
			mg.Set("hooks", jsonpos.Arr(handler))
			list.Elems = append(list.Elems, mg)
		} else {
			list.Elems = append(list.Elems, handler)
		}
		added = append(added, "added "+en.event+": "+command)
	}
	old := root.Get(agent.Install.Group)
	if old != nil && bytes.Equal(old.Encode(), g.Encode()) {
		return nil
	}
	root.Set(agent.Install.Group, g)
	if old != nil {
		return []string{"rewrote the group " + agent.Install.Group}
	}
	return added
}

// ungroup deletes the named group install owns.
func ungroup(root *jsonpos.Value, agent *dialect.Agent) []string {
	if root.Get(agent.Install.Group) == nil {
		return nil
	}
	root.Delete(agent.Install.Group)
	return []string{"removed the group " + agent.Install.Group}
}
