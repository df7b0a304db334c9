// Package servecli is the command line of agenthooks-server, the team server binary:
// `agenthooks-server serve` (also reached as `agenthooks serve`). It is kept out of
// internal/cli so the hook hot path never links the server, its pages or the PostgreSQL driver.
package servecli
