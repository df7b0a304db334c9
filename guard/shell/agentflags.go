package shell

import (
	"path"
	"strings"

	"github.com/agenthooks/agenthooks/guard/code"
)

// FindingAgentFlags: the command starts a coding agent with a flag of its own that drops the
// hooks the user installed or loads settings that can switch them off (claude --bare, claude
// --settings FILE, opencode --pure, codex --disable hooks, qwen --safe-mode): that agent reads
// no agenthooks hooks, and what it then does, no guard sees.
const FindingAgentFlags = "agent-flags"

// AgentFlag returns what a flag of the agent's program name does to its hooks ("skips the
// hooks in its settings"), given the flag's name as written (with its dashes) and its value
// (the word after it, or what follows "="; "" when it has none), or "" when the flag leaves
// them alone. The table is keyed by the command line, "PROGRAM FLAG", each PROGRAM one of
// agentCLIs, the descriptors' Binary (TestAgentFlagPrograms checks it). Read in each
// agent's own --help and code: Claude Code 2.1.328, OpenCode 1.18.33, Codex 0.169.0, Qwen Code
// 0.24.4, the Cline CLI 3.0.65 and Factory Droid 0.215.0. Gemini CLI 0.61.0, Copilot CLI
// 1.0.102 (it has no --config-dir), Kimi Code 2.1.0 and Crush have none (Gemini's and Qwen's
// --extensions picks extensions, not the hooks in settings; --yolo and
// --dangerously-skip-permissions skip approvals, not hooks). Codex's --profile NAME layers
// $CODEX_HOME/NAME.config.toml, a plain name only (0.169.0 refuses a path): a file in the
// folder the guard protects, which the user wrote, so it is let through.
func AgentFlag(name, flag, value string) string {
	switch agentProgram(name) + " " + flag {
	case "claude --bare":
		return "skips the hooks in its settings and plugins"
	case "claude --safe-mode":
		return "turns off every hook but an organization's"
	case "claude --restricted":
		return "ignores the user's, the project's and the local settings, where its hooks live"
	case "claude --settings", "claude --managed-settings":
		return "loads settings of the agent's choosing, which can switch the hooks off (disableAllHooks)"
	case "claude --setting-sources":
		if !allSettingSources(value) {
			return "loads only some of its settings (" + value + "), not every place hooks live"
		}
	case "opencode --pure":
		return "loads no plugin, agenthooks' among them"
	case "codex -c", "codex --config":
		if key, _, _ := strings.Cut(value, "="); codexHooksKey(strings.TrimSpace(key), value) {
			return "overrides its hooks settings (" + key + ")"
		}
	case "codex --disable":
		if value == "hooks" || value == "codex_hooks" {
			return "turns its hooks feature off"
		}
	case "codex --ignore-user-config":
		// codex exec 0.169.0: "Do not load $CODEX_HOME/config.toml", where the user's hooks'
		// reviews (hooks.state) and the project's trust are kept: unreviewed hooks do not run
		return "skips the user's config.toml, where its hooks and their trust are kept"
	case "qwen --bare":
		return "skips every hook (disableAllHooks)"
	case "qwen --safe-mode":
		return "turns off every hook"
	case "cline --config":
		return "reads another configuration folder, without the user's hooks"
	case "cline --hooks-dir":
		return "reads its hooks from another folder"
	case "droid --settings":
		return "merges settings of the agent's choosing, which can switch the hooks off"
	}
	return ""
}

// agentPackage is the agent's program an npm package's name (without its scope) stands for
// (npx @anthropic-ai/claude-code runs claude), or "". A package named as its program
// (@openai/codex, @github/copilot, cline, droid) is one of agentCLIs already.
func agentPackage(name string) string {
	switch name {
	case "claude-code":
		return "claude"
	case "opencode-ai":
		return "opencode"
	case "gemini-cli":
		return "gemini"
	case "qwen-code":
		return "qwen"
	case "kimi-code":
		return "kimi"
	}
	if IsAgentCLI(name) {
		return agentProgram(name)
	}
	return ""
}

