package coverage

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints the report for a person: the figures per agent and per session with
// unguarded calls, examples of those calls with the transcript line they are at, and the
// transcript lines that could not be read.
func (r *Report) WriteText(w io.Writer) error {
	since := "all transcripts"
	if !r.Since.IsZero() {
		since = "since " + r.Since.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(w, "coverage (%s): %d shell and file tool call(s) in the agents' transcripts, %d with no agenthooks decision\n",
		since, r.Calls, r.Unguarded)
	if len(r.Agents) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "AGENT\tVERSION\tTRANSCRIPTS\tSESSIONS\tCALLS\tGUARDED\tUNGUARDED\tMATCHED ON")
		for _, a := range r.Agents {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", a.Agent, or(a.Version, "-"), a.Transcripts, a.Sessions, a.Calls,
				a.Guarded, a.Unguarded, a.Match)
		}
		tw.Flush()
	}
	if r.Unguarded > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SESSION\tAGENT\tCALLS\tUNGUARDED\tIN SUBAGENTS\tLAST CALL")
		for _, s := range r.Sessions {
			if s.Unguarded == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", s.Session, s.Agent, s.Calls, s.Unguarded, s.Subagent, stamp(s.Last))
		}
		tw.Flush()
		fmt.Fprintf(w, "\nunguarded calls (at most %d a session, newest first):\n", MaxExamples)
		for _, u := range r.Examples {
			who := ""
			if u.Subagent != "" {
				who = " (subagent " + u.Subagent + ")"
			}
			fmt.Fprintf(w, "  %s %s %s%s %s: %s\n    at %s:%d, matched on %s\n", stamp(u.Time), u.Agent, short(u.Session), who, u.Tool,
				oneLine(u.Command, 100), u.File, u.Line, u.Match)
		}
	}
	if len(r.Problems) > 0 {
		fmt.Fprintf(w, "\n%d transcript part(s) could not be read and were skipped:\n", len(r.Problems))
		for i, p := range r.Problems {
			if i == 20 {
				fmt.Fprintf(w, "  ... and %d more\n", len(r.Problems)-20)
				break
			}
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	return nil
}

func or(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func short(s string) string {
	if len(s) > 13 {
		return s[:13]
	}
	return s
}

// oneLine keeps a command on one printable line of at most n bytes.
func oneLine(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
