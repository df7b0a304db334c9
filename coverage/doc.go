// Package coverage answers "did every tool call go through the guard?": it reads the session
// transcripts the agents keep themselves (Claude Code's project JSONL with its subagents',
// Codex's rollout files, Gemini CLI's chats), lists the shell and file-changing tool calls in
// them, and matches each with the agenthooks decisions of the audit trail. A call with no
// decision is unguarded: made by a tool no hook matches, in a session whose guard was not
// installed or not running, or by a subagent whose calls the agent does not hook.
//
// Each agent's transcript knowledge is one file (claude.go, codex.go, gemini.go): where its
// transcripts are, how a call is read from them, whether its hook payloads carry the call's id.
// Transcripts are untrusted input: files, lines and JSON nesting are bounded, and a line that
// cannot be read is skipped and reported with its position; it never ends the report.
//
// It imports audit (records and Redact) and nothing of the hook hot path; agenthooks-admin's
// status --coverage and team sync use it.
package coverage
