package opencode

import (
	"slices"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is OpenCode's descriptor. Its "hooks file" is the plugin agenthooks writes: OpenCode has
// no hook commands of its own.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "OpenCode",
	Binary: "opencode",
	// OpenCode's user folder is $XDG_CONFIG_HOME/opencode, ~/.config/opencode by default; a
	// project's is .opencode (Install.ProjectFile).
	Dir: ".config/opencode",
	// 1.18.33: the global config folder is $XDG_CONFIG_HOME/opencode; OPENCODE_CONFIG_DIR is read
	// beside it, not instead
	HomeVars:   []dialect.HomeVar{{Env: "XDG_CONFIG_HOME", Path: "opencode"}},
	ManagedDir: ManagedDir,
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/" + PluginFile, Format: dialect.FormatOpenCodePlugin},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: PluginFile, Format: dialect.FormatOpenCodePlugin},
	},
	// OpenCode 1.18.33 reads its config folders in this order: ~/.config/opencode
	// ($XDG_CONFIG_HOME/opencode), each .opencode from the working directory up to the
	// repository's root, ~/.opencode, and $OPENCODE_CONFIG_DIR. From each it loads plugins and
	// custom tools ({plugin,plugins}/*.{js,ts}, {tool,tools}/*.{js,ts}) and runs bun install on
	// its package.json, whose packages those plugins import from node_modules: a file put there
	// runs inside OpenCode, unguarded.
	Loads: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/plugin"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/plugins"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/tool"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/tools"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/node_modules"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugin"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "tool"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "tools"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "node_modules"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/plugin"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/tool"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/tools"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/node_modules"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/plugin"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/tool"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/tools"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/node_modules"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "plugin"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "tool"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "tools"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "node_modules"},
	},
	// Its config files, whose plugin list loads npm packages and local files into OpenCode
	// (one can replace or undo agenthooks' plugin), and the package.json of each config folder,
	// whose dependencies it installs: the project's opencode.json(c) from the working directory
	// up, each config folder's opencode.json(c) (the user's also config.json and the older TOML
	// config), tui.json(c) (the terminal UI's plugins), $OPENCODE_CONFIG, $OPENCODE_TUI_CONFIG,
	// and the machine's managed opencode.json(c).
	Configs: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "opencode.json"},
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "opencode.jsonc"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "opencode.json"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "opencode.jsonc"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "tui.json"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "tui.jsonc"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/opencode.json"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/opencode.jsonc"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/tui.json"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/tui.jsonc"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".opencode/package.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "opencode.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "opencode.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "config.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "config"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "tui.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "tui.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "package.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/opencode.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/opencode.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/tui.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/tui.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".opencode/package.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/opencode.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/opencode.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/config.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/config"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/tui.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/tui.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "opencode/package.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "opencode.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "opencode.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "tui.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "tui.jsonc"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG_DIR", Path: "package.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_CONFIG"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "OPENCODE_TUI_CONFIG"},
	},
	Dialect:            Dialect,
	ToolKind:           toolKind,
	Speaks:             dialect.Claude,
	ToSpoken:           ToClaude,
	SpokenEvent:        claudeEvent,
	RenameToSpoken:     RenameToClaude,
	RenameFromSpoken:   RenameFromClaude,
	ToSpokenTool:       ClaudeTool,
	SpokenToolReadings: ToolReadings,
	FromSpokenTool:     OpenCodeTool,
	GuardView:          GuardView,
	HookCwd:            true, // the plugin runs agenthooks in the project's folder
	// The plugin is OpenCode's only hook: it runs the entries of its own settings. A rewrite of
	// the tool's arguments ({"decision":"allow","args":...}) replaces, in place, the very object
	// OpenCode 1.18.33 then runs the tool with; its bash tool applies OpenCode's permission rules
	// after the plugin, to the rewritten command, so the confined rewrite reads them first
	// against the original (OwnRules).
	OwnRules: ownRules,
	Answer:   dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply, Rewrite: rewriteReply},
	Shell:    dialect.Shell{Event: BeforeTool, Tool: "bash", Payload: shellPayload},
	Install: dialect.Install{
		File:         PluginFile,
		ProjectFile:  ".opencode/" + PluginFile,
		ShellMatcher: "bash",
		Events:       []string{BeforeTool, AfterTool, ChatMessage, SessionCreated, SessionIdle},
		RunArgs:      "run --agent opencode",
		EditEvent:    BeforeTool,
		EditMatcher:  "edit|write|multiedit|apply_patch|patch",
		FailClosed:   true,
		Timeout:      DefaultTimeout,
		Own:          Plugin,
		Note: "note: the plugin is agenthooks' own file (uninstall deletes it); OpenCode loads it at start, so restart OpenCode. " +
			"It blocks every tool call and prompt when agenthooks cannot be run (fail closed)",
		ProjectNote: "note: OpenCode loads a project's .opencode plugins without asking",
	},
	// 1.18.33: OPENCODE_PURE, which --pure sets, loads no external plugin
	Doctor:         dialect.Doctor{OffVars: []dialect.OffVar{{Env: "OPENCODE_PURE", Does: "what --pure sets: no plugin is loaded, agenthooks' neither"}}},
	Trust:          "loads a project's .opencode plugins without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
	Proven: []dialect.Proof{{Event: BeforeTool, Can: dialect.CapBlock, Test: "TestOpenCodeShellGuard"},
		{Event: BeforeTool, Can: dialect.CapRewrite, Test: "TestOpenCodeConfine"},
		{Event: ChatMessage, Can: dialect.CapBlock, Test: "TestOpenCodePromptGuard"}},
}

