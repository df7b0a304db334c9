package engine

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/confine"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/tracectx"
	"github.com/agenthooks/agenthooks/runner"
)

// DepthEnv carries how many agenthooks runs a hook runs inside, so that a loop of hooks that run
// agenthooks run (directly or through a script) stops instead of forking forever.
const DepthEnv = "AGENTHOOKS_RUN_DEPTH"

// AgentEnv names, in the hooks' environment, the agent that fired the event (claude, codex,
// gemini, cursor), whatever dialect the hook itself is given: a hook that answers in its own
// format can still tell what the agent will do with the answer (the shell guard rewrites a
// command to run confined only for an agent that runs rewritten input).
const AgentEnv = "AGENTHOOKS_AGENT"

// MaxRunDepth is how deep agenthooks runs may nest.
const MaxRunDepth = 3

func (e *Engine) depth() int {
	for _, kv := range e.opts.Environ {
		if v, ok := strings.CutPrefix(kv, DepthEnv+"="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// MaxPayload bounds the size of an event payload.
const MaxPayload = 64 << 20

// Event is one event from the agent: the agent's dialect (Cursor when empty), the event's name
// in that dialect and its JSON payload.
type Event struct {
	Agent   dialect.Name
	Name    string
	Payload []byte
}

// Verdict says how one hook run ended, for people reading tables and logs.
type Verdict string

// The verdicts of a run.
const (
	VerdictAllow        Verdict = "allow"
	VerdictAsk          Verdict = "ask"
	VerdictDeny         Verdict = "deny"
	VerdictAnswer       Verdict = "answer" // answered, with no permission (follow-ups, context)
	VerdictNoAnswer     Verdict = "none"   // exit 0 and nothing on stdout
	VerdictError        Verdict = "error"  // failed; treated as no answer (fail open)
	VerdictFailedClosed Verdict = "failed-closed"
	VerdictSkipped      Verdict = "skipped"
	VerdictRefused      Verdict = "refused" // the hook's own command failed the safety check
)

// Run is what happened to one hook during a Fire.
type Run struct {
	Hook    *config.Hook `json:"hook"`
	Command string       `json:"command"` // as run, after path resolution
	// Event is the event the hook ran as, in its own dialect (translated when not the agent's).
	Event   string         `json:"event"`
	Verdict Verdict        `json:"verdict"`
	Skipped string         `json:"skipped,omitempty"`
	Errors  []string       `json:"errors,omitempty"`
	Notes   []string       `json:"notes,omitempty"`
	Result  *runner.Result `json:"result,omitempty"`
	Answer  *decide.Answer `json:"answer,omitempty"`
	// SpanID is the span of this run in the Fire's trace: the hook process got it as the parent
	// id in its TRACEPARENT. Empty for a run that started no process.
	SpanID string `json:"span_id,omitempty"`
	// Start is when the hook was started (zero for a run that started nothing).
	Start time.Time `json:"start,omitzero"`
}

// Decision is the outcome of one Fire.
type Decision struct {
	decide.Decision
	Agent dialect.Name `json:"agent"`
	Event string       `json:"event"`
	// Permission is the effective permission: allow when no hook expressed one on an event
	// that gates. It is empty for events that cannot block.
	Permission decide.Permission `json:"permission,omitempty"`
	// ClientMessage and ModelMessage are what the agent shows the user and the model.
	ClientMessage string `json:"client_message,omitempty"`
	ModelMessage  string `json:"model_message,omitempty"`
	// Reason says in one sentence why the decision is what it is.
	Reason   string   `json:"reason"`
	Runs     []Run    `json:"runs"`
	Warnings []string `json:"warnings,omitempty"`
	// Trace is the Fire's trace context, which its hooks' TRACEPARENT continues.
	Trace Trace `json:"trace"`
	// Reply is the decision in the agent's wire form: exit code, stdout, stderr.
	Reply dialect.Reply `json:"-"`
}

// Fire runs the hooks configured for ev and returns the merged decision. Hooks run concurrently
// (bounded) unless the config or Options ask for sequential; results are ordered by hook.
func (e *Engine) Fire(ctx context.Context, ev Event) (*Decision, error) {
	agent := e.agentDialect(ev.Agent)
	agentSpec, err := lookup(agent, ev.Name)
	if err != nil {
		return nil, err
	}
	if len(ev.Payload) > MaxPayload {
		return nil, fmt.Errorf("payload is %d bytes, more than the limit of %d", len(ev.Payload), MaxPayload)
	}
	if len(bytes.TrimSpace(ev.Payload)) == 0 {
		ev.Payload = []byte("{}")
	}
	spec, raw, notes, err := hookEvent(agentSpec, ev.Payload)
	if err != nil {
		return nil, err
	}
	ev.Payload = raw
	if d := e.depth(); d >= MaxRunDepth {
		return nil, fmt.Errorf("agenthooks run is nested %d deep (%s): a hook runs agenthooks run again; refusing to recurse", d, DepthEnv)
	}
	payload, err := e.preparePayload(spec, ev.Payload)
	if err != nil {
		return nil, err
	}
	kind := spec.Kind
	if k := agentFor(spec.Dialect).ToolKind(spec.Name, payload.str("tool_name")); k != "" {
		kind = k // the tool narrows the event (Claude Code's PreToolUse on Bash is before-shell)
	}
	d := &Decision{Agent: agentSpec.Dialect, Event: agentSpec.Name}
	for _, n := range notes {
		d.Warnings = append(d.Warnings, fmt.Sprintf("translation of %s's %s payload: %s", agentSpec.Dialect, agentSpec.Name, n))
	}
	for _, f := range e.cfg.Untrusted() {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: project hooks not run: %s", f.Source.File, f.Source.Untrusted.Message))
	}
	for _, p := range e.cfg.Problems().Errors() {
		d.Warnings = append(d.Warnings, p.String())
	}
	hooks := e.cfg.HooksFor(spec.Dialect, spec.Name, kind)
	d.Runs = make([]Run, len(hooks))
	skips := e.guardSkips(agentSpec.Dialect, spec, kind, hooks, payload.bytes())
	trace, parent := e.startTrace()
	d.Trace = trace
	env := withTraceparent(mergeEnv(e.environ(spec, payload), [][2]string{{AgentEnv, string(agentSpec.Dialect)}}), parent)
	sequential := e.opts.Sequential || e.cfg.Sequential(spec.Name)
	unconfined := "" // why a later hook's rewrite took a confined command out of its sandbox
	if sequential {
		confinedBy := -1
		for i, h := range hooks {
			if skips[i] != "" {
				d.Runs[i] = Run{Hook: h, Command: e.resolveCommand(h), Event: spec.Name, Verdict: VerdictSkipped, Skipped: skips[i]}
				continue
			}
			d.Runs[i] = e.runHook(ctx, spec, h, payload.bytes(), env)
			if a := d.Runs[i].Answer; a != nil && a.UpdatedInput != nil && a.Permission != decide.Deny {
				confined := runsConfined(a.UpdatedInput)
				if confinedBy >= 0 && !confined && unconfined == "" {
					unconfined = fmt.Sprintf("agenthooks: %s rewrote the command that %s had set to run confined, which would run it outside the sandbox; put the guard after the hooks that rewrite commands",
						h, hooks[confinedBy])
				}
				if confined {
					confinedBy = i
				}
				payload.set("tool_input", a.UpdatedInput) // the next hook sees the rewrite
			}
		}
	} else {
		body := payload.bytes()
		g := new(errgroup.Group)
		g.SetLimit(e.opts.MaxParallel)
		for i, h := range hooks {
			if skips[i] != "" {
				d.Runs[i] = Run{Hook: h, Command: e.resolveCommand(h), Event: spec.Name, Verdict: VerdictSkipped, Skipped: skips[i]}
				continue
			}
			g.Go(func() error {
				d.Runs[i] = e.runHook(ctx, spec, h, body, env)
				return nil
			})
		}
		_ = g.Wait() // runHook never fails: failures are Runs
	}
	var answers []decide.Answer
	for i := range d.Runs {
		if a := d.Runs[i].Answer; a != nil {
			a.Index = i
			answers = append(answers, *a)
		}
	}
	d.Decision = decide.Merge(answers, e.opts.Merge)
	if unconfined != "" && d.Decision.Permission != decide.Deny {
		d.Decision.Permission = decide.Deny
		d.Decision.UpdatedInput = nil
		d.Decision.UserMessage = unconfined
		d.Decision.AgentMessage = unconfined
		d.Decision.DecidedBy = nil
	}
	if !sequential && e.opts.Merge != decide.MergeFirst && decide.Rewrites(answers) && d.Decision.Permission != decide.Deny {
		// Hooks that ran side by side rewrote the input differently: whichever rewrite ran, the
		// others' judgement of it is missing (a guard's confined command would lose its sandbox).
		why := "agenthooks: hooks rewrote the tool input in different ways; run them with sequential: true so each sees the last rewrite"
		d.Decision.Permission = decide.Deny
		d.Decision.UpdatedInput = nil
		d.Decision.UserMessage = why
		d.Decision.AgentMessage = why
		d.Decision.DecidedBy = nil
	}
	e.finish(agent, agentSpec, d)
	return d, nil
}

func (e *Engine) finish(agent dialect.Dialect, spec *dialect.Spec, d *Decision) {
	for _, r := range d.Runs {
		for _, n := range r.Notes {
			if strings.HasPrefix(n, "translation: ") {
				d.Warnings = append(d.Warnings, r.Hook.String()+": "+n)
			}
		}
	}
	d.Warnings = append(d.Warnings, losses(spec, d.Decision)...)
	d.Reply = agent.Encode(spec, d.Decision)
	if !spec.Gates {
		d.Reason = fmt.Sprintf("%s cannot block; %d hook(s) ran", spec.Name, countRan(d.Runs))
		return
	}
	d.Permission = d.Decision.Permission
	switch {
	case d.Halt:
		d.Permission = decide.Deny
		d.Reason = "a hook stopped the agent (continue: false): " + d.StopReason
	case d.Permission == decide.None:
		d.Permission = decide.Allow
		d.Reason = "no hook expressed a permission; the default is allow"
	default:
		var by []string
		for _, i := range d.DecidedBy {
			by = append(by, d.Runs[i].Hook.String())
		}
		d.Reason = fmt.Sprintf("%s by %s", d.Permission, strings.Join(by, ", "))
	}
	d.ClientMessage, d.ModelMessage = agent.Messages(spec, decide.Decision{Permission: d.Permission,
		UserMessage: d.UserMessage, AgentMessage: d.AgentMessage, Halt: d.Halt, StopReason: d.StopReason})
}

// losses lists what the merged decision says that the agent's event has no field for.
func losses(spec *dialect.Spec, d decide.Decision) []string {
	var out []string
	if a := agents.Get(spec.Dialect); a != nil && a.Answer.Loses != nil {
		for _, what := range a.Answer.Loses(spec, d) {
			out = append(out, fmt.Sprintf("%s cannot be carried to %s's %s", what, spec.Dialect, spec.Name))
		}
	}
	return out
}

func countRan(runs []Run) int {
	n := 0
	for _, r := range runs {
		if r.Result != nil {
			n++
		}
	}
	return n
}

// hookTimeout is how long h may run: its own timeout; else Options.HookTimeout; else what the
// agent whose file holds it gives a hook of its event that sets none (Agent.TimeoutFor), 10 s for
// agenthooks' own hooks.json (Cursor's format, as the hook execution service reads it); never
// more than Options.TimeLimit.
func (e *Engine) hookTimeout(h *config.Hook) time.Duration {
	t := h.Timeout
	if t <= 0 {
		t = e.opts.HookTimeout
	}
	if t <= 0 {
		t = runner.DefaultTimeout
		if h.Source != nil && h.Source.Family != agents.Default().Name {
			if a := agents.Get(h.Source.Family); a != nil {
				t = cmp.Or(a.TimeoutFor(h.Event), t) // what that agent gives a hook of this event
			}
		}
	}
	if e.opts.TimeLimit > 0 && t > e.opts.TimeLimit {
		t = e.opts.TimeLimit
	}
	return t
}

// runHook runs one hook and reads its answer. It never returns an error: every failure is
// recorded in the Run, and the hook's fail mode turns it into a deny or into no answer.
func (e *Engine) runHook(ctx context.Context, spec *dialect.Spec, h *config.Hook, payload []byte, env []string) Run {
	run := Run{Hook: h, Command: e.resolveCommand(h), Event: spec.Name}
	if h.SelfRun {
		run.Verdict, run.Skipped = VerdictSkipped, "this is agenthooks run itself, registered as the agent's hook; running it again would recurse"
		return run
	}
	if h.Unsupported != "" {
		run.Verdict, run.Skipped = VerdictSkipped, h.Unsupported
		return run
	}
	hd := dialectFor(h.Dialect)
	hookSpec, body, notes, why, err := e.prepare(spec, h, payload)
	run.Notes = notes
	if err != nil {
		run.Errors = []string{err.Error()}
		return e.failed(spec, h, run)
	}
	run.Event = hookSpec.Name
	if why != "" {
		run.Verdict, run.Skipped = VerdictSkipped, why
		return run
	}
	if h.Refused != "" {
		run.Verdict = VerdictRefused
		run.Errors = []string{fmt.Sprintf("hook refused before it ran: its command fails the safety check (%s)", h.Refused)}
		return e.failed(spec, h, run)
	}
	timeout := e.hookTimeout(h)
	run.SpanID, env = hookTrace(env)
	if h.Async {
		run.Verdict, run.Skipped = VerdictSkipped, "async: started in the background; it gives no answer"
		e.startAsync(h, run.Command, body, env)
		return run
	}
	var res runner.Result
	run.Start = time.Now()
	if h.Type == "http" {
		res = e.runHTTP(ctx, h, body, timeout, lookupEnv(env, tracectx.Env))
	} else {
		res = runner.Run(ctx, runner.Spec{
			Command:   run.Command,
			Argv:      e.argv(h),
			Shell:     shellFor(h),
			Dir:       e.hookDir(h, body),
			Env:       env,
			Stdin:     body,
			Timeout:   timeout,
			KillGrace: e.opts.KillGrace,
		})
	}
	run.Result = &res
	e.log.Debug("hook ran", "hook", h.String(), "event", spec.Name, "exit_code", res.ExitCode, "duration", res.Duration, "timed_out", res.TimedOut)
	switch {
	case res.Err != nil:
		run.Errors = []string{"hook could not start: " + res.Err.Error()}
		return e.failed(spec, h, run)
	case res.TimedOut:
		run.Errors = []string{fmt.Sprintf("hook timed out after %s and was killed", timeout)}
		return e.failed(spec, h, run)
	case res.Canceled:
		run.Errors = []string{"hook was canceled: " + context.Cause(ctx).Error()}
		return e.failed(spec, h, run)
	case res.Signal != "":
		run.Errors = []string{"hook was killed by signal " + res.Signal}
		return e.failed(spec, h, run)
	}
	out := hd.Interpret(hookSpec, res.ExitCode, res.Stdout, res.Stderr, res.StdoutCut)
	run.Errors, run.Notes = out.Errors, append(run.Notes, out.Notes...)
	if out.Failed {
		return e.failed(spec, h, run)
	}
	if !out.Answered {
		run.Verdict = VerdictNoAnswer
		return run
	}
	a := out.Answer
	run.Answer = &a
	switch a.Permission {
	case decide.Allow, decide.Ask, decide.Deny, decide.Defer:
		run.Verdict = Verdict(a.Permission)
	default:
		run.Verdict = VerdictAnswer
	}
	return run
}

// failed applies the hook's fail mode to a run that did not produce a usable answer.
func (e *Engine) failed(spec *dialect.Spec, h *config.Hook, run Run) Run {
	if run.Verdict == "" {
		run.Verdict = VerdictError
	}
	if !h.FailClosed || !spec.Gates {
		return run
	}
	why := strings.Join(run.Errors, "; ")
	msg := fmt.Sprintf("the guard %s failed and is fail-closed, so this is denied: %s", h.Pos, why)
	run.Answer = &decide.Answer{Permission: decide.Deny, UserMessage: msg, AgentMessage: msg}
	if run.Verdict != VerdictRefused {
		run.Verdict = VerdictFailedClosed
	}
	return run
}

// skipReason says why a hook does not run for this payload, or "".
func skipReason(spec *dialect.Spec, h *config.Hook, payload []byte) string {
	if h.Matcher != "" && spec.Target != dialect.NoTarget {
		target, text := matchTarget(spec, payload)
		if !h.Matches(target, text) && !slices.ContainsFunc(spec.Readings, func(r string) bool { return h.Matches(r, text) }) {
			why := "matcher " + fmt.Sprintf("%q", h.Matcher) + " does not match " + fmt.Sprintf("%q", target)
			if len(spec.Readings) > 0 {
				why += fmt.Sprintf(" nor any other reading of the name %q", spec.Readings)
			}
			return why
		}
	}
	if h.If != "" {
		if ok, why := ifMatches(h.If, spec.Name, payload); !ok {
			return why
		}
	}
	if spec.Loop && h.LoopLimit >= 0 {
		if n, ok := loopCount(payload); ok && n >= h.LoopLimit {
			return fmt.Sprintf("loop_count %d reached the hook's loop_limit %d", n, h.LoopLimit)
		}
	}
	return ""
}

func matchTarget(spec *dialect.Spec, payload []byte) (string, bool) {
	switch spec.Target {
	case dialect.Constant:
		return spec.MatchConst, false
	case dialect.FieldName, dialect.FieldText:
		// A dotted field is nested (Antigravity's toolCall.name).
		raw := json.RawMessage(payload)
		for _, key := range strings.Split(spec.MatchField, ".") {
			var fields map[string]json.RawMessage
			_ = json.Unmarshal(raw, &fields)
			raw = fields[key]
		}
		var s string
		_ = json.Unmarshal(raw, &s)
		return s, spec.Target == dialect.FieldText
	}
	return "", false
}

func loopCount(payload []byte) (int, bool) {
	var p struct {
		LoopCount *float64 `json:"loop_count"`
	}
	if json.Unmarshal(payload, &p) != nil || p.LoopCount == nil {
		return 0, false
	}
	return int(*p.LoopCount), true
}

// hookDir is the working directory of a hook: the workspace root for project hooks and for
// Claude Code's hooks (as the agents run them), the folder of the config file otherwise.
func (e *Engine) hookDir(h *config.Hook, payload []byte) string {
	ws := ""
	if w := e.opts.Env.Workspaces; len(w) > 0 {
		ws = w[0]
	}
	candidates := []string{h.Source.Dir()}
	switch {
	case h.Source.Layer == config.Project && h.Source.Workspace != "":
		candidates = []string{h.Source.Workspace}
	case agentFor(h.Source.Family).HookCwd || h.Source.Layer == config.Default:
		var p struct {
			Cwd string `json:"cwd"`
		}
		_ = json.Unmarshal(payload, &p)
		candidates = []string{p.Cwd, ws}
	}
	// A folder that does not exist (a payload from another machine, a removed workspace) must
	// not stop the hook from running: the current directory stands in.
	for _, dir := range candidates {
		if dir != "" && dirExists(dir) {
			return dir
		}
	}
	return ""
}

func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// resolveCommand makes a hook's command runnable from any working directory: a program given as
// a path relative to the config file (./x, ../x) becomes absolute, a command that is wholly the
// path of an existing file is quoted (paths with spaces), and a program named "agenthooks" is
// this executable when Options.Self says where it is.
func (e *Engine) resolveCommand(h *config.Hook) string {
	cmd := strings.TrimSpace(h.Command)
	dir := h.Source.Dir()
	if filepath.IsAbs(cmd) && fileExists(cmd) {
		return shell.Quote(cmd)
	}
	if isRelativePath(cmd) && dir != "" && fileExists(filepath.Join(dir, cmd)) {
		return shell.Quote(filepath.Join(dir, cmd))
	}
	prog, rest, _ := strings.Cut(cmd, " ")
	if rest != "" {
		rest = " " + rest
	}
	switch {
	case isRelativePath(prog) && dir != "" && h.Source.Layer != config.Default:
		return shell.Quote(filepath.Join(dir, prog)) + rest
	case prog == "agenthooks" && e.opts.Self != "":
		return shell.Quote(e.opts.Self) + rest
	}
	return cmd
}

func isRelativePath(s string) bool {
	return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// environ builds the hooks' environment: the base environment plus Cursor's variables and the
// execution context (HOOK_EVENT, HOOK_TOOL_NAME, HOOK_PROJECT_DIR).
func (e *Engine) environ(spec *dialect.Spec, p *payload) []string {
	project := p.workspace()
	if project == "" && len(e.opts.Env.Workspaces) > 0 {
		project = e.opts.Env.Workspaces[0]
	}
	vars := [][2]string{
		{"CURSOR_PROJECT_DIR", project},
		{"CLAUDE_PROJECT_DIR", project},
		{"CURSOR_VERSION", p.str("cursor_version")},
		{"HOOK_EVENT", spec.Name},
		{"HOOK_TOOL_NAME", p.str("tool_name")},
		{"HOOK_PROJECT_DIR", project},
		{DepthEnv, strconv.Itoa(e.depth() + 1)},
	}
	if v := p.str("user_email"); v != "" {
		vars = append(vars, [2]string{"CURSOR_USER_EMAIL", v})
	}
	if v := p.str("transcript_path"); v != "" {
		vars = append(vars, [2]string{"CURSOR_TRANSCRIPT_PATH", v})
	}
	return mergeEnv(e.opts.Environ, vars)
}

// mergeEnv sets vars over base, replacing any earlier value of the same name.
func mergeEnv(base []string, vars [][2]string) []string {
	out := make([]string, 0, len(base)+len(vars))
	set := make(map[string]bool, len(vars))
	for _, v := range vars {
		set[v[0]] = true
	}
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !set[name] {
			out = append(out, kv)
		}
	}
	for _, v := range vars {
		out = append(out, v[0]+"="+v[1])
	}
	return out
}

// payload is the event's JSON object, with the fields the engine adds.
type payload struct {
	raw     []byte
	fields  map[string]json.RawMessage
	changed bool
}

func (p *payload) bytes() []byte {
	if !p.changed {
		return p.raw
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p.fields) // raw messages that were decoded from JSON always encode
	p.raw, p.changed = bytes.TrimRight(buf.Bytes(), "\n"), false
	return p.raw
}

func (p *payload) set(key string, v json.RawMessage) {
	p.fields[key] = v
	p.changed = true
}

func (p *payload) str(key string) string {
	var s string
	_ = json.Unmarshal(p.fields[key], &s)
	return s
}

func (p *payload) workspace() string {
	var roots []string
	_ = json.Unmarshal(p.fields["workspace_roots"], &roots)
	if len(roots) > 0 {
		return roots[0]
	}
	return ""
}

// preparePayload decodes the event payload and adds the common fields Cursor sends that the
// caller left out. A payload that needs nothing added is passed on byte for byte.
func (e *Engine) preparePayload(spec *dialect.Spec, raw []byte) (*payload, error) {
	if len(raw) > MaxPayload {
		return nil, fmt.Errorf("payload is %d bytes, more than the limit of %d", len(raw), MaxPayload)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	p := &payload{raw: raw}
	if err := json.Unmarshal(raw, &p.fields); err != nil {
		return nil, dialect.JSONError("payload", raw, err)
	}
	if p.fields == nil {
		return nil, fmt.Errorf("payload must be an object, not null")
	}
	if defaults := agentFor(spec.Dialect).PayloadDefaults; defaults != nil {
		for _, d := range defaults(spec.Name, e.workspaces()) {
			if _, ok := p.fields[d.Key]; !ok {
				p.set(d.Key, json.RawMessage(d.JSON))
			}
		}
	}
	// Otherwise the payload is passed on as it came; only the event name is made sure of.
	if p.str("hook_event_name") != spec.Name {
		p.set("hook_event_name", json.RawMessage(mustJSON(spec.Name)))
	}
	return p, nil
}

func (e *Engine) workspaces() []string {
	if ws := e.opts.Env.Workspaces; len(ws) > 0 {
		return ws
	}
	return []string{}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// runsConfined reports whether rewritten tool input runs its command confined, in the form the
// shell guard writes (agenthooks confine --project P -- bash -c CMD).
func runsConfined(input json.RawMessage) bool {
	var in struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(input, &in) != nil {
		return false
	}
	_, _, _, ok := confine.ParseShellCommand(in.Command)
	return ok
}
