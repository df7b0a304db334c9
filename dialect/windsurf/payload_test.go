package windsurf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenPayloads reads the payloads built from Windsurf's documented examples (not captured:
// see dialect/testdata/payloads/windsurf/README.md), named after their event.
func goldenPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "windsurf", "*.json"))
	if len(files) == 0 {
		t.Fatal("no Windsurf payloads in dialect/testdata/payloads/windsurf")
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

func object(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// TestGoldenPayloads: every documented payload rewrites into Claude Code's shape (the command in
// tool_input.command, a path in tool_input.file_path, an MCP tool as mcp__server__tool, the
// prompt in prompt) and back into Cascade's, with the same tool_info.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	for name, b := range goldenPayloads(t) {
		if _, ok := events()[name]; !ok {
			t.Errorf("%s: an event this package does not know", name)
			continue
		}
		orig := object(t, b)
		if orig["agent_action_name"] != name {
			t.Errorf("%s: agent_action_name %v", name, orig["agent_action_name"])
		}
		if ClaudeEvent(name) == "" {
			if _, _, _, err := ToClaude(name, b); err == nil {
				t.Errorf("%s has no Claude Code namesake, want an error", name)
			}
			continue
		}
		claudeName, cb, _, err := ToClaude(name, b)
		if err != nil || claudeName != ClaudeEvent(name) {
			t.Fatalf("%s: ToClaude = %q, %v", name, claudeName, err)
		}
		m := object(t, cb)
		if m["session_id"] != "traj-4f2a" || m["hook_event_name"] != claudeName || m["agent_action_name"] != nil || m["tool_info"] != nil {
			t.Errorf("%s: common fields in %s", name, cb)
		}
		in, _ := m["tool_input"].(map[string]any)
		want := map[string]func() bool{
			"pre_run_command": func() bool {
				return m["tool_name"] == "Bash" && in["command"] == "npm install package-name" && m["cwd"] == "/home/dev/project"
			},
			"pre_read_code": func() bool { return m["tool_name"] == "Read" && in["file_path"] == "/home/dev/project/src/main.py" },
			"pre_write_code": func() bool {
				return m["tool_name"] == "Edit" && in["old_string"] == "print(1)" && in["new_string"] == "print(2)"
			},
			"post_write_code":  func() bool { return m["tool_name"] == "MultiEdit" && len(in["edits"].([]any)) == 2 },
			"pre_mcp_tool_use": func() bool { return m["tool_name"] == "mcp__github__create_issue" && in["repo"] == "demo" },
			"post_mcp_tool_use": func() bool {
				return m["tool_name"] == "mcp__github__create_issue" && m["tool_response"] == "created issue #7"
			},
			"pre_user_prompt": func() bool { return m["prompt"] == "can you run echo hello" && m["tool_name"] == nil },
		}
		if check, ok := want[name]; ok && !check() {
			t.Errorf("%s: Claude Code's shape is %s", name, cb)
		}
		back, _, err := FromClaude(name, cb)
		if err != nil {
			t.Fatal(err)
		}
		w := object(t, back)
		if !jsonEqual(w["tool_info"], orig["tool_info"]) || w["agent_action_name"] != name || w["trajectory_id"] != "traj-4f2a" || w["hook_event_name"] != nil {
			t.Errorf("%s: round trip\n got  %s\n from %s", name, back, b)
		}
	}
}

// TestFromClaude: a Claude Code payload that never was Cascade's (a Write's content, a hook
// written for Claude Code's Bash) becomes Cascade's, saying what it drops.
func TestFromClaude(t *testing.T) {
	t.Parallel()
	b, notes, err := FromClaude("pre_write_code", []byte(`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"hi"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"agent_action_name":"pre_write_code","tool_info":{"edits":[{"new_string":"hi","old_string":""}],"file_path":"/w/a"},"trajectory_id":"s"}` {
		t.Errorf("got %s", got)
	}
	if len(notes) != 2 {
		t.Errorf("notes %q", notes)
	}
	if _, _, err := FromClaude("PreToolUse", []byte(`{}`)); err == nil {
		t.Error("want an error for an event Cascade does not have")
	}
}

func TestGuardView(t *testing.T) {
	t.Parallel()
	b, err := GuardView([]byte(`{"agent_action_name":"pre_run_command","tool_info":{"command_line":"rm -rf /","cwd":"/w"}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := object(t, b)
	if in, _ := m["tool_input"].(map[string]any); m["tool_name"] != "Bash" || in["command"] != "rm -rf /" || m["cwd"] != "/w" || m["hook_event_name"] != "pre_run_command" {
		t.Errorf("guard view %s", b)
	}
	if _, err := GuardView([]byte(`{"agent_action_name":"beforeShellExecution"}`)); err == nil {
		t.Error("want an error for a payload that is not Cascade's")
	}
}

func TestToClaudeErrors(t *testing.T) {
	t.Parallel()
	if _, _, _, err := ToClaude("pre_run_command", []byte(`"x"`)); err == nil {
		t.Error("a payload that is not an object, want an error")
	}
	if _, _, _, err := ToClaude("pre_run_command", []byte("{\n\"tool_info\": }")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a broken payload = %v, want its line", err)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func FuzzToClaude(f *testing.F) {
	for _, b := range []string{`{"agent_action_name":"pre_run_command","tool_info":{"command_line":"ls","cwd":"/"}}`,
		`{"tool_info":{"edits":[1,{"old_string":2}],"mcp_tool_arguments":[]}}`, `{"tool_info":"x","tool_input":{"command":"ls"}}`,
		`{"tool_name":"mcp__a","tool_input":{"x":1},"tool_response":{}}`} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, name := range Events {
			if _, b, _, err := ToClaude(name, payload); err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON out: %s", name, b)
			}
			if b, _, err := FromClaude(name, payload); err == nil && !json.Valid(b) {
				t.Errorf("%s: invalid JSON back: %s", name, b)
			}
		}
		_, _ = GuardView(payload)
	})
}
