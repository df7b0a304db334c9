package droid

import (
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// DefaultTimeout is Droid's timeout for a hook whose entry sets none.
const DefaultTimeout = 60 * time.Second

// Agent is Factory Droid's descriptor.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Factory Droid",
	Short:  "Droid",
	Binary: "droid",
	Dir:    ".factory",
	// 0.215.0: FACTORY_HOME_OVERRIDE replaces the home folder Droid keeps its .factory in
	HomeVars:   []dialect.HomeVar{{Env: "FACTORY_HOME_OVERRIDE", Path: ".factory"}},
	ManagedDir: ManagedDir,
	Files: []dialect.Location{
		{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".factory/hooks.json", Format: dialect.FormatBareSettings},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".factory/settings.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks.json", Format: dialect.FormatBareSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "settings.json", Format: dialect.FormatSettings},
	},
	// The legacy hooks/hooks.json, which Droid reads where hooks.json is missing (and whose
	// events then replace settings.json's), and the user's folder where FACTORY_HOME_OVERRIDE
	// stands for the home folder (Droid 0.215.0): its .factory is the user's folder then.
	Configs: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".factory/hooks/hooks.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks/hooks.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "FACTORY_HOME_OVERRIDE", Path: ".factory/hooks.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "FACTORY_HOME_OVERRIDE", Path: ".factory/hooks/hooks.json"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "FACTORY_HOME_OVERRIDE", Path: ".factory/settings.json"},
	},
	// 0.215.0: the hooks object holds two settings beside the events (doctor reads hooksDisabled)
	Settings:         dialect.Settings{HooksSettings: []string{"hooksDisabled", "showHookOutput"}},
	Dialect:          Dialect,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         ToClaude,
	SpokenEvent:      spokenEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   DroidTool,
	GuardView:        GuardView,
	// Droid runs the hooks of its own files; a PreToolUse allow's updatedInput is merged into the
	// tool's input, and the allow skips Droid's own questions (autonomy level, commandDenylist);
	// only its commandBlocklist is applied to the rewritten command. So the confined rewrite
	// reads Droid's lists first (OwnRules).
	OwnRules: ownRules,
	Answer:   dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply, Rewrite: rewriteReply},
	Shell:    dialect.Shell{Event: "PreToolUse", Tool: "Execute", Payload: shellPayload},
	Install: dialect.Install{
		File:         "settings.json",
		ShellMatcher: "Execute",
		Events:       []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact"},
		RunArgs:      "run --agent droid",
		EditEvent:    "PreToolUse",
		EditMatcher:  "Create|Edit|ApplyPatch",
		Note:         "note: Droid takes an event's hooks from ~/.factory/hooks.json instead of settings.json when hooks.json names that event",
	},
	Doctor:         dialect.Doctor{Switches: switches},
	Trust:          "runs a project's .factory hooks without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
	Proven: []dialect.Proof{{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestDroidShellGuard"},
		{Event: "PreToolUse", Can: dialect.CapRewrite, Test: "TestDroidConfine"}},
}

// ManagedDir returns the folder of Droid's system settings.json on a platform.
func ManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/Factory"
	case "windows":
		return `C:\Program Files\Factory`
	}
	return "/etc/factory"
}

// detect: Droid's payload is Claude Code's with Droid's permission modes (its autonomy levels)
// and tool names, which Claude Code has not. The permission mode tells the tools the two share
// by name (Edit, whose input is not Claude Code's, Read, Task) and MCP tools.
func detect(p dialect.Probe) bool {
	if p.HookEvent == "" || p.TurnID != nil {
		return false
	}
	switch p.PermissionMode {
	case "off", "spec", "auto-low", "auto-medium", "auto-high": // 0.215.0's; Claude Code's are others
		return true
	}
	switch p.Tool {
	case "Execute", "Create", "ApplyPatch", "FetchUrl":
		return true
	}
	return false
}

func spokenEvent(event string) string {
	if _, ok := events()[event]; ok {
		return event
	}
	return ""
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on PreToolUse: a deny
// is hookSpecificOutput's permissionDecision deny on exit 0, whose reason the model reads; an
// allow is silence, so that Droid's own permission flow still runs. A prompt is blocked as
// Claude Code's UserPromptSubmit is.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	msg := "Blocked by agenthooks: " + reason
	event := "PreToolUse"
	if kind == dialect.PromptSubmit {
		event = "UserPromptSubmit"
	}
	d := Dialect(dialect.AskAsDeny)
	spec, _ := d.Lookup(event)
	return d.Encode(spec, decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg})
}

// rewriteReply is an allow that runs the tool with input instead: updatedInput, merged key by
// key into the tool's input.
func rewriteReply(input map[string]any, reason string) dialect.Reply {
	b, _ := dialect.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
		"permissionDecision": "allow", "permissionDecisionReason": reason, "updatedInput": input}})
	return dialect.Reply{Stdout: append(b, '\n')}
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	return dialect.Loses(ev, d, "PreToolUse")
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's is by the tool's Claude
// Code name.
func toolKind(event, tool string) dialect.Kind {
	s, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" {
		return claude.ToolKind(event, ClaudeTool(tool))
	}
	return s.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"session_id": "agenthooks-doctor", "transcript_path": "", "cwd": cwd, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Execute", "tool_input": map[string]any{"command": c}}
}
