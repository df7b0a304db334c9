// Package antigravity is Google's Antigravity CLI (agy, Gemini CLI's successor for consumer
// plans): its descriptor (Agent), its five lifecycle events (and SessionStart, seen in later
// builds) with their neutral kinds, how agy reads a hook's answer ({"decision": allow, deny, ask
// or force_ask} on stdout; a PreToolUse answer it cannot read fails closed), its hooks.json of
// named groups decoded with positioned problems, and its camelCase payload (toolCall,
// conversationId, workspacePaths) rewritten into Claude Code's shape and back.
//
// agy installs with Google's own installer, not from npm, and talks only to Google's hosted
// models, so nothing here is proven inside the agent: the tables follow Antigravity's hooks
// documentation as quoted and measured by others (DocsVersion). It imports decide, dialect and
// the internal JSON and position helpers; never engine, config or the CLI.
package antigravity
