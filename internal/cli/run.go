package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
)

// layerFlags are the flags shared by run, list and lint that say where the configs are.
type layerFlags struct {
	configs   []string
	settings  []string
	workspace string
	trust     bool
}

func (f *layerFlags) register(c *cobra.Command) {
	c.Flags().StringArrayVar(&f.configs, "config", nil, "config `[LAYER=]FILE`: add FILE as a layer, or with LAYER (enterprise, team, project, user) replace that layer (repeatable)")
	c.Flags().StringArrayVar(&f.settings, "settings", nil, "a Claude Code settings.json to read hooks from, `[LAYER=]FILE` as for --config (repeatable)")
	c.Flags().StringVar(&f.workspace, "workspace", "", "workspace root (default: the payload's workspace_roots, else $CURSOR_PROJECT_DIR, else the current directory)")
	c.Flags().BoolVar(&f.trust, "trust", false, "trust the workspace's project hooks for this call")
}

// options turns the layer flags into engine options; workspaces come from the caller.
func (f *layerFlags) options(e *env, workspaces []string) (engine.Options, error) {
	opts := engine.Options{
		Env: config.Env{
			Home:             e.home(),
			EnterpriseDir:    e.getenv("AGENTHOOKS_ENTERPRISE_DIR"),
			ClaudeManagedDir: e.getenv("AGENTHOOKS_CLAUDE_MANAGED_DIR"),
			CodexHome:        e.getenv("CODEX_HOME"),
			Getenv:           e.getenv,
			Workspaces:       workspaces,
		},
		TrustAll: f.trust,
		Default:  DefaultHooks,
	}
	for _, group := range []struct {
		flag   string
		files  []string
		family dialect.Name
	}{{"--config", f.configs, dialect.Cursor}, {"--settings", f.settings, dialect.Claude}} {
		for _, c := range group.files {
			cf := engine.ConfigFile{Path: c, Family: group.family}
			if layer, path, ok := strings.Cut(c, "="); ok && isLayer(layer) {
				cf.Layer, cf.Path = config.Layer(layer), path
			}
			if cf.Path == "" {
				return opts, fmt.Errorf("%s %q names no file", group.flag, c)
			}
			opts.Files = append(opts.Files, cf)
		}
	}
	opts.Self = e.agenthooks()
	opts.HTTP = e.http
	return opts, nil
}

func isLayer(s string) bool {
	switch config.Layer(s) {
	case config.Enterprise, config.Team, config.Project, config.Local, config.User:
		return true
	}
	return false
}

// workspaces picks the workspace roots: the flag, the payload's workspace_roots, the agents'
// project variables, the payload's cwd, the current directory.
func (f *layerFlags) workspaces(e *env, roots []string, cwd string) []string {
	var out []string
	switch {
	case f.workspace != "":
		out = []string{f.workspace}
	case len(roots) > 0:
		out = roots
	case e.getenv("CURSOR_PROJECT_DIR") != "":
		out = []string{e.getenv("CURSOR_PROJECT_DIR")}
	case e.getenv("CLAUDE_PROJECT_DIR") != "":
		out = []string{e.getenv("CLAUDE_PROJECT_DIR")}
	case cwd != "":
		out = []string{cwd}
	default:
		if wd, err := os.Getwd(); err == nil {
			out = []string{wd}
		}
	}
	for i, w := range out {
		if c, err := config.Canonical(w); err == nil {
			out[i] = c
		}
	}
	return out
}

type runParams struct {
	layerFlags
	event      string
	agent      string
	format     string
	merge      string
	sequential bool
	failClosed bool
	verbose    bool
	from       []string
	audit      string
	askAs      string
	timeLimit  time.Duration
	bound      time.Duration // the time limit in force: no hook runs longer (engine.Options.TimeLimit)
}

