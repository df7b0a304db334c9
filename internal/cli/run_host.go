package cli

import (
	"bytes"
	"io"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
)

// readsFilesOf reports whether agent a runs agent n's hooks files (always, or with a setting on).
func readsFilesOf(a *dialect.Agent, n dialect.Name) bool {
	for _, r := range a.Reads {
		if r.Agent == n {
			return true
		}
	}
	return false
}

// callingAgent returns the agent whose call run is answering, and its event: ag and event, or,
// when the payload on stdin was sent by another agent that runs ag's hooks files as its own (VS
// Code runs Copilot CLI's hooks folders, so it runs the entry "run --agent copilot preToolUse"
// that install wrote there, and Claude Code's settings with chat.useClaudeHooks on), that agent
// and its namesake of event, told through the format both
// speak. The payload read stays on e.stdin for fire.
func callingAgent(e *env, ag *dialect.Agent, event string) (*dialect.Agent, string) {
	payload, _ := io.ReadAll(io.LimitReader(e.stdin, engine.MaxPayload+1))
	e.stdin = io.MultiReader(bytes.NewReader(payload), e.stdin)
	var pl shellPayload
	if pl.decode(payload) != nil {
		return ag, event
	}
	host := agents.Detect(pl.probe())
	if host == ag || !readsFilesOf(host, ag.Name) || host.SpokenEvent == nil {
		return ag, event
	}
	spoken := event // ag's event, when host speaks ag's format (Claude Code's)
	switch {
	case ag.SpokenEvent != nil:
		spoken = ag.SpokenEvent(event)
	case host.Speaks != ag.Name:
		return ag, event
	}
	if spoken == "" {
		return ag, event
	}
	for _, n := range host.Dialect(dialect.AskAsDeny).Names() {
		if host.SpokenEvent(n) == spoken {
			return host, n
		}
	}
	return ag, event
}
