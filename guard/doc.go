// Package guard holds agenthooks' built-in guards. The shell guard parses a command as bash
// would (guard/shell, on mvdan.cc/sh: never regexes over raw text), finds every command that
// would run, and judges each against a policy (guard/policy): rules that deny or ask, an
// allowlist, and the decision for commands on neither. Check uses the embedded default policy;
// New takes any policy. IsCommandSafe is the execution service's safety check.
//
// It must not import engine, cli or config.
package guard
