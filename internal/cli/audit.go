package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/tracectx"
	"github.com/agenthooks/agenthooks/runner"
)

// AuditBudget is how long a decision may wait for the audit trail (the spool's lock); past it
// the record is given up, reported on stderr, and the decision stands.
const AuditBudget = time.Second

// auditPath is the database to record into, or "" when auditing is off: --audit, else
// $AGENTHOOKS_AUDIT (a path, or off), else ~/.agenthooks/audit.db.
func auditPath(e *env, flag string) string {
	switch {
	case flag == "off":
		return ""
	case flag != "":
		return flag
	}
	switch v := e.getenv("AGENTHOOKS_AUDIT"); v {
	case "off", "0", "false":
		return ""
	case "":
		return audit.DefaultPath(e.home())
	default:
		return v
	}
}

// SpoolIngestAt is the spool size past which a hook process starts a detached ingest.
const SpoolIngestAt = 4 << 20

// record writes one decision to the audit trail through the spool (a hook process must not pay
// for opening SQLite). It never fails the caller: a failed write is reported on stderr and the
// decision stands; it waits at most AuditBudget. A large (or full) spool is ingested by a
// detached agenthooks-admin log ingest.
func record(e *env, path string, r *audit.Record) {
	if path == "" {
		return
	}
	if r.TraceID == "" {
		r.TraceID, r.ParentSpanID = agentTrace(e.getenv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), AuditBudget)
	size, err := audit.Append(ctx, path, r)
	cancel()
	if err != nil {
		fmt.Fprintln(e.stderr, "agenthooks: audit: the decision stands, but it was not recorded:", err)
	}
	if err == nil && size > SpoolIngestAt || errors.Is(err, audit.ErrSpoolFull) {
		// agenthooks-admin ingests; without it there is no database to ingest into, and no
		// process is started at every call.
		var admin string
		if e.admin {
			admin, err = os.Executable()
		} else {
			admin, err = e.adminPath("ingesting the audit spool")
		}
		if err == nil {
			_ = runner.Start(runner.Spec{Argv: []string{admin, "log", "ingest", "--audit", path}, Env: os.Environ()})
		}
	}
}

// agentTrace is the trace and span of the agent's TRACEPARENT, when it gives a valid one: a
// guard's decision is recorded as a span of that trace.
func agentTrace(getenv func(string) string) (traceID, spanID string) {
	v := getenv(tracectx.Env)
	if v == "" {
		return "", ""
	}
	p, err := tracectx.Parse(v)
	if err != nil {
		return "", ""
	}
	return p.TraceID.String(), p.SpanID.String()
}

// recordOf turns an engine decision into an audit record.
func recordOf(d *engine.Decision, payload []byte, workspace string) *audit.Record {
	// The session as the guards read it: in Claude Code's shape, where the agent's GuardView
	// moved its own field (OpenCode's sessionID, Cline's taskId, Antigravity's conversationId).
	view := payload
	if a, ok := agents.Lookup(string(d.Agent)); ok && a.GuardView != nil {
		if v, err := a.GuardView(payload); err == nil {
			view = v
		}
	}
	var p struct {
		SessionID      string `json:"session_id"`
		ConversationID string `json:"conversation_id"`
		SessionIDCamel string `json:"sessionId"` // Copilot CLI's camelCase payloads
	}
	_ = json.Unmarshal(view, &p)
	r := &audit.Record{Origin: "run", Agent: string(d.Agent), Event: d.Event, Workspace: workspace,
		Session: cmp.Or(p.SessionID, p.ConversationID, p.SessionIDCamel), Decision: string(d.Permission), Reason: d.Reason,
		Payload: string(payload), Warnings: d.Warnings, TraceID: d.Trace.TraceID, SpanID: d.Trace.SpanID, ParentSpanID: d.Trace.ParentSpanID}
	if r.Decision == "" {
		r.Decision = "none"
	}
	for _, run := range d.Runs {
		ar := audit.Run{Hook: run.Hook.Pos.String(), Layer: string(run.Hook.Source.Layer), Dialect: string(run.Hook.Dialect),
			Event: run.Event, Command: hookCommand(run.Hook), Verdict: string(run.Verdict),
			Error: strings.Join(append(append([]string{}, run.Errors...), run.Skipped), "; "), SpanID: run.SpanID, Time: run.Start}
		ar.Error = strings.Trim(ar.Error, "; ")
		if run.Result != nil {
			code := run.Result.ExitCode
			ar.ExitCode, ar.Duration, ar.TimedOut = &code, run.Result.Duration, run.Result.TimedOut
		}
		r.Runs = append(r.Runs, ar)
	}
	return r
}

