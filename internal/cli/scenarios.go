package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/junit"
	"github.com/agenthooks/agenthooks/internal/scenario"
)

type testParams struct {
	paths []string
	json  bool
	junit string
}

func newTestCmd(e *env) *cobra.Command {
	var p testParams
	c := &cobra.Command{
		Use:   "test DIR|FILE...",
		Short: "Run policy scenarios: an event, a payload and the decision expected of your hooks and policy",
		Long: `Run scenario files (*.yaml), each naming a hooks config (config: [hooks.json], settings: [...])
and a policy (policy: policy.yaml) relative to itself, and listing scenarios:

  scenarios:
    - name: rm -rf / is denied
      agent: cursor                     # or claude
      event: beforeShellExecution
      payload: {command: "rm -rf /", cwd: /tmp}
      expect: {decision: deny, user_message: "recursive delete"}

Each prints PASS or FAIL with what differed; exit status 1 when any fails. --json for machines,
--junit FILE for CI. Messages are matched as substrings; decision is allow, ask, deny, defer, or
none when no hook expressed one on an event that cannot block.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.paths = args
			return runTest(cmd.Context(), e, p)
		},
	}
	c.Flags().BoolVar(&p.json, "json", false, "print the results as JSON")
	c.Flags().StringVar(&p.junit, "junit", "", "also write the results as JUnit XML to `FILE`")
	return c
}

type testResult struct {
	File     string   `json:"file"`
	Name     string   `json:"name"`
	Passed   bool     `json:"passed"`
	Decision string   `json:"decision"`
	Diffs    []string `json:"diffs,omitempty"`
	Seconds  float64  `json:"seconds"`
}

func scenarioFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				out = append(out, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

func runTest(ctx context.Context, e *env, p testParams) error {
	files, err := scenarioFiles(p.paths)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no scenario files (*.yaml) in %s", strings.Join(p.paths, ", "))
	}
	var results []testResult
	for _, file := range files {
		rs, err := runScenarioFile(ctx, e, file)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	failed := 0
	for _, r := range results {
		if !r.Passed {
			failed++
		}
	}
	if p.junit != "" {
		if err := writeJUnit(p.junit, results); err != nil {
			return err
		}
	}
	if p.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	} else {
		for _, r := range results {
			status := "PASS"
			if !r.Passed {
				status = "FAIL"
			}
			fmt.Fprintf(e.stdout, "%s  %s: %s\n", status, r.File, r.Name)
			for _, d := range r.Diffs {
				fmt.Fprintf(e.stdout, "      %s\n", d)
			}
		}
		fmt.Fprintf(e.stdout, "%d passed, %d failed\n", len(results)-failed, failed)
	}
	if failed > 0 {
		return silentExit{code: 1}
	}
	return nil
}

func runScenarioFile(ctx context.Context, e *env, file string) ([]testResult, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	f, err := scenario.Parse(file, data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(file)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		a, _ := filepath.Abs(filepath.Join(dir, p))
		return a
	}
	wd, _ := os.Getwd()
	opts := engine.Options{Env: config.Env{Home: e.home(), EnterpriseDir: e.getenv("AGENTHOOKS_ENTERPRISE_DIR"),
		ClaudeManagedDir: e.getenv("AGENTHOOKS_CLAUDE_MANAGED_DIR"), CodexHome: e.getenv("CODEX_HOME"), Workspaces: []string{wd}}, Default: DefaultHooks}
	for _, c := range f.Config {
		opts.Files = append(opts.Files, engine.ConfigFile{Path: abs(c), Family: dialect.Cursor})
	}
	for _, s := range f.Settings {
		opts.Files = append(opts.Files, engine.ConfigFile{Path: abs(s), Family: dialect.Claude})
	}
	if len(opts.Files) > 0 {
		// A file that names its config is tested against it alone, not the machine's layers.
		none := filepath.Join(os.TempDir(), "agenthooks-test-no-layers")
		opts.Env = config.Env{Home: none, EnterpriseDir: none, ClaudeManagedDir: none}
	}
	opts.Environ = append(os.Environ(), "AGENTHOOKS_AUDIT=off")
	if f.Policy != "" {
		opts.Environ = append(opts.Environ, "AGENTHOOKS_POLICY="+abs(f.Policy))
	}
	opts.Self = e.agenthooks()
	opts.HTTP = e.http
	eng, err := engine.Load(opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if problems := eng.Config().Problems().Errors(); len(problems) > 0 {
		return nil, fmt.Errorf("%s: the config it names has errors:\n%w", file, problems.Err())
	}
	var out []testResult
	for i, s := range f.Scenarios {
		name := s.Name
		if name == "" {
			name = fmt.Sprintf("scenario %d", i+1)
		}
		start := time.Now()
		res := testResult{File: file, Name: name}
		payload, err := s.PayloadJSON()
		var d *engine.Decision
		if err == nil {
			d, err = eng.Fire(ctx, engine.Event{Agent: dialect.Name(s.Agent), Name: s.Event, Payload: payload})
		}
		if err != nil {
			res.Diffs = []string{"error: " + err.Error()}
		} else {
			res.Decision = string(d.Permission)
			if res.Decision == "" {
				res.Decision = "none"
			}
			res.Diffs = s.Expect.Check(res.Decision, d.UserMessage, d.AgentMessage, d.Followup, d.Reason)
		}
		res.Passed, res.Seconds = len(res.Diffs) == 0, time.Since(start).Seconds()
		out = append(out, res)
	}
	return out, nil
}

// writeJUnit writes results in the JUnit XML that CI systems read, one suite per file.
func writeJUnit(path string, results []testResult) error {
	var suites []junit.Suite
	index := map[string]int{}
	for _, r := range results {
		i, ok := index[r.File]
		if !ok {
			i = len(suites)
			index[r.File] = i
			suites = append(suites, junit.Suite{Name: r.File})
		}
		tc := junit.Case{Name: r.Name, Classname: r.File, Seconds: r.Seconds}
		if !r.Passed {
			tc.Failure = &junit.Failure{Message: strings.Join(r.Diffs, "; "), Text: strings.Join(r.Diffs, "\n")}
		}
		suites[i].Cases = append(suites[i].Cases, tc)
	}
	return config.WriteFileAtomic(path, junit.Marshal(suites), 0o644)
}
