package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/srcpos"
	"github.com/agenthooks/agenthooks/runner"
)

type doctorParams struct {
	layerFlags
	json bool
}

func newDoctorCmd(e *env) *cobra.Command {
	var p doctorParams
	c := &cobra.Command{
		Use:   "doctor [--json]",
		Short: "Check that every agent on this machine really runs the agenthooks guard, and blocks",
		Long: `For each agent (Claude Code, Cursor, Codex, Gemini CLI): whether agenthooks is registered in
its config files (user and project scope); for each agenthooks entry, the program resolved as
the agent's shell will run it, with the agent's PATH (this shell's, or the one the agent's own
settings set, such as Claude Code's "env"): an absolute path must be an executable agenthooks;
a bare name is flagged, as an agent started from a desktop may have another PATH; whether the
agent's own settings switch the hooks off (Claude Code's disableAllHooks and managed
allowManagedHooksOnly; Gemini CLI's hooksConfig.enabled and hooks.disabled, in the user's,
the project's and the system settings; Codex's [features] hooks and, in its machine-wide
requirements.toml, allow_managed_hooks_only); whether Codex will run each agenthooks hook at
all (it skips, silently, a hook nobody has reviewed in its /hooks, one changed since, and one
switched off there: doctor reads the review Codex records in config.toml and checks its hash);
the same agenthooks entry registered twice for one event and matcher; and a canary: the agent's
own shell-tool payload for "rm -rf /" sent through every hook its config runs for that tool
(each command line through the agent's shell: sh -c, or on Windows cmd.exe, and Git Bash for
Claude Code; with the agent's environment) must come back blocked in the form the agent
honours, and one for "git status" must not. Each hook's timeout is compared with its measured
start-up (a warning under 1 s or under 10 times the start-up).

Exit 1 when anything would let a command through unguarded (fail open): a program that does
not resolve, hooks switched off or skipped, a canary not blocked. Warnings (not registered for
an agent that is installed, a bare name, duplicates, a short timeout) exit 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runDoctor(cmd.Context(), e, p) },
	}
	p.layerFlags.register(c)
	c.Flags().BoolVar(&p.json, "json", false, "print one JSON object with the findings of each agent")
	return c
}

// doctorFinding is one thing doctor found about an agent: level is "ok", "warn" or "fail"
// (fail: the agent would run the command unguarded).
type doctorFinding struct {
	Level   string `json:"level"`
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// doctorCanary is the canary's result: the dangerous payload blocked, the benign one not.
type doctorCanary struct {
	Event         string  `json:"event"`
	Hooks         int     `json:"hooks"`
	Blocked       bool    `json:"blocked"`
	BenignAllowed bool    `json:"benign_allowed"`
	StartupMS     float64 `json:"startup_ms"`
}

type doctorAgent struct {
	Agent    dialect.Name    `json:"agent"`
	Title    string          `json:"title"`
	State    string          `json:"state"` // ok, warn, fail, not registered, not installed
	Files    []string        `json:"files"`
	Canary   *doctorCanary   `json:"canary,omitempty"`
	Findings []doctorFinding `json:"findings"`
}

type doctorReport struct {
	OK     bool          `json:"ok"`
	Agents []doctorAgent `json:"agents"`
}

func runDoctor(ctx context.Context, e *env, p doctorParams) error {
	opts, err := p.options(e, p.workspaces(e, nil, ""))
	if err != nil {
		return err
	}
	eng, err := engine.Load(opts)
	if err != nil {
		return err
	}
	cwd, _ := os.Getwd()
	rep := doctorReport{OK: true}
	for _, a := range agents.Names() {
		ag := diagnoseAgent(ctx, e, eng.Config(), a, cwd)
		if ag.State == "fail" {
			rep.OK = false
		}
		rep.Agents = append(rep.Agents, ag)
	}
	doctorOverlaps(eng.Config(), rep.Agents)
	if p.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		for _, ag := range rep.Agents {
			fmt.Fprintf(e.stdout, "%s: %s\n", ag.Title, strings.ToUpper(ag.State))
			for _, f := range ag.Findings {
				where := ""
				if f.File != "" {
					where = f.File + ": "
				}
				fmt.Fprintf(e.stdout, "  %-4s %s%s\n", f.Level, where, f.Message)
			}
		}
	}
	if !rep.OK {
		return silentExit{code: 1}
	}
	return nil
}

func diagnoseAgent(ctx context.Context, e *env, cfg *config.Config, a dialect.Name, cwd string) doctorAgent {
	ag := doctorAgent{Agent: a, Title: agentTitle(a), Findings: []doctorFinding{}, Files: []string{}}
	add := func(level, file, msg string) { ag.Findings = append(ag.Findings, doctorFinding{level, file, msg}) }
	desc := agents.Get(a)
	var files []*config.File
	for _, f := range cfg.Files {
		// The agent's files, and those of an agent whose files it always runs as its own (VS Code
		// runs Copilot CLI's hooks folders), which config lists once, as the other's.
		if (f.Source.Family == a || desc.ReadsAlways(f.Source.Family)) && f.Source.Layer != config.Default {
			files = append(files, f)
			ag.Files = append(ag.Files, f.Source.File)
		}
	}
	denv := dialect.DoctorEnv{Home: e.home(), Getenv: e.getenv}
	environ := agentEnv(desc, files)
	skipped := map[dialect.Skipped]bool{} // the hooks the agent skips (Codex's unreviewed ones)
	path := getEnv(environ, "PATH")
	registered, inProject := false, false
	cache := map[string]reach{}
	seen := map[string]string{} // event, matcher and arguments of an agenthooks entry: where first
	for _, f := range files {
		if !f.Usable {
			add("fail", f.Source.File, "the file has errors, the agent may ignore it (agenthooks lint "+f.Source.File+")")
		}
		for _, pr := range f.Problems {
			// an event or hook type of a newer version of the agent: agenthooks skips those hooks
			if pr.Severity == srcpos.Warning && (pr.Code == config.CodeUnknownEvent || pr.Code == config.CodeUnknownType) {
				add("warn", f.Source.File, fmt.Sprintf("line %d: agenthooks skips hooks it does not know, which the agent may run: %s (an older agenthooks? upgrade it)", pr.Line, pr.Message))
			}
		}
		if why := cfg.Disabled(f); why != "" && hasAgenthooks(f) {
			add("fail", f.Source.File, "hooks switched off by "+why+": the agent runs every command unguarded")
		}
		if check := desc.Doctor.HooksFile; check != nil {
			for _, why := range check(f.Source.File) {
				add("fail", f.Source.File, why)
			}
		}
		if review := desc.Doctor.Review; review != nil && hasAgenthooks(f) {
			findings, skips := review(denv, f.Source.File, isAgenthooks)
			for _, fd := range findings {
				add(fd.Level, fd.File, fd.Message)
			}
			for _, s := range skips {
				skipped[s] = true
			}
		}
		for _, h := range f.Hooks {
			prog, _, ok := agenthooksCall(hookCommand(h))
			if !ok {
				continue
			}
			registered = true
			if f.Source.Layer == config.Project || f.Source.Layer == config.Local {
				inProject = true
			}
			args, _ := ourArgs(hookCommand(h))
			if _, raw, _ := agenthooksCall(hookCommand(h)); len(raw) > 0 && raw[0] == "run" && !slices.Contains(raw, "--fail-closed") {
				if fa := agents.Get(f.Source.Family); fa != nil && fa.Gates(h.Event) {
					// an older install's entry: a hooks file agenthooks cannot read then turns its
					// deny hooks off, the call runs and nothing says so
					add("warn", f.Source.File, fmt.Sprintf("agenthooks %s on %s is not fail-closed: a hooks file agenthooks cannot read switches its deny hooks off and the call runs unblocked (agenthooks install --agent %s writes it with --fail-closed)",
						strings.Join(raw, " "), h.Event, f.Source.Family))
				}
			}
			if desc.Install.GuardFormat && strings.HasPrefix(args, "guard ") && !namesFormat(args, string(a)) {
				// the agent's payload reads as another's (Kiro's as Claude Code's): a guard that
				// does not name the agent's format may answer a deny the agent does not honour
				add("warn", f.Source.File, fmt.Sprintf("agenthooks %s on %s does not name --format %s: its deny may come in another agent's form, which %s does not honour (agenthooks install --agent %s writes it)",
					args, h.Event, a, desc.Title, a))
			}
			key := h.Event + "\x00" + h.Matcher + "\x00" + args
			if first, dup := seen[key]; dup {
				add("warn", f.Source.File, fmt.Sprintf("duplicate: agenthooks %s on %s (matcher %q) is also registered at %s", args, h.Event, h.Matcher, first))
			} else {
				seen[key] = h.Pos.String()
			}
			ck := prog + "\x00" + f.Source.Dir()
			if _, done := cache[ck]; done {
				continue
			}
			r := resolveAgenthooksIn(ctx, prog, f.Source.Dir(), path)
			cache[ck] = r
			switch {
			case r.problem != "":
				add("fail", f.Source.File, r.problem+" (the agent's PATH: "+clip(path, 200)+")")
			case !isPath(prog):
				add("warn", f.Source.File, "hooks run agenthooks by bare name, resolved with the agent's PATH to "+r.path+"; an agent started from a desktop may have another PATH (agenthooks install writes an absolute path)")
			default:
				add("ok", f.Source.File, "agenthooks resolves to "+r.path+" ("+r.version+")")
			}
		}
	}
	_, dirErr := os.Stat(filepath.Join(e.home(), desc.Dir))
	switch {
	case !registered && len(files) == 0 && dirErr != nil:
		ag.State = "not installed"
		return ag
	case !registered:
		ag.State = "not registered"
		add("warn", "", "agenthooks is not registered: the agent runs commands unguarded (agenthooks install --agent "+string(a)+")")
		return ag
	}
	if switches := desc.Doctor.Switches; switches != nil {
		for _, fd := range switches(denv, ag.Files) {
			add(fd.Level, fd.File, fd.Message)
		}
	}
	if desc.Doctor.ProjectWarning != "" && inProject {
		add("warn", "", desc.Doctor.ProjectWarning)
	}
	skip := func(h *config.Hook) bool {
		return skipped[dialect.Skipped{File: h.Source.File, Event: h.Event, Command: hookCommand(h)}]
	}
	ag.Canary = canary(ctx, cfg, files, a, cwd, environ, skip, add)
	ag.State = "ok"
	for _, f := range ag.Findings {
		if f.Level == "fail" {
			ag.State = "fail"
			break
		}
		if f.Level == "warn" {
			ag.State = "warn"
		}
	}
	return ag
}

// doctorOverlaps warns, for each agent that runs another's hooks files as well as its own
// (Agent.Reads) where agenthooks is registered for both, that one call reaches agenthooks through
// both files: the other file's entries that name their agent (--agent) step aside for the
// agent's own, and those that do not (written by an older install) run a second time.
func doctorOverlaps(cfg *config.Config, list []doctorAgent) {
	registered := map[dialect.Name]bool{}
	for _, ag := range list {
		registered[ag.Agent] = ag.State != "not installed" && ag.State != "not registered"
	}
	for i := range list {
		ag := &list[i]
		desc := agents.Get(ag.Agent)
		if desc == nil || !registered[ag.Agent] {
			continue
		}
		for _, r := range desc.Reads {
			if o := agents.Get(r.Agent); !registered[r.Agent] || o == nil || desc.SharesInstallFile(o) {
				continue // one file for both (VS Code's and Copilot CLI's): no call runs it twice
			}
			when := "always"
			if r.Setting != "" {
				when = "when its setting " + r.Setting + " is on"
			}
			unnamed := 0
			for _, f := range cfg.Files {
				if f.Source.Family != r.Agent || f.Source.Layer == config.Default {
					continue
				}
				for _, h := range f.Hooks {
					if _, args, ok := agenthooksCall(hookCommand(h)); ok && !slices.Contains(args, "--agent") {
						unnamed++
					}
				}
			}
			msg := fmt.Sprintf("%s also runs %s's hooks files %s: one call then reaches agenthooks through both; the entries in %s's files name their agent (--agent %s) and step aside for %s's own entries, but %s's other hooks run twice (directly and through %s's runner)",
				desc.Title, agentTitle(r.Agent), when, agentTitle(r.Agent), r.Agent, desc.Title, agentTitle(r.Agent), desc.Title)
			if desc.OwnFilesSwitch != "" {
				msg = fmt.Sprintf("%s also runs %s's hooks files %s: one call then runs agenthooks' entries of both files, the guard twice: those in %s's files do not step aside, as %s's setting %s can switch its own files off where agenthooks cannot see it; %s's other hooks run twice too (directly and through %s's runner)",
					desc.Title, agentTitle(r.Agent), when, agentTitle(r.Agent), desc.Short, desc.OwnFilesSwitch, agentTitle(r.Agent), desc.Title)
			}
			if unnamed > 0 {
				msg = fmt.Sprintf("%s also runs %s's hooks files %s: %d agenthooks hook(s) there name no agent (an older install) and run a second time for one call; run agenthooks install --agent %s again",
					desc.Title, agentTitle(r.Agent), when, unnamed, r.Agent)
			}
			ag.Findings = append(ag.Findings, doctorFinding{Level: "warn", Message: msg})
			if ag.State == "ok" {
				ag.State = "warn"
			}
		}
	}
}

func hasAgenthooks(f *config.File) bool {
	for _, h := range f.Hooks {
		if _, _, ok := agenthooksCall(hookCommand(h)); ok {
			return true
		}
	}
	return false
}

// isAgenthooks reports whether a hook's command runs agenthooks.
func isAgenthooks(command string) bool {
	_, _, ok := agenthooksCall(command)
	return ok
}

// onShellEvent reports whether agent a runs hook h for its shell tool: h is on a's shell event
// and its matcher selects the shell tool; or h is in the file of another agent whose files a
// runs as its own (VS Code runs Copilot CLI's), on that agent's namesake of the event for its
// name of the tool, both told through the format they speak (Claude Code's).
func onShellEvent(a dialect.Name, h *config.Hook) bool {
	st := agents.Get(a).Shell
	if h.Source == nil || h.Source.Family == a || h.Source.Family == "" {
		return h.Event == st.Event && (st.Tool == "" || h.Matches(st.Tool, false))
	}
	self, other := agents.Get(a), agents.Get(h.Source.Family)
	if other == nil || self.SpokenEvent == nil || other.SpokenEvent == nil || self.SpokenEvent(st.Event) == "" ||
		other.SpokenEvent(h.Event) != self.SpokenEvent(st.Event) {
		return false
	}
	tool := st.Tool
	if tool != "" && self.ToSpokenTool != nil && other.FromSpokenTool != nil {
		tool = other.FromSpokenTool(self.ToSpokenTool(tool))
	}
	return tool == "" || h.Matches(tool, false)
}

// canary sends the agent's shell payload for a dangerous and a benign command through every
// command hook the agent's config runs for its shell tool, and checks the answer as the agent
// reads it.
//
// Each hook runs as the agent runs it: with the agent's environment (environ: its PATH and the
// variables its settings set) and the agent's shell (canaryShell: sh -c, or on Windows the
// agent's). Hooks the agent skips (skip) are left out.
func canary(ctx context.Context, cfg *config.Config, files []*config.File, a dialect.Name, cwd string, environ []string, skip func(*config.Hook) bool, add func(level, file, msg string)) *doctorCanary {
	st := agents.Get(a).Shell
	c := &doctorCanary{Event: st.Event}
	d := agents.Get(a).Dialect(dialect.AskAsDeny)
	spec, ok := d.Lookup(st.Event)
	if !ok {
		add("fail", "", "doctor does not know the event "+st.Event)
		return c
	}
	var hooks []*config.Hook
	skipped := 0
	for _, f := range files {
		if cfg.Disabled(f) != "" || !f.Usable {
			continue
		}
		for _, h := range f.Hooks {
			// A hook the agent does not run (Antigravity's switched-off group, no command for
			// this platform) is not part of its answer.
			if onShellEvent(a, h) && h.Type == "command" && h.Unsupported == "" {
				if skip(h) {
					skipped++
					continue
				}
				hooks = append(hooks, h)
			}
		}
	}
	c.Hooks = len(hooks)
	if len(hooks) == 0 && skipped > 0 {
		add("fail", "", fmt.Sprintf("the agent skips all %d hook(s) on %s for the shell tool (see above): shell commands are not guarded", skipped, st.Event))
		return c
	}
	if len(hooks) == 0 {
		add("fail", "", "no hook runs on "+st.Event+" for the shell tool: shell commands are not guarded (agenthooks install --agent "+string(a)+")")
		return c
	}
	ask := func(command string) (blocked bool, slowest time.Duration) {
		payload, _ := json.Marshal(st.Payload(command, cwd))
		for _, h := range hooks {
			code, stdout, stderr, took, err := runCanaryHook(ctx, hookCommand(h), canaryShell(a), environ, payload)
			if took > slowest {
				slowest = took
			}
			if err != nil {
				add("fail", h.Source.File, fmt.Sprintf("hook %s (%s) did not finish: %v", h.Pos, hookCommand(h), err))
				continue
			}
			out := d.Interpret(spec, code, stdout, stderr, 0)
			if out.Answer.Permission == decide.Deny || out.Answer.Halt {
				blocked = true
			}
			if command == "rm -rf /" {
				timeout, def := h.Timeout, false
				if timeout == 0 {
					timeout, def = agents.Get(a).DefaultTimeout, true
				}
				if !def && (timeout < time.Second || timeout < 10*took) {
					add("warn", h.Source.File, fmt.Sprintf("hook %s: timeout %s is short for a start-up measured at %s (want at least 1s and 10 times the start-up)", h.Pos, timeout, took.Round(time.Millisecond)))
				}
			}
		}
		return blocked, slowest
	}
	blocked, took := ask("rm -rf /")
	c.Blocked = blocked
	c.StartupMS = float64(took.Microseconds()) / 1000
	if blocked {
		add("ok", "", fmt.Sprintf("canary blocked: %q through %d hook(s) on %s, slowest %s", "rm -rf /", len(hooks), st.Event, took.Round(time.Millisecond)))
	} else {
		add("fail", "", fmt.Sprintf("canary not blocked: %q went through the %d hook(s) on %s unblocked", "rm -rf /", len(hooks), st.Event))
	}
	benignBlocked, _ := ask("git status")
	c.BenignAllowed = !benignBlocked
	if benignBlocked {
		add("warn", "", `benign canary blocked: "git status" is refused too, the guard blocks everything`)
	}
	return c
}

// runCanaryHook runs command as an agent does: through shell (nil: sh -c, or cmd.exe on
// Windows) with the payload on stdin and the agent's environment, its whole process tree
// killed after 30 s; output is capped at 1 MiB.
func runCanaryHook(ctx context.Context, command string, shell, environ []string, payload []byte) (int, []byte, []byte, time.Duration, error) {
	res := runner.Run(ctx, runner.Spec{Command: command, Shell: shell, Env: environ, Stdin: payload,
		Timeout: 30 * time.Second, KillGrace: time.Second, StdoutCap: 1 << 20, StderrCap: 1 << 20})
	switch {
	case res.Err != nil:
		return 0, nil, nil, res.Duration, res.Err
	case res.TimedOut:
		return 0, nil, nil, res.Duration, errors.New("no answer within 30s")
	case res.Canceled:
		return 0, nil, nil, res.Duration, ctx.Err()
	}
	return res.ExitCode, res.Stdout, res.Stderr, res.Duration, nil
}

// namesFormat reports whether a guard's arguments name --format format.
func namesFormat(args, format string) bool {
	f := strings.Fields(args)
	for i, w := range f {
		if w == "--format="+format || w == "--format" && i+1 < len(f) && f[i+1] == format {
			return true
		}
	}
	return false
}
