package gemini

import (
	"encoding/json"
	"testing"
)

// TestMCPToolNames: Gemini CLI 0.61 names an MCP tool mcp_<server>_<tool> and says which in
// mcp_context (as captured inside it, e2e TestGeminiMCPGuard); the payload in Claude Code's shape
// names it mcp__<server>__<tool>, so a Claude Code hook's matcher (mcp__e2e_db__.*) fires under
// Gemini, and the rename back gives Gemini's name again. Names with underscores split by
// mcp_context, not by the name.
func TestMCPToolNames(t *testing.T) {
	const payload = `{"hook_event_name":"BeforeTool","tool_name":"mcp_e2e_db_drop_table","tool_input":{},` +
		`"mcp_context":{"server_name":"e2e_db","tool_name":"drop_table","command":"/bin/srv","args":[]}}`
	name, b, _, err := ToClaude("BeforeTool", []byte(payload))
	if err != nil || name != "PreToolUse" {
		t.Fatalf("ToClaude = %q, %v", name, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["tool_name"] != "mcp__e2e_db__drop_table" {
		t.Errorf("tool_name = %v, want mcp__e2e_db__drop_table", m["tool_name"])
	}
	RenameFromClaude("BeforeTool", m)
	if m["tool_name"] != "mcp_e2e_db_drop_table" {
		t.Errorf("renamed back: tool_name = %v, want mcp_e2e_db_drop_table", m["tool_name"])
	}
	// without mcp_context, or with one that names nothing, the name is kept
	for _, p := range []string{`{"tool_name":"mcp_a_b","tool_input":{}}`, `{"tool_name":"mcp_a_b","mcp_context":{"server_name":1}}`} {
		_, b, _, _ := ToClaude("BeforeTool", []byte(p))
		if err := json.Unmarshal(b, &m); err != nil || m["tool_name"] != "mcp_a_b" {
			t.Errorf("%s: tool_name = %v, want mcp_a_b kept", p, m["tool_name"])
		}
	}
}
