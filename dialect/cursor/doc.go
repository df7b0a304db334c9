// Package cursor is Cursor's hooks dialect: its event names and the input fields it documents
// for each, the validators Cursor applies to a hook's response (with Cursor's exact messages),
// the messages Cursor shows when a hook denies, and the JSON a Cursor hook answers with.
// It imports only decide; it must not import engine, config, runner or cli.
package cursor
