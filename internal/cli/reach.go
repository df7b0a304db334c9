package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/wiring"
)

// agenthooksCall is install.Call: the program and arguments of one plain call of agenthooks.
func agenthooksCall(command string) (string, []string, bool) { return install.Call(command) }

// resolveAgenthooks resolves prog as a shell does, with this process's PATH, and checks that
// it answers --version as agenthooks (wiring.Resolve).
func resolveAgenthooks(ctx context.Context, prog, dir string) wiring.Resolved {
	return wiring.Resolve(ctx, prog, dir, os.Getenv("PATH"), true)
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
	cache := map[string]wiring.Resolved{}
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
				if r.Problem != "" {
					problems = append(problems, r.Problem)
				} else {
					progs = append(progs, fmt.Sprintf("%s (%s)", r.Path, r.Version))
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
