package cli_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/internal/admincli"
)

// TestAdminExamplesParse: the --help of the commands agenthooks-admin defines (serve, sync and
// export's) shows an example, and each of its command lines passes the real command's flag
// parser and argument check.
func TestAdminExamplesParse(t *testing.T) {
	sub := func(c *cobra.Command, name string) *cobra.Command {
		for _, s := range c.Commands() {
			if s.Name() == name {
				return s
			}
		}
		t.Fatalf("%s has no subcommand %s", c.Name(), name)
		return nil
	}
	for name, build := range map[string]func() *cobra.Command{
		"serve":          func() *cobra.Command { return admincli.Serve(io.Discard, io.Discard) },
		"sync":           func() *cobra.Command { return admincli.Sync(io.Discard, io.Discard) },
		"export otlp":    func() *cobra.Command { return sub(admincli.Export(io.Discard, io.Discard), "otlp") },
		"export jsonl":   func() *cobra.Command { return sub(admincli.Export(io.Discard, io.Discard), "jsonl") },
		"export webhook": func() *cobra.Command { return sub(admincli.Export(io.Discard, io.Discard), "webhook") },
	} {
		path := strings.Fields(name)
		var out, errb bytes.Buffer
		if code := admincli.Main(context.Background(), append(path, "--help"), strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%s --help: exit %d: %s", name, code, errb.String())
		}
		_, examples, ok := strings.Cut(out.String(), "\nExamples:\n")
		examples, _, _ = strings.Cut(examples, "\n\n")
		if !ok || strings.TrimSpace(examples) == "" {
			t.Fatalf("%s --help shows no example:\n%s", name, out.String())
		}
		runs := 0
		for _, line := range strings.Split(examples, "\n") {
			words := strings.Fields(line)
			for len(words) > 0 && strings.Contains(words[0], "=") {
				words = words[1:] // VAR=value before the command
			}
			if len(words) < 1+len(path) || words[0] != "agenthooks" || strings.Join(words[1:1+len(path)], " ") != name {
				continue
			}
			runs++
			c := build()
			if err := c.ParseFlags(words[1+len(path):]); err != nil {
				t.Errorf("%s: %v", line, err)
				continue
			}
			if err := c.ValidateRequiredFlags(); err != nil {
				t.Errorf("%s: %v", line, err)
			}
			if err := c.ValidateArgs(c.Flags().Args()); err != nil {
				t.Errorf("%s: %v", line, err)
			}
		}
		if runs == 0 {
			t.Errorf("%s's example never runs agenthooks %s:\n%s", name, name, examples)
		}
	}
}
