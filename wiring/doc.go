// Package wiring answers, for each agent on a machine, "does this agent really run the
// agenthooks guard, and can it block?": whether agenthooks is registered in the agent's config
// files, whether each registered program resolves as the agent's shell would run it, whether the
// agent's own settings switch its hooks off or make it skip them (Claude Code's
// disableAllHooks, Gemini CLI's and Qwen Code's hooksConfig, Codex's feature flag and hook
// reviews), and, when asked, a canary sent through the hooks the agent runs for its shell tool.
//
// agenthooks doctor prints its Report; team sync uploads each agent's Wiring, computed without
// starting any process (no canary, no --version probe). It reads config and the agents'
// descriptors (dialect, dialect/agents); it must not import internal/cli, engine or server.
package wiring
