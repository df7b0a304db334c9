// Package shell reads a shell command the way bash would run it and lists every command that
// would run: in pipelines, lists, subshells, groups, command and process substitutions, control
// structures and function bodies; behind wrappers (sudo, env, xargs, find -exec, ...); inside
// nested shells (`bash -c`, eval, here-strings, heredocs and pipes fed to a shell) and inside the
// inline code of interpreters. Words are resolved statically with mvdan.cc/sh's parser and
// expander: quotes and escapes removed, ~ and $HOME as the home folder, variables assigned earlier
// in the same command line followed, and anything that cannot be known marked dynamic.
//
// It decides nothing: guard/policy judges the invocations it returns. It must not import any
// other agenthooks package.
package shell
