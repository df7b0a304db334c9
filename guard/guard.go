package guard

import (
	"os"

	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/guard/shell"
)

// Decision is the verdict's decision: allow, ask or deny.
type Decision = policy.Decision

// The decisions.
const (
	Allow = policy.Allow
	Ask   = policy.Ask
	Deny  = policy.Deny
)

// Verdict is the judgement of one command: the decision, a one-line reason, every rule that
// matched and how each invocation was read.
type Verdict = policy.Verdict

// Context is where a command runs: home folder, working directory, project root.
type Context = policy.Context

// Guard checks shell commands against a policy. It is safe for concurrent use.
type Guard struct {
	policy *policy.Policy
}

// New returns a guard for a compiled policy.
func New(p *policy.Policy) *Guard { return &Guard{policy: p} }

// Default returns the guard of the embedded default policy.
func Default() *Guard { return New(policy.Default()) }

// Policy returns the guard's policy.
func (g *Guard) Policy() *policy.Policy { return g.policy }

// Check judges command run in ctx. An empty Project means the working directory is the project.
func (g *Guard) Check(command string, ctx Context) Verdict {
	ctx = policy.BashPaths(ctx)
	if ctx.Project == "" {
		ctx.Project = ctx.Cwd
	}
	s := g.Analyze(command, ctx)
	if v, ok := checkShellPatch(command, s, ctx); ok {
		return v
	}
	return g.policy.Evaluate(s, ctx)
}

// Analyze returns how command is read: its invocations and structural findings.
func (g *Guard) Analyze(command string, ctx Context) *shell.Script {
	ctx = policy.BashPaths(ctx)
	return shell.Analyze(command, shell.Options{Home: ctx.Home, Cwd: ctx.Cwd, LookPath: ctx.LookPath, ReadFile: ctx.ReadFile})
}

// Check judges command, run in cwd (also taken as the project root), against the default
// policy, with the home folder of the current user.
func Check(command, cwd string) Verdict {
	home, _ := os.UserHomeDir()
	return Default().Check(command, Context{Home: home, Cwd: cwd, Project: cwd})
}

// IsCommandSafe reports whether command is free of what the default policy denies: recursive
// deletes of the root, home or project, rm under sudo, writes to disk devices, mkfs, fork bombs,
// a download piped into a shell, and the rest of the default rules, wherever they hide (behind
// wrappers, inside bash -c or eval). An empty command is safe. A command the policy would only
// ask about (an unknown program) is safe; one that cannot be parsed is not.
func IsCommandSafe(command string) bool {
	return UnsafeReason(command) == ""
}

// UnsafeReason returns why IsCommandSafe rejects command, or "".
func UnsafeReason(command string) string {
	v := Check(command, "")
	if v.Decision == Deny {
		return v.Reason
	}
	for _, m := range v.Matches {
		if m.Rule == policy.RuleOpaque || m.Rule == "cannot-parse" {
			return m.Subject
		}
	}
	return ""
}
