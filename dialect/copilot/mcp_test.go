package copilot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMCPToolNames: a Claude Code hook run under Copilot CLI reads SERVER-TOOL as
// mcp__SERVER__TOOL, split where $COPILOT_HOME/mcp-config.json names the server, else at the
// first "-"; its matcher is tried on every split (ToolReadings). The MCP guard gets the
// configured split, or the joined name with mcp_split "-", which it judges in every split.
func TestMCPToolNames(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("COPILOT_HOME", "")
	payload := func(tool string) []byte {
		return []byte(`{"cwd":"/tmp","sessionId":"s","timestamp":1,"toolName":"` + tool + `","toolArgs":{}}`)
	}
	var v struct {
		Tool  string `json:"tool_name"`
		Split string `json:"mcp_split"`
	}
	check := func(tool, run, guard string) {
		t.Helper()
		_, b, _, err := ToClaude("preToolUse", payload(tool))
		if err == nil {
			err = json.Unmarshal(b, &v)
		}
		if err != nil || v.Tool != run {
			t.Errorf("ToClaude: %s is %s (%v), want %s", tool, v.Tool, err, run)
		}
		v.Split = ""
		g, err := GuardView(payload(tool))
		if err == nil {
			err = json.Unmarshal(g, &v)
		}
		if err != nil || v.Tool+v.Split != guard {
			t.Errorf("GuardView: %s is %s%s (%v), want %s", tool, v.Tool, v.Split, err, guard)
		}
	}
	check("my-db-list_tables", "mcp__my__db-list_tables", "mcp__my-db-list_tables-")
	check("create", "Write", "Write")
	config := filepath.Join(home, ".copilot", "mcp-config.json")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(`{"mcpServers": {"my-db": {"type": "local", "command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	check("my-db-list_tables", "mcp__my-db__list_tables", "mcp__my-db__list_tables")
	check("e2edb-drop_table", "mcp__e2edb__drop_table", "mcp__e2edb-drop_table-")
	t.Setenv("COPILOT_HOME", t.TempDir()) // moves the config: my-db is no longer named
	check("my-db-list_tables", "mcp__my__db-list_tables", "mcp__my-db-list_tables-")

	if got, want := ToolReadings("my-db-list_tables"), []string{"mcp__my__db-list_tables", "mcp__my-db__list_tables"}; !slices.Equal(got, want) {
		t.Errorf("ToolReadings = %v, want %v", got, want)
	}
	if r := ToolReadings("bash"); r != nil {
		t.Errorf("bash has readings %v", r)
	}
}

// TestSubagentIdentity: Copilot CLI's agentId and agentType (a subagent's call) reach a Claude
// Code hook as agent_id and agent_type, and go back as Copilot's; parentAgentId, which Claude
// Code has no field for, is passed as is.
func TestSubagentIdentity(t *testing.T) {
	t.Parallel()
	in := `{"cwd":"/tmp","sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"},"agentId":"a2","agentType":"general-purpose","parentAgentId":"a1"}`
	_, b, _, err := ToClaude("preToolUse", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["agent_id"] != "a2" || m["agent_type"] != "general-purpose" || m["parentAgentId"] != "a1" || m["agentId"] != nil || m["agentType"] != nil {
		t.Errorf("Claude Code's view of a subagent's call: %s", b)
	}
	back, _, err := FromClaude("preToolUse", b)
	if err != nil {
		t.Fatal(err)
	}
	m = nil
	if err := json.Unmarshal(back, &m); err != nil {
		t.Fatal(err)
	}
	if m["agentId"] != "a2" || m["agentType"] != "general-purpose" || m["agent_id"] != nil {
		t.Errorf("Copilot's view back: %s", back)
	}
}
