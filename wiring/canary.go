package wiring

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/runner"
)

// canary sends the agent's shell payload for a dangerous and a benign command through every
// command hook the agent's config runs for its shell tool, and checks the answer as the agent
// reads it.
//
// Each hook runs as the agent runs it: with the agent's environment (environ: its PATH and the
// variables its settings set) and the agent's shell (canaryShell: sh -c, or on Windows the
// agent's). Hooks the agent skips (skip) are left out.
func canary(ctx context.Context, cfg *config.Config, files []*config.File, a dialect.Name, cwd string, environ []string, skip func(*config.Hook) bool, add func(level, file, msg string)) *Canary {
	st := agents.Get(a).Shell
	c := &Canary{Event: st.Event}
	d := agents.Get(a).Dialect(dialect.AskAsDeny)
	spec, ok := d.Lookup(st.Event)
	if !ok {
		add(StateFail, "", "doctor does not know the event "+st.Event)
		return c
	}
	var hooks []*config.Hook
	skipped := 0
	for _, f := range files {
		if cfg.Disabled(f) != "" || !f.Usable {
			continue
		}
		for _, h := range f.Hooks {
			// A hook the agent does not run (Antigravity's switched-off group, no command for
			// this platform) is not part of its answer.
			if onShellEvent(a, h) && h.Type == "command" && h.Unsupported == "" {
				if skip(h) {
					skipped++
					continue
				}
				hooks = append(hooks, h)
			}
		}
	}
	c.Hooks = len(hooks)
	if len(hooks) == 0 && skipped > 0 {
		add(StateFail, "", fmt.Sprintf("the agent skips all %d hook(s) on %s for the shell tool (see above): shell commands are not guarded", skipped, st.Event))
		return c
	}
	if len(hooks) == 0 {
		add(StateFail, "", "no hook runs on "+st.Event+" for the shell tool: shell commands are not guarded (agenthooks install --agent "+string(a)+")")
		return c
	}
	ask := func(command string) (blocked bool, slowest time.Duration) {
		payload, _ := json.Marshal(st.Payload(command, cwd))
		for _, h := range hooks {
			code, stdout, stderr, took, err := runCanaryHook(ctx, h.CommandLine(), canaryShell(a), environ, payload)
			if took > slowest {
				slowest = took
			}
			if err != nil {
				add(StateFail, h.Source.File, fmt.Sprintf("hook %s (%s) did not finish: %v", h.Pos, h.CommandLine(), err))
				continue
			}
			out := d.Interpret(spec, code, stdout, stderr, 0)
			if out.Answer.Permission == decide.Deny || out.Answer.Halt {
				blocked = true
			}
			if command == "rm -rf /" {
				timeout, def := h.Timeout, false
				if timeout == 0 {
					timeout, def = agents.Get(a).DefaultTimeout, true
				}
				if !def && (timeout < time.Second || timeout < 10*took) {
					add(StateWarn, h.Source.File, fmt.Sprintf("hook %s: timeout %s is short for a start-up measured at %s (want at least 1s and 10 times the start-up)", h.Pos, timeout, took.Round(time.Millisecond)))
				}
			}
		}
		return blocked, slowest
	}
	blocked, took := ask("rm -rf /")
	c.Blocked = blocked
	c.StartupMS = float64(took.Microseconds()) / 1000
	if blocked {
		add(StateOK, "", fmt.Sprintf("canary blocked: %q through %d hook(s) on %s, slowest %s", "rm -rf /", len(hooks), st.Event, took.Round(time.Millisecond)))
	} else {
		add(StateFail, "", fmt.Sprintf("canary not blocked: %q went through the %d hook(s) on %s unblocked", "rm -rf /", len(hooks), st.Event))
	}
	benignBlocked, _ := ask("git status")
	c.BenignAllowed = !benignBlocked
	if benignBlocked {
		add(StateWarn, "", `benign canary blocked: "git status" is refused too, the guard blocks everything`)
	}
	return c
}

// runCanaryHook runs command as an agent does: through shell (nil: sh -c, or cmd.exe on
// Windows) with the payload on stdin and the agent's environment, its whole process tree
// killed after 30 s; output is capped at 1 MiB.
func runCanaryHook(ctx context.Context, command string, shell, environ []string, payload []byte) (int, []byte, []byte, time.Duration, error) {
	res := runner.Run(ctx, runner.Spec{Command: command, Shell: shell, Env: environ, Stdin: payload,
		Timeout: 30 * time.Second, KillGrace: time.Second, StdoutCap: 1 << 20, StderrCap: 1 << 20})
	switch {
	case res.Err != nil:
		return 0, nil, nil, res.Duration, res.Err
	case res.TimedOut:
		return 0, nil, nil, res.Duration, errors.New("no answer within 30s")
	case res.Canceled:
		return 0, nil, nil, res.Duration, ctx.Err()
	}
	return res.ExitCode, res.Stdout, res.Stderr, res.Duration, nil
}
