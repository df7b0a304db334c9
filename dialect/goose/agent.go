package goose

import (
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// DefaultTimeout is Goose's timeout for a hook that sets none (DEFAULT_HOOK_TIMEOUT_SECS).
const DefaultTimeout = 30 * time.Second

// PluginDir is the plugin folder install writes, under the plugins folder.
const PluginDir = "plugins/agenthooks"

// Agent is Goose's descriptor.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Goose",
	Binary: "goose",
	// Goose's plugins live in ~/.agents/plugins and <project>/.agents/plugins: every folder
	// there is a plugin, enabled unless a settings file or config.yaml says otherwise, and its
	// hooks/hooks.json is read when a session starts.
	Dir: ".agents",
	// GOOSE_PATH_ROOT, absolute, holds the .agents folder instead of the home (config/paths.rs)
	HomeVars: []dialect.HomeVar{{Env: "GOOSE_PATH_ROOT", Path: ".agents"}},
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".agents/plugins/*/hooks/hooks.json", Format: dialect.FormatSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugins/*/hooks/hooks.json", Format: dialect.FormatSettings},
	},
	// A new folder in a plugins folder is a new plugin, and its hooks run as soon as a session
	// starts: the whole folders are protected.
	Loads: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".agents/plugins"},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "plugins"},
	},
	Settings:         dialect.Settings{RegexMatcher: true, OnFailure: true, DefaultType: "command"},
	Dialect:          Dialect,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         ToClaude,
	SpokenEvent:      spokenEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     ClaudeTool,
	FromSpokenTool:   GooseTool,
	GuardView:        GuardView,
	// Goose runs the hooks of its plugins itself; it reads only a block (exit 2, or
	// decision "block"): no ask, no rewrite, no context.
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "developer__shell", Payload: shellPayload},
	Install: dialect.Install{
		File: PluginDir + "/hooks/hooks.json",
		// Goose's matcher is an unanchored regular expression: anchored here so that a tool
		// whose name merely contains "shell" is not taken for the shell.
		ShellMatcher: "^(developer__shell|shell)$",
		Events:       []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd"},
		RunArgs:      "run --agent goose",
		EditEvent:    "PreToolUse",
		EditMatcher:  "^(developer__write|developer__edit|write|edit)$",
		// on_failure "block" on the PreToolUse entries: a guard that cannot answer (missing,
		// crashed, timed out) denies the call instead of letting it run.
		FailClosed: true,
		// The guards are told the format: a call of an unprefixed tool ("write") with Goose's
		// "event" field looks like Crush's payload, which names its file file_path, not path.
		GuardFormat: true,
		Own:         hooksFile,
		Note:        "note: Goose reads its plugins' hooks when a session starts",
	},
	Doctor:         dialect.Doctor{Switches: switches},
	Trust:          "runs the hooks of every plugin folder in ~/.agents/plugins and in a project's .agents/plugins, unless disabled in its settings",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
}

// detect: Goose names its event in "event", as Crush does, but Crush has only PreToolUse and
// bare tool names, where Goose's built-in tools are namespaced (developer__shell).
func detect(p dialect.Probe) bool {
	if p.HookEvent != "" || p.Event == "" {
		return false
	}
	if _, ok := events()[p.Event]; !ok {
		return false
	}
	return p.Event != "PreToolUse" || strings.Contains(p.Tool, "__") || p.Tool == "shell"
}

// hooksFile is the plugin's hooks/hooks.json as install writes it whole: Claude Code's
// matcher groups, one per entry, a timeout on each and on_failure "block" on the PreToolUse
// entries that ask for it (Goose honours on_failure on PreToolUse only).
func hooksFile(prog, _ string, entries []dialect.InstallEntry) []byte {
	type handler struct {
		Type      string `json:"type"`
		Command   string `json:"command"`
		Timeout   int    `json:"timeout"`
		OnFailure string `json:"on_failure,omitempty"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}
	byEvent := map[string][]string{}
	var order []string
	for _, en := range entries {
		h := handler{Type: "command", Command: en.Command(prog), Timeout: int(DefaultTimeout / time.Second)}
		if en.FailClosed && en.Event == "PreToolUse" {
			h.OnFailure = "block"
		}
		b, _ := dialect.Marshal(group{Matcher: en.Matcher, Hooks: []handler{h}})
		if _, seen := byEvent[en.Event]; !seen {
			order = append(order, en.Event)
		}
		byEvent[en.Event] = append(byEvent[en.Event], string(b))
	}
	var sb strings.Builder
	sb.WriteString("{\n  \"hooks\": {")
	for i, ev := range order {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("\n    \"" + ev + "\": [\n      " + strings.Join(byEvent[ev], ",\n      ") + "\n    ]")
	}
	sb.WriteString("\n  }\n}\n")
	return []byte(sb.String())
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on PreToolUse: a deny
// is {"decision":"block"} on exit 0; an allow is silence.
func guardReply(_ dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	msg := "Blocked by agenthooks: " + reason
	d := Dialect(dialect.AskAsDeny)
	spec, _ := d.Lookup("PreToolUse")
	return d.Encode(spec, decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg})
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d)
	if d.Permission == decide.Deny && !ev.Gates {
		out = append(out, "a block (Goose blocks only PreToolUse and Stop)")
	}
	if d.AdditionalContext != "" {
		out = append(out, "additional context (Goose reads none from a hook)")
	}
	if d.Halt {
		out = append(out, "stopping the agent (Goose has no continue:false; a block stands for it)")
	}
	return out
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's is by the tool's Claude
// Code name.
func toolKind(event, tool string) dialect.Kind {
	s, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" && spokenEvent(event) != "" {
		return claude.ToolKind(event, ClaudeTool(tool))
	}
	return s.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"event": "PreToolUse", "session_id": "agenthooks-doctor", "matcher_context": "developer__shell",
		"tool_call_id": "agenthooks-doctor", "tool_name": "developer__shell", "tool_input": map[string]any{"command": c},
		"working_dir": cwd}
}

func claudeLookup(event string) (*claude.Event, bool) { return claude.Lookup(event) }
