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

// TestAdminExamplesParse: serve's and sync's --help (which agenthooks-admin defines) show an
// example, and each of its command lines passes the real command's flag parser and argument
// check.
func TestAdminExamplesParse(t *testing.T) {
	for name, build := range map[string]func() *cobra.Command{
		"serve": func() *cobra.Command { return admincli.Serve(io.Discard, io.Discard) },
		"sync":  func() *cobra.Command { return admincli.Sync(io.Discard, io.Discard) },
	} {
		var out, errb bytes.Buffer
		if code := admincli.Main(context.Background(), []string{name, "--help"}, strings.NewReader(""), &out, &errb); code != 0 {
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
			if len(words) < 2 || words[0] != "agenthooks" || words[1] != name {
				continue
			}
			runs++
			c := build()
			if err := c.ParseFlags(words[2:]); err != nil {
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
