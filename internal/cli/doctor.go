package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
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
the agent's shell will run it (an absolute path must be an executable agenthooks; a bare name is
resolved with this shell's PATH and flagged, as an agent started from a desktop may have
another); whether the agent's own settings switch the hooks off (Claude Code's disableAllHooks
and managed allowManagedHooksOnly, Gemini CLI's hooksConfig.enabled and hooks.disabled); the
same agenthooks entry registered twice for one event and matcher; and a canary: the agent's
own shell-tool payload for "rm -rf /" sent through every hook its config runs for that tool
(each command line through sh -c, as the agent runs it) must come back blocked in the form
the agent honours, and one for "git status" must not. Each hook's timeout is compared with its
measured start-up (a warning under 1 s or under 10 times the start-up).

Exit 1 when anything would let a command through unguarded (fail open): a program that does
not resolve, hooks switched off, a canary not blocked. Warnings (not registered for an agent
that is installed, a bare name, duplicates, a short timeout, Codex's hook review) exit 0.

Example:
  agenthooks doctor
  agenthooks doctor --json`,
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
		if f.Source.Family == a && f.Source.Layer != config.Default {
			files = append(files, f)
			ag.Files = append(ag.Files, f.Source.File)
		}
	}
	registered, inProject := false, false
	cache := map[string]reach{}
	seen := map[string]string{} // event, matcher and arguments of an agenthooks entry: where first
	for _, f := range files {
		if !f.Usable {
			add("fail", f.Source.File, "the file has errors, the agent may ignore it (agenthooks lint "+f.Source.File+")")
		}
		if why := cfg.Disabled(f); why != "" && hasAgenthooks(f) {
			add("fail", f.Source.File, "hooks switched off by "+why+": the agent runs every command unguarded")
		}
		if check := desc.Doctor.HooksFile; check != nil {
			for _, why := range check(f.Source.File) {
				add("fail", f.Source.File, why)
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
			r := resolveAgenthooks(ctx, prog, f.Source.Dir())
			cache[ck] = r
			switch {
			case r.problem != "":
				add("fail", f.Source.File, r.problem)
			case !strings.Contains(prog, "/"):
				add("warn", f.Source.File, "hooks run agenthooks by bare name, resolved with this shell's PATH to "+r.path+"; an agent started from a desktop may have another PATH (agenthooks install writes an absolute path)")
			default:
				add("ok", f.Source.File, "agenthooks resolves to "+r.path+" ("+r.version+")")
			}
		}
	}
	_, dirErr := os.Stat(filepath.Join(e.home(), agents.Get(a).Dir))
	switch {
	case !registered && len(files) == 0 && dirErr != nil:
		ag.State = "not installed"
		return ag
	case !registered:
		ag.State = "not registered"
		add("warn", "", "agenthooks is not registered: the agent runs commands unguarded (agenthooks install --agent "+string(a)+")")
		return ag
	}
	if check := desc.Doctor.Settings; check != nil {
		userDir := filepath.Join(e.home(), desc.Dir)
		if v := e.getenv(desc.HomeEnv); desc.HomeEnv != "" && v != "" {
			userDir = v
		}
		var dirs []string
		for _, f := range files {
			dirs = append(dirs, f.Source.Dir())
		}
		for _, fd := range check(userDir, dirs) {
			add("fail", fd.File, fd.Message)
		}
	}
	if desc.Doctor.Warning != "" {
		add("warn", "", desc.Doctor.Warning)
	}
	if desc.Doctor.ProjectWarning != "" && inProject {
		add("warn", "", desc.Doctor.ProjectWarning)
	}
	ag.Canary = canary(ctx, cfg, files, a, cwd, add)
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

func hasAgenthooks(f *config.File) bool {
	for _, h := range f.Hooks {
		if _, _, ok := agenthooksCall(hookCommand(h)); ok {
			return true
		}
	}
	return false
}

// canary sends the agent's shell payload for a dangerous and a benign command through every
// command hook the agent's config runs for its shell tool, and checks the answer as the agent
// reads it.
func canary(ctx context.Context, cfg *config.Config, files []*config.File, a dialect.Name, cwd string, add func(level, file, msg string)) *doctorCanary {
	st := agents.Get(a).Shell
	c := &doctorCanary{Event: st.Event}
	d := agents.Get(a).Dialect(dialect.AskAsDeny)
	spec, ok := d.Lookup(st.Event)
	if !ok {
		add("fail", "", "doctor does not know the event "+st.Event)
		return c
	}
	var hooks []*config.Hook
	for _, f := range files {
		if cfg.Disabled(f) != "" || !f.Usable {
			continue
		}
		for _, h := range f.Hooks {
			if h.Event == st.Event && h.Type == "command" && (st.Tool == "" || h.Matches(st.Tool, false)) {
				hooks = append(hooks, h)
			}
		}
	}
	c.Hooks = len(hooks)
	if len(hooks) == 0 {
		add("fail", "", "no hook runs on "+st.Event+" for the shell tool: shell commands are not guarded (agenthooks install --agent "+string(a)+")")
		return c
	}
	ask := func(command string) (blocked bool, slowest time.Duration) {
		payload, _ := json.Marshal(st.Payload(command, cwd))
		for _, h := range hooks {
			code, stdout, stderr, took, err := runCanaryHook(ctx, hookCommand(h), payload)
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

// runCanaryHook runs command as an agent does, through sh -c with the payload on stdin, in its
// own process group, killed after 30 s; output is capped.
func runCanaryHook(ctx context.Context, command string, payload []byte) (int, []byte, []byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	canaryGroup(cmd)
	cmd.WaitDelay = time.Second
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr cappedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && ctx.Err() == nil {
		return ee.ExitCode(), stdout.b, stderr.b, took, nil
	}
	return 0, stdout.b, stderr.b, took, err
}

// cappedBuffer keeps the first 1 MiB written to it.
type cappedBuffer struct{ b []byte }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := 1<<20 - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
