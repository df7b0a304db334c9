// Package claude is Claude Code's hooks dialect: its events with the field each matcher
// compares, how a hook's exit code and stdout are read (JSON when stdout starts with "{", exit 2
// blocks where the event can block, other codes are non-blocking errors), the universal and
// per-event output fields with their validation, and how a merged decision is written back.
// It imports decide and dialect, and internal/regfile to read the agent's own permission rules.
package claude
