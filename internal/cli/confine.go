package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/confine"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
)

type confineParams struct {
	policyFlags
	check   bool
	json    bool
	project string
	abi     int
}

func newConfineCmd(e *env) *cobra.Command {
	var p confineParams
	c := &cobra.Command{
		Use:   "confine [--check] [--project DIR] [--] COMMAND [ARG...]",
		Short: "Run a command in a kernel sandbox: write only in the project, scratch space and caches",
		Long: `Run COMMAND confined with Landlock (Linux): it reads and executes everywhere, but writes only in
the project folder, a private scratch folder (its TMPDIR, removed afterwards), the toolchains'
caches (go, npm, pip, cargo, ...; more with the policy's confine.writable) and the device nodes
/dev/null, /dev/tty, /dev/pts, ... Credentials, agent and agenthooks configuration, shell startup
files and history are never writable: a writable folder that holds one of them, or the home
folder, is refused. The network is as the policy's confine.network says (all by default).

The exit status is the command's (128+N when signal N ended it); 126 when it could not be
confined or run, 127 when it was not found. --check prints the kernel's Landlock ABI, what is
writable and which rights this kernel enforces, and runs nothing.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if p.check && len(args) == 0 {
				return nil
			}
			if len(args) == 0 {
				return fmt.Errorf("confine needs a command to run: agenthooks confine -- COMMAND [ARG...] (or --check)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runConfine(e, p, args) },
	}
	c.Flags().SetInterspersed(false) // everything after the command is the command's
	p.register(c)
	c.Flags().BoolVar(&p.check, "check", false, "print the Landlock ABI, the writable folders and each right as enforced or not; run nothing")
	c.Flags().BoolVar(&p.json, "json", false, "with --check: print it as JSON")
	c.Flags().StringVar(&p.project, "project", "", "the project `DIR`, writable (default: the working directory)")
	c.Flags().IntVar(&p.abi, "abi", 0, "use at most this Landlock ABI (to try what an older kernel enforces)")
	_ = c.Flags().MarkHidden("abi")
	return c
}

// confineError ends agenthooks confine with 126: the command did not run.
func confineError(err error) error {
	return &exitError{code: confine.ExitCannotRun, err: fmt.Errorf("confine: %w", err)}
}

func runConfine(e *env, p confineParams, args []string) error {
	cwd, err := os.Getwd()
	if err != nil {
		return confineError(err)
	}
	project := p.project
	if project == "" {
		project = cwd
	}
	if project, err = filepath.Abs(project); err != nil {
		return confineError(err)
	}
	pol, note, err := p.load(e, project)
	if err != nil {
		return confineError(err)
	}
	if note != "" {
		fmt.Fprintln(e.stderr, "agenthooks:", note)
	}
	settings := pol.ConfineSettings()
	plan, err := confinePlan(e, settings, project, cwd, p.policyFile(e))
	if err != nil {
		return confineError(err)
	}
	abi := confine.ABI()
	if p.abi > 0 && p.abi < abi {
		abi = p.abi
	}
	if p.check {
		return printConfineCheck(e, p, plan, abi)
	}
	if !confine.Supported || abi < 1 {
		if settings.Unconfined != "warn" {
			return confineError(fmt.Errorf("%s cannot confine commands (Landlock ABI %d), so %s does not run (the policy's confine.unconfined: warn runs it unconfined instead)", whereNoLandlock(), abi, args[0]))
		}
		fmt.Fprintf(e.stderr, "agenthooks: warning: %s cannot confine commands; %s runs UNCONFINED (confine.unconfined: warn)\n", whereNoLandlock(), args[0])
		return runUnconfined(e, args, cwd)
	}
	code, err := plan.Run(abi, confine.Command{Args: args, Env: os.Environ(), Dir: cwd, Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr})
	if err != nil {
		return &exitError{code: code, err: fmt.Errorf("confine: %w", err)}
	}
	if code != 0 {
		return silentExit{code: code}
	}
	return nil
}

// confinePlan is the sandbox of a command in project under the policy's confine settings.
func confinePlan(e *env, settings policy.Confine, project, cwd, policyFile string) (*confine.Plan, error) {
	opts := confine.Options{Project: project, Home: e.home(), TempRoot: e.getenv("TMPDIR"), Getenv: e.getenv,
		Writable: settings.Writable, Network: confine.Network(settings.Network), Ports: settings.Ports}
	for _, t := range protectedPaths(e, e.home(), project, cwd, policyFile, auditPath(e, "")) {
		opts.Protected = append(opts.Protected, confine.Target{Path: t.Path, What: t.What})
	}
	return confine.NewPlan(opts)
}

// runUnconfined runs args as they are: where the policy accepts that nothing can be confined.
func runUnconfined(e *env, args []string, cwd string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = cwd, e.stdin, e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return silentExit{code: max(ee.ExitCode(), 1)}
		}
		return &exitError{code: confine.ExitNotFound, err: fmt.Errorf("confine: %w", err)}
	}
	return nil
}

func whereNoLandlock() string {
	if confine.Supported {
		return "this Linux kernel has no Landlock and"
	}
	return "this OS has no Landlock and agenthooks"
}

// unconfinedNote says plainly what happens where commands cannot be confined: on macOS and
// Windows (no Landlock; macOS's sandbox profiles are not used), and on a Linux kernel without
// Landlock.
func unconfinedNote(goos string, supported bool) string {
	where := "this Linux kernel has no Landlock (it is older than 5.13, or Landlock is off at boot)"
	if !supported {
		where = "agenthooks confines commands with Landlock, which only Linux has; on " + goos + " it does not confine at all (macOS's sandbox profiles are not used)"
	}
	return where + ": commands run unconfined, and the shell guard keeps judging them as it does without confinement " +
		"(it asks, or denies where the agent cannot ask, instead of running them confined); agenthooks confine -- COMMAND refuses to run COMMAND " +
		"unless the policy's confine.unconfined is warn"
}

func printConfineCheck(e *env, p confineParams, plan *confine.Plan, abi int) error {
	rights := plan.Rights(abi)
	confines := confine.Supported && abi >= 1
	if p.json {
		out := map[string]any{"abi": abi, "plan": plan, "rights": rights, "confines": confines}
		if !confines {
			out["unconfined"] = unconfinedNote(runtime.GOOS, confine.Supported)
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else if !confines {
		fmt.Fprintf(e.stdout, "landlock ABI: %d\nconfines: no\n%s\n", abi, unconfinedNote(runtime.GOOS, confine.Supported))
	} else {
		fmt.Fprintf(e.stdout, "landlock ABI: %d\n", abi)
		fmt.Fprintf(e.stdout, "network: %s", plan.Network)
		if len(plan.Ports) > 0 {
			fmt.Fprintf(e.stdout, " %v", plan.Ports)
		}
		fmt.Fprintf(e.stdout, "\nscratch: a private folder under %s (TMPDIR), removed afterwards\n\nwritable:\n", plan.TempRoot)
		for _, g := range plan.Writable {
			fmt.Fprintf(e.stdout, "  %s (%s)\n", g.Path, g.Why)
		}
		if len(plan.Created) > 0 {
			fmt.Fprintln(e.stdout, "made and writable when a command runs where its toolchain is installed (caches that do not exist yet):")
			for _, g := range plan.Created {
				fmt.Fprintf(e.stdout, "  %s (%s; %s)\n", g.Path, g.Why, strings.Join(g.Tools, ", "))
			}
		}
		if len(plan.Skipped) > 0 {
			var names []string
			for _, g := range plan.Skipped {
				names = append(names, g.Path)
			}
			fmt.Fprintf(e.stdout, "skipped (missing): %s\n", strings.Join(names, ", "))
		}
		if len(plan.Exposed) > 0 {
			fmt.Fprintln(e.stdout, "\nprotected but writable inside the project (Landlock cannot keep them read-only; put back when the command ends):")
			for _, t := range plan.Exposed {
				fmt.Fprintf(e.stdout, "  %s (%s)\n", t.Path, t.What)
			}
		}
		fmt.Fprintln(e.stdout, "\nrights:")
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		for _, r := range rights {
			state := "enforced"
			if !r.Enforced {
				state = "NOT enforced"
			}
			since := "never"
			if r.Since > 0 {
				since = fmt.Sprintf("ABI %d", r.Since)
			}
			line := fmt.Sprintf("  %s\t%s\t(%s)", r.Name, state, since)
			if r.Note != "" {
				line += "\t" + r.Note
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	if !confines {
		return confineError(fmt.Errorf("%s cannot confine commands (Landlock ABI %d)", whereNoLandlock(), abi))
	}
	return nil
}

// rewriteTarget names the agent whose shell tool would run a rewritten command, and reports
// whether the guard's answer can carry the rewrite to it. Registered in the agent itself (guard
// bash), the agent is the payload's and its answer carries one where the agent honours it
// (Answer.Rewrite, in the form proven inside each: e2e/confine_test.go). Inside agenthooks run,
// the agent is the runner's, and the guard's answer, in the hook's own format, carries one only
// on an event whose answer has updated input (PreToolUse, BeforeTool, Cursor's preToolUse, not
// beforeShellExecution): the runner then answers its agent with it.
func rewriteTarget(e *env, call shellCall) (string, bool) {
	agent := e.getenv(engine.AgentEnv)
	if !inRun(e) {
		f, ok := agents.Lookup(call.format)
		return call.format, ok && f.RewriteFor(false) != nil
	}
	f, ok := agents.Lookup(call.format)
	if !ok || f.RewriteFor(true) == nil {
		return agent, false
	}
	a, ok := agents.Lookup(agent)
	// The hook's format's event for any tool (PreToolUse, BeforeTool, preToolUse).
	return agent, ok && a.RewriteFor(false) != nil && call.event == translate.EventFor(dialect.Name(call.format), dialect.PreTool)
}

// inRun reports whether the guard runs as a hook of agenthooks run, which reads its answer.
func inRun(e *env) bool {
	return e.getenv(engine.AgentEnv) != "" && e.getenv("AGENTHOOKS_RUN_DEPTH") != ""
}

// confineRewrite returns the tool input that runs call's command confined, when the policy's
// confine mode covers decision (ask, or anything but deny with mode all), the agent can
// rewrite its input, this kernel can confine, the sandbox of the project is allowed, and none
// of the agent's own deny or ask rules names the command. Otherwise it returns nil, and why
// when the reason is one a person should hear (the agent's own rule).
func confineRewrite(e *env, pol *policy.Policy, call shellCall, d guard.Decision, policyFile string) (map[string]any, string) {
	settings := pol.ConfineSettings()
	switch {
	case d == guard.Deny || settings.Mode == policy.ConfineOff:
		return nil, ""
	case d == guard.Allow && settings.Mode != policy.ConfineAll:
		return nil, ""
	case !confine.Supported || confine.ABI() < 1:
		return nil, ""
	}
	agent, carries := rewriteTarget(e, call)
	if !carries {
		return nil, ""
	}
	self := e.agenthooks() // agenthooks, which runs confine, also where agenthooks-guard judged
	if self == "" || call.project == "" || !filepath.IsAbs(call.project) {
		return nil, ""
	}
	if rule := agentRuleFor(e, agent, call); rule != "" {
		return nil, "not confined: " + rule
	}
	if _, err := confinePlan(e, settings, call.project, call.cwd, policyFile); err != nil {
		return nil, "" // the project cannot be confined (it holds the home folder, ...): ask
	}
	var pl struct {
		ToolInput map[string]any `json:"tool_input"`
	}
	data := call.payload
	// Read in Claude Code's names where the agent has its own (OpenCode's args): the command is
	// "command" in each agent's shell tool.
	if json.Unmarshal(data, &pl) != nil {
		return nil, ""
	}
	if pl.ToolInput == nil && guardView(call.format, &data, &pl) != nil {
		return nil, ""
	}
	if pl.ToolInput == nil {
		return nil, ""
	}
	updated := make(map[string]any, len(pl.ToolInput))
	for k, v := range pl.ToolInput {
		updated[k] = v
	}
	updated["command"] = confine.ShellCommand(self, call.project, call.command)
	return updated, ""
}

// confinedWhy says why a command runs confined.
func confinedWhy(d guard.Decision, reason string) string {
	if d == guard.Allow {
		return "runs confined, as the policy's confine.mode all says (it may write only in the project, scratch space and caches)"
	}
	return "runs confined (it may write only in the project, scratch space and caches) instead of asking: " + reason
}

// answerConfined answers with the confined rewrite of call, in the form of call's format, and
// records it.
func (p guardBashParams) answerConfined(e *env, call shellCall, updated map[string]any, d guard.Decision, reason, policyName string, start time.Time) error {
	why := confinedWhy(d, reason)
	p.record(e, call, string(guard.Allow), why, "confined", policyName, start)
	rewrite := agents.Fallback().Answer.Rewrite
	if f, ok := agents.Lookup(call.format); ok && f.RewriteFor(inRun(e)) != nil {
		rewrite = f.RewriteFor(inRun(e)) // rewriteTarget found one
	}
	r := rewrite(updated, why)
	_, err := e.stdout.Write(r.Stdout)
	return err
}

// explainAgentHelp is guard explain's --agent help: which agents' shell tools run a confined
// rewrite, and which keep the guard's answer.
func explainAgentHelp() string {
	var rewrite, keep []string
	for _, a := range agents.All() {
		if a.RewriteFor(false) != nil {
			rewrite = append(rewrite, string(a.Name))
		} else {
			keep = append(keep, string(a.Name))
		}
	}
	verb := " keep"
	if len(keep) == 1 {
		verb = " keeps"
	}
	return "the agent whose shell tool runs COMMAND: " + wordList(rewrite, "or") + " rewrite it to run confined (their own permission rules apply first); " +
		wordList(keep, "and") + verb + " the answer"
}

// wordList joins words for running text: "a, b or c".
func wordList(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// confinedView is what guard explain says of running a command confined: the command line the
// agent would run instead and why, or (Command empty) why it is not confined though the guard
// would ask.
type confinedView struct {
	Command string `json:"command,omitempty"`
	Why     string `json:"why"`
}

// explainConfined is the rewrite the shell guard would answer agent p.agent with for command,
// or nil when there is none to tell of.
func explainConfined(e *env, p guardExplainParams, pol *policy.Policy, command string, ctx guard.Context, v guard.Verdict) *confinedView {
	payload, _ := json.Marshal(map[string]any{"tool_input": map[string]any{"command": command}})
	a, ok := agents.Lookup(p.agent)
	if !ok {
		a = agents.Fallback()
	}
	call := shellCall{payload: payload, format: string(a.Name), event: a.Shell.Event, command: command, cwd: ctx.Cwd, project: ctx.Project}
	updated, note := confineRewrite(e, pol, call, v.Decision, p.policyFile(e))
	switch {
	case updated != nil:
		cmd, _ := updated["command"].(string)
		return &confinedView{Command: cmd, Why: confinedWhy(v.Decision, v.Reason)}
	case note != "":
		return &confinedView{Why: note}
	}
	return nil
}

// askAsHelp is the --ask-as flag's help: what an ask becomes, and for which agents.
func askAsHelp() string {
	var cannot []string
	for _, a := range agents.All() {
		if !a.Answer.CanAsk {
			cannot = append(cannot, string(a.Name))
		}
	}
	return "what an ask becomes for an agent that cannot ask a person (" + strings.Join(cannot, ", ") + "): deny or allow"
}
