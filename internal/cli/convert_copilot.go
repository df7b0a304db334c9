package cli

import (
	"fmt"
	"strconv"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// toCopilotHooks writes the hooks of f as a Copilot CLI hooks file for agent toA
// ({"version":1,"hooks":{event:[{"type":"command","bash":...,"matcher":...,"timeoutSec":...}]}}).
// A hook that reads Claude Code's payload is written under Claude Code's event name, for which
// Copilot itself sends Claude Code's payload and reads Claude Code's answer; any other gets
// Copilot's camelCase event, tool names and payload, which is said when it speaks another
// agent's dialect.
func toCopilotHooks(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string) {
	hooks := jsonpos.Obj()
	var lost []string
	own := toA.Dialect(dialect.AskAsDeny)
	for _, h := range f.Hooks {
		kind := config.KindOf(f.Source.Family, h.Event)
		event := translate.EventFor(toA.Name, kind)
		if _, ok := own.Lookup(event); !ok || event == "" {
			lost = append(lost, fmt.Sprintf("%s: %s has no %s counterpart", h.Pos, h.Event, toA.Title))
			continue
		}
		if h.Unsupported != "" || h.Type != "command" {
			lost = append(lost, fmt.Sprintf("%s: a %s hook: converted are command hooks only", h.Pos, h.Type))
			continue
		}
		matcher := h.Matcher
		if from := agents.Get(f.Source.Family); from != nil && flatEvents(from) {
			var note string
			matcher, note = claudeMatcher(h, kind)
			if note != "" {
				lost = append(lost, note)
			}
		} else {
			matcher = claudeToolNames(matcher, f.Source.Family)
		}
		name := event
		if ha := agents.Get(h.Dialect); ha != nil && ha.SpeaksAs(dialect.Claude) && toA.SpokenEvent != nil && toA.SpokenEvent(event) != "" {
			name = toA.SpokenEvent(event) // Claude Code's name: Copilot sends Claude Code's payload
		} else {
			if toA.FromSpokenTool != nil && matcher != "" {
				matcher = mapToolList(matcher, toA.FromSpokenTool)
			}
			if h.Dialect != toA.Name {
				lost = append(lost, fmt.Sprintf("%s: speaks %s's dialect, which %s does not send: it gets %s's payload", h.Pos, h.Dialect, toA.Title, toA.ShortTitle()))
			}
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shell.Quote(a)
		}
		entry := jsonpos.Obj("type", jsonpos.Str("command"), "bash", jsonpos.Str(command))
		if matcher != "" && matcher != "*" {
			entry.Set("matcher", jsonpos.Str(matcher))
		}
		if h.Timeout > 0 {
			entry.Set("timeoutSec", number(h.Timeout.Seconds()))
		}
		for what, set := range map[string]bool{"if " + strconv.Quote(h.If): h.If != "", "async": h.Async, "shell " + h.Shell: h.Shell != "",
			"failClosed (Copilot blocks the call when a preToolUse hook fails, and lets it run elsewhere)": h.FailClosed} {
			if set {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		list := hooks.At(name, jsonpos.Array)
		list.Elems = append(list.Elems, entry)
	}
	return jsonpos.Obj("version", number(1), "hooks", hooks), lost
}
