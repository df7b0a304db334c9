package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/copilot"
)

// adapterEnv names the Copilot event when the test binary runs as a hook adapter.
const adapterEnv = "AGENTHOOKS_E2E_COPILOT_ADAPTER"

// TestMain lets the test binary run as a Copilot CLI hook: what agenthooks will do once
// dialect/copilot is wired into its guards and run (issue 16), done here from the dialect's own
// functions so that they are proven inside Copilot now.
func TestMain(m *testing.M) {
	if event := os.Getenv(adapterEnv); event != "" {
		os.Exit(copilotAdapter(event, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// copilotAdapter reads Copilot's payload of event, rewrites it in Claude Code's shape with
// dialect/copilot, runs the agenthooks command args on it (a guard answering in Claude Code's
// form), reads the answer with dialect/claude and writes the decision in the form Copilot
// honours with dialect/copilot. Anything that goes wrong denies, saying why.
func copilotAdapter(event string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	spec, ok := copilot.Dialect.Lookup(event)
	if !ok {
		fmt.Fprintf(stderr, "adapter: unknown Copilot event %s\n", event)
		return 1
	}
	fail := func(err error) int {
		r := copilot.Dialect.Encode(spec, decide.Decision{Permission: decide.Deny, AgentMessage: "agenthooks adapter failed: " + err.Error()})
		stdout.Write(r.Stdout)
		return r.ExitCode
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, 4<<20))
	if err != nil {
		return fail(err)
	}
	claudeName, translated, _, err := copilot.ToClaude(event, payload)
	if err != nil {
		return fail(err)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(translated), &out, &errOut
	exit := 0
	if err := cmd.Run(); err != nil {
		ee, isExit := err.(*exec.ExitError)
		if !isExit {
			return fail(err)
		}
		exit = ee.ExitCode()
	}
	ev, _ := claude.Lookup(claudeName)
	read := claude.Interpret(ev, exit, out.Bytes(), errOut.Bytes(), 0)
	if read.Failed {
		return fail(fmt.Errorf("%s", strings.Join(read.Errors, "; ")))
	}
	r := copilot.Dialect.Encode(spec, decide.Merge([]decide.Answer{read.Answer}, decide.MergeAll))
	stdout.Write(r.Stdout)
	stderr.Write(r.Stderr)
	return r.ExitCode
}

// adapterCommand is the hook command that runs args through the adapter for event.
func adapterCommand(t testing.TB, event string, args ...string) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return adapterEnv + "=" + event + " " + self + " " + strings.Join(args, " ")
}
