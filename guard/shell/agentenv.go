package shell

import (
	"slices"
	"strings"
)

// FindingAgentEnv: the command sets a variable that moves an agent's configuration or switches
// its plugins off (CLAUDE_CONFIG_DIR, OPENCODE_CONFIG_DIR, OPENCODE_PURE), or hands an agent's
// program another home (HOME=/tmp/x claude, env -i claude, sudo -u other claude): an agent
// started so reads no agenthooks hooks, and what it then does, no guard sees.
const FindingAgentEnv = "agent-env"

// AgentVariable names the agent whose configuration the variable name moves, adds to or
// switches off, or "" when it is none of them. Each agent's descriptor (dialect/<agent>) names
// the folders these variables move, which config.ProtectedPaths protects; a test there checks
// that every variable it follows is one of these.
func AgentVariable(name string) string {
	switch name {
	// Claude Code 2.1.328: CLAUDE_CODE_SIMPLE is what --bare sets (no hooks from settings or
	// plugins), CLAUDE_CODE_SAFE_MODE what --safe-mode sets (none but an organization's),
	// CLAUDE_CODE_RESTRICTED what --restricted sets (no user, project or local settings);
	// CLAUDE_CODE_MANAGED_SETTINGS_PATH names the managed-settings folder read instead of the
	// machine's and CLAUDE_CODE_REMOTE_SETTINGS_PATH the remote settings file read instead of
	// the server's: settings over all others, which can switch the hooks off.
	case "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE", "CLAUDE_CODE_RESTRICTED",
		"CLAUDE_CODE_MANAGED_SETTINGS_PATH", "CLAUDE_CODE_REMOTE_SETTINGS_PATH":
		return "Claude Code"
	case "CODEX_HOME":
		return "Codex"
	case "COPILOT_HOME":
		return "Copilot CLI"
	// Gemini CLI 0.61.0 merges settings as system defaults < user < workspace < system, the
	// workspace's only in a trusted folder: GEMINI_CLI_SYSTEM_SETTINGS_PATH and
	// GEMINI_CLI_SYSTEM_DEFAULTS_PATH name settings that can switch the hooks off
	// (hooksConfig.enabled), GEMINI_CLI_TRUSTED_FOLDERS_PATH another trust list, where the
	// project's settings and their hooks may be untrusted.
	case "GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "GEMINI_CLI_TRUSTED_FOLDERS_PATH":
		return "Gemini CLI"
	// Qwen Code 0.24.4: QWEN_CODE_SIMPLE (--bare) and QWEN_CODE_SAFE_MODE (--safe-mode) set
	// disableAllHooks; its settings merge as Gemini CLI's, so the system defaults
	// (QWEN_CODE_SYSTEM_DEFAULTS_PATH) can set it too, and another trust list
	// (QWEN_CODE_TRUSTED_FOLDERS_PATH) ignores the workspace's settings.
	case "QWEN_HOME", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SIMPLE", "QWEN_CODE_SAFE_MODE",
		"QWEN_CODE_SYSTEM_DEFAULTS_PATH", "QWEN_CODE_TRUSTED_FOLDERS_PATH":
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

// IsAgentCLI reports whether name (a program's base name, .exe, .cmd or .ps1 or not) is one of
// the coding agents' command lines.
func IsAgentCLI(name string) bool {
	_, ok := slices.BinarySearch(agentCLIs, agentProgram(name))
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

// agentEnvOf reports an agent's program, prog, started in frame f with its environment
// changed on its way (frame.env: HOME=/tmp/x timeout 9 claude, env -i claude) or as another
// user (sudo claude, su -c claude: that user's home): it reads none of the user's hooks.
func (a *analyzer) agentEnvOf(prog string, f *frame, pos Pos) {
	for _, c := range f.env {
		if c == "env -i" {
			a.find(FindingAgentEnv, pos, -1, "runs "+prog+" with its environment cleared, where it may read none of the user's hooks")
		} else {
			a.find(FindingAgentEnv, pos, -1, "runs "+prog+" with another "+c+", where it reads none of the user's hooks")
		}
		return
	}
	for _, w := range f.wrappers {
		switch who, _, _ := strings.Cut(w, " "); who {
		case "sudo", "doas", "su", "runuser", "pkexec":
			a.find(FindingAgentEnv, pos, -1, "runs "+prog+" as another user ("+who+"), whose home holds none of this user's hooks")
			return
		}
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
