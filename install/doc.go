// Package install writes agenthooks into coding agents' own hooks files and takes it out again:
// the shell guard, the runner on the agent's events and the guard on its file tools, as each
// agent's descriptor (dialect.Agent.Install) says. It finds the agents present on a machine
// (their program on PATH, their folder in the home), plans each file's change without writing
// it (so that a dry run shows the diff), keeps every entry it does not own where it was, and
// changes nothing on a second run.
//
// An embedding Go program calls Present, Plan and Apply; agenthooks install and uninstall are a
// thin layer over them. It imports config, dialect, dialect/agents, guard/shell and
// internal/jsonpos; never engine, the CLI or the server.
package install
