package dialect

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMCPSplit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, joined string
		sep          byte
		servers      []string
		server, tool string
		ok           bool
	}{
		{"first split with no servers", "e2edb_list_tables", '_', nil, "e2edb", "list_tables", true},
		{"a configured server with _", "my_db_list_tables", '_', []string{"other", "my_db"}, "my_db", "list_tables", true},
		{"the longest configured server", "my_db_x_t", '_', []string{"my", "my_db", "my_db_x"}, "my_db_x", "t", true},
		{"a server that leaves no tool is not taken", "my_db_", '_', []string{"my_db"}, "my", "db_", true},
		{"a server not followed by sep is not taken", "my_dbx_t", '_', []string{"my_db"}, "my", "dbx_t", true},
		{"Copilot's -", "my-db-list_tables", '-', []string{"my-db"}, "my-db", "list_tables", true},
		{"nothing to split at", "tool", '_', nil, "", "", false},
		{"a leading sep is not a split", "_tool", '_', nil, "", "", false},
		{"a trailing sep is not a split", "tool_", '_', nil, "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, tool, ok := MCPSplit(c.joined, c.sep, c.servers)
			if s != c.server || tool != c.tool || ok != c.ok {
				t.Errorf("MCPSplit(%q, %q, %v) = %q, %q, %v; want %q, %q, %v", c.joined, c.sep, c.servers, s, tool, ok, c.server, c.tool, c.ok)
			}
		})
	}
}

func TestMCPReadings(t *testing.T) {
	t.Parallel()
	got := MCPReadings("my_db_list", '_')
	want := []string{"mcp__my__db_list", "mcp__my_db__list"}
	if !slices.Equal(got, want) {
		t.Errorf("MCPReadings = %v, want %v", got, want)
	}
	if got := MCPReadings("_x_", '_'); got != nil {
		t.Errorf("a name with no inner sep has no reading: %v", got)
	}
}

func TestMCPServers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jsonc := write("a.jsonc", "{\n  // servers\n  \"mcp\": {\"my_db\": {}, /* and */ \"e2edb\": {}}\n}")
	other := write("b.json", `{"mcp": {"third": {"type": "local"}}, "mcpServers": {"elsewhere": {}}}`)
	broken := write("c.json", `{"mcp": `)
	notObject := write("d.json", `{"mcp": ["x"]}`)
	got := MCPServers("mcp", jsonc, "", filepath.Join(dir, "missing.json"), broken, notObject, other)
	slices.Sort(got)
	if want := []string{"e2edb", "my_db", "third"}; !slices.Equal(got, want) {
		t.Errorf("MCPServers = %v, want %v", got, want)
	}
}

// FuzzMCPSplit: no name panics the split, a split gives back the name, and the chosen reading
// is always one of MCPReadings'.
func FuzzMCPSplit(f *testing.F) {
	f.Add("e2edb_list_tables", "e2edb", byte('_'))
	f.Add("my-db-list_tables", "my-db", byte('-'))
	f.Add("my_db_", "my_db", byte('_'))
	f.Add("__", "", byte('_'))
	f.Fuzz(func(t *testing.T, joined, server string, sep byte) {
		s, tool, ok := MCPSplit(joined, sep, []string{server})
		if !ok {
			if len(MCPReadings(joined, sep)) != 0 {
				t.Fatalf("MCPSplit(%q) found no split, MCPReadings did", joined)
			}
			return
		}
		if s+string([]byte{sep})+tool != joined || s == "" || tool == "" {
			t.Fatalf("MCPSplit(%q) = %q, %q", joined, s, tool)
		}
		if !slices.Contains(MCPReadings(joined, sep), MCPTool(s, tool)) {
			t.Fatalf("MCPSplit(%q)'s reading %s is not among MCPReadings", joined, MCPTool(s, tool))
		}
	})
}

// TestMCPNameTwoServersFit: a name that two configured servers fit is not settled by the
// configuration (a project can declare db_drop beside db): the first split, not known, so a
// guard judges every reading.
func TestMCPNameTwoServersFit(t *testing.T) {
	for _, c := range []struct {
		joined  string
		servers []string
		name    string
		known   bool
	}{
		{"db_drop_table", []string{"db"}, "mcp__db__drop_table", true},
		{"db_drop_table", []string{"db_drop"}, "mcp__db_drop__table", true},
		{"db_drop_table", []string{"db", "db_drop"}, "mcp__db__drop_table", false},
		{"db_drop_table", []string{"db_drop", "db"}, "mcp__db__drop_table", false},
		{"my_db_list", nil, "mcp__my__db_list", false},
		{"my_db_list", []string{"other"}, "mcp__my__db_list", false},
	} {
		name, known := MCPName(c.joined, '_', c.servers)
		if name != c.name || known != c.known {
			t.Errorf("MCPName(%q, %q) = %q, %v; want %q, %v", c.joined, c.servers, name, known, c.name, c.known)
		}
	}
}
