package copilot

import "github.com/agenthooks/agenthooks/dialect"

// Copilot CLI 1.0.102 names an MCP tool SERVER-TOOL; both parts may hold "-", so the name is
// read with the servers the user's ~/.copilot/mcp-config.json ($COPILOT_HOME/mcp-config.json) names (its "mcpServers" object)
// where it can be.

// mcpName is Claude Code's name for Copilot's MCP tool: mcp__SERVER__TOOL split at a server
// ~/.copilot/mcp-config.json names, known true; else split at the first "-", known false.
func mcpName(tool string) (name string, known bool) {
	servers := dialect.MCPServers("mcpServers", dialect.AgentHomeFile("COPILOT_HOME", []string{".copilot"}, "mcp-config.json"))
	server, rest, ok := dialect.MCPSplit(tool, '-', servers)
	if !ok {
		return tool, false
	}
	for _, s := range servers {
		if s == server {
			return dialect.MCPTool(server, rest), true
		}
	}
	return dialect.MCPTool(server, rest), false
}

// ToolReadings lists every Claude Code name Copilot's tool may stand for when it is an MCP tool
// whose name splits more than one way; nil otherwise.
func ToolReadings(tool string) []string {
	if !isMCPTool(tool) {
		return nil
	}
	return dialect.MCPReadings(tool, '-')
}
