// Command compare runs agenthooks' shell-guard corpora through agenthooks guard bash and
// through cc-safety-net (the most-used open guard for coding agents), each as a Claude Code
// PreToolUse hook with the same payload, and prints both guards' deny/ask/allow rates side by
// side: how many destructive commands each stops and how many benign ones it interrupts.
//
// Run it from the repository root:
//
//	go run ./scripts/compare [-corpus FILE]... [-parallel N]
//
// It builds agenthooks from the checkout, installs cc-safety-net with scripts/ccsn.sh (skipped,
// with a message, when npm is missing), and judges every command with HOME=/home/dev and the
// working directory /home/dev/project, the context the corpora are written for. That folder is
// made in a private user and mount namespace, so nothing on the machine is read or written
// there. It is a benchmark-style program, not a test: it fails only when it cannot measure.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/agenthooks/agenthooks/guard"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// The context the corpora are written for (guard/testdata/corpus.tsv's header).
const (
	home    = "/home/dev"
	project = "/home/dev/project"
)

var defaultCorpora = []string{"guard/testdata/corpus.tsv", "guard/testdata/blind.tsv", "guard/testdata/blind2.tsv"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// params are the program's flags; the last four are filled by the first run for the copy of
// itself that runs in the namespaces.
type params struct {
	corpora    []string
	parallel   int
	agenthooks string
	ccsn       string
	stage      string
	rev        string
}

func run(args []string, stdout, stderr io.Writer) int {
	var p params
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Func("corpus", "a corpus file, verdict<TAB>[category<TAB>]command (repeatable; default: "+strings.Join(defaultCorpora, " and ")+")", func(s string) error {
		p.corpora = append(p.corpora, s)
		return nil
	})
	fs.IntVar(&p.parallel, "parallel", 8, "commands judged at the same time")
	fs.StringVar(&p.agenthooks, "agenthooks", "", "internal: the agenthooks binary to measure")
	fs.StringVar(&p.ccsn, "ccsn", "", "internal: the cc-safety-net executable, or none")
	fs.StringVar(&p.stage, "stage", "", "internal: the scratch folder")
	fs.StringVar(&p.rev, "rev", "", "internal: the checkout's revision")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compare: unexpected argument %q (corpora are given with -corpus FILE)\n", fs.Arg(0))
		return 2
	}
	if len(p.corpora) == 0 {
		p.corpora = defaultCorpora
	}
	p.parallel = max(p.parallel, 1)
	corpora := make([][]guard.CorpusCase, len(p.corpora))
	for i, file := range p.corpora {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintln(stderr, "compare:", err, "(run it from the repository root)")
			return 1
		}
		corpora[i], err = guard.ReadCorpus(f, file)
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, "compare:", err)
			return 1
		}
	}
	if os.Getenv(sandboxEnv) != "" { // the copy in the namespaces
		if err := makeHome(home, project, p.stage); err != nil {
			fmt.Fprintln(stderr, "compare: make", project, "in the mount namespace:", err)
			return 1
		}
		return measure(p, corpora, home, project, "an empty folder in a private mount namespace: nothing on this machine is read or written there", stdout, stderr)
	}

	stage, err := os.MkdirTemp("", "agenthooks-compare-")
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	defer os.RemoveAll(stage)
	p.stage = stage
	if p.agenthooks, err = buildAgenthooks(stage, stderr); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	p.ccsn = installCCSN(stderr)
	if out, err := exec.Command("git", "describe", "--always", "--dirty").Output(); err == nil {
		p.rev = strings.TrimSpace(string(out))
	}
	inner := append(slices.Clone(args), "-agenthooks", p.agenthooks, "-ccsn", cmp.Or(p.ccsn, "none"), "-stage", stage, "-rev", p.rev)
	code, err := reexecSandboxed(inner, stage)
	if err == nil {
		return code
	}
	// No namespaces (not Linux, or user namespaces turned off): judge in a folder of ours.
	fmt.Fprintf(stderr, "compare: cannot make %s in a private mount namespace (%v): judging in a temporary folder instead, where the corpora's literal %s paths are not the home folder\n", project, err, home)
	h := filepath.Join(stage, "home", "dev")
	if err := os.MkdirAll(filepath.Join(h, "project"), 0o755); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	return measure(p, corpora, h, filepath.Join(h, "project"), "a temporary folder (no mount namespace on this machine)", stdout, stderr)
}