// agentProgram is an agent's program name as agentCLIs spells it: without the suffixes of
// Windows' programs and of npm's shims for them (claude.exe, claude.cmd, claude.ps1).
func agentProgram(name string) string {
	for _, ext := range [...]string{".exe", ".cmd", ".ps1", ".bat"} {
		if len(name) > len(ext) && strings.EqualFold(name[len(name)-len(ext):], ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

// agentStarted is the agent's program that the command name with args starts, and its
// arguments from the program's own name on: name itself (claude, claude.cmd), a package
// runner's package at any version (npx @anthropic-ai/claude-code@latest), or a script of an
// agent run by node, bun or deno (node …/node_modules/@anthropic-ai/claude-code/cli.js, node
// "$(command -v claude)"). "" when it starts none.
func agentStarted(name string, args []Word) (string, []Word) {
	if IsAgentCLI(name) {
		return agentProgram(name), args
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i] // claude-code@2.1.0: the version npx fetches
	}
	if prog := agentPackage(name); prog != "" {
		return prog, args
	}
	if code.Language(name) != "javascript" {
		return "", nil
	}
	for i := 1; i < len(args); i++ {
		switch v := args[i].Value; {
		case v == "--":
		case strings.HasPrefix(v, "-"):
			if v == "-e" || v == "--eval" || v == "-p" || v == "--print" {
				return "", nil // code, not a script: read as code
			}
		default:
			if prog := agentScript(v); prog != "" {
				return prog, args[i:]
			}
			return "", nil
		}
	}
	return "", nil
}

// agentScript is the agent whose program the script file p is: an agent's program by its
// name with no extension (node "$(command -v claude)"), or a file inside an agent's npm
// package (…/node_modules/@anthropic-ai/claude-code/cli.js). "" when it is neither.
func agentScript(p string) string {
	if base := path.Base(p); path.Ext(base) == "" && IsAgentCLI(base) {
		return agentProgram(base)
	}
	i := strings.LastIndex(p, "node_modules/")
	if i < 0 {
		return ""
	}
	segs := strings.Split(p[i+len("node_modules/"):], "/")
	if len(segs) > 1 && strings.HasPrefix(segs[0], "@") {
		segs = segs[1:] // the scope: @anthropic-ai
	}
	if len(segs) < 2 { // the package's folder and a file in it
		return ""
	}
	return agentPackage(segs[0])
}

// agentFlagTakesValue reports whether an agent's flag that AgentFlag judges by its value takes
// the next word as that value when not given with "=".
func agentFlagTakesValue(name, flag string) bool {
	switch agentProgram(name) + " " + flag {
	case "claude --setting-sources", "claude --settings", "claude --managed-settings", "codex -c", "codex --config",
		"codex --disable", "cline --config", "cline --hooks-dir", "droid --settings":
		return true
	}
	return false
}

// allSettingSources reports whether a --setting-sources list names all three of Claude Code's
// settings that may hold hooks: user, project and local.
func allSettingSources(list string) bool {
	var user, project, local bool
	for _, s := range strings.Split(list, ",") {
		switch strings.TrimSpace(s) {
		case "user":
			user = true
		case "project":
			project = true
		case "local":
			local = true
		}
	}
	return user && project && local
}

// codexHooksKey reports whether a Codex -c override's dotted key reaches its hooks: the hooks
// table and what it holds (hooks.state, where each hook is trusted or turned off), or the
// hooks feature (features.hooks, or a features table that names it).
func codexHooksKey(key, assignment string) bool {
	key = strings.NewReplacer(`"`, "", "'", "", " ", "", "\t", "").Replace(key) // "features" . hooks
	switch {
	case key == "hooks" || strings.HasPrefix(key, "hooks."):
		return true
	case key == "features.hooks" || key == "features.codex_hooks":
		return true
	case key == "features":
		return strings.Contains(assignment, "hooks")
	}
	return false
}

// agentFlags reports the flags of an agent's program, args[0] named name, that drop the hooks
// the user installed (AgentFlag). Its options end at "--"; a value not known before the
// command runs is taken at its worst.
func (a *analyzer) agentFlags(name string, args []Word, pos Pos) {
	name = agentProgram(name)
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if !strings.HasPrefix(v, "-") {
			continue
		}
		if v == "--" && args[i].Static {
			return
		}
		flag, value, eq := strings.Cut(v, "=")
		switch {
		case len(v) > 2 && strings.HasPrefix(v, "-c") && v[2] != '-' && agentFlagTakesValue(name, "-c"):
			flag, value = "-c", strings.TrimPrefix(v[2:], "=") // codex -ckey=value, -c=key=value (clap)
		case strings.Contains(flag, Dyn):
			continue
		case !eq && agentFlagTakesValue(name, flag) && i+1 < len(args):
			i++
			value = args[i].Value
		}
		if strings.Contains(value, Dyn) {
			value = worstValue(flag, value)
		}
		if why := AgentFlag(name, flag, value); why != "" {
			a.find(FindingAgentFlags, pos, -1, "runs "+name+" with "+flag+", which "+why)
			return
		}
	}
}

// worstValue is the value a flag is judged with when part of it is not known before the
// command runs: a Codex override whose key is known keeps it (-c "model=$M").
func worstValue(flag, value string) string {
	switch flag {
	case "-c", "--config":
		if key, _, ok := strings.Cut(value, "="); ok && !strings.Contains(key, Dyn) {
			return value
		}
		return "hooks=?"
	case "--disable":
		return "hooks"
	}
	return "?"
}
