package copilot

import "github.com/agenthooks/agenthooks/dialect"

// Copilot CLI 1.0.102 names an MCP tool SERVER-TOOL; both parts may hold "-", so the name is
// read with the servers the user's ~/.copilot/mcp-config.json ($COPILOT_HOME/mcp-config.json) names (its "mcpServers" object)
// where it can be.

// mcpName is Claude Code's name for Copilot's MCP tool: mcp__SERVER__TOOL split at a server
// ~/.copilot/mcp-config.json names, known true; else split at the first "-", known false.
func mcpName(tool string) (name string, known bool) {
	servers := dialect.MCPServers("mcpServers", dialect.AgentHomeFile("COPILOT_HOME", []string{".copilot"}, "mcp-config.json"))
	if n, known := dialect.MCPName(tool, '-', servers); n != "" {
		return n, known
	}
	return tool, false
}

// ToolReadings lists every Claude Code name Copilot's tool may stand for when it is an MCP tool
// whose name splits more than one way; nil otherwise.
func ToolReadings(tool string) []string {
	if !isMCPTool(tool) {
		return nil
	}
	return dialect.MCPReadings(tool, '-')
}
