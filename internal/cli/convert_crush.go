package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/crush"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// toCrushHooks writes the hooks of f as the "hooks" of a Crush crush.json for agent toA
// ({"hooks":{"PreToolUse":[{"matcher":"^bash$","command":...,"timeout":...}]}}): Crush's one
// event, its tool names in an anchored matcher (Crush's matcher is a regular expression found
// anywhere in the tool name), whole seconds. A hook written for another agent gets Crush's
// payload (event, lower-case tool names), which is said.
func toCrushHooks(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string) {
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
		if from := agents.Get(f.Source.Family); from != nil && from.InstallFormat() == dialect.FormatHooks {
			var note string
			matcher, note = claudeMatcher(h, kind)
			if note != "" {
				lost = append(lost, note)
			}
		} else {
			matcher = claudeToolNames(matcher, f.Source.Family)
		}
		if matcher == "*" {
			matcher = ""
		}
		if matcher != "" && !strings.ContainsAny(matcher, ".*+?()[]{}^$\\") {
			var tools []string
			for _, t := range strings.Split(mapToolList(matcher, toA.FromSpokenTool), "|") {
				tools = append(tools, strings.TrimSpace(t))
			}
			matcher = crush.ToolsMatcher(tools)
		} else if matcher != "" {
			lost = append(lost, fmt.Sprintf("%s: the matcher %q is a regular expression, kept as it is: Crush tests it against its own tool names (bash, edit, write, view)", h.Pos, matcher))
		}
		if h.Dialect != toA.Name {
			lost = append(lost, fmt.Sprintf("%s: speaks %s's dialect, which %s does not send: it gets %s's payload (event, lower-case tool names)", h.Pos, h.Dialect, toA.Title, toA.ShortTitle()))
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shell.Quote(a)
		}
		entry := jsonpos.Obj()
		if matcher != "" {
			entry.Set("matcher", jsonpos.Str(matcher))
		}
		entry.Set("command", jsonpos.Str(command))
		if h.Timeout > 0 {
			secs := int64(h.Timeout.Seconds())
			if float64(secs) != h.Timeout.Seconds() {
				secs++
				lost = append(lost, fmt.Sprintf("%s: the timeout %s is written as %d s: Crush's timeouts are whole seconds", h.Pos, h.Timeout, secs))
			}
			entry.Set("timeout", number(float64(secs)))
		}
		for what, set := range map[string]bool{"if " + strconv.Quote(h.If): h.If != "", "async": h.Async, "shell " + h.Shell: h.Shell != "",
			"failClosed (Crush lets the call run when a hook fails)": h.FailClosed} {
			if set {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		list := hooks.At(event, jsonpos.Array)
		list.Elems = append(list.Elems, entry)
	}
	return jsonpos.Obj("hooks", hooks), lost
}

// crushMatcherTools reads a Crush matcher that names tools (^bash$, ^(edit|write)$) as the
// plain list "bash|edit" the conversion maps; another regular expression is kept.
func crushMatcherTools(m string) string {
	if tools, ok := crush.MatcherTools(m); ok {
		return strings.Join(tools, "|")
	}
	return m
}
