package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/helperbin"
	"github.com/agenthooks/agenthooks/runner"
)

// adminPath finds agenthooks-admin, refusing when this process was itself started by a
// forward (then $AGENTHOOKS_ADMIN names agenthooks, and forwarding would never end).
func (e *env) adminPath(what string) (string, error) {
	if e.getenv("AGENTHOOKS_FORWARDED") != "" {
		return "", fmt.Errorf("%s was passed on to a binary that passed it on again: $AGENTHOOKS_ADMIN must name agenthooks-admin, not agenthooks", what)
	}
	path, err := helperbin.Find(e.getenv, "AGENTHOOKS_ADMIN", "agenthooks-admin", "the companion binary")
	if err != nil {
		return "", fmt.Errorf("%s runs in agenthooks-admin: %w", what, err)
	}
	return path, nil
}

// forwardCmd stands for c in agenthooks: it runs the same command line in agenthooks-admin,
// with this process's streams, and exits with its status.
func forwardCmd(e *env, c *cobra.Command) *cobra.Command {
	name := c.Name()
	return &cobra.Command{
		Use:                c.Use,
		Short:              c.Short,
		Long:               strings.TrimSpace(cmp.Or(c.Long, c.Short) + "\n\nRun by the agenthooks-admin binary, which holds what agenthooks must not link."),
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := e.adminPath("agenthooks " + name)
			if err != nil {
				return fmt.Errorf("%w; from a clone: go run ./cmd/agenthooks-admin %s", err, name)
			}
			// The command's context ends on SIGINT or SIGTERM (see execute) or when an embedding
			// caller cancels it: agenthooks-admin is then interrupted, and killed if it is still
			// running 15 seconds later.
			sub := exec.CommandContext(cmd.Context(), path, append([]string{name}, args...)...)
			sub.Stdin, sub.Stdout, sub.Stderr = e.stdin, e.stdout, e.stderr
			sub.Env = append(os.Environ(), "AGENTHOOKS_FORWARDED=1")
			sub.Cancel = func() error { return sub.Process.Signal(os.Interrupt) }
			sub.WaitDelay = 15 * time.Second
			if err := sub.Start(); err != nil {
				return err
			}
			err = sub.Wait()
			switch st := sub.ProcessState; {
			case st == nil:
				return err
			case st.Success():
				return nil // also when it ended on the interrupt, as the command would have
			default:
				return silentExit{code: max(st.ExitCode(), 1)}
			}
		},
	}
}

// maxHTTPHookAnswer bounds what is read of agenthooks-admin's answer to an http hook: the
// capped body, base64-encoded, and a little JSON.
const maxHTTPHookAnswer = 2*engine.MaxHTTPResponse + 4096

// postViaAdmin makes an http hook's request through `agenthooks-admin http-hook`: agenthooks
// does not link net/http and TLS, whose start-up every guard call would pay. It costs a
// process start (a few milliseconds) per http hook. ctx carries the hook's timeout.
func (e *env) postViaAdmin(ctx context.Context, r engine.HTTPRequest) (engine.HTTPResponse, error) {
	var resp engine.HTTPResponse
	path, err := e.adminPath("an http hook")
	if err != nil {
		return resp, err
	}
	in, err := json.Marshal(r)
	if err != nil {
		return resp, err
	}
	spec := runner.Spec{Argv: []string{path, "http-hook"}, Stdin: in, Env: append(os.Environ(), "AGENTHOOKS_FORWARDED=1"),
		StdoutCap: maxHTTPHookAnswer, StderrCap: 4096}
	if d, ok := ctx.Deadline(); ok {
		spec.Timeout = max(time.Until(d), time.Millisecond) // zero would mean the default
	}
	res := runner.Run(ctx, spec)
	switch {
	case ctx.Err() != nil:
		return resp, ctx.Err()
	case res.Err != nil:
		return resp, res.Err
	case !res.Success():
		return resp, fmt.Errorf("agenthooks-admin http-hook: exit %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	if err := json.Unmarshal(res.Stdout, &resp); err != nil {
		return resp, fmt.Errorf("agenthooks-admin http-hook answered %d bytes that are not its JSON: %w", len(res.Stdout), err)
	}
	return resp, nil
}

// maxHTTPHookRequest bounds the request agenthooks sends: a hook payload and its headers.
const maxHTTPHookRequest = 64 << 20

// newHTTPHookCmd is agenthooks-admin's side of postViaAdmin: the request as JSON on stdin, the
// response as JSON on stdout. Its time is bounded by agenthooks, which kills it at the hook's
// timeout.
func newHTTPHookCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:    "http-hook",
		Short:  "Make an http hook's request for agenthooks (JSON in, JSON out)",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if e.http == nil {
				return fmt.Errorf("http hooks are not enabled in this binary")
			}
			data, err := io.ReadAll(io.LimitReader(e.stdin, maxHTTPHookRequest+1))
			if err != nil {
				return err
			}
			if len(data) > maxHTTPHookRequest {
				return fmt.Errorf("the request is larger than %d bytes", maxHTTPHookRequest)
			}
			var r engine.HTTPRequest
			if err := json.Unmarshal(data, &r); err != nil {
				return fmt.Errorf("the request is not JSON: %w", err)
			}
			if !strings.HasPrefix(r.URL, "http://") && !strings.HasPrefix(r.URL, "https://") {
				return fmt.Errorf("an http hook's url must be http:// or https://, not %q", r.URL)
			}
			resp, err := e.http(cmd.Context(), r)
			if err != nil {
				return err
			}
			return json.NewEncoder(e.stdout).Encode(resp)
		},
	}
	return c
}
