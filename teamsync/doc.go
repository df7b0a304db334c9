// Package teamsync is the member side of team distribution: it fetches the team's signed
// bundle for this machine's OS from an agenthooks server, verifies it against the team key
// pinned at enrolment, installs it atomically into ~/.cursor/managed/team_<id>/hooks/ (and,
// when asked, registers it with Claude Code's managed settings), keeps the last good bundle
// when anything goes wrong, and uploads the machine's new audit records in batches, the
// coverage of its agents' tool calls, and how each agent runs the guard (package wiring).
//
// It imports bundle, audit, config, coverage and wiring, never server: a machine needs no SQL
// server driver.
package teamsync
