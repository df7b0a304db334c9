// Package droid is Factory Droid's hooks dialect (npm droid and @factory/cli, read in the
// bundled code of version 0.215.0 and proven inside it): its nine events in Claude Code's names,
// how a Droid hook's run reads as an answer on PreToolUse (as Droid's tool runner reads it), how
// a decision is written in the form Droid honours, and the rewrite of its payload, Claude Code's
// with Droid's tool names (Execute, Create, FetchUrl), into Claude Code's shape and back.
//
// Droid reads hooks from the "hooks" of .factory/settings.json and ~/.factory/settings.json and
// from .factory/hooks.json and ~/.factory/hooks.json, a bare map of events (whose events replace
// settings.json's of the same name), in Claude Code's matcher-group shape. Before the guard's
// confined rewrite (an allow, which skips Droid's own questions) it reads Droid's own command
// lists (commandDenylist, commandBlocklist) from its settings files. It imports decide, dialect,
// dialect/claude and internal/regfile.
package droid
