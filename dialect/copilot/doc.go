// Package copilot is GitHub Copilot CLI's hooks dialect (npm @github/copilot, read and proven
// inside version 1.0.102): its camelCase events, how a Copilot hook's run reads as an answer,
// how a decision is written in the form Copilot honours, the rewrite of its payloads into Claude
// Code's shape and back, and the decoding of its hooks files (.github/hooks/*.json,
// ~/.copilot/hooks/*.json, "hooks" in its settings.json) with positioned errors.
//
// Copilot sends camelCase payloads that do not name their event (sessionId, toolName, toolArgs
// as an object, toolResult) for the camelCase events. A preToolUse hook blocks with
// {"permissionDecision":"deny","permissionDecisionReason":...} on stdout and exit status 0, the
// one form whose reason reaches the model: exit status 2 blocks too, but the model is told only
// "hook exited with code 2", and Claude Code's hookSpecificOutput, decision "block" and
// continue:false are ignored. Any other non-zero exit of a preToolUse hook denies the call
// ("hook errored"): Copilot fails closed there. A file that names an event in Claude Code's
// PascalCase (PreToolUse) gets VS Code's snake_case payload with Claude Code's tool names
// instead, and its hookSpecificOutput is read. It imports decide, dialect, dialect/claude,
// internal/jsonpos and internal/srcpos.
package copilot
