// Package coverage answers "did every tool call go through the guard?": it reads the session
// transcripts the agents keep themselves (Claude Code's project JSONL with its subagents',
// Codex's rollout files, Gemini CLI's and Qwen Code's chats, Copilot CLI's session events),
// lists the shell and file-changing tool calls in them, and matches each with the agenthooks decisions of the audit trail. A call with no
// decision is unguarded: made by a tool no hook matches, in a session whose guard was not
// installed or not running, or by a subagent whose calls the agent does not hook.
//
// Each agent's transcript knowledge is one file (claude.go, codex.go, gemini.go, qwen.go,
// copilot.go): where its transcripts are, how a call is read from them, whether its hook
// payloads carry the call's id. The agents added later read their tool and argument names
// through their descriptors (spoken.go): dialect/qwen and dialect/copilot own those names.
// Transcripts are untrusted input: files, lines and JSON nesting are bounded, and a line that
// cannot be read is skipped and reported with its position; it never ends the report.
//
// It imports audit (records and Redact), dialect, dialect/agents (which events come before a
// tool call) and the descriptors of dialect/qwen and dialect/copilot, and nothing else of the
// hook hot path; agenthooks-admin's status --coverage and team sync use it.
package coverage
