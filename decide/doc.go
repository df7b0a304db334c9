// Package decide merges the answers of several hooks into one decision. It is pure: no I/O, no
// knowledge of dialects, configs or processes, and it must not import engine, cli, runner or config.
//
// The merge is independent of how hooks ran: the engine hands a hook that failed closed to Merge as
// a Deny answer, and a hook that failed open is simply not an answer.
package decide
