// Package cline is Cline's hooks (the Cline CLI, npm "cline", and the VS Code extension): its
// descriptor (Agent), its events, one executable per event named after it, with their neutral
// kinds, how Cline reads a hook's answer (JSON on stdout: cancel, errorMessage,
// contextModification, overrideInput; the exit status never decides), its payload (hookName,
// taskId, preToolUse.toolName and parameters) rewritten into Claude Code's shape and back, and
// the small per-event wrappers agenthooks install writes into a Cline hooks folder, which run
// agenthooks and, when it is gone or fails, block on the event that gates a call (PreToolUse)
// and let the task go on elsewhere.
//
// The contract follows the Cline CLI's bundled SDK (Version, @cline/core SDKVersion) and the
// VS Code extension's hook runner in github.com/cline/cline. It imports decide, dialect and
// dialect/claude; never engine, config or the CLI.
package cline