func newRunCmd(e *env) *cobra.Command {
	var p runParams
	c := &cobra.Command{
		Use:   "run EVENT",
		Short: "Run the hooks of one event: payload on stdin, the agent's answer on stdout",
		Long: `Run every configured hook of EVENT (a Cursor hook event such as beforeShellExecution) with the
JSON payload read from stdin, merge their answers and print the result as Cursor's JSON for that
event. Exit status 0 whenever a decision was made, deny included; 1 when agenthooks itself could
not work (then, with --fail-closed, a deny that says so is printed instead).

With --agent claude the payload and answer are Claude Code's. With --agent codex they are Codex's:
Claude Code's format, but a deny is exit status 2 with the reason on stderr (the one block Codex
honours), and an ask, which Codex cannot show, becomes --ask-as (deny unless set to allow).
With --agent gemini the events are Gemini CLI's (BeforeTool, BeforeAgent, AfterAgent, ...): its
payload is rewritten in Claude Code's shape for the hooks, and a deny is again exit status 2 with
the reason on stderr and nothing on stdout, the one block Gemini and Codex both honour.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.event = args[0]
			if err := refuseTerminal(e, "run --agent "+p.agent+" "+p.event, `{"tool_name":"Bash","tool_input":{"command":"ls"}}`); err != nil {
				return err
			}
			return runRun(cmd.Context(), e, p)
		},
	}
	p.register(c)
	c.Flags().StringVar(&p.agent, "agent", string(agents.Default().Name), "the agent calling, whose payload and answer format are used: "+agents.List("or"))
	c.Flags().StringVar(&p.askAs, "ask-as", "deny", askAsHelp())
	c.Flags().StringVar(&p.format, "format", "agent", "output: agent (the agent's own answer) or decision (the full decision as JSON)")
	c.Flags().StringVar(&p.merge, "merge", "all", "merge rule: all (deny > ask > allow) or first (the first valid answer wins)")
	c.Flags().BoolVar(&p.sequential, "sequential", false, "run the event's hooks one after another")
	c.Flags().BoolVar(&p.failClosed, "fail-closed", false, "deny when agenthooks cannot work or a config layer is invalid")
	c.Flags().DurationVar(&p.timeLimit, "time-limit", 0, "with --fail-closed, on an event that can block: stop the hooks still running after this long and deny (default: four fifths of the agent's timeout for agenthooks' entry where the agent lets the call run when it gives up on it: Claude Code 8m0s, Gemini CLI 48s, Cline 24s; none where the agent's timeout blocks, as Cursor's failClosed)")
	c.Flags().BoolVarP(&p.verbose, "verbose", "v", false, "print a table of the hook runs on stderr")
	c.Flags().StringVar(&p.audit, "audit", "", "record into this audit database, or off (default: $AGENTHOOKS_AUDIT, else ~/.agenthooks/audit.db)")
	c.Flags().StringSliceVar(&p.from, "from", nil, "read only these kinds of config: cursor (hooks.json), claude (settings.json), codex (Codex's hooks.json), gemini (Gemini CLI's settings.json); default all but the calling agent's own Codex or Gemini files")
	return c
}

func runRun(ctx context.Context, e *env, p runParams) error {
	ag, ok := agents.Lookup(p.agent)
	if !ok {
		return fmt.Errorf("--agent must be %s, not %q", agents.List("or"), p.agent)
	}
	if p.askAs != string(dialect.AskAsDeny) && p.askAs != string(dialect.AskAsAllow) {
		return fmt.Errorf("--ask-as must be deny or allow, not %q", p.askAs)
	}
	if p.format == p.agent || p.format == string(agents.Default().Name) {
		p.format = "agent" // the agent's own answer (the default agent's name is its old spelling)
	}
	if p.format != "agent" && p.format != "decision" {
		return fmt.Errorf("--format must be agent (the agent's own answer) or decision, not %q", p.format)
	}
	if p.merge != string(decide.MergeAll) && p.merge != string(decide.MergeFirst) {
		return fmt.Errorf("--merge must be all or first, not %q", p.merge)
	}
	if host, ev := callingAgent(e, ag, p.event); host != ag { // VS Code running Copilot CLI's entry
		ag, p.agent, p.event = host, string(host.Name), ev
	}
	agent := ag.Dialect(dialect.AskAs(p.askAs))
	spec, ok := agent.Lookup(p.event)
	if !ok {
		return fmt.Errorf("unknown event %q; %s's events are: %s", p.event, ag.ShortTitle(), strings.Join(agent.Names(), ", "))
	}
	limit := p.timeLimit
	if limit == 0 {
		limit = ag.RunTimeLimit(p.event)
	}
	if limit < 0 {
		return fmt.Errorf("--time-limit must not be negative, not %s", limit)
	}
	if p.failClosed && spec.Gates && limit > 0 {
		// the agent would let the call run when it gives up on agenthooks: answer before it
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, limit, outOfTime{limit})
		defer cancel()
		p.bound = limit
	}
	d, err := fire(ctx, e, p, spec)
	if sa := (stepAside{}); errors.As(err, &sa) {
		fmt.Fprintln(e.stderr, "agenthooks:", sa)
		return nil // the calling agent's own entry answers
	}
	if err != nil {
		if !p.failClosed || !spec.Gates {
			return err
		}
		msg := "agenthooks failed, and it is fail-closed, so this is denied: " + err.Error()
		var listed configErrors
		if !errors.As(err, &listed) { // config errors are already on stderr, one a line
			fmt.Fprintln(e.stderr, "agenthooks:", err)
		}
		deny := decide.Decision{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg}
		d = &engine.Decision{Agent: spec.Dialect, Event: spec.Name, Decision: deny, Permission: decide.Deny, Reason: msg, Reply: agent.Encode(spec, deny)}
		d.ClientMessage, d.ModelMessage = agent.Messages(spec, deny)
	}
	if p.verbose {
		printRuns(e.stderr, d)
	}
	if p.format == "decision" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(decisionView(d))
	}
	e.stdout.Write(d.Reply.Stdout)
	e.stderr.Write(d.Reply.Stderr)
	if d.Reply.ExitCode != 0 {
		return silentExit{code: d.Reply.ExitCode}
	}
	return nil
}

func fire(ctx context.Context, e *env, p runParams, spec *dialect.Spec) (*engine.Decision, error) {
	payload, err := io.ReadAll(io.LimitReader(e.stdin, engine.MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("read payload from stdin: %w", err)
	}
	if len(payload) > engine.MaxPayload {
		return nil, fmt.Errorf("payload on stdin is larger than %d bytes", engine.MaxPayload)
	}
	var peek struct {
		WorkspaceRoots []string `json:"workspace_roots"`
		Cwd            string   `json:"cwd"`
	}
	_ = json.Unmarshal(payload, &peek) // a bad payload is reported by Fire
	opts, err := p.options(e, p.workspaces(e, peek.WorkspaceRoots, peek.Cwd))
	if err != nil {
		return nil, err
	}
	if sa := repeated(e, engine.Repeat{In: dialect.Name(p.agent), Payload: payload, FailClosed: p.failClosed}, opts.Env.Workspaces); sa != nil {
		return nil, sa
	}
	for _, f := range p.from {
		if _, ok := agents.Lookup(f); !ok {
			return nil, fmt.Errorf("--from takes %s, not %q", agents.List("and"), f)
		}
		opts.Families = append(opts.Families, dialect.Name(f))
	}
	if ag, _ := agents.Lookup(p.agent); len(p.from) == 0 && ag != nil && ag.Answer.RunsOwnHooks {
		// Codex and Gemini CLI run their own hooks themselves.
		for _, a := range agents.ByFilePriority() {
			if a != ag && !ag.ReadsAlways(a.Name) && !a.ReadsAlways(ag.Name) { // nor the files it shares (VS Code's and Copilot's)
				opts.Families = append(opts.Families, a.Name)
			}
		}
	}
	opts.Merge = decide.Mode(p.merge)
	opts.AskAs = dialect.AskAs(p.askAs)
	opts.Sequential = p.sequential
	opts.TimeLimit = p.bound
	opts.Logger = e.logger(p.verbose)
	eng, err := engine.Load(opts)
	if err != nil {
		return nil, err
	}
	for _, pr := range eng.Config().Problems().Errors() {
		fmt.Fprintln(e.stderr, "agenthooks: config error:", pr)
	}
	problems := eng.Config().RunErrors() // an untrusted file's errors switch off no hook
	for _, f := range eng.Config().Untrusted() {
		if u := f.Source.Untrusted; u != nil && !u.Quiet() { // a workspace nobody trusted is said with -v
			fmt.Fprintf(e.stderr, "agenthooks: %s is not used: %s\n", f.Source.File, u.Message)
		}
	}
	if p.failClosed && len(problems) > 0 {
		return nil, configErrors{n: len(problems), first: problems[0].String()}
	}
	d, err := eng.Fire(ctx, engine.Event{Agent: spec.Dialect, Name: spec.Name, Payload: payload})
	if err != nil {
		return nil, err
	}
	ws := ""
	if len(opts.Env.Workspaces) > 0 {
		ws = opts.Env.Workspaces[0]
	}
	record(e, auditPath(e, p.audit), recordOf(d, payload, ws))
	if ot := (outOfTime{}); errors.As(context.Cause(ctx), &ot) && d.Permission != decide.Deny && stopped(d) {
		return nil, ot
	}
	return d, nil
}

// outOfTime is the error of a fail-closed run whose hooks had not all answered within its time
// limit (run --time-limit, or the agent's, Agent.RunTimeLimit): it stopped them, and denies.
type outOfTime struct{ limit time.Duration }

func (o outOfTime) Error() string {
	return fmt.Sprintf("a hook had not answered after %s, the time agenthooks run has before the agent gives up on it and lets the call run; it was stopped (give it a shorter timeout, or see run --time-limit)", o.limit)
}

// stopped reports whether a hook of d was stopped before it answered (its run canceled).
func stopped(d *engine.Decision) bool {
	for _, r := range d.Runs {
		if r.Result != nil && r.Result.Canceled {
			return true
		}
	}
	return false
}

// configErrors is the error of a fail-closed run whose config has errors, which fire has already
// printed on stderr: it is the deny's reason, and is not printed again. It names the first
// broken file by line and column and how to see every problem, so that whoever reads the deny
// (the user, the model) can have the file fixed. A hook or event of a newer version of an
// agent's format is never such an error: config skips it with a warning.
type configErrors struct {
	n     int
	first string
}

func (c configErrors) Error() string {
	return fmt.Sprintf("%d config error(s), first: %s (fix that file; agenthooks lint, run in the project, lists every problem)", c.n, c.first)
}

// printRuns writes the table -v shows: one line per hook run.
func printRuns(w io.Writer, d *engine.Decision) {
	for _, warn := range d.Warnings {
		fmt.Fprintln(w, "agenthooks: warning:", warn)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tCOMMAND\tEXIT\tDURATION\tVERDICT")
	for _, r := range d.Runs {
		exit, dur := "-", "-"
		if r.Result != nil {
			exit = fmt.Sprint(r.Result.ExitCode)
			dur = fmt.Sprintf("%.1fms", float64(r.Result.Duration.Microseconds())/1000)
		}
		verdict := string(r.Verdict)
		if why := append(append([]string{}, r.Errors...), r.Skipped); strings.Join(why, "") != "" {
			verdict += " (" + strings.Trim(strings.Join(why, "; "), "; ") + ")"
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\t%s\n", r.Hook.Source.Layer, r.Hook.Pos, clip(r.Hook.Command, 48), exit, dur, verdict)
	}
	tw.Flush()
	fmt.Fprintf(w, "decision: %s\n", d.Reason)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// runView is a Run as --format decision prints it.
type runView struct {
	Layer      config.Layer   `json:"layer"`
	Source     string         `json:"source"`
	Dialect    dialect.Name   `json:"dialect"`
	Event      string         `json:"event"`
	Command    string         `json:"command"`
	Verdict    engine.Verdict `json:"verdict"`
	Skipped    string         `json:"skipped,omitempty"`
	ExitCode   *int           `json:"exit_code,omitempty"`
	DurationMS *float64       `json:"duration_ms,omitempty"`
	TimedOut   bool           `json:"timed_out,omitempty"`
	Errors     []string       `json:"errors,omitempty"`
	Notes      []string       `json:"notes,omitempty"`
	Stderr     string         `json:"stderr,omitempty"`
}

type decisionOut struct {
	Agent         dialect.Name      `json:"agent"`
	Event         string            `json:"event"`
	Permission    decide.Permission `json:"permission,omitempty"`
	UserMessage   string            `json:"user_message,omitempty"`
	AgentMessage  string            `json:"agent_message,omitempty"`
	ClientMessage string            `json:"client_message,omitempty"`
	ModelMessage  string            `json:"model_message,omitempty"`
	Followup      string            `json:"followup_message,omitempty"`
	UpdatedInput  json.RawMessage   `json:"updated_input,omitempty"`
	Context       string            `json:"additional_context,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	PluginPaths   []string          `json:"plugin_paths,omitempty"`
	Halt          bool              `json:"halt,omitempty"`
	StopReason    string            `json:"stop_reason,omitempty"`
	SystemMessage string            `json:"system_message,omitempty"`
	DecidedBy     []string          `json:"decided_by,omitempty"`
	Reason        string            `json:"reason"`
	Runs          []runView         `json:"runs"`
	Warnings      []string          `json:"warnings,omitempty"`
}

func decisionView(d *engine.Decision) decisionOut {
	out := decisionOut{Agent: d.Agent, Event: d.Event, Permission: d.Permission, UserMessage: d.UserMessage,
		AgentMessage: d.AgentMessage, ClientMessage: d.ClientMessage, ModelMessage: d.ModelMessage,
		Followup: d.Followup, UpdatedInput: d.UpdatedInput, Context: d.AdditionalContext, Env: d.Env,
		PluginPaths: d.PluginPaths, Halt: d.Halt, StopReason: d.StopReason, SystemMessage: d.SystemMessage, Reason: d.Reason, Warnings: d.Warnings, Runs: []runView{}}
	for _, i := range d.DecidedBy {
		out.DecidedBy = append(out.DecidedBy, d.Runs[i].Hook.Pos.String())
	}
	for _, r := range d.Runs {
		v := runView{Layer: r.Hook.Source.Layer, Source: r.Hook.Pos.String(), Dialect: r.Hook.Dialect, Event: r.Event, Command: r.Hook.Command,
			Verdict: r.Verdict, Skipped: r.Skipped, Errors: r.Errors, Notes: r.Notes}
		if r.Result != nil {
			code, ms := r.Result.ExitCode, float64(r.Result.Duration)/float64(time.Millisecond)
			v.ExitCode, v.DurationMS, v.TimedOut = &code, &ms, r.Result.TimedOut
			v.Stderr = strings.TrimSpace(string(r.Result.Stderr))
		}
		out.Runs = append(out.Runs, v)
	}
	return out
}

var errNoConfig = errors.New("no hooks config found")
