package agents

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/antigravity"
	"github.com/agenthooks/agenthooks/dialect/auggie"
	"github.com/agenthooks/agenthooks/dialect/copilot"
	"github.com/agenthooks/agenthooks/dialect/crush"
	"github.com/agenthooks/agenthooks/dialect/droid"
	"github.com/agenthooks/agenthooks/dialect/kiro"
	"github.com/agenthooks/agenthooks/dialect/qwen"
	"github.com/agenthooks/agenthooks/dialect/vscode"
	"github.com/agenthooks/agenthooks/dialect/windsurf"
)

// TestEveryAgentIsWhole: each registered descriptor names itself, its dialect answers to the same
// name and knows the events install wires and the event its shell guard answers, and its files
// say where they are.
func TestEveryAgentIsWhole(t *testing.T) {
	t.Parallel()
	seen := map[dialect.Name]bool{}
	for _, a := range All() {
		t.Run(string(a.Name), func(t *testing.T) {
			if a.Name == "" || a.Title == "" || a.Dir == "" || a.Dialect == nil || a.Shell.Payload == nil || a.DefaultTimeout <= 0 {
				t.Fatalf("incomplete descriptor %+v", a)
			}
			if seen[a.Name] {
				t.Fatalf("%s registered twice", a.Name)
			}
			seen[a.Name] = true
			d := a.Dialect(dialect.AskAsDeny)
			if d.Name() != a.Name {
				t.Errorf("dialect says %s", d.Name())
			}
			for _, ev := range append([]string{a.Shell.Event, a.Install.EditEvent}, a.Install.Events...) {
				if _, ok := d.Lookup(ev); !ok {
					t.Errorf("event %s is not in the dialect", ev)
				}
			}
			if len(a.Files) == 0 || a.Install.File == "" || a.Install.RunArgs == "" {
				t.Errorf("no files or no install: %+v", a)
			}
			for _, l := range a.Files {
				if l.Root == dialect.RootManaged && a.ManagedDir == nil {
					t.Errorf("%s is under a managed folder the agent does not have", l.Path)
				}
				if l.Format == 0 || l.Scope == "" || l.Path == "" {
					t.Errorf("incomplete location %+v", l)
				}
			}
			if got, ok := Lookup(string(a.Name)); !ok || got != a || Get(a.Name) != a {
				t.Error("Lookup does not find it")
			}
		})
	}
	if _, ok := Lookup("nobody"); ok {
		t.Error("Lookup found an agent that is not registered")
	}
}

// TestDetect tells the payloads of the agents that share Claude Code's shape apart.
func TestDetect(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    dialect.Probe
		want dialect.Name
	}{
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash"}, dialect.Claude},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash", TurnID: "1"}, dialect.Codex},
		{dialect.Probe{HookEvent: "BeforeTool", Tool: "run_shell_command"}, dialect.Gemini},
		{dialect.Probe{Tool: "read_file"}, dialect.Gemini},
		{dialect.Probe{HookEvent: "BeforeTool", TurnID: "1"}, dialect.Gemini},
		{dialect.Probe{HookEvent: "beforeShellExecution"}, dialect.Cursor},
		{dialect.Probe{HookEvent: "preToolUse", Tool: "Shell"}, dialect.Cursor},
		{dialect.Probe{Tool: "Shell"}, dialect.Cursor},
		{dialect.Probe{CommandOnly: true}, dialect.Cursor},
		// Auggie's payload has Cursor's workspace_roots with Claude Code's PascalCase events;
		// Cursor's events are camelCase.
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash", WorkspaceRoots: true}, auggie.Name},
		{dialect.Probe{HookEventCamel: "PreToolUse", Tool: "run_in_terminal", CamelCase: true}, vscode.Name}, // before Copilot's camelCase
		{dialect.Probe{HookEvent: "preToolUse", Tool: "Bash", WorkspaceRoots: true}, dialect.Cursor},
		{dialect.Probe{Event: "PreToolUse", Tool: "bash"}, crush.Name},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "Execute"}, droid.Name},
		{dialect.Probe{HookEvent: "beforeReadFile", Tool: "read_file"}, dialect.Cursor},
		{dialect.Probe{}, dialect.Claude},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "run_shell_command", Timestamp: "2026-11-24T08:40:00.612Z"}, qwen.Name},
		{dialect.Probe{HookEvent: "UserPromptSubmit", Timestamp: "2026-11-24T08:40:00.612Z"}, qwen.Name},
		{dialect.Probe{HookEvent: "UserPromptSubmit"}, dialect.Claude},
		{dialect.Probe{HookEvent: "SessionStart", Timestamp: "2026-11-24T08:40:00.612Z"}, dialect.Claude},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash", Timestamp: "x", TurnID: "1"}, dialect.Codex},
		{dialect.Probe{Tool: "bash", CamelCase: true}, copilot.Name},
		{dialect.Probe{CamelCase: true}, copilot.Name},
		{dialect.Probe{ActionName: "pre_run_command"}, windsurf.Name},
		{dialect.Probe{ActionName: "post_cascade_response", Timestamp: "2026-11-24T09:00:00Z"}, windsurf.Name},
		{dialect.Probe{ActionName: "beforeShellExecution", HookEvent: "PreToolUse"}, dialect.Claude},
		{dialect.Probe{ToolCall: true}, antigravity.Name},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "shell"}, kiro.Name},
		{dialect.Probe{HookEvent: "preToolUse", Tool: "fs_write"}, kiro.Name},
		{dialect.Probe{HookEvent: "BeforeTool", Tool: "glob"}, dialect.Gemini},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "glob", Timestamp: "2026-11-24T08:40:00.612Z"}, qwen.Name},
	} {
		if got := Detect(c.p).Name; got != c.want {
			t.Errorf("%+v: %s, want %s", c.p, got, c.want)
		}
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	names := Names()
	if got := List("or"); !strings.HasPrefix(got, "claude, cursor, codex") || !strings.HasSuffix(got, " or "+string(names[len(names)-1])) {
		t.Errorf("List: %q", got)
	}
}

