package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/wiring"
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
		Long: `For each agent (Claude Code, Cursor, Codex, Gemini CLI and the others of agenthooks agents): whether agenthooks is registered in
its config files (user and project scope); for each agenthooks entry, the program resolved as
the agent's shell will run it, with the agent's PATH (this shell's, or the one the agent's own
settings set, such as Claude Code's "env"): an absolute path must be an executable agenthooks;
a bare name is flagged, as an agent started from a desktop may have another PATH; whether the
agent's own settings switch the hooks off (Claude Code's disableAllHooks and managed
allowManagedHooksOnly; Gemini CLI's hooksConfig.enabled and hooks.disabled, in the user's,
the project's and the system settings; Codex's [features] hooks and, in its machine-wide
requirements.toml, allow_managed_hooks_only; VS Code's chat.useHooks; Goose's disabled plugins),
each with its file and line; the agent's folder where a variable in this environment moves it
(CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME, GEMINI_CLI_HOME, QWEN_HOME, FACTORY_HOME_OVERRIDE,
XDG_CONFIG_HOME, ...), named, with a warning for agenthooks left in the folder it moves away
from; whether Codex will run each agenthooks hook at
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
	rep := wiring.Check(ctx, eng.Config(), wiring.Options{Home: e.home(), Getenv: e.getenv, Cwd: cwd, Canary: true, Probe: true})
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
