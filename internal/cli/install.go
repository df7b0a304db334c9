package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/install"
)

type installParams struct {
	agent, scope, workspace string
	remove, dryRun          bool
}

func newInstallCmd(e *env, remove bool) *cobra.Command {
	p := installParams{remove: remove}
	use, short := "install", "Register the agenthooks shell guard and runner in an agent's own config"
	if remove {
		use, short = "uninstall", "Take out of an agent's config what agenthooks install added"
	}
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `.

Claude Code: ~/.claude/settings.json (--scope user) or <workspace>/.claude/settings.json (--scope
project) gets the guard on PreToolUse for Bash, and "agenthooks run --agent claude --from cursor"
on every event that has a Cursor counterpart, so Cursor's hooks run under Claude Code. Cursor:
~/.cursor/hooks.json or <workspace>/.cursor/hooks.json gets the guard on beforeShellExecution and
"agenthooks run --agent cursor --from claude" likewise. Codex: $CODEX_HOME/hooks.json (default
~/.codex/hooks.json) or <workspace>/.codex/hooks.json gets the guard on PreToolUse for Bash and
"agenthooks run --agent codex" on its events, which runs Cursor's and Claude Code's hooks. Gemini
CLI: ~/.gemini/settings.json or <workspace>/.gemini/settings.json gets the guard on BeforeTool for
run_shell_command and "agenthooks run --agent gemini" on its events. Other keys and hooks are kept; a second
install changes nothing; the file is written atomically and the previous one kept as FILE.bak.

With no --agent, every agent found on this machine is wired in turn: for --scope user, each whose
program is on PATH or whose folder is in the home (~/.claude, $CODEX_HOME or ~/.codex, ...); for
--scope project, each whose folder is in the workspace. uninstall with no --agent takes agenthooks
out of every agent's file. --dry-run prints the unified diff of each file it would write and
writes nothing.

The guard is registered fail-closed (guard bash --fail-closed): a guard that cannot work blocks
the command. So is the runner on the events where the agent honours a deny (run --fail-closed on
PreToolUse, UserPromptSubmit, ...; not on PostToolUse, SessionStart, ...): a hooks file agenthooks
cannot read or run blocks the call, naming the file and its line and column, instead of turning
its deny hooks off unseen. An event or hook type of a newer version of the agent is no such
error: its hooks are skipped with a warning (agenthooks lint, doctor). Every command names agenthooks by its absolute path, as the agent may start with
another PATH: the agenthooks on PATH when it is this executable (a package manager's link is
kept, so upgrades need no new install), else this executable. Entries an earlier install wrote
(another path, no --fail-closed) are brought up to date.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runInstall(e, p) },
	}
	c.Flags().StringVar(&p.agent, "agent", "", "the agent: "+agents.List("or")+" (default: every agent found)")
	c.Flags().BoolVar(&p.dryRun, "dry-run", false, "print the diff of each file instead of writing it")
	c.Flags().StringVar(&p.scope, "scope", "user", "user or project")
	c.Flags().StringVar(&p.workspace, "workspace", "", "the project for --scope project (default: the current directory)")
	return c
}

// ourArgs is install.OwnArgs: the arguments of an agenthooks call, --fail-closed left out.
func ourArgs(command string) (string, bool) { return install.OwnArgs(command) }

func (p installParams) options(e *env) (install.Options, error) {
	if p.scope != "user" && p.scope != "project" {
		return install.Options{}, fmt.Errorf("--scope must be user or project, not %q", p.scope)
	}
	o := install.Options{Home: e.home(), Getenv: e.getenv, LookPath: exec.LookPath, Scope: install.Scope(p.scope),
		Workspace: p.workspace}
	if o.Scope == install.ScopeProject && o.Workspace == "" {
		o.Workspace, _ = os.Getwd()
	}
	return o, nil
}

func runInstall(e *env, p installParams) error {
	o, err := p.options(e)
	if err != nil {
		return err
	}
	list, err := p.agents(e, o)
	if err != nil {
		return err
	}
	var progNote string
	if !p.remove {
		o.Program, progNote = install.Program(e.agenthooks(), exec.LookPath)
	}
	changes, errs := install.PlanAll(list, o, p.remove)
	all := p.agent == ""
	wrote := 0
	for _, c := range changes {
		for _, a := range c.Also {
			fmt.Fprintf(e.stdout, "%s: also %s's file\n", c.File, a.Title)
		}
		switch {
		case c.Missing && all:
			continue // uninstall of every agent: an agent never installed says nothing
		case c.Missing:
			fmt.Fprintf(e.stdout, "%s does not exist: nothing to take out\n", c.File)
			continue
		case !c.Changed():
			fmt.Fprintf(e.stdout, "%s: nothing to change\n", c.File)
			continue
		case p.dryRun:
			fmt.Fprint(e.stdout, c.Diff())
			continue
		}
		if err := c.Apply(); err != nil {
			errs = errors.Join(errs, err) // the other agents' files are still written
			continue
		}
		wrote++
		for _, line := range c.Changes {
			fmt.Fprintf(e.stdout, "%s: %s\n", c.File, line)
		}
		if c.Exists && !c.Delete {
			fmt.Fprintf(e.stdout, "the previous file is %s.bak\n", c.File)
		}
	}
	switch {
	case p.dryRun:
		fmt.Fprintln(e.stdout, "dry run: no file written")
	case all && wrote == 0 && errs == nil:
		fmt.Fprintln(e.stdout, "nothing to change")
	}
	if !p.remove {
		fmt.Fprintln(e.stdout, progNote)
		if g := o.Guard(); g != "" {
			fmt.Fprintf(e.stdout, "the shell guard runs %s, agenthooks' guard alone, which starts faster\n", g)
		}
		installNotes(e, o, list, changes, wrote > 0)
	}
	return errs
}

// agents are the agents install works on: the one --agent names; with none, for install every
// agent found on this machine (each said with why), for uninstall every agent.
func (p installParams) agents(e *env, o install.Options) ([]*dialect.Agent, error) {
	if p.agent != "" {
		a, ok := agents.Lookup(p.agent)
		if !ok {
			return nil, fmt.Errorf("--agent must be %s, not %q", agents.List("or"), p.agent)
		}
		return []*dialect.Agent{a}, nil
	}
	if p.remove {
		return agents.All(), nil
	}
	list, why := install.Present(o)
	if len(list) == 0 {
		where := "its folder in the home"
		if o.Scope == install.ScopeProject {
			where = "its folder in the workspace"
		}
		return nil, fmt.Errorf("found no agent to wire (none of %s has its program on PATH or %s): name one with --agent", agents.List("or"), where)
	}
	for i, a := range list {
		fmt.Fprintf(e.stdout, "found %s: %s\n", a.Title, why[i])
	}
	return list, nil
}

// installNotes says what an install leaves to the user: the guard's and the runner's
// fail-closed mode, the variable that moved an agent's user folder, each changed agent's own
// fail-closed mode (Install.FailClosed) and its notes, and where one agent runs another's files too.
func installNotes(e *env, o install.Options, list []*dialect.Agent, changes []*install.Change, wrote bool) {
	if wrote {
		fmt.Fprintln(e.stdout, "the shell guard is fail-closed (--fail-closed): when it cannot work, the command is blocked, not let through")
		fmt.Fprintln(e.stdout, "the runner is fail-closed on the events that can block: a hooks file agenthooks cannot read blocks the call, naming the file (agenthooks lint finds it)")
	}
	for _, c := range changes {
		if !c.Changed() {
			continue
		}
		if by := o.MovedBy(c.Agent); by != "" {
			fmt.Fprintf(e.stdout, "note: %s is set (%s): it moves %s's user folder, so the hooks are in %s, which %s reads when started with the same %s, not without it\n",
				by, e.getenv(by), c.Agent.Title, c.File, c.Agent.ShortTitle(), by)
		}
		if c.Agent.Install.FailClosed {
			fmt.Fprintf(e.stdout, "%s blocks the call when agenthooks is missing or fails, on the guards' entries and on the runner's on the events that can block (its own fail-closed setting)\n", c.Agent.ShortTitle())
		}
		if n := c.Agent.Install.Note; n != "" {
			fmt.Fprintln(e.stdout, n)
		}
		if n := c.Agent.Install.ProjectNote; n != "" && o.Scope == install.ScopeProject {
			fmt.Fprintln(e.stdout, n)
		}
	}
	for _, ov := range install.Overlaps(list, o) {
		if ov.Setting != "" && ov.Agent.OwnFilesSwitch != "" {
			fmt.Fprintf(e.stdout, "note: %s also runs %s's hooks files when its setting %s is on: then one call runs agenthooks' entries of both files (those in %s's do not step aside, as %s can switch its own files off with %s) and %s's other hooks twice; keep that setting off\n",
				ov.Agent.Title, ov.Reads.Title, ov.Setting, ov.Reads.Title, ov.Agent.Short, ov.Agent.OwnFilesSwitch, ov.Reads.Title)
			continue
		}
		if ov.Setting != "" {
			fmt.Fprintf(e.stdout, "note: %s also runs %s's hooks files when its setting %s is on: then agenthooks' entries there step aside for %s's own, but %s's other hooks run twice for one call (directly, and through %s's runner); keep that setting off\n",
				ov.Agent.Title, ov.Reads.Title, ov.Setting, ov.Agent.Title, ov.Reads.Title, ov.Agent.Title)
			continue
		}
		fmt.Fprintf(e.stdout, "note: %s also runs %s's hooks files here: one call runs agenthooks' entries of both files\n", ov.Agent.Title, ov.Reads.Title)
	}
}