// TestGuardRepliesReadAsDecided: what each agent's Guard encoder writes, read back by the agent's
// own dialect, is the decision: on the shell event a deny blocks, an ask asks where the agent can
// ask, an allow lets the command run; on the prompt event a deny blocks the prompt; a rewrite
// carries the new input.
func TestGuardRepliesReadAsDecided(t *testing.T) {
	t.Parallel()
	for _, a := range All() {
		d := a.Dialect(dialect.AskAsDeny)
		spec, ok := d.Lookup(a.Shell.Event)
		if !ok {
			t.Fatalf("%s: no shell event %s", a.Name, a.Shell.Event)
		}
		perms := []decide.Permission{decide.Allow, decide.Deny}
		if a.Answer.CanAsk {
			perms = append(perms, decide.Ask)
		}
		for _, p := range perms {
			r := a.Answer.Guard(dialect.BeforeShell, p, "rule says no")
			out := d.Interpret(spec, r.ExitCode, r.Stdout, r.Stderr, 0)
			got := out.Answer.Permission
			if p == decide.Allow && got == decide.None {
				got = decide.Allow // silence lets the call run
			}
			if out.Failed || got != p {
				t.Errorf("%s %s: reads as %+v (reply exit %d stdout %q stderr %q)", a.Name, p, out, r.ExitCode, r.Stdout, r.Stderr)
			}
		}
		for _, name := range d.Names() {
			prompt, _ := d.Lookup(name)
			if prompt.Kind != dialect.PromptSubmit {
				continue
			}
			r := a.Answer.Guard(dialect.PromptSubmit, decide.Deny, "a secret")
			out := d.Interpret(prompt, r.ExitCode, r.Stdout, r.Stderr, 0)
			if out.Failed || out.Answer.Permission != decide.Deny && !out.Answer.Halt {
				t.Errorf("%s %s: a blocked prompt reads as %+v", a.Name, name, out)
			}
		}
		if a.Answer.Rewrite != nil {
			r := a.Answer.Rewrite(map[string]any{"command": "confined ls"}, "confined")
			out := d.Interpret(spec, r.ExitCode, r.Stdout, r.Stderr, 0)
			if out.Failed || !strings.Contains(string(out.Answer.UpdatedInput), "confined ls") || out.Answer.Permission == decide.Deny {
				t.Errorf("%s: a rewrite reads as %+v", a.Name, out)
			}
		}
		if a.Answer.RewriteInRun != nil {
			// agenthooks run reads it on the format's event for any tool, as an allow with the input.
			var pre *dialect.Spec
			for _, name := range d.Names() {
				if s, _ := d.Lookup(name); s.Kind == dialect.PreTool {
					pre = s
				}
			}
			r := a.Answer.RewriteInRun(map[string]any{"command": "confined ls"}, "confined")
			out := d.Interpret(pre, r.ExitCode, r.Stdout, r.Stderr, 0)
			if pre == nil || out.Failed || !strings.Contains(string(out.Answer.UpdatedInput), "confined ls") || out.Answer.Permission != decide.Allow {
				t.Errorf("%s: a rewrite for agenthooks run reads as %+v", a.Name, out)
			}
		}
	}
}
