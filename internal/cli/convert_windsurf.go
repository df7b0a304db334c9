package cli

import (
	"fmt"
	"regexp"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/dialect/windsurf"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// toWindsurfHooks writes the hooks of f as a Windsurf (Cascade) hooks.json ({"hooks":{event:
// [{"command":...}]}}). Cascade has an event per kind of action and no matchers: a hook for any
// tool is written under each of Cascade's tool events its matcher selects, a hook narrowed to
// one kind (PreToolUse on Bash, Cursor's beforeShellExecution) under that kind's event. Cascade
// sends its own payload and reads only the exit status, which is said for a hook written for
// another agent.
func toWindsurfHooks(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string) {
	hooks := jsonpos.Obj()
	var lost []string
	for _, h := range f.Hooks {
		if h.Unsupported != "" || h.Type != "command" {
			lost = append(lost, fmt.Sprintf("%s: a %s hook: Cascade runs commands only", h.Pos, h.Type))
			continue
		}
		kind := config.HookKind(h)
		from := agents.Get(f.Source.Family)
		var events []string
		switch kind {
		case dialect.PreTool, dialect.PostTool:
			matcher := h.Matcher
			if from != nil && flatEvents(from) {
				matcher, _ = claudeMatcher(h, kind)
			} else {
				matcher = claudeToolNames(matcher, f.Source.Family)
			}
			selects := func(string) bool { return true }
			if matcher != "" && matcher != "*" {
				re, err := regexp.Compile("^(?:" + matcher + ")$")
				if err != nil {
					lost = append(lost, fmt.Sprintf("%s: the matcher %q is not a regular expression", h.Pos, h.Matcher))
					continue
				}
				selects = re.MatchString
			}
			events = windsurf.ToolEvents(kind == dialect.PreTool, selects)
		default:
			if ev := translate.EventFor(toA.Name, kind); ev != "" {
				events = []string{ev}
			}
		}
		if len(events) == 0 {
			lost = append(lost, fmt.Sprintf("%s: %s has no %s counterpart", h.Pos, h.Event, toA.Title))
			continue
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shell.Quote(a)
		}
		if h.Dialect != toA.Name {
			lost = append(lost, fmt.Sprintf("%s: speaks %s's dialect: Cascade sends it Cascade's payload and reads only its exit status (2 blocks)", h.Pos, h.Dialect))
		}
		if kind == dialect.BeforeShell && h.Matcher != "" && from != nil && from.InstallFormat() == dialect.FormatHooks {
			lost = append(lost, fmt.Sprintf("%s: the matcher %q on the command text: Cascade has no matchers, the hook sees every command", h.Pos, h.Matcher))
		}
		for what, set := range map[string]bool{"failClosed (Cascade lets the action run when a hook fails)": h.FailClosed,
			"a timeout (Cascade's hooks.json has none)": h.Timeout > 0, "async": h.Async, "if": h.If != ""} {
			if set {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		for _, ev := range events {
			entry := jsonpos.Obj("command", jsonpos.Str(command))
			if h.Shell == "powershell" {
				entry = jsonpos.Obj("powershell", jsonpos.Str(command))
			}
			list := hooks.At(ev, jsonpos.Array)
			list.Elems = append(list.Elems, entry)
		}
	}
	return jsonpos.Obj("hooks", hooks), dedupe(lost)
}
