// Package qwen is Qwen Code's hooks dialect (npm @qwen-code/qwen-code, read and proven inside
// version 0.24.4): its events, how a Qwen Code hook's run reads as an answer (as Qwen's
// HookRunner reads it), how a decision is written in the form Qwen Code honours, the rewrite of
// its payloads into Claude Code's shape and back, and the decoding of the hooks in its
// settings.json files with positioned errors.
//
// Qwen Code speaks Claude Code's format (PascalCase events, matcher groups, hookSpecificOutput)
// with Gemini CLI's tool names (run_shell_command, read_file) and timeouts in milliseconds. Its
// runner reads stderr on exit status 2 (JSON, else text that denies with that text as the
// reason; an empty stderr is no decision, so the call runs), and stdout, else stderr, on any
// other exit: JSON decides whatever the code, plain text allows (a warning on a non-zero code).
// A hook that times out, is killed or prints malformed JSON fails open, and on PreToolUse it
// drops the decisions of the other hooks of the same call too. It imports decide, dialect,
// dialect/claude, internal/jsonpos and internal/srcpos.
package qwen
