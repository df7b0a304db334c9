package cli_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/admincli"
	"github.com/agenthooks/agenthooks/internal/cli"
)

// TestAdminMissing: without agenthooks-admin, a database command says how to install it and
// exits 1 (an error, never the 2 that means "blocked"), while the hook commands still work.
func TestAdminMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("AGENTHOOKS_ADMIN", "")
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{{"log"}, {"status"}, {"sync", "--once"}, {"serve"}} {
		var out, errb bytes.Buffer
		code := cli.Main(context.Background(), args, strings.NewReader(""), &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "go install github.com/agenthooks/agenthooks/cmd/agenthooks-admin@latest") ||
			!strings.Contains(errb.String(), "go run ./cmd/agenthooks-admin "+args[0]) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	code := cli.Main(context.Background(), []string{"guard", "bash"},
		strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`), &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "rm") {
		t.Errorf("guard bash without agenthooks-admin: exit %d, stderr %q", code, errb.String())
	}
}

// TestAdminHelpAgrees: agenthooks lists the commands it passes on with the same summaries as
// agenthooks-admin, which defines them (serve and sync are written twice: agenthooks cannot
// link their package).
func TestAdminHelpAgrees(t *testing.T) {
	help := func(main func(context.Context, []string, io.Reader, io.Writer, io.Writer) int) map[string]string {
		var out bytes.Buffer
		if code := main(context.Background(), []string{"--help"}, strings.NewReader(""), &out, io.Discard); code != 0 {
			t.Fatalf("--help: exit %d", code)
		}
		lines := map[string]string{}
		for _, l := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(l); len(f) > 1 {
				lines[f[0]] = strings.TrimSpace(l)
			}
		}
		return lines
	}
	lean, admin := help(cli.Main), help(admincli.Main)
	for _, name := range []string{"log", "status", "sync", "serve"} {
		if lean[name] == "" || lean[name] != admin[name] {
			t.Errorf("%s: agenthooks says %q, agenthooks-admin %q", name, lean[name], admin[name])
		}
	}
}
