// Package coverage answers "did every tool call go through the guard?": it reads the session
// transcripts the agents keep themselves (Claude Code's project JSONL with its subagents',
// Codex's rollout files, Gemini CLI's and Qwen Code's chats, Copilot CLI's session events,
// OpenCode's and Crush's SQLite databases, the Cline CLI's messages files, Factory Droid's
// session JSONL),
// lists the shell and file-changing tool calls in them, and matches each with the agenthooks decisions of the audit trail. A call with no
// decision is unguarded: made by a tool no hook matches, in a session whose guard was not
// installed or not running, or by a subagent whose calls the agent does not hook.
//
// Each agent's transcript knowledge is one file (claude.go, codex.go, gemini.go, qwen.go,
// copilot.go, opencode.go, cline.go, droid.go, crush.go): where its transcripts are, how a call
// is read from them, whether its hook payloads carry the call's id, and, where its payloads are
// not Claude Code's shape, how a decision's session and id are read from them (Agent.Decision).
// The agents added later read their tool and argument names through their descriptors
// (spoken.go): their dialect packages own those names.
// Transcripts are untrusted input: files, lines and JSON nesting are bounded, and a line that
// cannot be read is skipped and reported with its position; it never ends the report.
//
// It imports audit (records and Redact), dialect, dialect/agents (which events come before a
// tool call), the descriptors of dialect/qwen, copilot, opencode, cline, droid and crush, and
// database/sql, and nothing else of the hook hot path. It must not import an SQLite driver
// (agenthooks links this package and stays free of SQLite): OpenCode's and Crush's databases
// are read through database/sql's "sqlite" driver when the program links it, as
// agenthooks-admin does, and reported unread otherwise. agenthooks-admin's status --coverage
// and team sync use it.
package coverage
