// Package guard holds agenthooks' built-in guards. This first part is the execution service's
// safety check: IsCommandSafe parses a shell command with mvdan.cc/sh (never regexes over raw
// text), looks at every command that would run, including those behind sudo, env and similar
// wrappers and inside `bash -c` strings and eval, and reports whether any of them is one of the
// well-known destructive forms. It must not import engine, cli or config.
package guard
