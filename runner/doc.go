// Package runner runs one command robustly: JSON (or any bytes) on stdin, a deadline, the whole
// process group terminated and then killed when the deadline passes, and stdout and stderr
// captured up to a cap that counts what it cut. It knows nothing of hooks, events or configs and
// must not import any other agenthooks package.
package runner
