// Package e2e proves agenthooks inside the real agents: Claude Code, Codex CLI, Gemini CLI,
// Qwen Code, Copilot CLI, Factory Droid, OpenCode, the Cline CLI and Kimi Code (on a Node
// installed from npm too), installed at pinned versions from the npm registry into a cache
// folder, and Crush from a cached source build, run their real agent loop against a model
// stand-in on loopback that asks for scripted tool calls and records every request. Its tests
// need npm and the registry: without them they skip, except under CI=true, where they fail.
// go test -short skips them.
package e2e
