package copilot

// Events are the hook events a Copilot CLI hooks file can name (camelCase).
var Events = []string{"sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse",
	"postToolUseFailure", "agentStop", "subagentStart", "subagentStop", "errorOccurred", "preCompact",
	"permissionRequest", "notification", "preMcpToolCall"}
