package opencode

import (
	"os"
	"regexp"
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// OpenCode 1.18.33 names an MCP tool SERVER_TOOL, each part with every character but letters,
// digits, "_" and "-" made "_"; both parts may hold "_", so the name is read with the servers
// OpenCode's configuration names (its "mcp" object) where it can be.

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_-]`) })

// mcpServers are the MCP servers named in the OpenCode configuration a session in cwd reads
// ($OPENCODE_CONFIG, the user's and the project's opencode.json or opencode.jsonc), spelled as
// OpenCode spells them in tool names.
func mcpServers(cwd string) []string {
	var paths []string
	for _, name := range []string{"opencode.json", "opencode.jsonc", "config.json"} {
		paths = append(paths, dialect.ConfigFile("opencode", name))
	}
	for _, name := range []string{"opencode.json", "opencode.jsonc"} {
		paths = append(paths, dialect.ProjectFile(cwd, name), dialect.ProjectFile(cwd, ".opencode", name))
	}
	paths = append(paths, os.Getenv("OPENCODE_CONFIG"))
	servers := dialect.MCPServers("mcp", paths...)
	for i, s := range servers {
		servers[i] = unsafeName().ReplaceAllString(s, "_")
	}
	return servers
}

// mcpName is Claude Code's name for OpenCode's MCP tool: mcp__SERVER__TOOL split at a configured
// server, known true; else split at the first "_", known false.
func mcpName(tool, cwd string) (name string, known bool) {
	servers := mcpServers(cwd)
	server, name, ok := dialect.MCPSplit(tool, '_', servers)
	if !ok {
		return tool, false
	}
	for _, s := range servers {
		if s == server {
			return dialect.MCPTool(server, name), true
		}
	}
	return dialect.MCPTool(server, name), false
}

// ToolReadings lists every Claude Code name OpenCode's tool may stand for when it is an MCP
// tool whose name splits more than one way; nil otherwise.
func ToolReadings(tool string) []string {
	if !isMCPTool(tool) {
		return nil
	}
	return dialect.MCPReadings(tool, '_')
}
