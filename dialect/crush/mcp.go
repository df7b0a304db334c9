package crush

import (
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// Crush names an MCP tool mcp_SERVER_TOOL; both parts may hold "_", so the name is read with the
// servers Crush's configuration names (the "mcp" object of the project's crush.json or
// .crush.json, or the user's ~/.config/crush/crush.json, $CRUSH_GLOBAL_CONFIG/crush.json) where it can be.

// mcpJoined is SERVER_TOOL of Crush's MCP tool name mcp_SERVER_TOOL; ok false for other names.
// A bare mcp_ is an MCP call that names nothing, which the MCP guard refuses to judge.
func mcpJoined(tool string) (string, bool) {
	if strings.HasPrefix(tool, "mcp__") {
		return "", false
	}
	return strings.CutPrefix(tool, "mcp_")
}

// mcpName is Claude Code's name for Crush's MCP tool SERVER_TOOL (joined): mcp__SERVER__TOOL
// split at a server Crush's configuration for a session in cwd names, known true; else split at
// the first "_", known false.
func mcpName(joined, cwd string) (name string, known bool) {
	servers := dialect.MCPServers("mcp", dialect.AgentHomeFile("CRUSH_GLOBAL_CONFIG", []string{".config", "crush"}, "crush.json"), dialect.ConfigFile("crush", "crush.json"),
		dialect.ProjectFile(cwd, "crush.json"), dialect.ProjectFile(cwd, ".crush.json"))
	if n, known := dialect.MCPName(joined, '_', servers); n != "" {
		return n, known
	}
	return dialect.MCPJoined(joined), false
}

// ToolReadings lists every Claude Code name Crush's tool may stand for when it is an MCP tool
// whose name splits more than one way; nil otherwise.
func ToolReadings(tool string) []string {
	joined, ok := mcpJoined(tool)
	if !ok {
		return nil
	}
	return dialect.MCPReadings(joined, '_')
}