type logParams struct {
	filter  audit.Filter
	since   string
	json    bool
	follow  bool
	path    string
	older   string
	maxRows int
}

func (p *logParams) register(c *cobra.Command, filters bool) {
	c.Flags().StringVar(&p.path, "audit", "", "the audit database (default: $AGENTHOOKS_AUDIT, else ~/.agenthooks/audit.db)")
	c.Flags().BoolVar(&p.json, "json", false, "print JSON")
	if !filters {
		return
	}
	c.Flags().StringVar(&p.since, "since", "", "only since this long ago (30m, 24h, 7d) or this time (RFC 3339)")
	c.Flags().StringVar(&p.filter.Event, "event", "", "only this event")
	c.Flags().StringVar(&p.filter.Decision, "decision", "", "only this decision: allow, ask, deny, defer, none")
	c.Flags().StringVar(&p.filter.Hook, "hook", "", "only decisions a hook took part in (its file:line:col, or part of it)")
	c.Flags().StringVar(&p.filter.Agent, "agent", "", "only this agent: cursor, claude")
	c.Flags().StringVar(&p.filter.Workspace, "workspace", "", "only this workspace")
	c.Flags().IntVar(&p.filter.Limit, "limit", 50, "at most this many decisions")
}

// open reads --since into the filter, opens the audit database and ingests what hook processes
// spooled since.
func (p *logParams) open(e *env) (*audit.Store, error) {
	since, err := audit.ParseSince(p.since, time.Now())
	if err != nil {
		return nil, err
	}
	p.filter.Since = since
	path := auditPath(e, p.path)
	if path == "" {
		return nil, fmt.Errorf("auditing is off (AGENTHOOKS_AUDIT=off)")
	}
	s, err := audit.Open(path)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, bad, err := s.Ingest(ctx); err != nil {
		fmt.Fprintln(e.stderr, "agenthooks: audit: ingesting the spool:", err)
	} else if bad > 0 {
		fmt.Fprintf(e.stderr, "agenthooks: audit: %d spooled record(s) could not be read and were skipped\n", bad)
	}
	return s, nil
}

func newLogCmd(e *env) *cobra.Command {
	var p logParams
	c := &cobra.Command{
		Use:   "log",
		Short: "List recent decisions from the audit trail",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return runLog(cmd.Context(), e, p) },
	}
	p.register(c, true)
	c.Flags().BoolVar(&p.follow, "follow", false, "keep printing decisions as they are recorded")
	var sp logParams
	stats := &cobra.Command{
		Use:   "stats",
		Short: "Per hook: runs, denies, errors, timeouts and latency p50/p95/p99",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return runLogStats(cmd.Context(), e, sp) },
	}
	sp.register(stats, true)
	var pp logParams
	prune := &cobra.Command{
		Use:   "prune",
		Short: "Delete old decisions: --older-than 30d and/or --max-rows N",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return runLogPrune(cmd.Context(), e, pp) },
	}
	pp.register(prune, false)
	prune.Flags().StringVar(&pp.older, "older-than", "", "delete decisions older than this (30d, 720h)")
	prune.Flags().IntVar(&pp.maxRows, "max-rows", 0, "keep at most this many decisions, the newest")
	var ip logParams
	ingest := &cobra.Command{
		Use:    "ingest",
		Short:  "Move the records hook processes spooled into the audit database",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := ip.open(e)
			if err != nil {
				return err
			}
			return s.Close()
		},
	}
	ip.register(ingest, false)
	var vp logParams
	verify := &cobra.Command{
		Use:   "verify",
		Short: "Check the audit chain: find an edited, removed, reordered or truncated record (exit 1)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return runLogVerify(cmd.Context(), e, vp) },
	}
	vp.register(verify, false)
	c.AddCommand(stats, prune, ingest, verify)
	return c
}

func runLog(ctx context.Context, e *env, p logParams) error {
	s, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	recs, err := s.Query(ctx, p.filter)
	if err != nil {
		return err
	}
	for i, j := 0, len(recs)-1; i < j; i, j = i+1, j-1 {
		recs[i], recs[j] = recs[j], recs[i] // oldest first, like a log
	}
	printRecords(e, recs, p.json, true)
	if !p.follow {
		return nil
	}
	last := int64(0)
	if len(recs) > 0 {
		last = recs[len(recs)-1].ID
	} else if d, _, err := s.Count(ctx); err == nil {
		last = d
	}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if _, _, err := s.Ingest(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintln(e.stderr, "agenthooks: audit: ingesting the spool:", err)
		}
		f := p.filter
		f.AfterID, f.Limit = last, 1000
		more, err := s.Query(ctx, f)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if len(more) > 0 {
			printRecords(e, more, p.json, false)
			last = more[len(more)-1].ID
		}
	}
}

