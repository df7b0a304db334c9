package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// hermeticConfig points OpenCode's user configuration at an empty folder and returns a project
// folder whose opencode.json names servers.
func hermeticConfig(t *testing.T, servers string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("OPENCODE_CONFIG", "")
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "opencode.json"), []byte(`{"mcp": `+servers+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj
}

func toolName(t *testing.T, b []byte) string {
	t.Helper()
	var v struct {
		Tool string `json:"tool_name"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v.Tool
}

// TestMCPToolNames: a Claude Code hook run under OpenCode reads an MCP tool as
// mcp__SERVER__TOOL, split where opencode.json names the server (OpenCode 1.18.33 spells a
// server's "." as "_" in tool names), else at the first "_"; its matcher is tried on every
// split (ToolReadings). The MCP guard gets the configured split, or the joined name, which it
// judges in every split.
func TestMCPToolNames(t *testing.T) {
	proj := hermeticConfig(t, `{"my.db": {"type": "local", "command": ["x"]}}`)
	payload := func(tool, cwd string) []byte {
		return []byte(`{"hook_event_name":"tool.execute.before","tool":"` + tool + `","sessionID":"s","callID":"c","args":{},"cwd":"` + cwd + `"}`)
	}
	for _, c := range []struct{ tool, cwd, run, guard string }{
		{"my_db_list_tables", proj, "mcp__my_db__list_tables", "mcp__my_db__list_tables"},
		{"my_db_list_tables", "/nowhere", "mcp__my__db_list_tables", "mcp__my_db_list_tables"},
		{"e2edb_drop_table", proj, "mcp__e2edb__drop_table", "mcp__e2edb_drop_table"},
		{"bash", proj, "Bash", "Bash"},
		{"apply_patch", proj, "apply_patch", "apply_patch"},
	} {
		_, b, _, err := ToClaude(BeforeTool, payload(c.tool, c.cwd))
		if err != nil {
			t.Fatal(err)
		}
		if got := toolName(t, b); got != c.run {
			t.Errorf("ToClaude: %s in %s is %s, want %s", c.tool, c.cwd, got, c.run)
		}
		g, err := GuardView(payload(c.tool, c.cwd))
		if err != nil {
			t.Fatal(err)
		}
		if got := toolName(t, g); got != c.guard {
			t.Errorf("GuardView: %s in %s is %s, want %s", c.tool, c.cwd, got, c.guard)
		}
	}
	for in, want := range map[string]string{"my.db": "my_db", "a-b_c9": "a-b_c9", "é😀": "___"} {
		if got := toolNamePart(in); got != want {
			t.Errorf("toolNamePart(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := ToolReadings("my_db_list_tables"), []string{"mcp__my__db_list_tables", "mcp__my_db__list_tables", "mcp__my_db_list__tables"}; !slices.Equal(got, want) {
		t.Errorf("ToolReadings = %v, want %v", got, want)
	}
	for _, tool := range []string{"bash", "apply_patch", "todowrite", "mcp__a__b"} {
		if r := ToolReadings(tool); r != nil {
			t.Errorf("%s is no MCP tool, yet has readings %v", tool, r)
		}
	}
}
