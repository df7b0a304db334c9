package e2e

import (
	"testing"
	"time"
)

// Qwen Code and Copilot CLI in the cost benchmark, each guard registered under the agent's own
// event, as install registers it (Copilot's camelCase preToolUse, whose payload the guard reads);
// every scripted call is allowed, so the answer's form does not matter.
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
			c.userHooks(b, "cost", map[string]any{"preToolUse": copilotHook(hook)})
		}
		return timed(func() { c.exec(b, "please run them") })
	}
}