func printRecords(e *env, recs []audit.Record, asJSON, header bool) {
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, r := range recs {
			_ = enc.Encode(r)
		}
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	if header {
		fmt.Fprintln(tw, "TIME\tAGENT\tEVENT\tDECISION\tHOOKS\tREASON")
	}
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", r.Time.Local().Format("2006-01-02 15:04:05"), r.Agent, r.Event, r.Decision,
			len(r.Runs), clip(r.Reason, 80))
	}
	tw.Flush()
}

func runLogStats(ctx context.Context, e *env, p logParams) error {
	s, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	stats, err := s.Stats(ctx, p.filter)
	if err != nil {
		return err
	}
	if p.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(stats)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOOK\tRUNS\tDENIES\tERRORS\tTIMEOUTS\tP50\tP95\tP99\tLAST")
	for _, h := range stats {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", h.Hook, h.Runs, h.Denies, h.Errors, h.Timeouts,
			ms(h.P50), ms(h.P95), ms(h.P99), h.LastEnd)
	}
	return tw.Flush()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

func runLogPrune(ctx context.Context, e *env, p logParams) error {
	if p.older == "" && p.maxRows <= 0 {
		return fmt.Errorf("say what to prune: --older-than and/or --max-rows")
	}
	before, err := audit.ParseSince(p.older, time.Now())
	if err != nil {
		return err
	}
	s, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	n, err := s.Prune(ctx, before, p.maxRows)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "pruned %d decision(s)\n", n)
	return nil
}

// runLogVerify recomputes the audit chain; a broken chain is printed and exits 1.
func runLogVerify(ctx context.Context, e *env, p logParams) error {
	s, err := p.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := s.Verify(ctx)
	if err != nil {
		return fmt.Errorf("audit: verify: %w", err)
	}
	if p.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else if rep.Intact {
		fmt.Fprintf(e.stdout, "chain intact, %d records\n", rep.Records)
	} else {
		fmt.Fprintf(e.stdout, "chain broken: %s at record %d (position %d): %s\n", rep.Break.Kind, rep.Break.ID, rep.Break.Position, rep.Break.Detail)
	}
	if !rep.Intact {
		return silentExit{code: 1}
	}
	return nil
}

type statusParams struct {
	layerFlags
	logParams
	strict   bool
	coverage bool
}

