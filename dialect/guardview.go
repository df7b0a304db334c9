package dialect

import "fmt"

// The neutral forms an agent's GuardView writes for the built-in guards, beside Claude Code's
// tool and field names:
//
//   - tool_input.file_paths: every file a call reads or changes when it names several (VS
//     Code's multi_replace_string_in_file, Auggie's remove-files, Cline's read_files); the guards
//     judge each one.
//   - tool_name mcp__SERVER__TOOL: an MCP call whose server and tool are known (Claude Code's
//     own form); mcp__NAME, with no second "__": an MCP call whose name joins server and tool
//     with "_" so that the split is not known (OpenCode's SERVER_TOOL, VS Code's
//     mcp_SERVER_TOOL); the MCP guard judges every split and takes the strictest answer.
//   - mcp_split: the character that joins server and tool in such an mcp__NAME when it is not
//     "_" (Copilot CLI's SERVER-TOOL).

// StringList checks that m[key], when set, is a list of non-empty strings; field names it in
// the error. A file list the guard cannot read is an error of the call, never an allow.
func StringList(m map[string]any, key, field string) error {
	v, set := m[key]
	if !set {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("payload: field %q must be a list of paths", field)
	}
	for i, f := range list {
		if s, ok := f.(string); !ok || s == "" {
			return fmt.Errorf("payload: field %s[%d] must be a path (a non-empty string)", field, i)
		}
	}
	return nil
}

// MCPTool is the neutral name of an MCP call of server's tool: mcp__server__tool.
func MCPTool(server, tool string) string { return "mcp__" + server + "__" + tool }

// MCPJoined is the neutral name of an MCP call whose name joins server and tool with "_" in a
// way that does not split: mcp__joined.
func MCPJoined(joined string) string { return "mcp__" + joined }

// MCPJoinedBy names, in m, an MCP call whose name joins server and tool with sep, a character
// other than "_": tool_name mcp__joined, and mcp_split sep.
func MCPJoinedBy(m map[string]any, joined string, sep byte) {
	m["tool_name"], m["mcp_split"] = MCPJoined(joined), string(sep)
}
