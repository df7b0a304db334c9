package cli

import (
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// toNamedGroup writes the hooks of f for an agent whose file is an object of named groups
// (Antigravity's hooks.json): Claude Code's matcher groups under one group named "converted",
// the events whose matcher names no tool as plain handlers. agy discards a key it does not know,
// so a hook that speaks another agent's dialect is written without "dialect" and says so: agy
// sends it agy's payload.
func toNamedGroup(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string, []string) {
	out, lost, notes := toMatcherGroups(f, toA)
	hooks := out.Get("hooks")
	d := toA.Dialect(dialect.AskAsDeny)
	var moved []string
	for _, n := range notes {
		if !strings.Contains(n, `("dialect" says so)`) { // said below: the field is not written
			moved = append(moved, n)
		}
	}
	for _, m := range hooks.Members {
		spec, _ := d.Lookup(m.Key)
		var flat []*jsonpos.Value
		for _, g := range m.Value.Elems {
			for _, h := range g.Get("hooks").Elems {
				if dl := h.Get("dialect"); dl != nil {
					h.Delete("dialect")
					lost = append(lost, m.Key+": a hook that speaks "+dl.Str+"'s dialect gets "+toA.ShortTitle()+"'s payload from "+toA.ShortTitle())
				}
				flat = append(flat, h)
			}
		}
		if spec != nil && spec.Target == dialect.NoTarget {
			m.Value.Elems = flat
		}
	}
	return jsonpos.Obj("converted", hooks), dedupe(lost), moved
}
