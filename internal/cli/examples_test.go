package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"
)

// trees builds agenthooks' command tree and agenthooks-admin's (without serve and sync, which
// live in admincli; TestAdminExamplesParse checks theirs).
func trees() map[string]func() *cobra.Command {
	return map[string]func() *cobra.Command{
		"agenthooks": func() *cobra.Command {
			return newRoot(context.Background(), strings.NewReader(""), io.Discard, io.Discard, nil)
		},
		"agenthooks-admin": func() *cobra.Command {
			return newRoot(context.Background(), strings.NewReader(""), io.Discard, io.Discard, &Admin{})
		},
	}
}

// exampleCalls returns the argument lists of the agenthooks and agenthooks-admin commands an
// example runs, as the shell would pass them (quotes removed; an expansion stands as VALUE).
func exampleCalls(t *testing.T, example string) [][]string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(example), "example")
	if err != nil {
		t.Fatalf("example is not shell: %v\n%s", err, example)
	}
	var calls [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		var words []string
		for _, w := range call.Args {
			words = append(words, wordText(w.Parts))
		}
		if words[0] == "agenthooks" || words[0] == "agenthooks-admin" {
			calls = append(calls, words[1:])
		}
		return true
	})
	return calls
}

func wordText(parts []syntax.WordPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			b.WriteString(wordText(p.Parts))
		default:
			b.WriteString("VALUE")
		}
	}
	return b.String()
}

// checkCall runs args through the command line of a fresh tree as far as running it: the
// command they name, its flags, its required flags and its argument check. It returns the
// command's key.
func checkCall(build func() *cobra.Command, args []string) (string, error) {
	root := build()
	c, rest, err := root.Find(args)
	if err != nil {
		return "", err
	}
	if c.DisableFlagParsing {
		return commandKey(c), nil // a forward to agenthooks-admin: checked in that tree
	}
	if err := c.ParseFlags(rest); err != nil {
		return "", err
	}
	for _, check := range []func() error{c.ValidateRequiredFlags, c.ValidateFlagGroups,
		func() error { return c.ValidateArgs(c.Flags().Args()) }} {
		if err := check(); err != nil {
			return "", err
		}
	}
	return commandKey(c), nil
}

// TestEveryCommandHasAnExample: every command of both binaries, hidden ones and cobra's help
// and completion included, shows an example in --help, each example runs its own command (or,
// for a command that groups others, one of them) at least once, and every agenthooks command line in it passes that command's flag parser and
// argument check (so renaming a flag or an argument breaks this test, not a user's paste).
func TestEveryCommandHasAnExample(t *testing.T) {
	seen := map[string]bool{}
	for binary, build := range trees() {
		var walk func(c *cobra.Command)
		walk = func(c *cobra.Command) {
			key := commandKey(c)
			seen[key] = true
			name := strings.TrimSpace(binary + " " + key)
			if c.Example == "" {
				t.Errorf("%s: no example in --help (add one to commandExamples)", name)
			}
			own := false
			for _, args := range exampleCalls(t, c.Example) {
				got, err := checkCall(build, args)
				if err != nil {
					t.Errorf("%s: example %q: %v", name, args, err)
				}
				// A command that only groups others shows them.
				own = own || err == nil && (got == key || strings.HasPrefix(got, key+" "))
			}
			if c.Example != "" && !own && key != "" {
				t.Errorf("%s: its example never runs %s:\n%s", name, name, c.Example)
			}
			for _, sub := range c.Commands() {
				walk(sub)
			}
		}
		walk(build())
	}
	for key := range commandExamples() {
		if !seen[key] {
			t.Errorf("commandExamples has %q, which is no command", key)
		}
	}
}

// TestExampleCheckCatchesABadFlag: the check above fails on a flag the command lacks, a flag
// value its parser refuses, a wrong argument count and a command that does not exist.
func TestExampleCheckCatchesABadFlag(t *testing.T) {
	build := trees()["agenthooks"]
	for _, example := range []string{
		"agenthooks install --agnet claude",
		"agenthooks guard bash --fail-closed=maybe",
		"echo '{}' | agenthooks guard explain",
		"agenthooks nosuch",
	} {
		calls := exampleCalls(t, example)
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls", example, len(calls))
		}
		if key, err := checkCall(build, calls[0]); err == nil {
			t.Errorf("%s: passed the check as %q", example, key)
		}
	}
}