// buildAgenthooks builds cmd/agenthooks into dir as the README installs it.
func buildAgenthooks(dir string, stderr io.Writer) (string, error) {
	if _, err := os.Stat("cmd/agenthooks"); err != nil {
		return "", fmt.Errorf("no cmd/agenthooks here: run it from the repository root")
	}
	bin := filepath.Join(dir, "bin", "agenthooks")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/agenthooks")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/agenthooks: %w", err)
	}
	return bin, nil
}

// installCCSN installs cc-safety-net with scripts/ccsn.sh and returns its executable, or ""
// with a message when it cannot.
func installCCSN(stderr io.Writer) string {
	if _, err := exec.LookPath("npm"); err != nil {
		fmt.Fprintln(stderr, "compare: npm is not installed: skipping cc-safety-net (only agenthooks is measured)")
		return ""
	}
	cmd := exec.Command("bash", "scripts/ccsn.sh")
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(stderr, "compare: scripts/ccsn.sh failed (%v): skipping cc-safety-net (only agenthooks is measured)\n", err)
		return ""
	}
	return strings.TrimSpace(string(out))
}

// A tool is one guard run as a Claude Code PreToolUse hook.
type tool struct {
	name string
	argv []string
	env  []string
}

// The outcomes of one hook run, in the order they are printed.
const (
	deny = iota
	ask
	confined // agenthooks runs what it would ask about confined (an allow with updatedInput): no interruption
	allow
	failed // the hook failed: neither exit 0 nor 2, unreadable output or a timeout
	outcomes
)

var outcomeNames = [outcomes]string{"deny", "ask", "confined", "allow", "failed"}

// tally counts outcomes.
type tally [outcomes]int

func (t tally) total() int {
	n := 0
	for _, k := range t {
		n += k
	}
	return n
}

// result is one tool's tallies on one corpus.
type result struct {
	wants   map[string]*tally // by expected verdict
	cats    map[string]*tally // by expected verdict<TAB>category
	elapsed time.Duration
	errs    []string
}

func measure(p params, corpora [][]guard.CorpusCase, home, project, where string, stdout, stderr io.Writer) int {
	base := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "USER=dev", "LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(p.stage, "tmp"), "CLAUDE_PROJECT_DIR=" + project,
	}
	if err := os.MkdirAll(filepath.Join(p.stage, "tmp"), 0o755); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	rev := cmp.Or(p.rev, "unknown revision")
	tools := []tool{{
		name: "agenthooks",
		argv: []string{p.agenthooks, "guard", "bash", "--audit", "off"},
		env:  append(slices.Clone(base), "AGENTHOOKS_AUDIT=off"),
	}}
	fmt.Fprintf(stdout, "agenthooks guard bash (%s, default policy)", rev)
	if p.ccsn != "" && p.ccsn != "none" {
		tools = append(tools, tool{
			name: "cc-safety-net",
			argv: []string{p.ccsn, "--claude-code"},
			// Its compile cache and audit trail go to our scratch folder.
			env: append(slices.Clone(base), "CC_SAFETY_NET_HOME="+filepath.Join(p.stage, "ccsn"), "CC_SAFETY_NET_AUDIT_HOME="+filepath.Join(p.stage, "ccsn-audit")),
		})
		fmt.Fprintf(stdout, " vs cc-safety-net %s (default settings)", ccsnVersion(p.ccsn))
	} else {
		fmt.Fprint(stdout, "; cc-safety-net skipped (npm missing or its install failed)")
	}
	fmt.Fprintf(stdout, ", each run as a Claude Code PreToolUse hook on the same payload.\n")
	fmt.Fprintf(stdout, "Context: HOME=%s, cwd and project %s (%s); %d commands at a time.\n", home, project, where, p.parallel)

	// A guard that cannot work in this context (cc-safety-net fails closed on every command
	// when the working directory is missing) would make numbers that mean nothing: check
	// that each answers an everyday and a destructive command as every guard should.
	for _, t := range tools {
		for _, probe := range []struct {
			command string
			want    int
		}{{"ls -la", allow}, {"rm -rf /", deny}} {
			if got, detail := judge(t, probe.command, project); got != probe.want {
				fmt.Fprintf(stderr, "compare: %s does not work here: it answers %q with %s, not %s %s\n", t.name, probe.command, outcomeNames[got], outcomeNames[probe.want], detail)
				return 1
			}
		}
	}

	code := 0
	for i, cases := range corpora {
		results := make([]*result, len(tools))
		for j, t := range tools {
			results[j] = judgeAll(t, cases, project, p.parallel)
			for _, e := range results[j].errs {
				fmt.Fprintf(stderr, "compare: %s: %s\n", t.name, e)
			}
			if len(results[j].errs) > 0 {
				code = 1
			}
		}
		fmt.Fprintln(stdout)
		printResults(stdout, p.corpora[i], cases, tools, results)
	}
	return code
}

