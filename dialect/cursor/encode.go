package cursor

import (
	"encoding/json"

	"github.com/agenthooks/agenthooks/decide"
)

// response is Cursor's answer for every event; which fields are set depends on the event.
type response struct {
	Permission           string            `json:"permission,omitempty"`
	Continue             *bool             `json:"continue,omitempty"`
	UserMessage          string            `json:"user_message,omitempty"`
	AgentMessage         string            `json:"agent_message,omitempty"`
	UpdatedInput         json.RawMessage   `json:"updated_input,omitempty"`
	FollowupMessage      string            `json:"followup_message,omitempty"`
	AdditionalContext    string            `json:"additional_context,omitempty"`
	UpdatedMCPToolOutput json.RawMessage   `json:"updated_mcp_tool_output,omitempty"`
	Env                  map[string]string `json:"env,omitempty"`
	PluginPaths          []string          `json:"pluginPaths,omitempty"`
}

// Encode renders a merged decision as the JSON Cursor reads from a hook for this event. A
// decision with no permission on a gating event answers allow, Cursor's own default.
func Encode(ev *Event, d decide.Decision) []byte {
	var r response
	perm := d.Permission
	switch {
	case d.Halt && ev.Gates:
		// Claude Code's continue:false has no Cursor field: on an event that gates, it denies.
		perm = decide.Deny
		if d.UserMessage == "" {
			d.UserMessage = d.StopReason
		}
		if d.AgentMessage == "" {
			d.AgentMessage = d.StopReason
		}
	case perm == decide.Defer:
		perm = decide.Ask // Cursor has no defer; ask is the nearest it honours
	case perm == decide.None:
		perm = decide.Allow
	}
	switch ev.Shape {
	case Permission, PreTool:
		r.Permission, r.UserMessage, r.AgentMessage = string(perm), d.UserMessage, d.AgentMessage
		if ev.Shape == PreTool && perm != decide.Deny {
			r.UpdatedInput = d.UpdatedInput
		}
	case ReadPermission, SubagentGate:
		if perm == decide.Ask {
			perm = decide.Deny // neither event knows ask; the safe reading is deny
		}
		r.Permission, r.UserMessage = string(perm), d.UserMessage
	case Prompt:
		cont := perm != decide.Deny
		r.Continue, r.UserMessage = &cont, d.UserMessage
	case Followup:
		r.FollowupMessage = d.Followup
	case PostTool:
		r.AdditionalContext, r.UpdatedMCPToolOutput = d.AdditionalContext, d.UpdatedMCPToolOutput
	case SessionStart:
		r.Env, r.AdditionalContext = d.Env, d.AdditionalContext
	case Compact:
		r.UserMessage = d.UserMessage
	case WorkspaceOpen:
		r.PluginPaths = d.PluginPaths
	}
	b, _ := marshal(r) // a struct of strings, maps and raw JSON always marshals
	return b
}

// Messages returns what Cursor shows the user (client) and the model when the decision denies
// (or asks), composed exactly as Cursor composes them. Both are empty for an allow.
func Messages(ev *Event, d decide.Decision) (client, model string) {
	if d.Permission != decide.Deny && d.Permission != decide.Ask {
		return "", ""
	}
	um, am := suffix(d.UserMessage), suffix(d.AgentMessage)
	const noWorkaround = " Do not attempt to work around this restriction using alternative methods or commands."
	if d.Permission == decide.Ask {
		return "Approval required by a hook" + um, "The operation needs the user's approval (asked by a hook)" + am + "."
	}
	switch ev.Name {
	case "beforeShellExecution":
		return "Command execution was blocked by a hook" + um,
			"The terminal command was rejected by a hook that prevents execution of this command" + am + "." + noWorkaround
	case "beforeReadFile", "beforeTabFileRead":
		return "File reading was blocked by a security hook",
			"The file read operation was rejected by a security hook that prevents reading of this file." + noWorkaround
	case "beforeMCPExecution":
		return "MCP tool execution was blocked by a hook" + um,
			"The MCP tool call was rejected by a hook that prevents execution of this tool" + am + "." + noWorkaround
	case "beforeSubmitPrompt":
		return "Prompt submission was blocked by a hook" + um, ""
	case "subagentStart":
		return "Subagent was blocked by a hook" + um, "The subagent was rejected by a hook" + am + "." + noWorkaround
	}
	return "Tool call was blocked by a hook" + um,
		"The tool call was rejected by a hook that prevents this operation" + am + "." + noWorkaround
}

func suffix(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}
