package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

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
