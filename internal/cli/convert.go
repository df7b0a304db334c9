package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

type convertParams struct {
	from, to, file string
	// out is the file to write; empty prints on stdout.
	out string
}

func newConvertCmd(e *env) *cobra.Command {
	var p convertParams
	c := &cobra.Command{
		Use:   "convert --from AGENT --to AGENT FILE",
		Short: "Translate a hooks config between agents' formats (Cursor's hooks.json, Claude Code's, Codex's, Gemini CLI's and Qwen Code's settings, Copilot CLI's hooks files)",
		Long: `Translate the hooks of FILE into the other agent's config format and print it on stdout; what
could not be carried is printed on stderr. Each converted entry says which dialect its command
speaks ("dialect"), so that agenthooks run translates its payload and answer at run time: a script
written for one agent's JSON then works under the other: its matcher is read as the file's
agent reads it, and it runs as the event its matcher names (PreToolUse for Bash is Cursor's
beforeShellExecution). Commands given by a path relative to FILE (./x.sh, ../x.sh) are
rewritten relative to the folder of --out, or absolute on stdout, so that they still run.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.file = args[0]
			return runConvert(e, p)
		},
	}
	c.Flags().StringVar(&p.from, "from", "", "the format of FILE: "+agents.List("or"))
	c.Flags().StringVar(&p.to, "to", "", "the format to write: "+agents.List("or"))
	c.Flags().StringVarP(&p.out, "out", "o", "", "write the converted config to this file (kept as FILE.bak if it exists), with paths relative to its folder; default: stdout, with absolute paths")
	return c
}

func runConvert(e *env, p convertParams) error {
	fromAgent, okFrom := agents.Lookup(p.from)
	toAgent, okTo := agents.Lookup(p.to)
	if !okFrom || !okTo || p.from == p.to {
		return fmt.Errorf("convert needs --from and --to, two different formats of %s", agents.List("and"))
	}
	for _, a := range []*dialect.Agent{fromAgent, toAgent} {
		if a.InstallFormat() == dialect.FormatOpenCodePlugin { // a generated plugin, not a hooks file
			return fmt.Errorf("%s has no hooks file to convert: agenthooks install --agent %s writes its plugin, which runs the other agents' hooks (agenthooks run --agent %s)", a.Title, a.Name, a.Name)
		}
	}
	if toAgent.Install.Wrappers != nil {
		return fmt.Errorf("%s has no hooks file to convert into: its hooks are one executable per event in a hooks folder; "+
			"agenthooks install --agent %s writes wrappers that run agenthooks, and agenthooks run --agent %s runs %s's hooks under it",
			toAgent.Title, toAgent.Name, toAgent.Name, fromAgent.ShortTitle())
	}
	data, err := os.ReadFile(p.file)
	if err != nil {
		return err
	}
	src := config.Source{Layer: config.CLI, Family: dialect.Name(p.from), File: p.file, Trusted: true}
	format := fromAgent.InstallFormat()
	if l, ok := config.LocationOf(fromAgent, p.file); ok {
		format = l.Format // Copilot's settings.json, Codex's config.toml
	} else if format == 0 && len(fromAgent.Files) > 0 {
		format = fromAgent.Files[0].Format // a hook file of an agent with no hooks file (Cline's), wherever it is
	}
	f := config.DecodeAs(src, data, format)
	if !f.Usable {
		for _, pr := range f.Problems.Errors() {
			fmt.Fprintln(e.stderr, pr)
		}
		return fmt.Errorf("%s has errors; nothing converted", p.file)
	}
	var moved []string
	for _, h := range f.Hooks {
		if h.Type == "http" || h.Command == "" {
			continue
		}
		if c := rebaseCommand(h.Command, f.Source.Dir(), p.out); c != h.Command {
			moved = append(moved, fmt.Sprintf("%s: %s written as %s", h.Pos, h.Command, c))
			h.Command = c
		}
	}
	var out *jsonpos.Value
	var lost []string
	switch flat := dialect.FormatHooks; {
	case fromAgent.InstallFormat() == flat && toAgent.InstallFormat() == dialect.FormatSettings && toAgent.Speaks == "":
		out, lost = toSettings(f) // Cursor's hooks.json to Claude Code's own settings.json
	case toAgent.InstallFormat() == flat:
		out, lost = toHooksJSON(f)
	case toAgent.InstallFormat() == dialect.FormatCopilotHooks:
		out, lost = toCopilotHooks(f, toAgent)
	case toAgent.InstallFormat() == dialect.FormatCrush:
		out, lost = toCrushHooks(f, toAgent)
	case toAgent.InstallFormat() == dialect.FormatWindsurfHooks:
		out, lost = toWindsurfHooks(f, toAgent)
	case toAgent.InstallFormat() == dialect.FormatKiroHooks:
		out, lost = toKiroHooks(f, toAgent)
	case toAgent.InstallFormat() == dialect.FormatVSCodeHooks:
		out, lost = toVSCodeHooks(f, toAgent)
	case toAgent.Install.Group != "":
		var notes []string
		out, lost, notes = toNamedGroup(f, toAgent)
		moved = append(moved, notes...)
	default:
		var notes []string
		out, lost, notes = toMatcherGroups(f, toAgent)
		moved = append(moved, notes...)
	}
	data = out.Encode()
	if render := toAgent.Install.Render; render != nil { // a text format of the agent's own (Kimi Code's TOML)
		var more []string
		data, more = render(data)
		lost = append(lost, more...)
	}
	for _, l := range lost {
		fmt.Fprintln(e.stderr, "not carried:", l)
	}
	for _, m := range moved {
		fmt.Fprintln(e.stderr, "note:", m)
	}
	if p.out == "" {
		_, err = e.stdout.Write(data)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p.out), 0o755); err != nil {
		return err
	}
	if old, err := os.ReadFile(p.out); err == nil {
		if err := config.WriteFileAtomic(p.out+".bak", old, 0o600); err != nil {
			return fmt.Errorf("back up %s: %w", p.out, err)
		}
		fmt.Fprintf(e.stdout, "the previous file is %s.bak\n", p.out)
	}
	if err := config.WriteFileAtomic(p.out, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p.out, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", p.out)
	return nil
}

// rebaseCommand rewrites a command whose program is a path relative to the source config's
// folder (./x, ../x; the whole command when it is the path of a file, spaces included), as the
// engine resolves it: relative to the folder of out, or absolute when out is "" (stdout, whose
// file's folder is not known).
func rebaseCommand(command, srcDir, out string) string {
	cmd := strings.TrimSpace(command)
	prog, rest := cmd, ""
	if !isRelPath(cmd) || !fileExistsAt(filepath.Join(srcDir, cmd)) {
		var found bool
		prog, rest, found = strings.Cut(cmd, " ")
		if found {
			rest = " " + rest
		}
	}
	if !isRelPath(prog) || srcDir == "" {
		return command
	}
	abs := filepath.Join(srcDir, prog)
	if out == "" {
		return shell.Quote(abs) + rest
	}
	outDir, err := filepath.Abs(filepath.Dir(out))
	if err != nil {
		return shell.Quote(abs) + rest
	}
	rel, err := filepath.Rel(outDir, abs)
	if err != nil {
		return shell.Quote(abs) + rest
	}
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return shell.Quote(rel) + rest
}

func isRelPath(s string) bool { return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") }

func fileExistsAt(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// claudeMatcher is the Claude Code matcher for a Cursor or Windsurf hook: the tool its event is
// about, or its own matcher with Cursor's tool names in Claude Code's.
func claudeMatcher(h *config.Hook, kind dialect.Kind) (string, string) {
	switch kind {
	case dialect.BeforeShell, dialect.AfterShell:
		if h.Matcher != "" {
			return "Bash", fmt.Sprintf("%s: the matcher %q on the command text has no Claude Code equivalent; the hook sees every Bash call", h.Pos, h.Matcher)
		}
		return "Bash", ""
	case dialect.BeforeMCP, dialect.AfterMCP:
		return "mcp__.*", ""
	case dialect.BeforeRead, dialect.AfterRead:
		return "Read", ""
	case dialect.AfterEdit, dialect.BeforeEdit:
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
		list := hooks.At(event, jsonpos.Array)
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
		// A matcher naming only shell tools (Bash) makes PreToolUse Cursor's
		// beforeShellExecution, which needs no matcher: Cursor matches its matcher against the
		// command text there.
		kind := config.HookKind(h)
		event := translate.EventFor(dialect.Cursor, kind)
		narrowed := kind != config.KindOf(f.Source.Family, h.Event) && kind != dialect.BeforeMCP && kind != dialect.AfterMCP
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
			command += " " + shell.Quote(a)
		}
		entry := jsonpos.Obj("command", jsonpos.Str(command))
		if h.Matcher != "" && h.Matcher != "*" && !narrowed {
			entry.Set("matcher", jsonpos.Str(cursorMatcher(claudeToolNames(h.Matcher, f.Source.Family))))
		} else if kind == dialect.BeforeEdit || kind == dialect.AfterRead {
			m, _ := claudeMatcher(h, kind) // Windsurf's pre_write_code: Cursor's preToolUse on Write
			entry.Set("matcher", jsonpos.Str(cursorMatcher(m)))
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
		list := hooks.At(event, jsonpos.Array)
		list.Elems = append(list.Elems, entry)
	}
	if f.DisableAllHooks != nil || f.AllowManagedHooksOnly {
		lost = append(lost, "disableAllHooks / allowManagedHooksOnly: Claude Code settings with no hooks.json counterpart")
	}
	return jsonpos.Obj("version", number(1), "hooks", hooks), lost
}

// flatEvents reports whether agent a's hooks file has an event per kind of tool and matchers
// that are not tool names (Cursor's hooks.json, Windsurf's hooks.json).
func flatEvents(a *dialect.Agent) bool {
	return a.InstallFormat() == dialect.FormatHooks || a.InstallFormat() == dialect.FormatWindsurfHooks
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

// claudeToolNames rewrites a plain list matcher of family's tool names in Claude Code's names.
func claudeToolNames(m string, family dialect.Name) string {
	a := agents.Get(family)
	if a == nil || a.ToSpokenTool == nil {
		return m
	}
	if a.InstallFormat() == dialect.FormatCrush {
		m = crushMatcherTools(m) // Crush's matchers are regular expressions: ^bash$
	}
	return mapToolList(m, a.ToSpokenTool)
}

// mapToolList renames each tool of a plain "a|b" matcher; a regular expression is kept.
func mapToolList(m string, rename func(string) string) string {
	if strings.ContainsAny(m, ".*+?()[]{}^$\\") {
		return m
	}
	parts := strings.Split(m, "|")
	for i, p := range parts {
		parts[i] = rename(strings.TrimSpace(p))
	}
	return strings.Join(dedupe(parts), "|")
}

// toMatcherGroups writes the hooks of f in Claude Code's matcher-group shape for agent toA:
// Claude Code's settings.json, Codex's hooks.json (its events only) or Gemini CLI's
// settings.json (its events, tool names and timeouts in milliseconds). Claude Code, whose format
// it is, has every handler field; an agent that speaks it runs commands only.
func toMatcherGroups(f *config.File, toA *dialect.Agent) (*jsonpos.Value, []string, []string) {
	hooks := jsonpos.Obj()
	var lost, moved []string
	to, title, full := toA.Name, toA.Title, toA.Speaks == ""
	for _, h := range f.Hooks {
		kind := config.KindOf(f.Source.Family, h.Event)
		event := translate.EventFor(to, kind)
		if _, ok := toA.Dialect(dialect.AskAsDeny).Lookup(event); !ok {
			event = "" // Codex has only some of Claude Code's events
		}
		if event == "" {
			lost = append(lost, fmt.Sprintf("%s: %s has no %s counterpart", h.Pos, h.Event, title))
			continue
		}
		if h.Unsupported != "" && h.Type == "command" {
			lost = append(lost, fmt.Sprintf("%s: not converted: %s", h.Pos, h.Unsupported)) // a switched-off group's hook
			continue
		}
		if h.Unsupported != "" || h.Type == "http" && !full {
			lost = append(lost, fmt.Sprintf("%s: a %s hook: %s runs commands only", h.Pos, h.Type, title))
			continue
		}
		var matcher string
		if from := agents.Get(f.Source.Family); from != nil && flatEvents(from) {
			var note string
			matcher, note = claudeMatcher(h, kind)
			if note != "" {
				lost = append(lost, note)
			}
		} else {
			matcher = claudeToolNames(h.Matcher, f.Source.Family)
		}
		if toA.FromSpokenTool != nil && matcher != "" {
			matcher = mapToolList(matcher, toA.FromSpokenTool)
		}
		command := h.Command
		for _, a := range h.Args {
			command += " " + shell.Quote(a)
		}
		handler := jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(command))
		if h.Timeout > 0 {
			if u := toA.Settings.TimeoutUnit; u > 0 && u != time.Second {
				handler.Set("timeout", number(float64(h.Timeout/u)))
			} else {
				handler.Set("timeout", number(h.Timeout.Seconds()))
			}
		}
		if h.FailClosed {
			handler.Set("failClosed", jsonpos.BoolValue(true))
		}
		if h.Dialect != to {
			handler.Set("dialect", jsonpos.Str(string(h.Dialect)))
			moved = append(moved, fmt.Sprintf("%s: speaks %s's dialect (\"dialect\" says so): %s itself would send it %s's payload, so it works where agenthooks runs the file as a layer", h.Pos, h.Dialect, title, title))
		}
		for what, set := range map[string]bool{"if " + strconv.Quote(h.If): h.If != "", "async": h.Async, "shell " + h.Shell: h.Shell != ""} {
			if set && !full {
				lost = append(lost, fmt.Sprintf("%s: %s", h.Pos, what))
			}
		}
		group := jsonpos.Obj()
		if matcher != "" {
			group.Set("matcher", jsonpos.Str(matcher))
		}
		group.Set("hooks", jsonpos.Arr(handler))
		list := hooks.At(event, jsonpos.Array)
		list.Elems = append(list.Elems, group)
	}
	return jsonpos.Obj("hooks", hooks), lost, moved
}
