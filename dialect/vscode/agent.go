package vscode

import (
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/copilot"
)

// Agent is VS Code's descriptor (GitHub Copilot's agent in VS Code, the Local harness).
//
// VS Code reads GitHub Copilot CLI's hooks folders (.github/hooks, ~/.copilot/hooks) as its
// own, so agenthooks' file there serves both: install writes for VS Code the very file it writes
// for Copilot CLI (Copilot's format, which VS Code maps: camelCase events to its own, bash to
// its Linux and macOS command, powershell to its Windows one), and a machine wired for both gets
// one file, whose entries each agent runs once per call. Claude Code's settings files VS Code
// runs only with chat.useClaudeHooks on (Reads): install says so where both are wired.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "VS Code agent hooks",
	Short:  "VS Code",
	Binary: "code",
	// VS Code's user hooks folder is ~/.copilot/hooks, Copilot CLI's (without COPILOT_HOME: VS
	// Code reads the path as written).
	Dir: ".copilot",
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".github/hooks/*.json", Format: dialect.FormatVSCodeHooks},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks/*.json", Format: dialect.FormatVSCodeHooks},
	},
	// VS Code's settings switch its hooks off (chat.useHooks, chat.useClaudeHooks; earlier
	// releases' chat.useCustomAgentHooks) or move them (chat.hookFilesLocations). They are
	// window-scoped and restricted (VS Code's source): user, profile and remote settings set
	// them, and a trusted workspace's settings too.
	Switches:   settingsFiles,
	SwitchKeys: []string{"chat.hook", "chat.useHooks", "chat.useClaudeHooks", "chat.useCustomAgentHooks"},
	Reads: []dialect.Shared{
		{Agent: dialect.Claude, Setting: "chat.useClaudeHooks"},
		{Agent: copilot.Name},
	},
	// chat.hookFilesLocations can switch the hooks folders off: an agenthooks entry in Claude
	// Code's files never steps aside for the shared file's, which might not run.
	OwnFilesSwitch:   "chat.hookFilesLocations",
	Dialect:          func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         ToClaude,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   VSCodeTool,
	GuardView:        GuardView,
	HookCwd:          true, // a hook's cwd defaults to the workspace root
	// VS Code runs the hooks of its files itself. It applies a PreToolUse updatedInput only when
	// it fits the tool's schema and otherwise runs the call unchanged, so a confined rewrite
	// could run unconfined: no Rewrite.
	Answer: dialect.Answer{CanAsk: true, RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "run_in_terminal", Payload: shellPayload},
	Install: dialect.Install{
		// Copilot CLI's install file (TestSharedFile checks they are the same), as constants: the
		// descriptor costs no initialisation. FileOf: install writes it with Copilot CLI's entries.
		File:        "hooks/agenthooks.json",
		ProjectFile: ".github/hooks/agenthooks.json",
		FileOf:      copilot.Name,
		// VS Code's own names for its shell and file tools, and the runner it is reached by; the
		// entries written are Copilot CLI's (FileOf), whose matchers VS Code ignores.
		ShellMatcher: "run_in_terminal",
		// The events VS Code fires from the shared file's Copilot events (agentStop is its Stop);
		// Copilot's other events there run under Copilot CLI only.
		Events:      []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart"},
		RunArgs:     "run --agent copilot",
		EditEvent:   "PreToolUse",
		EditMatcher: "create_file|replace_string_in_file|multi_replace_string_in_file|insert_edit_into_file|edit_notebook_file|apply_patch",
		Timeout:     DefaultTimeout,
		Own:         sharedFile,
		Note: "note: VS Code reads this file from GitHub Copilot CLI's hooks folder; it is the file install writes for Copilot CLI, " +
			"so wiring both writes it once and uninstalling either deletes it for both; VS Code ignores its matchers, and its hooks follow VS Code's documentation and source (agenthooks cannot run VS Code)",
		ProjectNote: "note: VS Code runs a workspace's .github/hooks only in a trusted workspace, with chat.useHooks on",
	},
	Doctor: dialect.Doctor{Switches: switches, ProjectWarning: "VS Code runs a workspace's .github/hooks only in a trusted workspace (Workspace Trust, which doctor cannot see) and with chat.useHooks on; " +
		"an organisation's ChatHooks policy can switch hooks off (doctor reads the settings files, not policies)"},
	Trust:          "runs a workspace's .github/hooks only in a trusted workspace; Claude Code's files only with chat.useClaudeHooks on",
	Unhooked:       "VS Code's other harnesses (Copilot CLI, Claude and Codex sessions in the Agent Host) run their own agents' hooks, not these",
	DefaultTimeout: DefaultTimeout,
	Detect:         func(p dialect.Probe) bool { return p.HookEventCamel != "" && ClaudeEvent(p.HookEventCamel) != "" },
}

// sharedFile is the file install writes for VS Code: GitHub Copilot CLI's, as Copilot's
// descriptor renders it, from the entries install gives Copilot CLI (Install.FileOf), so that
// whichever of the two agents is installed first, the other finds the file as it would write it.
func sharedFile(prog, path string, entries []dialect.InstallEntry) []byte {
	return copilot.Agent.Install.Own(prog, path, entries)
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on PreToolUse (a JSON
// permissionDecision whose reason reaches the model) or UserPromptSubmit (exit status 2 with the
// reason on stderr). An allow is silence: VS Code takes the most restrictive of its hooks'
// decisions, and an allow written out would skip the user's approval of the call.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm == decide.Allow || perm == decide.None {
		return dialect.Reply{}
	}
	event := "PreToolUse"
	if kind == dialect.PromptSubmit {
		event = "UserPromptSubmit"
	}
	spec, _ := Dialect.Lookup(event)
	d := decide.Decision{Permission: perm, UserMessage: reason, AgentMessage: reason}
	if perm == decide.Deny {
		d.UserMessage, d.AgentMessage = "Blocked by agenthooks: "+reason, "Blocked by agenthooks: "+reason
	}
	return Dialect.Encode(spec, d)
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, "PreToolUse")
	if e, ok := events()[ev.Name]; ok && d.AdditionalContext != "" && !e.context {
		out = append(out, "added context")
	}
	return out
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's namesake event is by the
// tool's Claude Code name.
func toolKind(event, tool string) dialect.Kind {
	e, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" {
		return claude.ToolKind(event, ClaudeTool(tool))
	}
	return e.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"timestamp": "2026-01-01T00:00:00.000Z", "hookEventName": "PreToolUse", "sessionId": "agenthooks-doctor",
		"cwd": cwd, "tool_name": "run_in_terminal", "tool_use_id": "agenthooks-doctor",
		"tool_input": map[string]any{"command": c, "explanation": "agenthooks doctor's canary", "isBackground": false}}
}

// settingsFiles are the settings files of VS Code, VS Code Insiders and VSCodium on a platform:
// each workspace's .vscode/settings.json and .code-workspace files, each product's user settings
// and its profiles' (in the platform's application data folder: on Linux ~/.config, or
// $XDG_CONFIG_HOME when set, Electron's appData, so both are protected), and a remote machine's.
func settingsFiles(goos string) []dialect.Location {
	user := ".config/"
	switch goos {
	case "darwin":
		user = "Library/Application Support/"
	case "windows":
		user = "AppData/Roaming/"
	}
	out := []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".vscode/settings.json"},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "*.code-workspace"},
		{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".vscode-server/data/Machine/settings.json"},
	}
	for _, product := range []string{"Code", "Code - Insiders", "VSCodium"} {
		out = append(out,
			dialect.Location{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: user + product + "/User/settings.json"},
			dialect.Location{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: user + product + "/User/profiles/*/settings.json"})
		if goos == "linux" {
			out = append(out,
				dialect.Location{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: product + "/User/settings.json"},
				dialect.Location{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: product + "/User/profiles/*/settings.json"})
		}
	}
	return out
}