// ccsnVersion reads the installed package's version next to its executable.
func ccsnVersion(bin string) string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(bin)), "cc-safety-net", "package.json"))
	var pkg struct{ Version string }
	if err != nil || json.Unmarshal(data, &pkg) != nil || pkg.Version == "" {
		return "(unknown version)"
	}
	return pkg.Version
}

// judgeAll runs every case through t, parallel at a time.
func judgeAll(t tool, cases []guard.CorpusCase, project string, parallel int) *result {
	r := &result{wants: map[string]*tally{}, cats: map[string]*tally{}}
	got := make([]int, len(cases))
	details := make([]string, len(cases))
	start := time.Now()
	var wg sync.WaitGroup
	next := make(chan int)
	for range parallel {
		wg.Go(func() {
			for i := range next {
				got[i], details[i] = judge(t, cases[i].Command, project)
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	r.elapsed = time.Since(start)
	for i, c := range cases {
		add := func(m map[string]*tally, key string) {
			if m[key] == nil {
				m[key] = &tally{}
			}
			m[key][got[i]]++
		}
		add(r.wants, string(c.Want))
		add(r.cats, string(c.Want)+"\t"+cmp.Or(c.Category, "(none)"))
		if got[i] == failed && len(r.errs) < 10 {
			r.errs = append(r.errs, fmt.Sprintf("line %d: %s: %q", c.Line, details[i], c.Command))
		}
	}
	return r
}

// judge runs one command through t and returns the outcome, and what went wrong when the hook
// failed.
func judge(t tool, command, project string) (int, string) {
	payload, err := json.Marshal(map[string]any{
		"session_id": "agenthooks-compare", "transcript_path": "", "cwd": project,
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": command, "description": ""},
	})
	if err != nil {
		return failed, err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.argv[0], t.argv[1:]...)
	cmd.Dir, cmd.Env = project, t.env
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut capped
	cmd.Stdout, cmd.Stderr = &out, &errOut
	killTreeOnCancel(cmd)
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return failed, "no answer within 60 s"
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		return deny, ""
	case err != nil:
		return failed, fmt.Sprintf("%v: %s", err, strings.TrimSpace(errOut.String()))
	}
	return classify(out.Bytes())
}

// classify reads a PreToolUse hook's answer on exit 0, as Claude Code does: no output is an
// allow; a hookSpecificOutput.permissionDecision says deny, ask or allow (an allow that
// replaces the command is agenthooks running it confined); decision "block" or continue false
// stop the call.
func classify(stdout []byte) (int, string) {
	if len(bytes.TrimSpace(stdout)) == 0 {
		return allow, ""
	}
	var a struct {
		Continue *bool  `json:"continue"`
		Decision string `json:"decision"`
		Specific *struct {
			PermissionDecision string         `json:"permissionDecision"`
			UpdatedInput       map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout, &a); err != nil {
		return failed, fmt.Sprintf("unreadable answer %q: %v", stdout, err)
	}
	switch {
	case a.Continue != nil && !*a.Continue, a.Decision == "block":
		return deny, ""
	case a.Specific == nil:
		return allow, ""
	}
	switch a.Specific.PermissionDecision {
	case "deny":
		return deny, ""
	case "ask":
		return ask, ""
	case "allow", "":
		if a.Specific.UpdatedInput != nil {
			return confined, ""
		}
		return allow, ""
	}
	return failed, fmt.Sprintf("unknown permissionDecision %q", a.Specific.PermissionDecision)
}

// capped keeps the first 1 MiB written to it and drops the rest.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := 1<<20 - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func pct(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%d (%.1f%%)", k, 100*float64(k)/float64(n))
}

// printResults prints one corpus's table: per expected verdict, then per category.
func printResults(out io.Writer, file string, cases []guard.CorpusCase, tools []tool, results []*result) {
	var w bytes.Buffer // tabwriter pads the last cell: trim the lines before they go out
	defer func() {
		for line := range strings.Lines(w.String()) {
			fmt.Fprintln(out, strings.TrimRight(line, " \n"))
		}
	}()
	// Rows for confined and failed answers only when some tool gave one.
	some := func(o int) bool {
		for _, r := range results {
			for _, t := range r.wants {
				if t[o] > 0 {
					return true
				}
			}
		}
		return false
	}
	tw := tabwriter.NewWriter(&w, 0, 4, 2, ' ', 0)
	head := fmt.Sprintf("%s: %d commands\t", file, len(cases))
	for _, t := range tools {
		head += t.name + "\t"
	}
	fmt.Fprintln(tw, head)
	row := func(label string, want string, count func(t tally) int) {
		line := label + "\t"
		for _, r := range results {
			t := *cmp.Or(r.wants[want], &tally{})
			line += pct(count(t), t.total()) + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	for _, g := range []struct{ want, title string }{
		{"deny", "destructive (want deny)"},
		{"allow", "benign (want allow)"},
		{"ask", "want ask"},
	} {
		n := 0
		if t := results[0].wants[g.want]; t != nil {
			n = t.total()
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s, %d:%s\n", g.title, n, strings.Repeat("\t", len(tools)+1))
		if g.want == "allow" {
			row("  interrupted (ask+deny)", g.want, func(t tally) int { return t[deny] + t[ask] })
		} else {
			row("  denied", g.want, func(t tally) int { return t[deny] })
			row("  asked", g.want, func(t tally) int { return t[ask] })
		}
		if some(confined) {
			row("  asked, run confined instead", g.want, func(t tally) int { return t[confined] })
		}
		row("  allowed", g.want, func(t tally) int { return t[allow] })
		if some(failed) {
			row("  hook failed", g.want, func(t tally) int { return t[failed] })
		}
	}
	line := "time\t"
	for _, r := range results {
		line += fmt.Sprintf("%.1f s (%.1f ms a command)\t", r.elapsed.Seconds(), float64(r.elapsed.Milliseconds())/float64(max(len(cases), 1)))
	}
	fmt.Fprintln(tw, line)
	tw.Flush()

	var keys []string
	for k := range results[0].cats {
		if !strings.HasSuffix(k, "\t(none)") {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.Sort(keys)
	fmt.Fprintln(&w)
	tw = tabwriter.NewWriter(&w, 0, 4, 2, ' ', 0)
	head = "WANT\tCATEGORY\tN\t"
	for _, t := range tools {
		head += t.name + " deny/ask/allow\t"
	}
	fmt.Fprintln(tw, head)
	for _, k := range keys {
		line := k + fmt.Sprintf("\t%d\t", results[0].cats[k].total())
		for _, r := range results {
			t := *cmp.Or(r.cats[k], &tally{})
			cell := fmt.Sprintf("%d/%d/%d", t[deny], t[ask], t[allow])
			if t[confined] > 0 {
				cell += fmt.Sprintf(" +%d confined", t[confined])
			}
			if t[failed] > 0 {
				cell += fmt.Sprintf(" +%d failed", t[failed])
			}
			line += cell + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}
