// Package admincli holds the commands only agenthooks-admin links: serve (the team server, its
// pages, SQLite and PostgreSQL), sync (team bundles: TLS, signatures, archives) and export
// (OpenTelemetry, JSON lines, webhooks). They are kept out of internal/cli so that agenthooks,
// the binary agents start before every shell command, links none of it.
package admincli
