// Package kimi is Kimi Code's hooks dialect (Moonshot AI's terminal agent, npm
// @moonshot-ai/kimi-code, read in its documentation, in the hook runner of its agent-core,
// packages/agent-core/src/session/hooks, and in the bundled code of release 2.1.0): its events, in Claude Code's names
// where Claude Code has them, how a hook's run reads as an answer as Kimi Code's runner reads it,
// how a decision is written in the one form it honours, the rewrite of its payload (Claude
// Code's, with Kimi Code's file tools naming their file "path") into Claude Code's shape and
// back, and the [[hooks]] tables of its config.toml that install edits.
//
// Kimi Code reads hooks only from the [[hooks]] array of tables of ~/.kimi-code/config.toml
// ($KIMI_CODE_HOME/config.toml), a file it shares with the model and provider settings. It
// imports decide, dialect, dialect/claude and go-toml.
package kimi
