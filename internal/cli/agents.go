package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

type agentsParams struct {
	json, markdown, summary bool
}

func newAgentsCmd(e *env) *cobra.Command {
	var p agentsParams
	c := &cobra.Command{
		Use:   "agents",
		Short: "Print what a hook's answer can do in each agent, event by event",
		Long: `Print the capability matrix: for each agent agenthooks knows and each of its events, whether a
hook's answer can block what the event precedes, ask the person, rewrite the tool's input and
add context for the model, and how that is known: "e2e" when a test of the e2e suite shows it
inside the real agent, "yes" when the agent's dialect tests show it against fixtures from its
source or documentation. The matrix is derived from the agents' descriptors (each answer is
written by the agent's own encoder and read back by its own reader), not written by hand;
docs/capabilities.md is its --markdown output.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAgents(e.stdout, p) },
	}
	c.Flags().BoolVar(&p.json, "json", false, "print the matrix as one JSON object")
	c.Flags().BoolVar(&p.markdown, "markdown", false, "print the matrix as Markdown tables (docs/capabilities.md)")
	c.Flags().BoolVar(&p.summary, "summary", false, "one line per agent: the events on which each capability works")
	c.MarkFlagsMutuallyExclusive("json", "markdown")
	return c
}

func runAgents(w io.Writer, p agentsParams) error {
	m := agents.Matrix()
	switch {
	case p.json:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Agents []agents.AgentRow `json:"agents"`
		}{m})
	case p.markdown && p.summary:
		_, err := io.WriteString(w, matrixSummaryMarkdown(m))
		return err
	case p.markdown:
		_, err := io.WriteString(w, matrixMarkdown(m))
		return err
	case p.summary:
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "AGENT\tBLOCK\tASK\tREWRITE\tCONTEXT\tPROVEN")
		for _, a := range m {
			fmt.Fprintf(tw, "%s", a.Name)
			for _, c := range agents.Capabilities {
				fmt.Fprintf(tw, "\t%s", orDash(strings.Join(eventsWith(a, c, false), ",")))
			}
			fmt.Fprintf(tw, "\t%s\n", provenBy(a))
		}
		return tw.Flush()
	}
	for i, a := range m {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s): %s\n", a.Title, a.Name, provenBy(a))
		for _, r := range a.AlsoRuns {
			fmt.Fprintf(w, "%s\n", alsoRuns(a, r))
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EVENT\tKIND\tBLOCK\tASK\tREWRITE\tCONTEXT")
		for _, ev := range a.Events {
			fmt.Fprintf(tw, "%s\t%s", ev.Event, orDash(string(ev.Kind)))
			for _, c := range agents.Capabilities {
				fmt.Fprintf(tw, "\t%s", cell(ev.Support(c), false))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// provenBy says how an agent's row is known.
func provenBy(a agents.AgentRow) string {
	if a.E2E {
		return "proven inside the agent by the e2e suite where marked e2e, the rest by fixtures"
	}
	return "by fixtures from its documentation (the e2e suite cannot run it)"
}

// alsoRuns says that agent a runs another agent's hooks files too, and when.
func alsoRuns(a agents.AgentRow, r agents.AlsoRuns) string {
	other := string(r.Agent)
	if o := agents.Get(r.Agent); o != nil {
		other = o.Title
	}
	s := a.Title + " also runs " + other + "'s hooks files"
	if len(r.Scopes) > 0 {
		var scopes []string
		for _, sc := range r.Scopes {
			scopes = append(scopes, string(sc))
		}
		s += " (" + strings.Join(scopes, ", ") + ")"
	}
	if r.Setting != "" {
		s += " when its setting " + r.Setting + " is on"
	}
	if r.SameFile {
		return s + ": they are the files install writes for it too, so one call runs agenthooks once"
	}
	return s + ": agenthooks' entries there step aside for its own, so one call runs them once; the other hooks there run twice"
}

// cell is one capability of one event: "e2e" (or the test's name in Markdown), "yes" or "-".
func cell(s *agents.Support, md bool) string {
	switch {
	case !s.Can:
		return "-"
	case s.Proof == "e2e" && md:
		return "e2e: `" + s.Test + "`"
	case s.Proof == "e2e":
		return "e2e"
	}
	return "yes"
}

// eventsWith lists the agent's events on which c works, marking (in Markdown) those the e2e
// suite proves.
func eventsWith(a agents.AgentRow, c dialect.Capability, md bool) []string {
	var out []string
	for _, ev := range a.Events {
		s := ev.Support(c)
		switch {
		case !s.Can:
		case md && s.Proof == "e2e":
			out = append(out, "**"+ev.Event+"**")
		default:
			out = append(out, ev.Event)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// capabilityTitle is a capability's column head (a function, not a map: the guard process
// links this package and must not pay for its initialisation).
func capabilityTitle(c dialect.Capability) string {
	switch c {
	case dialect.CapBlock:
		return "Block"
	case dialect.CapAsk:
		return "Ask"
	case dialect.CapRewrite:
		return "Rewrite input"
	}
	return "Add context"
}

// mdRow writes one Markdown table row of cells.
func mdRow(b *strings.Builder, cells ...string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

// mdHead writes a Markdown table's head: the columns before, one per capability, the columns
// after.
func mdHead(b *strings.Builder, before []string, after ...string) {
	cols := slices.Clone(before)
	for _, c := range agents.Capabilities {
		cols = append(cols, capabilityTitle(c))
	}
	cols = append(cols, after...)
	mdRow(b, cols...)
	b.WriteString(strings.Repeat("|---", len(cols)) + "|\n")
}

// matrixSummaryMarkdown is one row per agent: the events on which each capability works, those
// proven inside the agent in bold.
func matrixSummaryMarkdown(m []agents.AgentRow) string {
	var b strings.Builder
	mdHead(&b, []string{"Agent"}, "Proven")
	for _, a := range m {
		cells := []string{a.Title}
		for _, c := range agents.Capabilities {
			cells = append(cells, orDash(strings.Join(eventsWith(a, c, true), ", ")))
		}
		proven := "fixtures"
		if a.E2E {
			proven = "inside the agent (e2e) and fixtures"
		}
		mdRow(&b, append(cells, proven)...)
	}
	return b.String()
}

// matrixMarkdown is the summary, then each agent's table, event by event.
func matrixMarkdown(m []agents.AgentRow) string {
	var b strings.Builder
	b.WriteString(matrixSummaryMarkdown(m))
	for _, a := range m {
		fmt.Fprintf(&b, "\n### %s (`%s`)\n\n%s.\n\n", a.Title, a.Name, upperFirst(provenBy(a)))
		for _, r := range a.AlsoRuns {
			fmt.Fprintf(&b, "%s.\n\n", alsoRuns(a, r))
		}
		mdHead(&b, []string{"Event", "Kind"})
		for _, ev := range a.Events {
			cells := []string{ev.Event, orDash(string(ev.Kind))}
			for _, c := range agents.Capabilities {
				cells = append(cells, cell(ev.Support(c), true))
			}
			mdRow(&b, cells...)
		}
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
