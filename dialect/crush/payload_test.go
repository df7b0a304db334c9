package crush

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// goldenPayloads are Crush's payloads in dialect/testdata/payloads/crush, as its
// hooks.BuildPayload writes them (go test ./e2e -update-payloads captures them from Crush).
func goldenPayloads(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "payloads", "crush", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden payloads for crush: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = b
	}
	return out
}

// TestPayloadsBothWays: each of Crush's payloads reads as Claude Code's (hook_event_name,
// Claude Code's tool names, the same tool_input) and comes back as it was.
func TestPayloadsBothWays(t *testing.T) {
	t.Parallel()
	want := map[string]string{"bash": "Bash", "view": "Read", "write": "Write"}
	for name, b := range goldenPayloads(t) {
		event, tool, _ := strings.Cut(name, "-")
		claudeName, cb, notes, err := ToClaude(event, b)
		if err != nil || claudeName != "PreToolUse" || len(notes) != 0 {
			t.Fatalf("%s: ToClaude = %s, %v, %v", name, claudeName, notes, err)
		}
		var c map[string]any
		if err := json.Unmarshal(cb, &c); err != nil {
			t.Fatal(err)
		}
		if c["hook_event_name"] != "PreToolUse" || c["tool_name"] != want[tool] || c["event"] != nil {
			t.Errorf("%s as Claude Code's: %s", name, cb)
		}
		back, notes, err := FromClaude(event, cb)
		if err != nil || len(notes) != 0 {
			t.Fatalf("%s: FromClaude: %v %v", name, notes, err)
		}
		var orig, got map[string]any
		_ = json.Unmarshal(b, &orig)
		_ = json.Unmarshal(back, &got)
		if !reflect.DeepEqual(orig, got) {
			t.Errorf("%s round trip:\n got %s\nwant %s", name, back, b)
		}
	}
}

func TestFromClaudeDropsWhatCrushHasNot(t *testing.T) {
	t.Parallel()
	b, notes, err := FromClaude("PreToolUse", []byte(`{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"/t","cwd":"/w",`+
		`"permission_mode":"default","tool_name":"MultiEdit","tool_input":{"file_path":"/w/a","edits":[]},"tool_use_id":"t1"}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"cwd":"/w","event":"PreToolUse","session_id":"s","tool_input":{"edits":[],"file_path":"/w/a"},"tool_name":"multiedit"}` {
		t.Errorf("payload %s", b)
	}
	if len(notes) != 3 {
		t.Errorf("notes %v", notes)
	}
	if _, _, err := FromClaude("Stop", []byte(`{}`)); err == nil {
		t.Error("Crush has no Stop")
	}
	if _, _, _, err := ToClaude("PreToolUse", []byte(`[]`)); err == nil {
		t.Error("a payload must be an object")
	}
	_, _, notes, _ = ToClaude("PreToolUse", []byte(`{"event":"PreToolUse","tool_name":"mcp_github_create_issue"}`))
	if len(notes) != 1 {
		t.Errorf("an MCP tool's name is passed with a note: %v", notes)
	}
}

func TestGuardView(t *testing.T) {
	t.Parallel()
	b, err := GuardView(goldenPayloads(t)["PreToolUse-bash"])
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Event     string         `json:"hook_event_name"`
		Tool      string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.Event != "PreToolUse" || v.Tool != "Bash" || v.ToolInput["command"] != "echo hello > hello.txt" {
		t.Errorf("guard view %s (%v)", b, err)
	}
	if _, err := GuardView([]byte(`{"event":`)); err == nil {
		t.Error("broken JSON must be an error")
	}
	// Crush's MCP tools (mcp_<server>_<tool>, seen in e2e TestCrushMCPGuard) reach the MCP guard
	// as the neutral joined name, which it judges in every split; a name already in Claude
	// Code's form keeps it.
	for in, want := range map[string]string{"mcp_e2edb_drop_table": "mcp__e2edb_drop_table", "mcp__a__b": "mcp__a__b", "download": "download"} {
		b, err := GuardView([]byte(`{"event":"PreToolUse","cwd":"/tmp","tool_name":"` + in + `","tool_input":{}}`))
		if err == nil {
			err = json.Unmarshal(b, &v)
		}
		if err != nil || v.Tool != want {
			t.Errorf("guard view of %s: %s (%v), want tool_name %s", in, b, err, want)
		}
	}
}

// FuzzGuardView: no payload makes the guard's view panic, what it writes reads back as an
// object, and it never leaves one of Crush's MCP names (mcp_<server>_<tool>) for the MCP guard
// to take for another tool.
func FuzzGuardView(f *testing.F) {
	for _, b := range goldenPayloads(f) {
		f.Add(string(b))
	}
	f.Add(`{"event":"PreToolUse","cwd":"/tmp","tool_name":"mcp_e2edb_drop_table","tool_input":{}}`)
	f.Add(`{"event":"PreToolUse","tool_name":"download","tool_input":{"url":"http://x","file_path":"crush.json"}}`)
	f.Add(`{"tool_name":5}`)
	f.Add(`{"event":"PreToolUse","cwd":"/tmp","tool_name":"mcp_my_db_list_tables","tool_input":{}}`)
	f.Fuzz(func(t *testing.T, payload string) {
		// run --agent crush gives a Claude Code hook Claude Code's mcp__SERVER__TOOL.
		if _, b, _, err := ToClaude("PreToolUse", []byte(payload)); err == nil {
			m, err := dialect.DecodePayload(b)
			if err != nil {
				t.Fatalf("ToClaude wrote what it cannot read: %s", b)
			}
			if tool, _ := m["tool_name"].(string); strings.HasPrefix(tool, "mcp_") && !strings.HasPrefix(tool, "mcp__") {
				t.Fatalf("a Claude Code hook reads Crush's MCP name: %s", b)
			}
		}
		v, err := GuardView([]byte(payload))
		if err != nil {
			return
		}
		m, err := dialect.DecodePayload(v)
		if err != nil {
			t.Fatalf("GuardView wrote what it cannot read: %s", v)
		}
		if tool, _ := m["tool_name"].(string); strings.HasPrefix(tool, "mcp_") && !strings.HasPrefix(tool, "mcp__") {
			t.Fatalf("an MCP name left unjoined: %s", v)
		}
	})
}