// detect: the plugin names its event with OpenCode's dotted hook names, which no other agent
// uses.
func detect(p dialect.Probe) bool {
	return slices.Contains(Events, p.HookEvent) // events' names, without building its table
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on tool.execute.before:
// a deny is {"decision":"deny"} with the reason, which the plugin throws and the model reads;
// anything else is silence.
func guardReply(_ dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	msg := "Blocked by agenthooks: " + reason
	d := Dialect(dialect.AskAsDeny)
	spec, _ := d.Lookup(BeforeTool)
	return d.Encode(spec, decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg})
}

// rewriteReply is an allow that runs the tool with input instead: "args", which the plugin puts
// in place of the tool's arguments.
func rewriteReply(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"decision": "allow", "reason": reason, "args": input})
	return dialect.Reply{Stdout: append(b, '\n')}
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, BeforeTool)
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	if ev.Name == SessionCreated || ev.Name == SessionIdle {
		// OpenCode does not wait for the plugin's event hook: nothing of an answer reaches it
		if d.AdditionalContext != "" {
			out = append(out, "additional context (OpenCode does not wait for the plugin's session events)")
		}
		if d.Followup != "" || d.Permission == decide.Deny || d.Halt {
			out = append(out, "a block or follow-up (OpenCode does not wait for the plugin's session events)")
		}
	}
	if ev.Gates && d.AdditionalContext != "" {
		if ev.Name == ChatMessage {
			out = append(out, "additional context for the prompt")
		} else {
			out = append(out, "additional context before the tool runs")
		}
	}
	return out
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's namesake is by the tool's
// Claude Code name.
func toolKind(event, tool string) dialect.Kind {
	s, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" {
		return claude.ToolKind(claudeEvent(event), ClaudeTool(tool))
	}
	return s.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"hook_event_name": BeforeTool, "tool": "bash", "sessionID": "agenthooks-doctor", "callID": "agenthooks-doctor",
		"args": map[string]any{"command": c, "description": "agenthooks doctor's canary"}, "cwd": cwd}
}

// ManagedDir returns the folder of OpenCode's managed opencode.json on a platform (OpenCode
// 1.18.33's managedConfigDir): /etc/opencode on Linux, /Library/Application Support/opencode
// on macOS, %ProgramData%\opencode on Windows (C:\ProgramData by default).
func ManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/opencode"
	case "windows":
		return `C:\ProgramData\opencode`
	}
	return "/etc/opencode"
}
