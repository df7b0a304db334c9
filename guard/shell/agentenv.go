package shell

import (
	"path"
	"slices"
	"strings"
)

// FindingAgentEnv: the command sets a variable that moves an agent's configuration or switches
// its plugins off (CLAUDE_CONFIG_DIR, OPENCODE_CONFIG_DIR, OPENCODE_PURE), or hands an agent's
// program another home (HOME=/tmp/x claude): an agent started so reads no agenthooks hooks, and
// what it then does, no guard sees.
const FindingAgentEnv = "agent-env"

// AgentVariable names the agent whose configuration the variable name moves, adds to or
// switches off, or "" when it is none of them. Each agent's descriptor (dialect/<agent>) names
// the folders these variables move, which config.ProtectedPaths protects; a test there checks
// that every variable it follows is one of these.
func AgentVariable(name string) string {
	switch name {
	// Claude Code 2.1.328: CLAUDE_CODE_SIMPLE is what --bare sets (no hooks from settings or
	// plugins), CLAUDE_CODE_SAFE_MODE what --safe-mode sets (none but an organization's).
	case "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE":
		return "Claude Code"
	case "CODEX_HOME":
		return "Codex"
	case "COPILOT_HOME":
		return "Copilot CLI"
	case "GEMINI_CLI_HOME":
		return "Gemini CLI"
	// Qwen Code 0.24.4: QWEN_CODE_SIMPLE (--bare) and QWEN_CODE_SAFE_MODE (--safe-mode) set
	// disableAllHooks.
	case "QWEN_HOME", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SIMPLE", "QWEN_CODE_SAFE_MODE":
		return "Qwen Code"
	// Factory Droid 0.215.0: FACTORY_RUNTIME_SETTINGS_PATH is what --settings names, settings
	// merged over the user's.
	case "FACTORY_HOME_OVERRIDE", "FACTORY_RUNTIME_SETTINGS_PATH":
		return "Factory Droid"
	case "CRUSH_GLOBAL_CONFIG":
		return "Crush"
	// The Cline CLI 3.0.65 sets CLINE_HOOKS_DIR from --hooks-dir.
	case "CLINE_DIR", "CLINE_HOOKS_DIR":
		return "Cline"
	// Goose (block/goose 0825b57): GOOSE_PATH_ROOT moves the settings.json whose
	// disabledPlugins can switch agenthooks' plugin off.
	case "GOOSE_PATH_ROOT":
		return "Goose"
	case "KIMI_CODE_HOME": // Kimi Code's folder, with the config.toml that holds its hooks
		return "Kimi Code"
	// OpenCode 1.18.33: OPENCODE_CONFIG and OPENCODE_CONFIG_CONTENT add a config whose plugin
	// list loads code (a plugin can undo another's answer), OPENCODE_CONFIG_DIR adds a config
	// folder, OPENCODE_TUI_CONFIG the terminal UI's plugins, OPENCODE_PURE loads no plugin at
	// all (agenthooks' is one), and OPENCODE_DISABLE_PROJECT_CONFIG skips the project's
	// .opencode, where a project install puts it.
	case "OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT", "OPENCODE_TUI_CONFIG", "OPENCODE_PURE",
		"OPENCODE_DISABLE_PROJECT_CONFIG":
		return "OpenCode"
	}
	return ""
}

// agentCLIs are the coding agents' command lines, sorted (every descriptor's Binary among them:
// a test in config checks it).
var agentCLIs = []string{
	"agy", "auggie", "claude", "cline", "code", "codex", "copilot", "crush", "cursor-agent", "droid", "gemini", "goose", "kimi",
	"kiro", "kiro-cli", "opencode", "qwen", "windsurf",
}

// IsAgentCLI reports whether name (a program's base name, .exe or not) is one of the coding
// agents' command lines.
func IsAgentCLI(name string) bool {
	_, ok := slices.BinarySearch(agentCLIs, strings.TrimSuffix(name, ".exe"))
	return ok
}

// homeVariable reports whether the variable name moves every program's home or configuration
// folder (HOME, XDG_CONFIG_HOME, and Windows' USERPROFILE and APPDATA): harmless for most
// programs, but an agent's program given one reads none of the user's hooks.
func homeVariable(name string) bool { return slices.Contains(homeVariables[:], name) }

var homeVariables = [...]string{"HOME", "XDG_CONFIG_HOME", "USERPROFILE", "APPDATA"}

// agentVariable reports an assignment to a variable that moves an agent's configuration.
func (a *analyzer) agentVariable(name string, pos Pos) {
	if who := AgentVariable(name); who != "" {
		a.find(FindingAgentEnv, pos, -1, "sets "+name+", which moves or switches off "+who+"'s configuration and its hooks")
	}
}

// agentVariableUnset reports the removal of a variable that moves an agent's configuration
// (unset CLAUDE_CONFIG_DIR, env -u CODEX_HOME): an agent started after it reads its default
// folder, where a person who moved it may have no hooks.
func (a *analyzer) agentVariableUnset(name string, pos Pos) {
	if who := AgentVariable(name); who != "" {
		a.find(FindingAgentEnv, pos, -1, "unsets "+name+", which moves "+who+"'s configuration and its hooks")
	}
}

// agentHome reports names, variables set for the one program cmd, when one moves every home
// and cmd is an agent's program (HOME=/tmp/x claude -p …), and cmd run with its environment
// cleared (env -i claude -p …: the agents' variables gone too).
func (a *analyzer) agentHome(names []string, cleared bool, cmd Word, pos Pos) {
	if !cmd.Static || !IsAgentCLI(path.Base(cmd.Value)) {
		return
	}
	for _, n := range names {
		if homeVariable(n) {
			a.find(FindingAgentEnv, pos, -1, "runs "+path.Base(cmd.Value)+" with another "+n+", where it reads none of the user's hooks")
			return
		}
	}
	if cleared {
		a.find(FindingAgentEnv, pos, -1, "runs "+path.Base(cmd.Value)+" with its environment cleared, where it may read none of the user's hooks")
	}
}

// agentAfterHome reports an agent's program, name, run after the command set a variable that
// moves every home (export HOME=/tmp/x; claude -p …): HOME is in every environment, so even a
// plain assignment reaches the program.
func (a *analyzer) agentAfterHome(name string, pos Pos) {
	for _, v := range homeVariables {
		if _, ok := a.vars[v]; ok {
			a.find(FindingAgentEnv, pos, -1, "runs "+name+" after setting "+v+", where it reads none of the user's hooks")
			return
		}
	}
}
