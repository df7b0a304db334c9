package opencode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestGuardViewMCP: OpenCode 1.18 names an MCP server's tool SERVER_TOOL; the guards get it as
// mcp__SERVER_TOOL (server and tool not split), and its built-in tools keep their names.
func TestGuardViewMCP(t *testing.T) {
	t.Parallel()
	for tool, want := range map[string]string{
		"github_delete_repository": "mcp__github_delete_repository",
		"my-server_run":            "mcp__my-server_run",
		"read":                     "Read",
		"bash":                     "Bash",
		"apply_patch":              "apply_patch",
		"todoread":                 "todoread",
		"plan_exit":                "plan_exit",
		"mytool":                   "mytool",
		"mcp__a__b":                "mcp__a__b",
	} {
		b, err := GuardView([]byte(`{"hook_event_name":"tool.execute.before","tool":"` + tool + `","args":{},"cwd":"/tmp"}`))
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || m["tool_name"] != want {
			t.Errorf("%s: tool_name %v, want %s (%v)", tool, m["tool_name"], want, err)
		}
	}
}

// FuzzGuardView: whatever the plugin sends, GuardView's answer is an error or a JSON object, and
// a tool it names mcp__ is one no built-in of OpenCode's has.
func FuzzGuardView(f *testing.F) {
	f.Add(`{"hook_event_name":"tool.execute.before","tool":"github_delete_repository","args":{},"cwd":"/tmp"}`)
	f.Add(`{"hook_event_name":"tool.execute.before","tool":"bash","args":{"command":"ls","workdir":"x"},"cwd":"/tmp"}`)
	f.Add(`{"tool":"edit","args":{"filePath":"/a"}}`)
	f.Add(`null`)
	f.Add(`{"hook_event_name":"tool.execute.before","tool":"my_db_list_tables","args":{},"cwd":"/tmp"}`)
	f.Fuzz(func(t *testing.T, payload string) {
		b, err := GuardView([]byte(payload))
		if err != nil {
			return
		}
		m, err := dialect.DecodePayload(b)
		if err != nil {
			t.Fatalf("GuardView wrote what it cannot read: %s", b)
		}
		if name, _ := m["tool_name"].(string); strings.HasPrefix(name, "mcp__") {
			orig := strings.TrimPrefix(name, "mcp__")
			if _, known := claudeTools()[orig]; known || builtin()[orig] {
				t.Fatalf("built-in %s taken for an MCP tool", orig)
			}
		}
	})
}
