package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/kiro"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// toKiroHooks writes the hooks of f as a Kiro hooks file for agent toA ({"version":"v1","hooks":
// [{"name":...,"trigger":...,"matcher":...,"action":{"type":"command","command":...},
// "timeout":...}]}): each event's trigger, tool matchers in Kiro's names with their agent-config
// aliases (shell|execute_bash), whole seconds. Kiro's file has no "dialect": a hook written for
// another agent gets Kiro's payload, which is said.
func toKiroHooks(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string) {
	list := jsonpos.Arr()
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
		switch {
		case matcher == "*":
			matcher = ""
		case matcher == "mcp__.*":
			matcher = "^@" // Kiro names an MCP tool @server/tool
		case matcher != "" && !strings.ContainsAny(matcher, ".*+?()[]{}^$\\"):
			var tools []string
			for _, t := range strings.Split(mapToolList(matcher, toA.FromSpokenTool), "|") {
				tools = append(tools, strings.TrimSpace(t))
			}
			matcher = kiro.Matcher(tools)
		case matcher != "":
			lost = append(lost, fmt.Sprintf("%s: the matcher %q is a regular expression, kept as it is: Kiro tests it against its own tool names (shell, read, write, @server/tool)", h.Pos, matcher))
		}
		if h.Dialect != toA.Name {
			lost = append(lost, fmt.Sprintf("%s: speaks %s's dialect, which %s does not send: it gets %s's payload (its triggers, tool names and fields)", h.Pos, h.Dialect, toA.Title, toA.ShortTitle()))
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shell.Quote(a)
		}
		entry := jsonpos.Obj("name", jsonpos.Str(fmt.Sprintf("%s-%d", strings.ToLower(event), len(list.Elems)+1)), "trigger", jsonpos.Str(event))
		if matcher != "" {
			entry.Set("matcher", jsonpos.Str(matcher))
		}
		entry.Set("action", jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(command)))
		if h.Timeout > 0 {
			secs := int64(h.Timeout.Seconds())
			if float64(secs) != h.Timeout.Seconds() {
				secs++
				lost = append(lost, fmt.Sprintf("%s: the timeout %s is written as %d s: Kiro's timeouts are whole seconds", h.Pos, h.Timeout, secs))
			}
			entry.Set("timeout", number(float64(secs)))
		}
		for what, set := range map[string]bool{"if " + strconv.Quote(h.If): h.If != "", "async": h.Async, "shell " + h.Shell: h.Shell != "",
			"failClosed (Kiro lets the action run when a hook fails)": h.FailClosed} {
			if set {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		list.Elems = append(list.Elems, entry)
	}
	return jsonpos.Obj("version", jsonpos.Str(kiro.FileVersion), "hooks", list), lost
}
