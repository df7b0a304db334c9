// Package windsurf is Windsurf's (Devin Desktop's) Cascade hooks: its descriptor (Agent), its
// snake_case events with their neutral kinds, how Cascade reads a hook's exit status (2 blocks a
// pre-hook, anything else lets the action run), its hooks.json decoder with positioned problems,
// and its payload (agent_action_name, tool_info) rewritten into Claude Code's shape and back.
//
// Windsurf is a desktop editor with no npm package and no way to point Cascade at a local model
// endpoint, so nothing here is proven inside the agent: the tables and golden payloads follow
// Windsurf's documentation (DocsVersion). It imports decide, dialect, dialect/claude and the
// internal JSON and position helpers; never engine, config or the CLI.
package windsurf
