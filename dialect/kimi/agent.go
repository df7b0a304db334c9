package kimi

import (
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// DefaultTimeout is Kimi Code's timeout for a hook whose table sets none.
const DefaultTimeout = 30 * time.Second

// Agent is Kimi Code's descriptor.
var Agent = dialect.Agent{
	Name:    Name,
	Title:   "Kimi Code",
	Binary:  "kimi",
	Dir:     ".kimi-code",
	HomeEnv: "KIMI_CODE_HOME",
	Files: []dialect.Location{
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "config.toml", Format: dialect.FormatKimiTOML},
	},
	Dialect:          Dialect,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         ToClaude,
	SpokenEvent:      spokenEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	GuardView:        GuardView,
	HookCwd:          true, // hooks run in the session's project folder
	// Kimi Code runs the hooks of its own config.toml; it reads no answer but a deny (exit 2, or
	// permissionDecision "deny"): no ask, no rewrite of a tool's input, no context but on
	// UserPromptSubmit.
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "Bash", Payload: shellPayload},
	Install: dialect.Install{
		File:         "config.toml",
		ShellMatcher: "Bash",
		Events:       []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "SubagentStart", "SubagentStop", "PreCompact"},
		RunArgs:      "run --agent kimi",
		EditEvent:    "PreToolUse",
		EditMatcher:  "Write|Edit",
		// No fail_mode: Kimi Code 2.1.0's [[hooks]] schema is strict, event, matcher, command
		// and timeout only, and a table with fail_mode makes it refuse the whole file (the
		// field is in its newer documentation only). A guard that cannot answer then lets the
		// call through; the guards answer a deny on exit 0, which Kimi Code reads.
		Edit:   Edit,
		Render: RenderSettings,
		Note:   "note: Kimi Code reads its hooks when a session starts, and lets a call through when a hook fails (2.1.0 has no fail_mode)",
	},
	Trust:          "runs only the hooks of the user's ~/.kimi-code/config.toml; it has no project hooks file",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
	Proven: []dialect.Proof{
		{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestKimiShellGuard"},
		{Event: "UserPromptSubmit", Can: dialect.CapBlock, Test: "TestKimiPromptGuard"},
	},
}

// detect: Kimi Code's payload is Claude Code's shape with its own client_type.
func detect(p dialect.Probe) bool {
	return p.ClientType == "kimi_code_cli"
}

// guardReply is a built-in guard's decision as Dialect.Encode writes it: a deny is
// permissionDecision "deny" on exit 0, on PreToolUse or, for a prompt, UserPromptSubmit; an
// allow is silence, so that Kimi Code's own approval still runs.
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

func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d)
	if d.Permission == decide.Deny && !ev.Gates {
		out = append(out, "a block (Kimi Code blocks only PreToolUse, UserPromptSubmit and Stop)")
	}
	if d.AdditionalContext != "" && ev.Name != "UserPromptSubmit" {
		out = append(out, "additional context (Kimi Code takes it only on UserPromptSubmit)")
	}
	if d.Halt {
		out = append(out, "stopping the agent (Kimi Code has no continue:false; a block stands for it)")
	}
	return out
}

// toolKind is the event's kind, narrowed by a tool as Claude Code's is: the tools share names.
func toolKind(event, tool string) dialect.Kind {
	s, ok := events()[event]
	if !ok {
		return ""
	}
	if tool != "" && spokenEvent(event) != "" {
		return claude.ToolKind(event, tool)
	}
	return s.Kind
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"hook_event_name": "PreToolUse", "session_id": "agenthooks-doctor", "session_title": "",
		"client_type": "kimi_code_cli", "cwd": cwd, "tool_name": "Bash", "tool_input": map[string]any{"command": c},
		"tool_call_id": "agenthooks-doctor"}
}
