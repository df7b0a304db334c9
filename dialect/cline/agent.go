package cline

import (
	"os"
	"runtime"
	"time"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// DefaultTimeout is the Cline CLI's timeout for a PreToolUse or PostToolUse hook (the VS Code
// extension's is 30 s); a hook that runs longer is killed and its answer ignored.
const DefaultTimeout = 120 * time.Second

// VSCodeTimeout is the Cline VS Code extension's timeout for a hook, the shorter of the two: a
// hook that runs longer is killed and its answer ignored, so the call runs.
const VSCodeTimeout = 30 * time.Second

// Agent is Cline's descriptor: the Cline CLI (npm cline) and the VS Code extension, which read
// the same hook folders.
var Agent = dialect.Agent{
	Name:   Name,
	Title:  "Cline",
	Binary: "cline",
	// The user's hooks folder both the CLI and the VS Code extension read is
	// ~/Documents/Cline/Hooks; install writes there, and into .clinerules/hooks for a project.
	Dir: "Documents/Cline",
	// Cline runs every hook file of an event in every folder; the CLI also reads ~/.cline/hooks,
	// which agenthooks does not list.
	Files: []dialect.Location{
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".clinerules/hooks/*", Format: dialect.FormatClineHook},
		{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".cline/hooks/*", Format: dialect.FormatClineHook},
		{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "Hooks/*", Format: dialect.FormatClineHook},
	},
	// The Cline CLI's global hooks folder (~/.cline/hooks, beside its ~/.cline data; CLINE_DIR
	// moves ~/.cline in the Cline CLI 3.0.65): agenthooks does not read it, but Cline runs what
	// is there.
	Loads: []dialect.Location{{Scope: dialect.ScopeUser, Root: dialect.RootUserHome, Path: ".cline/hooks"},
		{Scope: dialect.ScopeUser, Root: dialect.RootEnv, Env: "CLINE_DIR", Path: "hooks"}},
	Dialect:          DialectFor,
	ToolKind:         toolKind,
	Speaks:           dialect.Claude,
	ToSpoken:         toSpoken,
	SpokenEvent:      ClaudeEvent,
	RenameToSpoken:   RenameToClaude,
	RenameFromSpoken: RenameFromClaude,
	ToSpokenTool:     func(tool string) string { return ClaudeTool(tool, nil) },
	FromSpokenTool:   ClineTool,
	GuardView:        GuardView,
	HookCwd:          true,
	// Cline runs the hooks of its own folders; a hook cannot make it ask, and agenthooks does not
	// pass a rewritten input on (overrideInput), so a rewrite is refused as a block.
	Answer: dialect.Answer{RunsOwnHooks: true, Loses: loses, Guard: guardReply},
	Shell:  dialect.Shell{Event: "PreToolUse", Tool: "run_commands", Payload: shellPayload},
	Install: dialect.Install{
		File:         "Hooks",
		ProjectFile:  ".clinerules/hooks",
		ShellMatcher: "run_commands|execute_command",
		Events: []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "TaskStart", "TaskResume", "TaskComplete",
			"SessionShutdown", "PreCompact"},
		RunArgs:     "run --agent cline",
		EditEvent:   "PreToolUse",
		EditMatcher: "editor|write_to_file|replace_in_file|apply_patch",
		FailClosed:  true,
		// the wrappers block when agenthooks fails, but not when Cline kills them at its
		// timeout: the runner answers before the VS Code extension's
		OpenTimeout: VSCodeTimeout,
		Wrappers:    Wrappers,
		Ours:        IsWrapper,
		Note: "note: a block stops Cline's whole run (cancel), and the model does not read why; the Cline CLI " +
			"runs only PreToolUse and PostToolUse hooks in line, the others detached",
	},
	Doctor:         dialect.Doctor{HooksFile: hooksFile},
	Trust:          "runs a workspace's .clinerules/hooks and .cline/hooks without asking",
	DefaultTimeout: DefaultTimeout,
	Detect:         detect,
	Proven: []dialect.Proof{{Event: "PreToolUse", Can: dialect.CapBlock, Test: "TestClineShellGuard"},
		{Event: "PreToolUse", Can: dialect.CapContext, Test: "TestClineHonoursTheDialect"}},
}

// hooksFile says why a wrapper install wrote does not run: the VS Code extension runs only an
// executable hook file on Unix (the CLI runs it with sh all the same). Neither Cline has a
// switch in a file that turns hooks off: the VS Code extension's Enable Hooks setting
// (hooksEnabled, on unless turned off) lives in VS Code's own state.
func hooksFile(file string) []dialect.Finding {
	if runtime.GOOS == "windows" {
		return nil
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm()&0o111 != 0 {
		return nil
	}
	if b, err := os.ReadFile(file); err != nil || !IsWrapper(b) {
		return nil
	}
	return []dialect.Finding{{Level: "fail", File: file, Message: "agenthooks' wrapper is not executable: the Cline VS Code extension does not run it (chmod +x, or agenthooks install --agent cline)"}}
}

// detect: Cline's payload names its event in hookName (tool_call, PreToolUse) and has no
// hook_event_name.
func detect(p dialect.Probe) bool {
	return p.HookEvent == "" && p.HookName != "" && EventOf(p.HookName) != ""
}

// toSpoken rewrites a Cline payload as its Claude Code namesake's; an event with none keeps its
// payload and gives no name.
func toSpoken(event string, payload []byte) (string, []byte, []string, error) {
	if ClaudeEvent(event) == "" {
		return "", payload, nil, nil
	}
	return ToClaude(event, payload)
}

// guardReply is a built-in guard's decision as Cline honours it: a deny is cancel with the
// reason (Cline stops the run and shows it); anything else is silence.
func guardReply(_ dialect.Kind, perm decide.Permission, reason string) dialect.Reply {
	if perm != decide.Deny {
		return dialect.Reply{}
	}
	b, _ := dialect.Marshal(map[string]any{"cancel": true, "errorMessage": "Blocked by agenthooks: " + reason})
	return dialect.Reply{Stdout: append(b, '\n')}
}

// loses: a Cline hook's answer has no system message, cannot ask, and its block stops the run
// rather than the one call.
func loses(ev *dialect.Spec, d decide.Decision) []string {
	out := dialect.Loses(ev, d)
	if d.SystemMessage != "" {
		out = append(out, "a system message")
	}
	if e, ok := events()[ev.Name]; ok && !e.answered {
		if d.AdditionalContext != "" {
			out = append(out, "additional context")
		}
		if d.Permission == decide.Deny || d.Halt {
			out = append(out, "a block")
		}
	}
	return out
}

func shellPayload(c, cwd string) map[string]any {
	return map[string]any{"clineVersion": Version, "hookName": "tool_call", "timestamp": "2026-01-01T00:00:00.000Z",
		"taskId": "agenthooks-doctor", "workspaceRoots": []any{cwd}, "userId": "agenthooks", "agent_id": "agenthooks-doctor",
		"parent_agent_id": nil, "iteration": 1,
		"tool_call":  map[string]any{"id": "agenthooks-doctor", "name": "run_commands", "input": map[string]any{"commands": []any{c}}},
		"preToolUse": map[string]any{"toolName": "run_commands", "parameters": flatten(map[string]any{"commands": []any{c}})}}
}
