package kiro

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// goldenPayloads reads the payloads built from Kiro's documented examples (not captured: see
// dialect/testdata/payloads/kiro/README.md), named after their event.
func goldenPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "kiro", "*.json"))
	if len(files) == 0 {
		t.Fatal("no Kiro payloads in dialect/testdata/payloads/kiro")
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

// TestGoldenPayloads: every documented payload is detected as Kiro's where its tool or event
// says so, rewrites into Claude Code's shape (Bash's command, Read's and Write's file_path, an
// MCP tool as mcp__server__tool) and back into Kiro's with the same input.
func TestGoldenPayloads(t *testing.T) {
	t.Parallel()
	for file, b := range goldenPayloads(t) {
		event, _, _ := strings.Cut(file, "-")
		orig := object(t, b)
		if orig["hook_event_name"] != event {
			t.Errorf("%s: hook_event_name %v", file, orig["hook_event_name"])
		}
		tool, _ := orig["tool_name"].(string)
		probe := dialect.Probe{HookEvent: event, Tool: tool}
		if want := IsTool(tool) || event == "agentSpawn" || event == "userPromptSubmit"; detect(probe) != want {
			t.Errorf("%s: detect = %v, want %v", file, !want, want)
		}
		claudeName, cb, _, err := ToClaude(event, b)
		if err != nil || claudeName != ClaudeEvent(event) || claudeName == "" {
			t.Fatalf("%s: ToClaude = %q, %v", file, claudeName, err)
		}
		m := object(t, cb)
		if m["hook_event_name"] != claudeName || m["cwd"] != orig["cwd"] {
			t.Errorf("%s: common fields in %s", file, cb)
		}
		in, _ := m["tool_input"].(map[string]any)
		checks := map[string]func() bool{
			"agentSpawn":       func() bool { return claudeName == "SessionStart" },
			"userPromptSubmit": func() bool { return m["prompt"] == "Add a test for the parser" },
			"preToolUse-read": func() bool {
				return m["tool_name"] == "Read" && in["file_path"] == "/current/working/directory/docs/hooks.md"
			},
			"postToolUse-read": func() bool { return m["tool_name"] == "Read" && m["tool_response"] != nil },
			"stop":             func() bool { return claudeName == "Stop" },
			"preToolUse-mcp": func() bool {
				return m["tool_name"] == "mcp__postgres__query" && in["sql"] != nil && m["session_id"] == "abc123-def456-789"
			},
			"preToolUse-fs_write": func() bool {
				return m["tool_name"] == "Write" && in["file_path"] == "/workspace/project/status.json" && in["content"] == "{\"ok\": true}\n" && in["command"] == nil
			},
			"PreToolUse-shell":         func() bool { return m["tool_name"] == "Bash" && in["command"] == "git push --force origin main" },
			"PostToolUse-execute_bash": func() bool { return m["tool_name"] == "Bash" && in["command"] == "npm test" },
		}
		check, ok := checks[file]
		if !ok {
			t.Errorf("%s: no check", file)
		} else if !check() {
			t.Errorf("%s: Claude Code's payload %s", file, cb)
		}
		back, _, err := FromClaude(Trigger(event), cb)
		if err != nil {
			t.Fatal(err)
		}
		bm := object(t, back)
		if bm["hook_event_name"] != Trigger(event) {
			t.Errorf("%s: back as %v", file, bm["hook_event_name"])
		}
		if tool != "" {
			if bt := bm["tool_name"].(string); ClaudeTool(bt) != ClaudeTool(tool) {
				t.Errorf("%s: tool %s came back as %s", file, tool, bt)
			}
			bin, _ := bm["tool_input"].(map[string]any)
			oin, _ := orig["tool_input"].(map[string]any)
			for k, v := range oin {
				if k == "command" && ClaudeTool(tool) == "Write" {
					continue
				}
				if got, _ := json.Marshal(bin[k]); string(got) != mustJSON(t, v) {
					t.Errorf("%s: tool_input.%s came back as %s", file, k, got)
				}
			}
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFromClaude: Claude Code's file tools become Kiro's write tool (create, str_replace) and
// its MCP names Kiro's @server/tool.
func TestFromClaude(t *testing.T) {
	t.Parallel()
	edit := `{"session_id":"s","transcript_path":"/t","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a.go","old_string":"x","new_string":"y"}}`
	b, _, err := FromClaude("PreToolUse", []byte(edit))
	m := object(t, b)
	in := m["tool_input"].(map[string]any)
	if err != nil || m["tool_name"] != "write" || in["command"] != "str_replace" || in["path"] != "a.go" || in["old_str"] != "x" || in["new_str"] != "y" || m["transcript_path"] != nil {
		t.Errorf("Edit = %s, %v", b, err)
	}
	// and back: a str_replace is Claude Code's Edit.
	_, cb, _, _ := ToClaude("PreToolUse", b)
	if c := object(t, cb); c["tool_name"] != "Edit" || c["tool_input"].(map[string]any)["old_string"] != "x" {
		t.Errorf("write str_replace = %s", cb)
	}
	for in, want := range map[string]string{"Bash": "shell", "mcp__github__create_issue": "@github/create_issue", "Task": "Task", "Read": "read"} {
		if got := KiroTool(in); got != want || ClaudeTool(want) != in && in != "Task" {
			t.Errorf("KiroTool(%s) = %s", in, got)
		}
	}
	if _, _, err := FromClaude("Nope", []byte(`{}`)); err == nil {
		t.Error("an unknown trigger converts")
	}
	if _, _, _, err := ToClaude("PostFileSave", []byte(`{}`)); err == nil {
		t.Error("PostFileSave has no Claude Code namesake")
	}
	if _, _, _, err := ToClaude("PreToolUse", []byte(`[1]`)); err == nil {
		t.Error("a payload that is no object converts")
	}
}

// TestGuardView: the guards read Kiro's shell and write tools in Claude Code's names, keep the
// event's own name, and name every file of a read of several in file_paths.
func TestGuardView(t *testing.T) {
	t.Parallel()
	b, err := GuardView([]byte(`{"hook_event_name":"preToolUse","tool_name":"execute_bash","tool_input":{"command":"rm -rf /"}}`))
	if m := object(t, b); err != nil || m["tool_name"] != "Bash" || m["hook_event_name"] != "preToolUse" {
		t.Errorf("shell view = %s, %v", b, err)
	}
	b, err = GuardView([]byte(`{"hook_event_name":"PreToolUse","tool_name":"write","tool_input":{"command":"create","path":".kiro/hooks/x.json","file_text":"{}"}}`))
	if m := object(t, b); err != nil || m["tool_name"] != "Write" || m["tool_input"].(map[string]any)["file_path"] != ".kiro/hooks/x.json" {
		t.Errorf("write view = %s, %v", b, err)
	}
	b, err = GuardView([]byte(`{"hook_event_name":"PreToolUse","tool_name":"read","tool_input":{"operations":[{"path":"a"},{"path":".env"}]}}`))
	if m := object(t, b); err != nil || fmt.Sprint(m["tool_input"].(map[string]any)["file_paths"]) != "[a .env]" {
		t.Errorf("a read of two files names both in file_paths for the read guard: %s, %v", b, err)
	}
	if _, err := GuardView([]byte(`not json`)); err == nil {
		t.Error("a payload that is not JSON is viewed")
	}
}

// TestDetect: Kiro's payload is told from the others' by its tool names and its agentSpawn,
// never when another agent's fields are there.
func TestDetect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		p    dialect.Probe
		want bool
	}{
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "shell"}, true},
		{dialect.Probe{HookEvent: "preToolUse", Tool: "fs_write"}, true},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "@git/status"}, true},
		{dialect.Probe{HookEvent: "agentSpawn"}, true},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash"}, false},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "write"}, true},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "read_file"}, false},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "shell", TurnID: "t"}, false},
		{dialect.Probe{HookEvent: "preToolUse", Tool: "shell", WorkspaceRoots: true}, false},
		{dialect.Probe{Event: "PreToolUse", Tool: "shell"}, false},
		{dialect.Probe{HookEvent: "SessionStart"}, false},
		{dialect.Probe{HookEvent: "userPromptSubmit"}, true},
		{dialect.Probe{HookEvent: "UserPromptSubmit"}, false},
		{dialect.Probe{HookEvent: "BeforeTool", Tool: "glob"}, false},
		{dialect.Probe{HookEvent: "PreToolUse", Tool: "glob", Timestamp: "2026-11-24T08:40:00.612Z"}, false},
	}
	for _, c := range cases {
		if got := detect(c.p); got != c.want {
			t.Errorf("detect(%+v) = %v", c.p, got)
		}
	}
}

func FuzzToClaude(f *testing.F) {
	f.Add("PreToolUse", []byte(`{"hook_event_name":"PreToolUse","tool_name":"fs_write","tool_input":{"command":"str_replace","path":"a","old_str":"x","new_str":"y"}}`))
	f.Add("preToolUse", []byte(`{"tool_name":"read","tool_input":{"operations":[{"path":"a"},{"path":3}]}}`))
	f.Add("Stop", []byte(`{"tool_name":5,"tool_input":[]}`))
	f.Fuzz(func(t *testing.T, event string, payload []byte) {
		if _, b, _, err := ToClaude(event, payload); err == nil {
			if _, _, err := FromClaude(Trigger(event), b); err != nil {
				t.Fatalf("%s: Claude Code's payload %s does not come back: %v", event, b, err)
			}
		}
		GuardView(payload)
	})
}
