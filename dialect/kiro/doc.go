// Package kiro is Kiro's hooks dialect (the Kiro IDE 1.x and kiro-cli 3.x, which share one agent
// harness), from Kiro's documentation (DocsVersion), not proven inside Kiro: Kiro is no npm
// package and cannot be pointed at a local model endpoint here.
//
// Kiro reads hooks from two places. Its current hooks files, .kiro/hooks/*.json in a workspace
// and ~/.kiro/hooks/*.json, are {"version":"v1","hooks":[{"name":...,"trigger":"PreToolUse",
// "matcher":"<regex>","action":{"type":"command","command":...},"timeout":60,"enabled":true}]},
// with PascalCase triggers (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop,
// PreTaskExec, PostTaskExec, PostFileCreate, PostFileSave, PostFileDelete, Manual). The hooks
// embedded in kiro-cli's agent configurations, .kiro/agents/*.json and ~/.kiro/agents/*.json
// ({"hooks":{"preToolUse":[{"matcher":...,"command":...,"timeout_ms":...}]}}, camelCase events
// agentSpawn, userPromptSubmit, preToolUse, postToolUse, stop), still run during the move to the
// new files, for the agent that is running only.
//
// A command hook gets a payload in Claude Code's snake_case shape (hook_event_name, cwd,
// session_id, tool_name, tool_input, tool_response) with Kiro's tool names (shell or
// execute_bash, read or fs_read, write or fs_write, @server/tool for MCP); exit status 2 blocks a
// PreToolUse, UserPromptSubmit or PreTaskExec with stderr as the reason the model reads; 0 is
// success, and stdout is added to the context on SessionStart and UserPromptSubmit; any other
// status is a warning and the action goes on. It imports decide, dialect, dialect/claude and
// agenthooks' internal JSON and position helpers.
package kiro
