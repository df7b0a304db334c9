package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

type lintParams struct {
	layerFlags
	files []string
	json  bool
}

func newLintCmd(e *env) *cobra.Command {
	var p lintParams
	c := &cobra.Command{
		Use:   "lint [FILE...]",
		Short: "Check hooks configs and guard policies and print file:line:col: message for each problem",
		Long: `Check the named files (Cursor's hooks.json, Claude Code's settings*.json by their name or with
--settings, guard policies by their .yaml name or their .agenthooks folder), or, when none is
named, every layer's file of every agent (trusted or not), the workspace's .agenthooks/policy.yaml
and $AGENTHOOKS_POLICY.
Each problem is printed as file:line:col: message; warnings say "warning:". Exit status 1 when
any file has an error, 0 otherwise.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			p.files = args
			return runLint(e, p)
		},
	}
	p.register(c)
	c.Flags().BoolVar(&p.json, "json", false, "print the problems as a JSON array")
	return c
}

func runLint(e *env, p lintParams) error {
	var cfg *config.Config
	var policies []string
	if len(p.files) > 0 || len(p.settings) > 0 {
		var cands []config.Candidate
		for i, f := range append(append([]string{}, p.files...), p.settings...) {
			if _, err := os.Stat(f); err != nil {
				return fmt.Errorf("lint %s: %w", f, err)
			}
			if i < len(p.files) && isPolicyFile(f) {
				policies = append(policies, f)
				continue
			}
			family := familyOf(f)
			if i >= len(p.files) {
				family = dialect.Claude
			}
			cands = append(cands, config.Candidate{Layer: config.CLI, Path: f, Family: family})
		}
		cfg = config.Load(cands, nil)
	} else {
		opts, err := p.options(e, p.workspaces(e, nil, ""))
		if err != nil {
			return err
		}
		cands := config.CandidatesOf(opts.Env)
		for _, f := range opts.Files {
			cands = append(cands, config.Candidate{Layer: f.Layer, Path: f.Path, Family: f.Family})
		}
		cfg = config.Load(cands, config.TrustAll)
		if f := e.getenv("AGENTHOOKS_POLICY"); f != "" {
			policies = append(policies, f)
		}
		for _, ws := range opts.Env.Workspaces {
			if f := filepath.Join(ws, config.ProjectPolicy); fileExists(f) {
				policies = append(policies, f)
			}
		}
	}
	// A file another agent runs as its own too (VS Code, Copilot CLI's hooks folder) is checked
	// as each of them reads it.
	problems := append(cfg.Problems(), cfg.SharedProblems()...)
	for _, f := range policies {
		_, pp := policy.Load(f)
		problems = append(problems, pp...)
	}
	if p.json {
		if problems == nil {
			problems = srcpos.List{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(problems); err != nil {
			return err
		}
	} else {
		for _, pr := range problems {
			fmt.Fprintln(e.stdout, pr)
		}
		if len(cfg.Files) == 0 && len(policies) == 0 {
			fmt.Fprintln(e.stderr, "agenthooks: no hooks config found")
		}
	}
	if problems.HasErrors() {
		return silentExit{code: 1}
	}
	return nil
}

type listParams struct {
	layerFlags
	json bool
}

func newListCmd(e *env) *cobra.Command {
	var p listParams
	c := &cobra.Command{
		Use:   "list",
		Short: "Show the effective hooks per event with their layer, file and trust state",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(e, p)
		},
	}
	p.register(c)
	c.Flags().BoolVar(&p.json, "json", false, "print the files and hooks as JSON")
	return c
}

func runList(e *env, p listParams) error {
	opts, err := p.options(e, p.workspaces(e, nil, ""))
	if err != nil {
		return err
	}
	eng, err := engine.Load(opts)
	if err != nil {
		return err
	}
	cfg := eng.Config()
	if p.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(cfg.Files)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LAYER\tFILE\tSTATE")
	for _, f := range cfg.Files {
		fmt.Fprintf(tw, "%s\t%s\t%s%s\n", f.Source.Layer, f.Source.File, fileState(cfg, f), alsoReadBy(f))
	}
	tw.Flush()
	fmt.Fprintln(e.stdout)
	tw = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tLAYER\tSOURCE\tCOMMAND\tOPTIONS\tRUNS")
	for _, f := range cfg.Files {
		for _, h := range f.Hooks {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.Event, f.Source.Layer, h.Pos, clip(hookCommand(h), 60), hookOptions(h), runsState(cfg, f, h))
		}
	}
	return tw.Flush()
}

// isPolicyFile tells a guard policy from a hooks config by its name and place: hooks configs are
// JSON or TOML, policies YAML (.agenthooks/policy.yaml).
func isPolicyFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml" || filepath.Base(filepath.Dir(path)) == ".agenthooks" && strings.HasPrefix(filepath.Base(path), "policy")
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// familyOf tells a config file's kind by its place and name: a file at one of an agent's own
// places (.github/hooks/*.json, ~/.qwen/settings.json) is that agent's; the settings.json or
// hooks.json in the folder of an agent that speaks another's format (.gemini, .codex) is that
// agent's, other settings*.json Claude Code's, anything else Cursor's.
func familyOf(path string) dialect.Name {
	for _, a := range agents.All() {
		if _, ok := config.LocationOf(a, path); ok {
			return a.Name
		}
	}
	dir := filepath.Base(filepath.Dir(path))
	for _, a := range agents.All() {
		if a.Speaks != "" && dir == a.Dir {
			return a.Name
		}
	}
	if strings.Contains(filepath.Base(path), "settings") {
		return agents.Fallback().Name
	}
	return agents.Default().Name
}

func fileState(cfg *config.Config, f *config.File) string {
	switch {
	case cfg.Disabled(f) != "":
		return "disabled: " + cfg.Disabled(f)
	case !f.Usable:
		return fmt.Sprintf("invalid: %d error(s), none of its hooks run (agenthooks lint %s)", len(f.Problems.Errors()), f.Source.File)
	case !f.Source.Trusted && f.Source.Untrusted != nil && !f.Source.Untrusted.Quiet():
		return "untrusted: not run: " + f.Source.Untrusted.Message
	case !f.Source.Trusted:
		return "untrusted: not run (agenthooks trust " + f.Source.Workspace + ")"
	}
	return "ok"
}

// alsoReadBy says which other agents run the file as their own ("; run by VS Code agent hooks
// too"), or "".
func alsoReadBy(f *config.File) string {
	var names []string
	for _, a := range config.AlsoReadBy(f) {
		names = append(names, a.Title)
	}
	if len(names) == 0 {
		return ""
	}
	return "; run by " + wordList(names, "and") + " too"
}

func runsState(cfg *config.Config, f *config.File, h *config.Hook) string {
	switch {
	case cfg.Disabled(f) != "":
		return "no (disabled)"
	case h.Unsupported != "":
		return "no (" + h.Unsupported + ")"
	case h.SelfRun:
		return "no (agenthooks run itself)"
	case !f.Usable:
		return "no (invalid file)"
	case !f.Source.Trusted:
		return "no (untrusted)"
	case h.Refused != "":
		return "no (refused: " + h.Refused + ")"
	}
	return "yes"
}

func hookCommand(h *config.Hook) string { return h.CommandLine() }

func hookOptions(h *config.Hook) string {
	var opts []string
	if h.Dialect != h.Source.Family {
		opts = append(opts, "dialect="+string(h.Dialect))
	}
	if h.If != "" {
		opts = append(opts, "if="+h.If)
	}
	if h.Async {
		opts = append(opts, "async")
	}
	if h.Matcher != "" {
		opts = append(opts, fmt.Sprintf("matcher=%q", h.Matcher))
	}
	if h.Timeout > 0 {
		opts = append(opts, "timeout="+h.Timeout.String())
	}
	if h.FailClosed {
		opts = append(opts, "fail-closed")
	}
	if h.LoopLimit != config.DefaultLoopLimit && (h.Event == "stop" || h.Event == "subagentStop") {
		opts = append(opts, fmt.Sprintf("loop_limit=%d", h.LoopLimit))
	}
	if len(opts) == 0 {
		return "-"
	}
	return fmt.Sprint(opts)
}
