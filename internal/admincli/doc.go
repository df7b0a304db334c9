// Package admincli holds the commands only agenthooks-admin links: serve (the team server, its
// pages, SQLite and PostgreSQL) and sync (team bundles: TLS, signatures, archives). They are
// kept out of internal/cli so that agenthooks, the binary agents start before every shell
// command, links none of it.
package admincli
