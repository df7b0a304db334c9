package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/install"
)

// agenthooksCall is install.Call: the program and arguments of one plain call of agenthooks.
func agenthooksCall(command string) (string, []string, bool) { return install.Call(command) }

// reach is what status finds when it starts the program an agent's config names.
type reach struct {
	path    string // the program resolved as the agent's shell would: "" when not found
	version string // what its --version says
	problem string // why it cannot work, "" when it can
}

// resolveAgenthooks resolves prog as a shell does (a path as it is, relative to dir; a name
// through PATH) and checks that it is an executable file that answers --version as agenthooks.
func resolveAgenthooks(ctx context.Context, prog, dir string) reach {
	return resolveAgenthooksIn(ctx, prog, dir, os.Getenv("PATH"))
}

// resolveAgenthooksIn is resolveAgenthooks with the PATH a bare name is looked up in.
func resolveAgenthooksIn(ctx context.Context, prog, dir, path string) reach {
	var r reach
	if isPath(prog) {
		r.path = prog
		if !filepath.IsAbs(prog) {
			r.path = filepath.Join(dir, prog)
		}
	} else {
		p, err := lookPathIn(prog, path)
		if err != nil {
			r.problem = prog + " is not on PATH: the agent gets exit 127 and runs the command anyway (agenthooks install writes an absolute path)"
			return r
		}
		r.path, _ = filepath.Abs(p)
	}
	st, err := os.Stat(r.path)
	switch {
	case err != nil:
		r.problem = r.path + " does not exist: the agent gets exit 127 and runs the command anyway (run agenthooks install again)"
		return r
	case st.IsDir() || !executable(st):
		r.problem = r.path + " is not an executable file"
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, r.path, "--version").Output()
	v := strings.TrimSpace(string(out))
	if err != nil || !strings.HasPrefix(v, "agenthooks version ") {
		r.problem = fmt.Sprintf("%s does not answer --version as agenthooks (%q)", r.path, clip(v, 40))
		if err != nil {
			r.problem = fmt.Sprintf("%s --version failed: %v", r.path, err)
		}
		return r
	}
	first, _, _ := strings.Cut(v, "\n") // the version; commit, date and toolchain follow
	r.version = strings.TrimSpace(strings.TrimPrefix(first, "agenthooks version "))
	return r
}

// sharedWith names an agent in seen whose files agent a runs as its own, or "".
func sharedWith(a *dialect.Agent, seen map[dialect.Name]bool) dialect.Name {
	for _, r := range a.Reads {
		if a.ReadsAlways(r.Agent) && seen[r.Agent] {
			return r.Agent
		}
	}
	return ""
}

// printAgents writes, for each agent, whether its config files reach a working agenthooks: the
// program each agenthooks entry names, resolved, and what it runs (the guard, the runner). It
// returns how many files name an agenthooks that cannot work.
func printAgents(ctx context.Context, w io.Writer, cfg *config.Config) int {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tCONFIG\tAGENTHOOKS\tSTATE")
	bad := 0
	seen := map[dialect.Name]bool{}
	files := map[dialect.Name]string{} // an agent's first file with agenthooks in it
	cache := map[string]reach{}
	for _, f := range cfg.Files {
		family := f.Source.Family
		if f.Source.Layer == config.Default || family == "" {
			continue
		}
		guards, runners := map[string]bool{}, 0
		var progs []string
		var problems []string
		for _, h := range f.Hooks {
			prog, args, ok := agenthooksCall(hookCommand(h))
			if !ok {
				continue
			}
			key := prog + "\x00" + f.Source.Dir()
			r, done := cache[key]
			if !done {
				r = resolveAgenthooks(ctx, prog, f.Source.Dir())
				cache[key] = r
				if r.problem != "" {
					problems = append(problems, r.problem)
				} else {
					progs = append(progs, fmt.Sprintf("%s (%s)", r.path, r.version))
				}
			}
			switch {
			case len(args) >= 2 && args[0] == "guard":
				g := "guard " + args[1]
				for _, a := range args[2:] {
					if a == "--fail-closed" {
						g += " (fail-closed)"
					}
				}
				guards[g+" on "+h.Event] = true
			case len(args) >= 1 && args[0] == "run":
				runners++
			}
		}
		if len(guards)+runners == 0 && len(problems) == 0 {
			continue
		}
		seen[family] = true
		if files[family] == "" {
			files[family] = f.Source.File
		}
		var what []string
		for _, g := range sortedKeys(guards) {
			what = append(what, g)
		}
		if runners > 0 {
			what = append(what, fmt.Sprintf("the runner on %d event(s)", runners))
		}
		state := "ok: " + strings.Join(what, ", ")
		switch {
		case cfg.Disabled(f) != "":
			state, bad = "OFF: "+cfg.Disabled(f), bad+1
		case !f.Usable:
			state, bad = "BROKEN: the file has errors (agenthooks lint "+f.Source.File+")", bad+1
		case len(problems) > 0:
			state, bad = "BROKEN: "+strings.Join(problems, "; "), bad+1
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", agentTitle(family), f.Source.File, strings.Join(progs, ", "), state)
	}
	for _, a := range agents.All() {
		if seen[a.Name] {
			continue
		}
		if shared := sharedWith(a, seen); shared != "" { // VS Code runs Copilot CLI's file as its own
			fmt.Fprintf(tw, "%s\t%s\t-\tok: runs %s's file above as its own\n", a.Title, files[shared], agentTitle(shared))
			continue
		}
		fmt.Fprintf(tw, "%s\t-\t-\tnot installed (agenthooks install --agent %s)\n", a.Title, a.Name)
	}
	tw.Flush()
	printUnhooked(w, seen)
	return bad
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// agentTitle is the registered agent's name for people; "" for a name not registered.
func agentTitle(n dialect.Name) string {
	if a := agents.Get(n); a != nil {
		return a.Title
	}
	return ""
}
