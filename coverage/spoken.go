package coverage

import (
	"encoding/json"

	"github.com/agenthooks/agenthooks/dialect"
)

// spokenCall reads one of a's tool calls (its tool's name and arguments, as its transcript
// keeps them) as Claude Code would name it, through the rename a's descriptor makes of its
// pre-tool payload (a.RenameToSpoken on a.Shell.Event): the agent's tool and argument names live
// in its dialect package, not here. It says whether the call is a shell or file-changing one,
// and returns the Claude Code tool and what the call does (its command or the file changed).
func spokenCall(a *dialect.Agent, tool string, args map[string]any) (claude, what string, kind Kind, ok bool) {
	return spokenPayload(a, map[string]any{"tool_name": tool, "tool_input": args})
}

// spokenPayload is spokenCall for an agent whose pre-tool payload does not keep the call in
// tool_name and tool_input (the Cline CLI's): m is the call in the shape of a's payload, and it
// is renamed in place.
func spokenPayload(a *dialect.Agent, m map[string]any) (claude, what string, kind Kind, ok bool) {
	toSpoken(a, m)
	return readSpoken(m)
}

// toSpoken renames a pre-tool payload of a's, in place, as Claude Code's.
func toSpoken(a *dialect.Agent, m map[string]any) {
	if a.RenameToSpoken != nil {
		a.RenameToSpoken(a.Shell.Event, m)
	} else if a.ToSpokenTool != nil {
		name, _ := m["tool_name"].(string)
		m["tool_name"] = a.ToSpokenTool(name)
	}
}

// readSpoken reads the call of a payload in Claude Code's shape.
func readSpoken(m map[string]any) (claude, what string, kind Kind, ok bool) {
	claude, _ = m["tool_name"].(string)
	in, _ := m["tool_input"].(map[string]any)
	kind, field, ok := claudeTool(claude)
	if !ok {
		// A patch tool Claude Code has no namesake for (OpenCode's and Cline's apply_patch,
		// Droid's ApplyPatch): the patch is what the call does.
		if claude != "apply_patch" && claude != "patch" && claude != "ApplyPatch" {
			return "", "", "", false
		}
		for _, f := range []string{"patchText", "input", "patch"} {
			if what, _ = in[f].(string); what != "" {
				break
			}
		}
		return claude, what, File, true
	}
	what, _ = in[field].(string)
	return claude, what, kind, true
}

// spokenDecision completes d from a pre-tool payload of a's (as the audit trail stores it),
// renamed as Claude Code's through a's descriptor: its session_id, tool_use_id and what the call
// does. It returns the payload as it came, decoded (nil when it is not a JSON object), for what
// else the agent's reader needs of it.
func spokenDecision(a *dialect.Agent, payload []byte, d *Decision) map[string]any {
	var m map[string]any
	if checkDepth(payload) != nil || json.Unmarshal(payload, &m) != nil || m == nil {
		return nil
	}
	var orig map[string]any
	if json.Unmarshal(payload, &orig) != nil {
		return nil
	}
	toSpoken(a, m)
	if s, _ := m["session_id"].(string); s != "" {
		d.Session = s
	}
	if id, _ := m["tool_use_id"].(string); id != "" {
		d.ToolUseID = id
	}
	if _, what, _, ok := readSpoken(m); ok && what != "" {
		d.Keys = append(d.Keys, clipCommand(what))
	}
	return orig
}
