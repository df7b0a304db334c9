package windsurf

import (
	"sync"

	"github.com/agenthooks/agenthooks/dialect"
)

// Name is the dialect's name.
const Name dialect.Name = "windsurf"

// DocsVersion names the documentation this package follows: Windsurf's Cascade Hooks page, the
// same text Devin Desktop publishes.
const DocsVersion = "docs.windsurf.com/windsurf/cascade/hooks and docs.devin.ai/desktop/cascade/hooks, read 2026-11-24"

// Events are the hook events a Cascade hooks.json can name, in the documentation's order.
var Events = []string{"pre_read_code", "post_read_code", "pre_write_code", "post_write_code", "pre_run_command",
	"post_run_command", "pre_mcp_tool_use", "post_mcp_tool_use", "pre_user_prompt", "post_cascade_response",
	"post_cascade_response_with_transcript", "post_setup_worktree"}

// event is one Cascade event: its spec, and its namesake in Claude Code (event and tool) whose
// hooks run for it and whose payload shape it is rewritten into.
type event struct {
	dialect.Spec
	claude string // Claude Code's event, "" for none
	tool   string // Claude Code's tool, for a tool event
	// block: Cascade blocks the action when the hook exits with status 2 (a pre-hook).
	block bool
}

// The event table, built on first use: a package-level sync.OnceValue would run at start, in
// every guard process.
var (
	eventsOnce  sync.Once
	eventsTable map[string]*event
)

func events() map[string]*event {
	eventsOnce.Do(func() { eventsTable = buildEvents() })
	return eventsTable
}

func buildEvents() map[string]*event {
	spec := func(name string, kind dialect.Kind, gates bool) dialect.Spec {
		return dialect.Spec{Dialect: Name, Name: name, Kind: kind, Gates: gates}
	}
	list := []event{
		{Spec: spec("pre_read_code", dialect.BeforeRead, true), claude: "PreToolUse", tool: "Read", block: true},
		{Spec: spec("post_read_code", dialect.AfterRead, false), claude: "PostToolUse", tool: "Read"},
		{Spec: spec("pre_write_code", dialect.BeforeEdit, true), claude: "PreToolUse", tool: "Edit", block: true},
		{Spec: spec("post_write_code", dialect.AfterEdit, false), claude: "PostToolUse", tool: "Edit"},
		{Spec: spec("pre_run_command", dialect.BeforeShell, true), claude: "PreToolUse", tool: "Bash", block: true},
		{Spec: spec("post_run_command", dialect.AfterShell, false), claude: "PostToolUse", tool: "Bash"},
		{Spec: spec("pre_mcp_tool_use", dialect.BeforeMCP, true), claude: "PreToolUse", tool: "mcp", block: true},
		{Spec: spec("post_mcp_tool_use", dialect.AfterMCP, false), claude: "PostToolUse", tool: "mcp"},
		{Spec: spec("pre_user_prompt", dialect.PromptSubmit, true), claude: "UserPromptSubmit", block: true},
		// Cascade runs it asynchronously after a whole response: nothing can block or loop.
		{Spec: spec("post_cascade_response", "", false)},
		{Spec: spec("post_cascade_response_with_transcript", "", false)},
		{Spec: spec("post_setup_worktree", "", false)},
	}
	m := make(map[string]*event, len(list))
	for i := range list {
		m[list[i].Name] = &list[i]
	}
	return m
}

// ClaudeEvent names the Claude Code event whose hooks run for a Cascade event, or "".
func ClaudeEvent(name string) string {
	if e, ok := events()[name]; ok {
		return e.claude
	}
	return ""
}

// ClaudeMatcher is the Claude Code matcher that selects the tools a Cascade event is about
// (Bash, Read, Edit|Write|MultiEdit, mcp__.*), "" for an event that is not about a tool.
func ClaudeMatcher(name string) string {
	e, ok := events()[name]
	if !ok {
		return ""
	}
	switch e.tool {
	case "Edit":
		return "Edit|Write|MultiEdit"
	case "mcp":
		return "mcp__.*"
	}
	return e.tool
}

// ToolEvents returns Cascade's events before (pre) or after a tool runs, in Events' order,
// whose tools match selects, given each of the tool's Claude Code names (Edit, Write and
// MultiEdit for pre_write_code, mcp__server__tool for pre_mcp_tool_use).
func ToolEvents(pre bool, selects func(claudeTool string) bool) []string {
	var out []string
	for _, name := range Events {
		e := events()[name]
		if e.tool == "" || e.block != pre {
			continue
		}
		names := []string{e.tool}
		switch e.tool {
		case "Edit":
			names = []string{"Edit", "Write", "MultiEdit"}
		case "mcp":
			names = []string{"mcp__server__tool"}
		}
		for _, n := range names {
			if selects(n) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
