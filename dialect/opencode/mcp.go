package opencode

import (
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// OpenCode 1.18.33 names an MCP tool SERVER_TOOL, each part with every character but letters,
// digits, "_" and "-" made "_"; both parts may hold "_", so the name is read with the servers
// OpenCode's configuration names (its "mcp" object) where it can be.

// toolNamePart spells s as OpenCode does in a tool's name: every character but ASCII letters,
// digits, "_" and "-" (each UTF-16 unit of it, in JavaScript's replace) as "_".
func toolNamePart(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("__") // a surrogate pair in JavaScript: two units
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

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
		servers[i] = toolNamePart(s)
	}
	return servers
}

// mcpName is Claude Code's name for OpenCode's MCP tool: mcp__SERVER__TOOL split at a configured
// server, known true; else split at the first "_", known false.
func mcpName(tool, cwd string) (name string, known bool) {
	servers := mcpServers(cwd)
	if n, known := dialect.MCPName(tool, '_', servers); n != "" {
		return n, known
	}
	return tool, false
}

// ToolReadings lists every Claude Code name OpenCode's tool may stand for when it is an MCP
// tool whose name splits more than one way; nil otherwise.
func ToolReadings(tool string) []string {
	if !isMCPTool(tool) {
		return nil
	}
	return dialect.MCPReadings(tool, '_')
}
