package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

type convertParams struct {
	from, to, file string
}

func newConvertCmd(e *env) *cobra.Command {
	var p convertParams
	c := &cobra.Command{
		Use:   "convert --from cursor|claude --to claude|cursor FILE",
		Short: "Translate a hooks config between Cursor's hooks.json and Claude Code's settings.json",
		Long: `Translate the hooks of FILE into the other agent's config format and print it on stdout; what
could not be carried is printed on stderr. Each converted entry says which dialect its command
speaks ("dialect"), so that agenthooks run translates its payload and answer at run time: a script
written for one agent's JSON then works under the other.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.file = args[0]
			return runConvert(e, p)
		},
	}
	c.Flags().StringVar(&p.from, "from", "", "the format of FILE: cursor or claude")
	c.Flags().StringVar(&p.to, "to", "", "the format to write: claude or cursor")
	return c
}

func runConvert(e *env, p convertParams) error {
	if !(p.from == "cursor" && p.to == "claude" || p.from == "claude" && p.to == "cursor") {
		return fmt.Errorf("convert goes --from cursor --to claude or --from claude --to cursor")
	}
	data, err := os.ReadFile(p.file)
	if err != nil {
		return err
	}
	src := config.Source{Layer: config.CLI, Family: dialect.Name(p.from), File: p.file, Trusted: true}
	var f *config.File
	if p.from == "cursor" {
		f = config.Decode(src, data)
	} else {
		f = config.DecodeSettings(src, data)
	}
	if !f.Usable {
		for _, pr := range f.Problems.Errors() {
			fmt.Fprintln(e.stderr, pr)
		}
		return fmt.Errorf("%s has errors; nothing converted", p.file)
	}
	var out *jsonpos.Value
	var lost []string
	if p.to == "claude" {
		out, lost = toSettings(f)
	} else {
		out, lost = toHooksJSON(f)
	}
	for _, l := range lost {
		fmt.Fprintln(e.stderr, "not carried:", l)
	}
	_, err = e.stdout.Write(out.Encode())
	return err
}

// claudeMatcher is the Claude Code matcher for a Cursor hook: the tool its event is about, or its
// own matcher with Cursor's tool names in Claude Code's.
func claudeMatcher(h *config.Hook, kind dialect.Kind) (string, string) {
	switch kind {
	case dialect.BeforeShell, dialect.AfterShell:
		if h.Matcher != "" {
			return "Bash", fmt.Sprintf("%s: the matcher %q on the command text has no Claude Code equivalent; the hook sees every Bash call", h.Pos, h.Matcher)
		}
		return "Bash", ""
	case dialect.BeforeMCP, dialect.AfterMCP:
		return "mcp__.*", ""
	case dialect.BeforeRead:
		return "Read", ""
	case dialect.AfterEdit:
		return "Edit|Write|MultiEdit", ""
	}
	if h.Matcher == "" {
		return "", ""
	}
	var names []string
	for _, n := range strings.Split(h.Matcher, "|") {
		switch t := strings.TrimSpace(n); {
		case t == "Write":
			names = append(names, "Edit", "Write", "MultiEdit")
		case strings.HasPrefix(t, "MCP:"):
			names = append(names, "mcp__.*__"+strings.TrimPrefix(t, "MCP:"))
		default:
			names = append(names, translate.ClaudeTool(t, "", nil))
		}
	}
	return strings.Join(names, "|"), ""
}

func toSettings(f *config.File) (*jsonpos.Value, []string) {
	hooks := jsonpos.Obj()
	var lost []string
	for _, h := range f.Hooks {
		kind := config.KindOf(dialect.Cursor, h.Event)
		event := translate.EventFor(dialect.Claude, kind)
		if event == "" {
			lost = append(lost, fmt.Sprintf("%s: %s has no Claude Code counterpart", h.Pos, h.Event))
			continue
		}
		matcher, note := claudeMatcher(h, kind)
		if note != "" {
			lost = append(lost, note)
		}
		handler := jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(h.Command))
		if h.Timeout > 0 {
			handler.Set("timeout", number(h.Timeout.Seconds()))
		}
		if h.FailClosed {
			handler.Set("failClosed", jsonpos.BoolValue(true))
		}
		handler.Set("dialect", jsonpos.Str(string(h.Dialect)))
		if h.LoopLimit != config.DefaultLoopLimit && (h.Event == "stop" || h.Event == "subagentStop") {
			lost = append(lost, fmt.Sprintf("%s: loop_limit %d (Claude Code bounds Stop blocks itself)", h.Pos, h.LoopLimit))
		}
		group := jsonpos.Obj()
		if matcher != "" {
			group.Set("matcher", jsonpos.Str(matcher))
		}
		group.Set("hooks", jsonpos.Arr(handler))
		list := arrayAt(hooks, event)
		list.Elems = append(list.Elems, group)
	}
	if len(f.Sequential) > 0 {
		lost = append(lost, "sequential: Claude Code runs hooks in parallel; agenthooks run --sequential keeps the order")
	}
	return jsonpos.Obj("hooks", hooks), lost
}

func toHooksJSON(f *config.File) (*jsonpos.Value, []string) {
	hooks := jsonpos.Obj()
	var lost []string
	for _, h := range f.Hooks {
		kind := config.KindOf(dialect.Claude, h.Event)
		event := translate.EventFor(dialect.Cursor, kind)
		if event == "" {
			lost = append(lost, fmt.Sprintf("%s: %s has no Cursor counterpart", h.Pos, h.Event))
			continue
		}
		switch {
		case h.Unsupported != "":
			lost = append(lost, fmt.Sprintf("%s: a %s hook (%s)", h.Pos, h.Type, h.Unsupported))
			continue
		case h.Type == "http":
			lost = append(lost, fmt.Sprintf("%s: an http hook (%s): Cursor runs commands only", h.Pos, h.URL))
			continue
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shellQuoteArg(a)
		}
		entry := jsonpos.Obj("command", jsonpos.Str(command))
		if h.Matcher != "" && h.Matcher != "*" {
			entry.Set("matcher", jsonpos.Str(cursorMatcher(h.Matcher)))
		}
		if h.Timeout > 0 {
			entry.Set("timeout", number(h.Timeout.Seconds()))
		}
		if h.FailClosed {
			entry.Set("failClosed", jsonpos.BoolValue(true))
		}
		entry.Set("dialect", jsonpos.Str(string(h.Dialect)))
		for what, set := range map[string]bool{"if " + strconv.Quote(h.If): h.If != "", "async": h.Async, "shell " + h.Shell: h.Shell != ""} {
			if set {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		list := arrayAt(hooks, event)
		list.Elems = append(list.Elems, entry)
	}
	if f.DisableAllHooks != nil || f.AllowManagedHooksOnly {
		lost = append(lost, "disableAllHooks / allowManagedHooksOnly: Claude Code settings with no hooks.json counterpart")
	}
	return jsonpos.Obj("version", number(1), "hooks", hooks), lost
}

// cursorMatcher writes a Claude Code matcher with Cursor's tool names where it is a plain list.
func cursorMatcher(m string) string {
	parts := strings.Split(m, "|")
	for i, p := range parts {
		t := strings.TrimSpace(p)
		if strings.ContainsAny(t, ".*+?()[]{}^$\\") {
			return m // a regular expression: kept as it is
		}
		parts[i] = translate.CursorTool(t)
	}
	return strings.Join(dedupe(parts), "|")
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := list[:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func number(f float64) *jsonpos.Value {
	return &jsonpos.Value{Kind: jsonpos.Number, Num: json.Number(strconv.FormatFloat(f, 'f', -1, 64))}
}

func shellQuoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>*?()[]{}!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