func newStatusCmd(e *env) *cobra.Command {
	var p statusParams
	c := &cobra.Command{
		Use:   "status",
		Short: "Are my hooks alive? Each configured hook with its last run, and those never run or failing",
		Long: `First, for each agent, whether its config reaches a working agenthooks: the program its
agenthooks entries name, resolved as the agent's shell would (a path as written, a bare name
through PATH), that it exists, is executable and answers --version as agenthooks, and what runs
there (the guard, fail-closed or not; the runner). Then, for every configured hook (every
agent's files, every layer), when it last ran and how it ended,
from the audit trail; hooks that are configured but never ran, and hooks whose last run failed
(a missing script, exit 127, a timeout) are marked, so a guard that silently stopped working is
seen; the runner entries agenthooks install adds are shown as runners. With --strict, exit 1
when any hook is failing or never ran, or an agent's config names an agenthooks that cannot run.

With --coverage, it answers whether every tool call went through agenthooks: it reads the
agents' own session transcripts (Claude Code's ~/.claude/projects, subagents included; Codex's
~/.codex/sessions; Gemini CLI's ~/.gemini/tmp/*/chats) and lists the shell and file-changing
tool calls that no agenthooks decision in the audit trail matches, per agent and session, with
examples; a transcript line that cannot be read is skipped and reported at its place.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runStatus(cmd.Context(), e, p) },
	}
	p.layerFlags.register(c)
	c.Flags().StringVar(&p.logParams.path, "audit", "", "the audit database (default: $AGENTHOOKS_AUDIT, else ~/.agenthooks/audit.db)")
	c.Flags().BoolVar(&p.strict, "strict", false, "exit 1 when any hook is failing or never ran (with --coverage: when any call was unguarded)")
	c.Flags().BoolVar(&p.coverage, "coverage", false, "read the agents' own transcripts and list the shell and file tool calls no agenthooks decision matches")
	c.Flags().BoolVar(&p.logParams.json, "json", false, "with --coverage: print JSON")
	c.Flags().StringVar(&p.logParams.since, "since", "", "with --coverage: only calls since this long ago (30m, 24h, 7d) or this time (RFC 3339)")
	return c
}

func runStatus(ctx context.Context, e *env, p statusParams) error {
	if p.coverage {
		return runCoverage(ctx, e, p)
	}
	if p.logParams.json || p.logParams.since != "" {
		return fmt.Errorf("--json and --since go with --coverage")
	}
	opts, err := p.options(e, p.workspaces(e, nil, ""))
	if err != nil {
		return err
	}
	eng, err := engine.Load(opts)
	if err != nil {
		return err
	}
	s, err := p.logParams.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	stats, err := s.Stats(ctx, audit.Filter{})
	if err != nil {
		return err
	}
	byHook := map[string]audit.HookStats{}
	for _, h := range stats {
		byHook[h.Hook] = h
	}
	cfg := eng.Config()
	bad := printAgents(ctx, e.stdout, cfg)
	fmt.Fprintln(e.stdout)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOOK\tEVENT\tCOMMAND\tLAST RUN\tRESULT\tHEALTH")
	for _, f := range cfg.Files {
		for _, h := range f.Hooks {
			st, ran := byHook[h.Pos.String()]
			if guard := guardName(hookCommand(h)); !ran && guard != "" {
				// A guard the agent runs itself records under its own name, not this entry's place.
				st, ran = guardStats(stats, guard)
			}
			health, last, result := "ok", "never", "-"
			switch {
			case h.SelfRun && runsState(cfg, f, h) == "no (agenthooks run itself)":
				// The runner install registers: the agent starts it, and it runs the other
				// configs' hooks; its own runs are those hooks' runs.
				health = "runner: runs the hooks of the other agents' configs"
			case runsState(cfg, f, h) != "yes":
				health = "not run: " + strings.TrimSuffix(strings.TrimPrefix(runsState(cfg, f, h), "no ("), ")")
			case !ran || st.Runs == 0:
				health, bad = "NEVER RAN", bad+1
			default:
				last, result = st.LastRun.Local().Format("2006-01-02 15:04:05"), st.LastEnd
				if st.LastExit != nil {
					result += fmt.Sprintf(" (exit %d)", *st.LastExit)
				}
				switch {
				case st.LastEnd == "error" || st.LastEnd == "failed-closed" || st.LastEnd == "refused":
					health, bad = "FAILING: "+clip(st.LastErr, 60), bad+1
				case st.Timeouts > 0:
					health = fmt.Sprintf("%d timeout(s)", st.Timeouts)
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.Pos, h.Event, clip(shortCommand(h), 40), last, result, health)
		}
	}
	tw.Flush()
	if len(cfg.Files) == 0 {
		fmt.Fprintln(e.stdout, "no hooks configured")
	}
	for _, h := range stats {
		if strings.HasPrefix(h.Hook, "agenthooks guard") {
			fmt.Fprintf(e.stdout, "%s: %d run(s), last %s (%s)\n", h.Hook, h.Runs, h.LastRun.Local().Format("2006-01-02 15:04:05"), h.LastEnd)
		}
	}
	bad += statusTrust(e, cfg, opts.Env.Workspaces)
	// A spool that hook processes cannot write (a FIFO or a link in its place, a lock held
	// forever, full) loses every decision: say so, as a failing hook would be.
	if err := audit.CheckSpool(auditPath(e, p.logParams.path), AuditBudget); err != nil {
		fmt.Fprintln(e.stdout, "audit spool: PROBLEM: decisions are not being recorded:", err)
		bad++
	}
	if bad > 0 && p.strict {
		return silentExit{code: 1}
	}
	return nil
}

// shortCommand is a hook's command with agenthooks' path left out (the agents' table shows it).
func shortCommand(h *config.Hook) string {
	if _, args, ok := agenthooksCall(hookCommand(h)); ok {
		return strings.Join(append([]string{"agenthooks"}, args...), " ")
	}
	return hookCommand(h)
}

// guardName returns "agenthooks guard X" when command runs a built-in guard, else "".
func guardName(command string) string {
	_, args, ok := agenthooksCall(command)
	if !ok || len(args) < 2 || args[0] != "guard" {
		return ""
	}
	return "agenthooks guard " + args[1]
}

// guardStats sums the records of a guard, under any policy ("agenthooks guard bash (strict)").
func guardStats(stats []audit.HookStats, guard string) (audit.HookStats, bool) {
	var out audit.HookStats
	found := false
	for _, h := range stats {
		if h.Hook != guard && !strings.HasPrefix(h.Hook, guard+" (") {
			continue
		}
		found = true
		out.Hook = guard
		out.Runs += h.Runs
		out.Timeouts += h.Timeouts
		if h.LastRun.After(out.LastRun) {
			out.LastRun, out.LastEnd, out.LastExit, out.LastErr = h.LastRun, h.LastEnd, h.LastExit, h.LastErr
		}
	}
	return out, found
}
