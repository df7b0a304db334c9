// Package vscode is VS Code's agent hooks dialect (GitHub Copilot's agent in VS Code, the Local
// harness; preview), read from VS Code's source (src/vs/workbench/contrib/chat/common/
// promptSyntax/hookSchema.ts, hookTypes.ts, promptFileLocations.ts, chat.contribution.ts) and
// its documentation (code.visualstudio.com/docs/agent-customization/hooks and
// docs/agents/reference/hooks-reference, VS Code 1.140, September 2026). VS Code cannot run
// here: everything this package knows rests on those texts and on fixtures written from them.
//
// VS Code's eight events are Claude Code's PascalCase names. Its payloads mix two spellings:
// the common fields are camelCase (hookEventName, sessionId, an ISO timestamp) beside a
// snake_case transcript_path, and the tool fields are Claude Code's (tool_name, tool_input,
// tool_use_id, tool_response) with VS Code's own tool names (run_in_terminal, read_file,
// create_file, replace_string_in_file) and camelCase input keys (filePath). A hook answers as a
// Claude Code hook does: exit status 2 blocks with stderr shown to the model; any other non-zero
// status is a warning and the call runs; on exit 0 stdout is JSON with continue, stopReason,
// systemMessage and hookSpecificOutput (PreToolUse's permissionDecision allow/deny/ask,
// permissionDecisionReason, updatedInput and additionalContext).
//
// VS Code reads the hooks files of other agents: every *.json of a workspace's .github/hooks
// and of ~/.copilot/hooks (GitHub Copilot CLI's folders, whose "version": 1 files it reads in
// Copilot's camelCase, its bash as the Linux and macOS command and powershell as the Windows
// one), and, when its setting chat.useClaudeHooks is on (off by default), Claude Code's
// .claude/settings.json, .claude/settings.local.json and ~/.claude/settings.json, whose matchers
// it ignores. An entry may carry windows, linux and osx commands that override command on that
// platform. The package decodes such files with positioned problems. It imports decide,
// dialect, dialect/claude, internal/jsonpos and internal/srcpos.
package vscode
