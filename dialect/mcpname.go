package dialect

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Agents that join an MCP tool's server and tool with one character ("_" for OpenCode and
// Crush, "-" for Copilot CLI) give names that split more than one way when either part holds
// that character (e2edb_list_tables). The helpers below read such a name two ways:
//
//   - MCPSplit picks one reading, for the payload a hook of another agent sees: the server the
//     agent's own MCP configuration names (MCPServers), else the first split.
//   - MCPReadings lists every reading, for hook matchers: a hook fires when any reading
//     matches, so a deny hook on mcp__SERVER__TOOL is never skipped because the name split
//     another way.

// MCPSplit splits joined, an MCP tool's name whose server and tool are joined by sep, into
// server and tool: at the longest of servers that joined begins with (followed by sep and a
// non-empty tool), else at the first sep. ok is false when joined has no sep to split at.
func MCPSplit(joined string, sep byte, servers []string) (server, tool string, ok bool) {
	best := -1
	for _, s := range servers {
		if s != "" && len(s) > best && len(joined) > len(s)+1 && joined[len(s)] == sep && strings.HasPrefix(joined, s) {
			best = len(s)
		}
	}
	if best < 0 {
		if len(joined) < 3 {
			return "", "", false
		}
		best = strings.IndexByte(joined[1:len(joined)-1], sep) + 1 // a sep with text on both sides
		if best == 0 {
			return "", "", false
		}
	}
	return joined[:best], joined[best+1:], true
}

// MCPName is Claude Code's name (mcp__SERVER__TOOL) for joined, an MCP tool's name whose server
// and tool are joined by sep, read with servers, the names the agent's MCP configuration gives:
// known is true only when exactly one of servers fits (joined begins with it, then sep, then a
// tool). With none, or with two that fit (a project's configuration can name a server
// "db_drop" beside "db"), the name is the first split and known is false, so that a guard
// judges every reading and the strictest stands rather than the one a configuration chose.
func MCPName(joined string, sep byte, servers []string) (name string, known bool) {
	fits := 0
	for _, s := range servers {
		if s != "" && len(joined) > len(s)+1 && joined[len(s)] == sep && strings.HasPrefix(joined, s) {
			fits++
		}
	}
	server, tool, ok := MCPSplit(joined, sep, servers)
	if !ok {
		return "", false
	}
	if fits != 1 {
		server, tool, _ = MCPSplit(joined, sep, nil)
	}
	return MCPTool(server, tool), fits == 1
}

// MCPReadings lists every Claude Code name (mcp__SERVER__TOOL) that joined, an MCP tool's name
// whose server and tool are joined by sep, may stand for: one per sep with text on both sides.
func MCPReadings(joined string, sep byte) []string {
	var out []string
	for i := 1; i < len(joined)-1; i++ {
		if joined[i] == sep {
			out = append(out, MCPTool(joined[:i], joined[i+1:]))
		}
	}
	return out
}

// maxMCPConfig bounds the size of an agent's configuration file read for its MCP servers.
const maxMCPConfig = 4 << 20

// MCPServers lists the names of the MCP servers configured in the JSON (or JSONC) files at
// paths, the keys of the object under key ("mcp", "mcpServers"). A file that is missing,
// too large or not JSON adds none: the names only choose a reading of a joined tool name,
// never a decision.
func MCPServers(key string, paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(f, maxMCPConfig+1))
		f.Close()
		if err != nil || len(data) > maxMCPConfig {
			continue
		}
		var doc map[string]json.RawMessage
		if json.Unmarshal(StripJSONComments(data), &doc) != nil {
			continue
		}
		var servers map[string]json.RawMessage
		if json.Unmarshal(doc[key], &servers) != nil {
			continue
		}
		for s := range servers {
			out = append(out, s)
		}
	}
	return out
}

// UserFile is path under the user's home folder, or "" when there is none.
func UserFile(path ...string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(append([]string{home}, path...)...)
}

// ProjectFile is path under the payload's working folder cwd, or "" when cwd is not absolute.
func ProjectFile(cwd string, path ...string) string {
	if !filepath.IsAbs(cwd) {
		return ""
	}
	return filepath.Join(append([]string{cwd}, path...)...)
}

// ConfigFile is path under the user's configuration folder, $XDG_CONFIG_HOME or ~/.config, or
// "" when there is none.
func ConfigFile(path ...string) string {
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(append([]string{x}, path...)...)
	}
	return UserFile(append([]string{".config"}, path...)...)
}

// AgentHomeFile is path under an agent's user folder: $env when it is set to an absolute path
// (COPILOT_HOME, CRUSH_GLOBAL_CONFIG), else dir under the home folder; "" when there is none.
func AgentHomeFile(env string, dir []string, path ...string) string {
	if d := os.Getenv(env); filepath.IsAbs(d) {
		return filepath.Join(append([]string{d}, path...)...)
	}
	return UserFile(append(dir, path...)...)
}
