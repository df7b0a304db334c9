// Package server is agenthooks' team server: an HTTP API under /api/v1/ and a dashboard at /
// (html/template pages and assets embedded in the binary) over a Store, which is SQLite by
// default and PostgreSQL for teams that outgrow one machine.
//
// Admins create teams, edit a team's hooks (a hooks.json in Cursor's or Claude Code's format,
// the scripts it names, a policy file) with the same positioned validation lint gives, target
// hooks at operating systems, publish immutable versions (each signed per OS with the team's
// Ed25519 key; see package bundle), diff and roll back, and make member tokens. Machines fetch
// their bundle with a member token (ETag: an unchanged bundle costs one small request) and
// upload their audit records; the dashboard shows them across the team. Each upload carries
// the machine's audit chain hashes, and the server keeps per member token the last chain point
// it accepted, marking the machine broken when its history there changes (auditchain.go); the
// team page and the token listing show it. Machines also report their agents' tool calls against
// their audit trail (coverage.go) and how each agent's config runs the guard (wiring.go); the
// team page's protection table says from both whether each agent is enforcing.
//
// It is never imported by the hook hot path (run, guard).
package server
