package copilot

import (
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Agent is GitHub Copilot CLI's descriptor.
var Agent = dialect.Agent{
	Name:    Name,
	Title:   "GitHub Copilot CLI",
	Short:   "Copilot",
	Binary:  "copilot",
	Dir:     ".copilot",
	HomeEnv: "COPILOT_HOME",
	Files: []dialect.Location{
		{Scope: dialect.ScopeLocal, Root: dialect.RootWorkspace, Path: ".github/copilot/settings.local.json", Format: dialect.FormatCopilotSettings},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".github/hooks/*.json", Format: dialect.FormatCopilotHooks},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".github/copilot/settings.json", Format: dialect.FormatCopilotSettings},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks/*.json", Format: dialect.FormatCopilotHooks},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "settings.json", Format: dialect.FormatCopilotSettings},
	},
	Dialect:            func(dialect.AskAs) dialect.Dialect { return Dialect },
	ToolKind:           toolKind,
	HookSwitches:       true, // disableAllHooks, allowManagedHooksOnly
	Speaks:             dialect.Claude,
	ToSpoken:           toSpoken,
	SpokenEvent:        ClaudeEvent,
	RenameToSpoken:     RenameToClaude,
	RenameFromSpoken:   RenameFromClaude,
	ToSpokenTool:       ClaudeTool,
	SpokenToolReadings: ToolReadings,
	FromSpokenTool:     CopilotTool,
	GuardView:          GuardView,
	HookCwd:            true, // an entry's cwd defaults to the project root
	// Copilot runs the hooks of its own files. A preToolUse modifiedArgs is applied, but the
	// confined rewrite reads Claude Code's payload, so no Rewrite yet.
	Answer: dialect.Answer{CanAsk: true, RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "preToolUse", Tool: "bash", Payload: shellPayload},
	Install: dialect.Install{
		File:         "hooks/agenthooks.json",
		ProjectFile:  ".github/hooks/agenthooks.json",
		ShellMatcher: "bash",
		Events: []string{"preToolUse", "postToolUse", "postToolUseFailure", "userPromptSubmitted", "agentStop",
			"subagentStart", "subagentStop", "sessionStart", "sessionEnd", "preCompact"},
		RunArgs:     "run --agent copilot",
		EditEvent:   "preToolUse",
		EditMatcher: "create|edit|apply_patch", // apply_patch: 1.0.102's file tool for GPT-5 models (e2e TestCopilotApplyPatchGuard)
		// Copilot's matcher is a regular expression that must match the whole tool name
		// (1.0.102 anchors it as ^(?:matcher)$): one entry, "bash|create|edit|apply_patch",
		// guards the shell and the file tools, and VS Code, which runs this file and ignores
		// matchers, runs the guard once per call.
		OneGuard:    true,
		Timeout:     DefaultTimeout,
		Own:         hooksFile,
		Note:        "note: the file is agenthooks' own: uninstall deletes it",
		ProjectNote: "note: Copilot CLI runs a repository's hooks only in a trusted folder (in a -p run: --trust-folder or COPILOT_ALLOW_ALL=true)",
	},
	Doctor: dialect.Doctor{ProjectWarning: "Copilot CLI loads a repository's .github/hooks only in a trusted folder; a -p run needs --trust-folder or COPILOT_ALLOW_ALL=true, " +
		"otherwise it skips them without a word (doctor cannot see Copilot's folder trust)"},
	Trust:          "runs a repository's .github/hooks only in a trusted folder; user hooks always",
	DefaultTimeout: DefaultTimeout,
	Detect:         func(p dialect.Probe) bool { return p.CamelCase && p.HookEvent == "" },
	Proven: []dialect.Proof{
		{Event: "preToolUse", Can: dialect.CapBlock, Test: "TestCopilotShellGuard"},
		{Event: "userPromptSubmitted", Can: dialect.CapBlock, Test: "TestCopilotPromptGuard"},
		{Event: "permissionRequest", Can: dialect.CapBlock, Test: "TestCopilotHonoursPermissionRequest"},
	},
}

// hooksFile is the hooks file install keeps to itself: each entry, on a line of its own, with
// its bash command (Linux, macOS) and its PowerShell one (Windows), as Copilot CLI's hooks files
// have them.
func hooksFile(prog, path string, entries []dialect.InstallEntry) []byte {
	type entry struct {
		Type       string `json:"type"`
		Bash       string `json:"bash"`
		PowerShell string `json:"powershell"`
		Matcher    string `json:"matcher,omitempty"`
		TimeoutSec int    `json:"timeoutSec"`
	}
	var order []string
	lines := map[string][]string{}
	for _, en := range entries {
		p, args := en.Argv(path)
		pwsh := "& '" + strings.ReplaceAll(p, "'", "''") + "' " + strings.Join(args, " ")
		line, _ := dialect.Marshal(entry{Type: "command", Bash: en.Command(prog), PowerShell: pwsh,
			Matcher: en.Matcher, TimeoutSec: int(DefaultTimeout / time.Second)})
		if _, ok := lines[en.Event]; !ok {
			order = append(order, en.Event)
		}
		lines[en.Event] = append(lines[en.Event], string(line))
	}
	var b strings.Builder
	b.WriteString("{\n  \"version\": 1,\n  \"hooks\": {")
	for i, event := range order {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    \"" + event + "\": [\n      " + strings.Join(lines[event], ",\n      ") + "\n    ]")
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

// toSpoken rewrites a Copilot payload as its Claude Code namesake's; an event with none keeps
// its payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it on preToolUse (or
// userPromptSubmitted for a prompt): JSON on stdout with exit status 0, whose reason Copilot
// tells the model; never exit status 2, after which the model reads only "hook exited with
// code 2". An allow is silence.
func guardReply(kind dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm == decide.Allow || perm == decide.None {
		return dialect.Reply{}
	}
	event := "preToolUse"
	if kind == dialect.PromptSubmit {
		event = "userPromptSubmitted"
	}
	spec, _ := Dialect.Lookup(event)
	d := decide.Decision{Permission: perm, UserMessage: reason, AgentMessage: reason}
	if perm == decide.Deny {
		d.UserMessage, d.AgentMessage = "Blocked by agenthooks: "+reason, "Blocked by agenthooks: "+reason
	}
	return Dialect.Encode(spec, d)
}

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d, "preToolUse")
	if d.SystemMessage != "" {
		out = append(out, "a system message")
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
	if tool != "" && e.claude != "" {
		return claude.ToolKind(e.claude, ClaudeTool(tool))
	}
	return e.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"sessionId": "agenthooks-doctor", "timestamp": 1767225600000, "cwd": cwd, "toolName": "bash",
		"toolArgs": map[string]any{"command": c, "description": "agenthooks doctor's canary"}}
}
