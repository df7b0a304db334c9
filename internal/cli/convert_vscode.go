package cli

import (
	"fmt"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// toVSCodeHooks writes the hooks of f as a hooks file in VS Code's own format ({"hooks":{Event:
// [{"type":"command","command":...,"timeout":...}]}}, a PowerShell hook as the entry's windows
// command). VS Code ignores matchers, so a hook narrowed to a tool runs for every tool there,
// which is said; it sends VS Code's payload, which is said for a hook written for another agent.
func toVSCodeHooks(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string) {
	hooks := jsonpos.Obj()
	var lost []string
	own := toA.Dialect(dialect.AskAsDeny)
	for _, h := range f.Hooks {
		if h.Unsupported != "" || h.Type != "command" {
			lost = append(lost, fmt.Sprintf("%s: a %s hook: VS Code runs commands only", h.Pos, h.Type))
			continue
		}
		kind := config.HookKind(h)
		event := translate.EventFor(toA.Name, kind)
		if _, ok := own.Lookup(event); !ok || event == "" {
			lost = append(lost, fmt.Sprintf("%s: %s has no %s counterpart", h.Pos, h.Event, toA.Title))
			continue
		}
		if h.Matcher != "" && h.Matcher != "*" || kind != dialect.PreTool && kind.IsPreTool() || kind != dialect.PostTool && kind.IsPostTool() {
			lost = append(lost, fmt.Sprintf("%s: the matcher of %s: VS Code ignores matchers, so the hook runs for every tool", h.Pos, h.Event))
		}
		if h.Dialect != toA.Name {
			lost = append(lost, fmt.Sprintf("%s: speaks %s's dialect: VS Code sends it VS Code's payload (hookEventName, sessionId, its own tool names)", h.Pos, h.Dialect))
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shell.Quote(a)
		}
		key := "command"
		if h.Shell == "powershell" {
			key = "windows"
		}
		entry := jsonpos.Obj("type", jsonpos.Str("command"), key, jsonpos.Str(command))
		if h.Timeout > 0 {
			entry.Set("timeout", number(h.Timeout.Seconds()))
		}
		for what, set := range map[string]bool{"failClosed (VS Code lets the call run when a hook fails)": h.FailClosed, "async": h.Async, "if": h.If != ""} {
			if set {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		list := hooks.At(event, jsonpos.Array)
		list.Elems = append(list.Elems, entry)
	}
	return jsonpos.Obj("hooks", hooks), dedupe(lost)
}
