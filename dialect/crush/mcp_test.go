package crush

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMCPToolNames: a Claude Code hook run under Crush reads mcp_SERVER_TOOL as
// mcp__SERVER__TOOL, split where crush.json (the project's, or the user's) names the server,
// else at the first "_" with a note; its matcher is tried on every split (ToolReadings). The
// MCP guard gets the configured split, or the joined name, which it judges in every split.
func TestMCPToolNames(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CRUSH_GLOBAL_CONFIG", filepath.Join(home, "global"))
	proj := t.TempDir()
	for p, servers := range map[string]string{filepath.Join(proj, "crush.json"): `{"my_db": {}}`, filepath.Join(home, "global", "crush.json"): `{"user_srv": {}}`} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"mcp": `+servers+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var v struct {
		Tool string `json:"tool_name"`
	}
	for _, c := range []struct {
		tool, cwd, run, guard string
		notes                 int
	}{
		{"mcp_my_db_list_tables", proj, "mcp__my_db__list_tables", "mcp__my_db__list_tables", 0},
		{"mcp_user_srv_do_it", "/nowhere", "mcp__user_srv__do_it", "mcp__user_srv__do_it", 0},
		{"mcp_my_db_list_tables", "/nowhere", "mcp__my__db_list_tables", "mcp__my_db_list_tables", 1},
		{"mcp__a__b", proj, "mcp__a__b", "mcp__a__b", 0},
		{"bash", proj, "Bash", "Bash", 0},
	} {
		payload := []byte(`{"event":"PreToolUse","session_id":"s","cwd":"` + c.cwd + `","tool_name":"` + c.tool + `","tool_input":{}}`)
		_, b, notes, err := ToClaude("PreToolUse", payload)
		if err == nil {
			err = json.Unmarshal(b, &v)
		}
		if err != nil || v.Tool != c.run || len(notes) != c.notes {
			t.Errorf("ToClaude: %s in %s is %s with notes %v (%v), want %s with %d", c.tool, c.cwd, v.Tool, notes, err, c.run, c.notes)
		}
		g, err := GuardView(payload)
		if err == nil {
			err = json.Unmarshal(g, &v)
		}
		if err != nil || v.Tool != c.guard {
			t.Errorf("GuardView: %s in %s is %s (%v), want %s", c.tool, c.cwd, v.Tool, err, c.guard)
		}
	}
	if got, want := ToolReadings("mcp_my_db_list"), []string{"mcp__my__db_list", "mcp__my_db__list"}; !slices.Equal(got, want) {
		t.Errorf("ToolReadings = %v, want %v", got, want)
	}
	for _, tool := range []string{"bash", "mcp__a__b", "mcp_", "multiedit"} {
		if r := ToolReadings(tool); r != nil {
			t.Errorf("%s has readings %v", tool, r)
		}
	}
}
