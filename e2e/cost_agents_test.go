package e2e

import (
	"testing"
	"time"
)

// Qwen Code and Copilot CLI in the cost benchmark. Copilot's hook is registered under Claude
// Code's name (PreToolUse), where Copilot sends Claude Code's payload, which the guard reads
// today without an adapter; every scripted call is allowed, so the answer's form does not matter.
func init() {
	costAgents["qwen"] = func(b *testing.B, hook string) time.Duration {
		q := newQwen(b, costCommands()...)
		if hook != "" {
			q.settings(b, map[string]any{"PreToolUse": []any{qwenGroup("run_shell_command", hook)}})
		}
		return timed(func() { q.exec(b, "please run them") })
	}
	costAgents["copilot"] = func(b *testing.B, hook string) time.Duration {
		c := newCopilot(b, costCommands()...)
		if hook != "" {
			c.userHooks(b, "cost", map[string]any{"PreToolUse": copilotHook(hook)})
		}
		return timed(func() { c.exec(b, "please run them") })
	}
}
