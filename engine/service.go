package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/runner"
)

// ExecContext is the context a command runs in: the execution service's HookExecutionContext.
type ExecContext struct {
	Event      string
	ProjectDir string
	ToolName   string
	Cwd        string
}

// InputContext extends ExecContext with what BuildJSONInput puts on a hook's stdin.
type InputContext struct {
	ExecContext
	SessionID      string
	TranscriptPath string
	ToolInput      any
	ToolResponse   any
	UserPrompt     string
	SubagentType   string
}

// ExecOptions bounds ExecuteCommand and ExecuteCommands.
type ExecOptions struct {
	// Timeout per command; zero means 10 s.
	Timeout time.Duration
	// ContinueOnFailure keeps ExecuteCommands going after a command fails.
	ContinueOnFailure bool
	// Input is written to stdin; nil means BuildJSONInput of the context.
	Input []byte
}

// ValidationResult lists what is wrong (errors) and what is odd (warnings) about a context.
type ValidationResult struct {
	Valid    bool     `json:"valid"`
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// ErrUnsafeCommand is returned, wrapped with the reason, for a command that fails IsCommandSafe.
var ErrUnsafeCommand = errors.New("command fails the safety check")

// ErrInvalidContext is returned, wrapped with the problems, for a context that does not validate.
var ErrInvalidContext = errors.New("invalid execution context")

var eventName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`) })

// ValidateExecutionContext checks the required fields (event, project dir), that the project
// dir is an accessible folder, that the event name is well formed, and the optional fields.
func ValidateExecutionContext(ec ExecContext) ValidationResult {
	var r ValidationResult
	switch {
	case ec.Event == "":
		r.Errors = append(r.Errors, "event is required")
	case !eventName().MatchString(ec.Event):
		r.Errors = append(r.Errors, fmt.Sprintf("event %q is not a well-formed event name (letters, digits, _ and -, starting with a letter)", ec.Event))
	default:
		if _, ok := cursor.Lookup(ec.Event); !ok {
			r.Warnings = append(r.Warnings, fmt.Sprintf("event %q is not one of Cursor's hook events", ec.Event))
		}
	}
	if ec.ProjectDir == "" {
		r.Errors = append(r.Errors, "projectDir is required")
	} else if st, err := os.Stat(ec.ProjectDir); err != nil {
		r.Errors = append(r.Errors, fmt.Sprintf("projectDir %s is not accessible: %v", ec.ProjectDir, err))
	} else if !st.IsDir() {
		r.Errors = append(r.Errors, fmt.Sprintf("projectDir %s is not a directory", ec.ProjectDir))
	} else if !filepath.IsAbs(ec.ProjectDir) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("projectDir %s is not an absolute path", ec.ProjectDir))
	}
	if ec.ToolName != "" && !eventName().MatchString(ec.ToolName) && !mcpTool().MatchString(ec.ToolName) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("toolName %q is not a usual tool name", ec.ToolName))
	}
	if ec.Cwd != "" {
		if st, err := os.Stat(ec.Cwd); err != nil || !st.IsDir() {
			r.Errors = append(r.Errors, fmt.Sprintf("cwd %s is not an accessible directory", ec.Cwd))
		}
	}
	r.Valid = len(r.Errors) == 0
	return r
}

var mcpTool = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(mcp__[^\s]+|MCP:[^\s]+)$`) })

// BuildJSONInput builds the JSON a hook reads on stdin from the context: session_id,
// transcript_path, cwd, hook_event_name, tool_name, tool_input, tool_response, user_prompt and
// subagent_type, each only when known.
func BuildJSONInput(ic InputContext) ([]byte, error) {
	m := map[string]any{}
	put := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	put("session_id", ic.SessionID)
	put("transcript_path", ic.TranscriptPath)
	cwd := ic.Cwd
	if cwd == "" {
		cwd = ic.ProjectDir
	}
	put("cwd", cwd)
	put("hook_event_name", ic.Event)
	put("tool_name", ic.ToolName)
	if ic.ToolInput != nil {
		m["tool_input"] = ic.ToolInput
	}
	if ic.ToolResponse != nil {
		m["tool_response"] = ic.ToolResponse
	}
	put("user_prompt", ic.UserPrompt)
	put("subagent_type", ic.SubagentType)
	return json.Marshal(m)
}

// ExecuteCommand runs one command in the context: the safety check first (an unsafe command is
// an ErrUnsafeCommand error and never runs), then the context check, then the command through
// the shell with the process environment plus HOOK_EVENT, HOOK_TOOL_NAME and HOOK_PROJECT_DIR,
// the JSON input on stdin, and the timeout. A command that runs and fails is a Result, not an
// error.
func ExecuteCommand(ctx context.Context, command string, ec ExecContext, opts ExecOptions) (runner.Result, error) {
	if reason := guard.UnsafeReason(command); reason != "" {
		return runner.Result{ExitCode: -1}, fmt.Errorf("%w: %s", ErrUnsafeCommand, reason)
	}
	if v := ValidateExecutionContext(ec); !v.Valid {
		return runner.Result{ExitCode: -1}, fmt.Errorf("%w: %v", ErrInvalidContext, v.Errors)
	}
	input := opts.Input
	if input == nil {
		var err error
		if input, err = BuildJSONInput(InputContext{ExecContext: ec}); err != nil {
			input = nil // the contract: continue without JSON input
		}
	}
	dir := ec.Cwd
	if dir == "" {
		dir = ec.ProjectDir
	}
	env := mergeEnv(os.Environ(), [][2]string{
		{"HOOK_EVENT", ec.Event}, {"HOOK_TOOL_NAME", ec.ToolName}, {"HOOK_PROJECT_DIR", ec.ProjectDir},
	})
	return runner.Run(ctx, runner.Spec{Command: command, Dir: dir, Env: env, Stdin: input, Timeout: opts.Timeout}), nil
}

// ExecuteCommands runs commands one after another in the same context, stopping after the
// first that does not succeed unless opts.ContinueOnFailure. It returns the results of the
// commands that ran, in order; an unsafe command stops the sequence with an error before it
// runs, whatever ContinueOnFailure says.
func ExecuteCommands(ctx context.Context, commands []string, ec ExecContext, opts ExecOptions) ([]runner.Result, error) {
	var out []runner.Result
	for _, c := range commands {
		res, err := ExecuteCommand(ctx, c, ec, opts)
		if err != nil {
			return out, err
		}
		out = append(out, res)
		if !res.Success() && !opts.ContinueOnFailure {
			break
		}
	}
	return out, nil
}
