// Package dialect is what every agent's hook dialect provides to the engine: its events (with a
// dialect-neutral kind, so that a hook written for one agent can run under another), how a hook's
// run reads as an answer, and how a merged decision is written back in the agent's wire form.
// Each agent's package (dialect/cursor, dialect/claude, ...) implements it and exports the
// agent's descriptor (Agent), which dialect/agents registers; dialect/translate rewrites payloads
// between them. It imports only decide.
package dialect

import (
	"strings"

	"github.com/agenthooks/agenthooks/decide"
)

// Name names a dialect.
type Name string

// The dialects.
const (
	Cursor Name = "cursor"
	Claude Name = "claude"
	Codex  Name = "codex"
	Gemini Name = "gemini"
)

// AskAs is what an agent that cannot ask a person (Codex, Gemini in headless runs) gets for an
// ask: the safe choice, deny, unless the user configured allow.
type AskAs string

// The choices for an ask an agent cannot express.
const (
	AskAsDeny  AskAs = "deny"
	AskAsAllow AskAs = "allow"
)

// FirstText returns the first value that is not blank: the reason an agent is shown, where a
// whitespace-only message counts as none.
func FirstText(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// ResolveAsk turns an ask or a defer, which agent cannot show, into askAs: deny, with the reason
// saying why, or allow, with a warning for stderr. Other permissions pass through.
func ResolveAsk(agent string, askAs AskAs, perm decide.Permission, reason string) (decide.Permission, string, string) {
	if perm != decide.Ask && perm != decide.Defer {
		return perm, reason, ""
	}
	if askAs == AskAsAllow {
		return decide.Allow, reason, "agenthooks: " + agent + " cannot ask a person; allowed as configured (--ask-as allow)"
	}
	warning := agent + " cannot ask a person, so agenthooks denies (--ask-as deny)"
	return decide.Deny, warning + ": " + reason, warning
}

// Kind is the dialect-neutral meaning of an event. Tool events are refined by tool: a shell
// command, an MCP call, a file read or edit, or any other tool.
type Kind string

// The kinds.
const (
	BeforeShell     Kind = "before-shell"
	BeforeMCP       Kind = "before-mcp"
	BeforeRead      Kind = "before-read-file"
	BeforeEdit      Kind = "before-file-edit" // a file tool only (Windsurf's pre_write_code)
	PreTool         Kind = "pre-tool"         // any tool; a hook of this kind sees every tool
	AfterShell      Kind = "after-shell"
	AfterMCP        Kind = "after-mcp"
	AfterEdit       Kind = "after-file-edit"
	AfterRead       Kind = "after-read-file" // a file read only (Windsurf's post_read_code)
	PostTool        Kind = "post-tool"       // any tool
	PostToolFailure Kind = "post-tool-failure"
	PromptSubmit    Kind = "before-submit-prompt"
	Stop            Kind = "stop"
	SubagentStart   Kind = "subagent-start"
	SubagentStop    Kind = "subagent-stop"
	SessionStart    Kind = "session-start"
	SessionEnd      Kind = "session-end"
	PreCompact      Kind = "pre-compact"
)

// IsPreTool reports whether k is a kind that happens before a tool runs.
func (k Kind) IsPreTool() bool {
	return k == BeforeShell || k == BeforeMCP || k == BeforeRead || k == BeforeEdit || k == PreTool
}

// IsPostTool reports whether k is a kind that happens after a tool ran.
func (k Kind) IsPostTool() bool {
	return k == AfterShell || k == AfterMCP || k == AfterEdit || k == AfterRead || k == PostTool
}

// Covers reports whether a hook of kind hook runs for an event of kind event: the same kind, or
// a generic tool hook for any tool event on its side.
func Covers(hook, event Kind) bool {
	if hook == "" || event == "" {
		return false
	}
	return hook == event || hook == PreTool && event.IsPreTool() || hook == PostTool && event.IsPostTool()
}

// Target says what an event's matcher is compared with.
type Target int

// The matcher targets.
const (
	NoTarget  Target = iota // a matcher has no effect
	FieldName               // the payload field MatchField, a name (tool, subagent type, source)
	FieldText               // the payload field MatchField, free text (a whole shell command)
	Constant                // the fixed name MatchConst
)

// Spec describes one event of one dialect.
type Spec struct {
	Dialect    Name
	Name       string
	Kind       Kind // "" when no other dialect has it
	Gates      bool // the event can block what it precedes
	Loop       bool // follow-ups bounded by loop_count and loop_limit
	Target     Target
	MatchField string
	MatchConst string
	// Readings are, for one call only, the other names the matched field may stand for (the
	// readings of an agent's MCP tool name in the Speaks agent's vocabulary, see
	// Agent.SpokenToolReadings); a matcher that matches any of them matches. Nil in the tables.
	Readings []string
}

// Outcome is how one finished hook run reads in its dialect's terms.
type Outcome struct {
	Answer   decide.Answer
	Answered bool
	// Failed is true when the run counts as a failure; Errors says why.
	Failed bool
	Errors []string
	// Notes are remarks that do not make the run fail.
	Notes []string
}

// Reply is the answer an agent reads from its hook: exit code, stdout and stderr.
type Reply struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
}

// Dialect is one agent's hook dialect.
type Dialect interface {
	Name() Name
	// Lookup finds an event by its name in this dialect.
	Lookup(name string) (*Spec, bool)
	// Names lists the event names.
	Names() []string
	// Interpret reads a finished run of a hook of this dialect. stdoutCut is how many bytes of
	// stdout the output cap dropped.
	Interpret(ev *Spec, exitCode int, stdout, stderr []byte, stdoutCut int64) Outcome
	// Encode writes a merged decision as this agent reads it.
	Encode(ev *Spec, d decide.Decision) Reply
	// Messages returns what the agent shows the user and the model for a decision.
	Messages(ev *Spec, d decide.Decision) (client, model string)
}
