package coverage

import "github.com/agenthooks/agenthooks/dialect"

// spokenCall reads one of a's tool calls (its tool's name and arguments, as its transcript
// keeps them) as Claude Code would name it, through the rename a's descriptor makes of its
// pre-tool payload (a.RenameToSpoken on a.Shell.Event): the agent's tool and argument names live
// in its dialect package, not here. It says whether the call is a shell or file-changing one,
// and returns the Claude Code tool and what the call does (its command or the file changed).
func spokenCall(a *dialect.Agent, tool string, args map[string]any) (claude, what string, kind Kind, ok bool) {
	m := map[string]any{"tool_name": tool, "tool_input": args}
	if a.RenameToSpoken != nil {
		a.RenameToSpoken(a.Shell.Event, m)
	} else if a.ToSpokenTool != nil {
		m["tool_name"] = a.ToSpokenTool(tool)
	}
	claude, _ = m["tool_name"].(string)
	kind, field, ok := claudeTool(claude)
	if !ok {
		return "", "", "", false
	}
	in, _ := m["tool_input"].(map[string]any)
	what, _ = in[field].(string)
	return claude, what, kind, true
}
