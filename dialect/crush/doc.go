// Package crush is Crush's hooks dialect (Charm's coding agent, npm @charmland/crush; read in its
// source, internal/hooks and internal/agent/hooked_tool.go, at commit 37f36e9 after v0.90.0, and
// proven inside Crush built from it): its one event, how a Crush hook's run reads as an
// answer (as Crush's hooks.Runner reads it), how a decision is written in the form Crush honours,
// the rewrite of its payload into Claude Code's shape and back, and the decoding of the "hooks"
// of a crush.json with positioned errors.
//
// Crush fires PreToolUse only, for the top-level agent's tool calls (not a sub-agent's), with
// {"event","session_id","cwd","tool_name","tool_input"} on stdin and lower-case tool names
// (bash, edit, write, view, mcp_<server>_<tool>). A hook's exit status 2 denies with stderr as the
// reason, 49 denies and ends the turn, any other non-zero status and a timeout are no opinion
// (the call runs); on exit 0 its stdout is Crush's envelope ({"decision":"allow"|"deny",
// "reason","halt","context","updated_input"}) or Claude Code's hookSpecificOutput, and anything
// else is no opinion. It imports decide, dialect, internal/jsonpos and internal/srcpos.
package crush
