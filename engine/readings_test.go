package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/crush"
)

// TestMatcherTriesEveryReading: a Claude Code hook run for Crush's MCP tool mcp_my_db_list_tables,
// whose name splits two ways, fires when its matcher matches either reading (a deny hook on
// mcp__my_db__.* is not skipped because the payload reads mcp__my__db_list_tables), and a hook
// matching no reading is skipped; the readings stay with the call, not the shared event table.
func TestMatcherTriesEveryReading(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(home, ".claude"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"hooks": {"PreToolUse": [
		{"matcher": "mcp__my_db__list_tables", "hooks": [{"type": "command", "command": "echo 'no listing' >&2; exit 2"}]},
		{"matcher": "mcp__other__.*", "hooks": [{"type": "command", "command": "echo 'wrong server' >&2; exit 2"}]}]}}`), 0o644))
	eng, err := Load(Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none"), ClaudeManagedDir: filepath.Join(home, "none")}})
	must(t, err)
	fire := func(tool string) *Decision {
		t.Helper()
		d, err := eng.Fire(context.Background(), Event{Agent: crush.Name, Name: "PreToolUse",
			Payload: []byte(`{"event":"PreToolUse","session_id":"s","cwd":"` + home + `","tool_name":"` + tool + `","tool_input":{}}`)})
		must(t, err)
		return d
	}
	if d := fire("mcp_my_db_list_tables"); d.Permission != decide.Deny || d.Runs[0].Verdict == VerdictSkipped || d.Runs[1].Verdict != VerdictSkipped {
		t.Errorf("the hook on mcp__my_db__list_tables did not decide alone: %s %+v", d.Permission, d.Runs)
	}
	if d := fire("mcp_my_db_drop_tables"); d.Permission == decide.Deny {
		t.Errorf("a hook fired on a tool no reading names: %+v", d.Runs)
	}
	spec, _ := agentFor(dialect.Claude).Dialect(dialect.AskAsDeny).Lookup("PreToolUse")
	if spec.Readings != nil {
		t.Errorf("a call's readings leaked into Claude Code's event table: %v", spec.Readings)
	}
}
