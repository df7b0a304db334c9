// Package codex is OpenAI Codex CLI's hooks dialect. Codex speaks Claude Code's format (the same
// event names, payload fields and hookSpecificOutput), so a Codex hook's answer is read as Claude
// Code reads it; what differs is what Codex honours, so answers are written in the one form it
// does: a block is exit 2 with a non-empty reason on stderr and nothing on stdout (Codex runs the
// command on exit 2 with an empty stderr, on {"decision":"deny"} and on permissionDecision "ask").
// An ask, which Codex cannot express, becomes the configured safe choice with a warning.
// It imports decide, dialect and dialect/claude, and internal/regfile to read the agent's own
// permission rules.
package codex

import (
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
)

// Events are Codex's hook events.
var Events = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "UserPromptSubmit",
	"SubagentStop", "Stop", "SessionStart", "SubagentStart", "SessionEnd", "Interrupt"}

// specs are built on first use, from Claude Code's events (which are built on first use too).
var specs = sync.OnceValue(func() map[string]*dialect.Spec {
	m := map[string]*dialect.Spec{}
	for _, name := range Events {
		s := dialect.Spec{Dialect: dialect.Codex, Name: name}
		if c, ok := claude.Lookup(name); ok {
			s = c.Spec
			s.Dialect = dialect.Codex
		}
		if name == "PreCompact" {
			// Codex runs PreCompact as a stateless hook: no exit code or JSON stops the
			// compaction (openai/codex codex-rs/hooks/src/events/compact.rs).
			s.Gates = false
		}
		m[name] = &s
	}
	return m
})

// New returns Codex's dialect; askAs is what an ask becomes.
func New(askAs dialect.AskAs) dialect.Dialect { return impl{askAs: askAs} }

type impl struct{ askAs dialect.AskAs }

func (impl) Name() dialect.Name { return dialect.Codex }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	s, ok := specs()[name]
	return s, ok
}

func (impl) Names() []string { return append([]string(nil), Events...) }

// Interpret reads a Codex hook's answer as Claude Code would: Codex's format is Claude Code's,
// and where Codex is laxer (it lets a deny without a reason through) the hook's intent is kept.
func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	if c, ok := claude.Lookup(s.Name); ok {
		return claude.Interpret(c, exitCode, stdout, stderr, cut)
	}
	// Interrupt has no Claude Code counterpart: an observation.
	if exitCode != 0 && exitCode != 2 {
		return dialect.Outcome{Failed: true, Errors: []string{"hook exited with a non-zero status"}}
	}
	return dialect.Outcome{}
}

// Encode writes the decision in the form Codex honours.
func (d impl) Encode(s *dialect.Spec, dec decide.Decision) dialect.Reply {
	reason := dialect.FirstText(dec.AgentMessage, dec.UserMessage, dec.StopReason)
	perm, reason, warning := dialect.ResolveAsk("Codex", d.askAs, dec.Permission, reason)
	if dec.Halt && s.Gates {
		perm = decide.Deny // Codex runs the call on continue:false
	}
	if dec.UpdatedInput != nil && perm == decide.Allow && s.Name == "PreToolUse" {
		// Codex 0.169 applies an allow with updatedInput on PreToolUse, as Claude Code does
		// (proven inside Codex by e2e TestCodexConfine): answered in Claude Code's form.
		r := claude.Dialect.Encode(&claudeSpec(s).Spec, decide.Decision{Permission: decide.Allow, UpdatedInput: dec.UpdatedInput,
			AgentMessage: dec.AgentMessage, AdditionalContext: dec.AdditionalContext})
		if warning != "" {
			r.Stderr = append(r.Stderr, []byte(warning+"\n")...)
		}
		return r
	}
	if perm == decide.Deny && (s.Gates || s.Name == "PostToolUse") {
		if strings.TrimSpace(reason) == "" {
			reason = "blocked by agenthooks" // Codex lets an exit 2 with an empty stderr through
		}
		return dialect.Reply{ExitCode: 2, Stderr: []byte(reason + "\n")}
	}
	r := claude.Dialect.Encode(&claudeSpec(s).Spec, decide.Decision{Followup: dec.Followup, AdditionalContext: dec.AdditionalContext})
	if warning != "" {
		r.Stderr = append(r.Stderr, []byte(warning+"\n")...)
	}
	return r
}

func claudeSpec(s *dialect.Spec) *claude.Event {
	if c, ok := claude.Lookup(s.Name); ok {
		return c
	}
	c, _ := claude.Lookup("Notification") // an event that takes no decision
	return c
}

func (impl) Messages(s *dialect.Spec, d decide.Decision) (string, string) {
	return claude.Dialect.Messages(&claudeSpec(s).Spec, d)
}
