package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/guard"
)

// maxGuardPayload bounds what a guard reads from stdin.
const maxGuardPayload = 4 << 20

func newGuardCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "guard",
		Short: "Built-in guards that run as hooks",
	}
	var p guardParams
	bash := &cobra.Command{
		Use:   "bash",
		Short: "Deny destructive shell commands (payload on stdin, Claude Code or Cursor format)",
		Long: `Read a shell hook payload on stdin (Claude Code's PreToolUse on Bash, or Cursor's
beforeShellExecution or preToolUse on Shell), parse the command with a real bash parser and deny
the well-known destructive forms. Claude Code: allow is exit 0 with no output, deny is exit 2
with the reason on stderr. Cursor: JSON with permission on stdout, exit 0. An error of the guard
itself exits 1 (never 2), or denies with --fail-closed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runGuardBash(e, p) },
	}
	bash.Flags().StringVar(&p.format, "format", "", "force the payload format: claude or cursor (default: detected)")
	bash.Flags().BoolVar(&p.failClosed, "fail-closed", false, "deny, saying the guard failed, when the payload cannot be read")
	c.AddCommand(bash)
	return c
}

type guardParams struct {
	format     string
	failClosed bool
}

type shellPayload struct {
	HookEventName string `json:"hook_event_name"`
	Command       any    `json:"command"`
	ToolName      string `json:"tool_name"`
	ToolInput     *struct {
		Command any `json:"command"`
	} `json:"tool_input"`
}

func runGuardBash(e *env, p guardParams) error {
	if p.format != "" && p.format != "claude" && p.format != "cursor" {
		return fmt.Errorf("--format must be claude or cursor, not %q", p.format)
	}
	format, command, err := readShellPayload(e.stdin, p.format)
	if err != nil {
		if !p.failClosed {
			return err // exit 1: an error of the guard is never a block
		}
		return guardAnswer(e, format, "agenthooks guard failed, and it is fail-closed, so this is denied: "+err.Error())
	}
	return guardAnswer(e, format, guard.UnsafeReason(command))
}

// readShellPayload decodes the payload and finds its format and command. The format is
// returned even with an error, so that a fail-closed answer uses the right contract.
func readShellPayload(r io.Reader, forced string) (format, command string, err error) {
	format = forced
	if format == "" {
		format = "claude"
	}
	data, err := io.ReadAll(io.LimitReader(r, maxGuardPayload+1))
	if err != nil {
		return format, "", fmt.Errorf("read payload: %w", err)
	}
	if len(data) > maxGuardPayload {
		return format, "", fmt.Errorf("payload is larger than %d bytes", maxGuardPayload)
	}
	var pl shellPayload
	if err := json.Unmarshal(data, &pl); err != nil {
		return format, "", fmt.Errorf("payload is not a JSON object: %w", err)
	}
	if forced == "" {
		switch {
		case pl.HookEventName == "beforeShellExecution", pl.HookEventName == "preToolUse",
			pl.ToolName == "Shell", pl.ToolInput == nil && pl.Command != nil:
			format = "cursor"
		}
	}
	raw := pl.Command
	if pl.ToolInput != nil {
		raw = pl.ToolInput.Command
	}
	switch c := raw.(type) {
	case nil:
		return format, "", nil // no command: nothing to guard
	case string:
		return format, c, nil
	}
	return format, "", fmt.Errorf("the command in the payload is not a string")
}

// guardAnswer writes the verdict in the format's contract; an empty reason allows.
func guardAnswer(e *env, format, reason string) error {
	if format == "claude" {
		if reason == "" {
			return nil
		}
		fmt.Fprintln(e.stderr, "Blocked by agenthooks: "+reason)
		return silentExit{code: 2}
	}
	out := map[string]string{"permission": "allow"}
	if reason != "" {
		out = map[string]string{"permission": "deny", "user_message": "agenthooks: " + reason, "agent_message": "agenthooks blocked this command: " + reason}
	}
	b, _ := json.Marshal(out)
	_, err := fmt.Fprintf(e.stdout, "%s\n", b)
	return err
}
