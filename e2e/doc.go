// Package e2e proves agenthooks inside the real agents: Codex CLI and Gemini CLI, installed
// at pinned versions from the npm registry into a cache folder, run their real agent loop
// against a model stand-in on loopback that asks for scripted tool calls and records every
// request. Its tests need npm and the registry: without them they skip, except under CI=true,
// where they fail. go test -short skips them.
package e2e
