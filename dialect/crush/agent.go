package crush

import (
	"strings"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Agent is Crush's descriptor.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Crush",
	Binary: "crush",
	// Dir is Crush's user folder, ~/.config/crush; CRUSH_GLOBAL_CONFIG moves it (Crush also
	// follows XDG_CONFIG_HOME, which agenthooks does not read, but protects: Configs).
	Dir:     ".config/crush",
	HomeEnv: "CRUSH_GLOBAL_CONFIG",
	// config.GlobalConfig: $CRUSH_GLOBAL_CONFIG/crush.json, else $XDG_CONFIG_HOME/crush/crush.json
	HomeVars:   []dialect.HomeVar{{Env: "XDG_CONFIG_HOME", Path: "crush"}},
	ManagedDir: ManagedDir,
	Files: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "crush.json", Format: dialect.FormatCrush},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".crush.json", Format: dialect.FormatCrush},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: "crush.json", Format: dialect.FormatCrush},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "crush.json", Format: dialect.FormatCrush},
	},
	Configs:            []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "XDG_CONFIG_HOME", Path: "crush/crush.json"}},
	Dialect:            Dialect,
	ToolKind:           toolKind,
	Speaks:             dialect.Claude,
	ToSpoken:           ToClaude,
	SpokenEvent:        CanonicalEvent,
	RenameToSpoken:     RenameToClaude,
	RenameFromSpoken:   RenameFromClaude,
	ToSpokenTool:       ClaudeTool,
	SpokenToolReadings: ToolReadings,
	FromSpokenTool:     CrushTool,
	GuardView:          GuardView,
	// Crush runs the hooks of its own crush.json files, in the working directory, and applies a
	// hook's updated_input (merged key by key into the tool's input). No OwnRules, so no confined
	// rewrite: its bash tool blocks banned commands in its in-process shell as they run, which a
	// rewritten bash -c no longer passes through (docs/agents/crush.md).
	HookCwd: true,
	Answer:  dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply, Rewrite: rewriteReply},
	Shell:   dialect.Shell{Event: "PreToolUse", Tool: "bash", Payload: shellPayload},
	Install: dialect.Install{
		File:         "crush.json",
		ProjectFile:  "crush.json",
		ShellMatcher: "^bash$",
		Events:       []string{"PreToolUse"},
		RunArgs:      "run --agent crush",
		EditEvent:    "PreToolUse",
		// Every tool of Crush's that changes a file it names (download saves a URL to file_path,
		// lsp_replace_symbol rewrites a symbol in file_path); lsp_rename changes the files its
		// language server finds, which no hook is told.
		EditMatcher: "^(edit|multiedit|write|download|lsp_replace_symbol)$",
		ProjectNote: "note: Crush runs a project's crush.json hooks without asking; they fire for the top-level agent's tools, not a sub-agent's",
	},
	Trust: "runs the hooks of a project's crush.json or .crush.json (in the folder and those above it up to the repository's root) " +
		"without asking; not a sub-agent's tool calls",
	// Crush wraps only the top-level agent's tools with hooks (coordinator.buildTools, 37f36e9
	// after v0.90.0): e2e TestCrushSubagentUnhooked.
	Unhooked: "a sub-agent's calls: those of the agent tool's sub-agent (its read-only view, glob, grep, ls, sourcegraph " +
		"and LSP lookups) and of agentic_fetch's (web_fetch, web_search, view of the pages it fetched); only the call that starts one reaches the guard",
	DefaultTimeout: DefaultTimeout,
	Detect:         func(p dialect.Probe) bool { return p.HookEvent == "" && CanonicalEvent(p.Event) != "" && !p.CamelCase },
	Proven:         []dialect.Proof{{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestCrushShellGuard"}},
}

// ManagedDir returns the folder of Crush's system crush.json on a platform: /etc/crush on
// Linux and macOS, none on Windows.
func ManagedDir(goos string) string {
	if goos == "windows" {
		return ""
	}
	return "/etc/crush"
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it: a deny is
// {"decision":"deny","reason":...} on stdout with exit status 0, whose reason Crush gives the
// model; an allow is silence, so that Crush's own permission prompt still runs (an allow
// written out would skip it).
func guardReply(_ dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	spec, _ := Dialect(dialect.AskAsDeny).Lookup("PreToolUse")
	msg := "Blocked by agenthooks: " + reason
	return Dialect(dialect.AskAsDeny).Encode(spec, decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg})
}

// rewriteReply is an allow that runs the tool with input instead: updated_input, which Crush
// merges key by key into the tool's input, so every key of input replaces the model's.
func rewriteReply(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"decision": "allow", "reason": reason, "updated_input": input})
	return dialect.Reply{Stdout: append(b, '\n')}
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, "PreToolUse")
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	return out
}

// toolKind narrows PreToolUse by Crush's tool: bash is a shell command, view a file read,
// mcp_<server>_<tool> an MCP call.
func toolKind(event, tool string) dialect.Kind {
	if _, ok := events()[event]; !ok {
		return ""
	}
	switch {
	case tool == "bash":
		return dialect.BeforeShell
	case tool == "view":
		return dialect.BeforeRead
	case strings.HasPrefix(tool, "mcp_"):
		return dialect.BeforeMCP
	}
	return dialect.PreTool
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"event": "PreToolUse", "session_id": "agenthooks-doctor", "cwd": cwd, "tool_name": "bash",
		"tool_input": map[string]any{"command": c, "description": "agenthooks doctor's canary"}}
}
