package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return m
}

func TestCursorShellToClaude(t *testing.T) {
	t.Parallel()
	out, notes, err := Payload(dialect.Cursor, "beforeShellExecution",
		[]byte(`{"conversation_id":"c1","command":"git push","cwd":"/w","workspace_roots":["/w"],"transcript_path":"/t"}`),
		dialect.Claude, "PreToolUse", Env{})
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, out)
	if m["tool_name"] != "Bash" || m["tool_input"].(map[string]any)["command"] != "git push" || m["session_id"] != "c1" ||
		m["cwd"] != "/w" || m["hook_event_name"] != "PreToolUse" || m["transcript_path"] != "/t" {
		t.Fatalf("got %s", out)
	}
	if len(notes) != 0 {
		t.Fatalf("notes %v", notes)
	}
}

func TestClaudeBashToCursor(t *testing.T) {
	t.Parallel()
	in := `{"session_id":"s1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}`
	out, _, err := Payload(dialect.Claude, "PreToolUse", []byte(in), dialect.Cursor, "beforeShellExecution", Env{ProjectDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, out)
	if m["command"] != "ls" || m["cwd"] != "/w" || m["conversation_id"] != "s1" || m["hook_event_name"] != "beforeShellExecution" {
		t.Fatalf("got %s", out)
	}
	if roots := m["workspace_roots"].([]any); len(roots) != 1 || roots[0] != "/w" {
		t.Fatalf("workspace_roots %v", roots)
	}
	out, _, _ = Payload(dialect.Claude, "PreToolUse", []byte(in), dialect.Cursor, "preToolUse", Env{})
	if m := decode(t, out); m["tool_name"] != "Shell" || m["tool_use_id"] != "t1" {
		t.Fatalf("got %s", out)
	}
}

func TestToolNames(t *testing.T) {
	t.Parallel()
	for claude, cursor := range map[string]string{"Bash": "Shell", "Read": "Read", "Edit": "Write", "MultiEdit": "Write",
		"Grep": "Grep", "Task": "Task", "mcp__github__create_issue": "MCP:create_issue"} {
		if got := CursorTool(claude); got != cursor {
			t.Errorf("CursorTool(%s) = %s", claude, got)
		}
	}
	if got := ClaudeTool("MCP:create_issue", "github", nil); got != "mcp__github__create_issue" {
		t.Errorf("got %s", got)
	}
	if got := ClaudeTool("Write", "", map[string]any{"old_string": "a"}); got != "Edit" {
		t.Errorf("got %s", got)
	}
}

func TestLossesAreNotes(t *testing.T) {
	t.Parallel()
	_, notes, _ := Payload(dialect.Cursor, "beforeMCPExecution", []byte(`{"tool_name":"t","tool_input":"{}"}`), dialect.Claude, "PreToolUse", Env{})
	if !strings.Contains(strings.Join(notes, "\n"), "server's name is not in Cursor's payload") {
		t.Errorf("notes %v", notes)
	}
	_, notes, _ = Payload(dialect.Cursor, "stop", []byte(`{"status":"completed","loop_count":2}`), dialect.Claude, "Stop", Env{})
	if !strings.Contains(strings.Join(notes, "\n"), "no last assistant message") {
		t.Errorf("notes %v", notes)
	}
	if EventFor(dialect.Claude, "") != "" || EventFor(dialect.Cursor, dialect.Stop) != "stop" || EventFor(dialect.Claude, dialect.BeforeShell) != "PreToolUse" {
		t.Error("EventFor")
	}
}

func TestEditsCrossOver(t *testing.T) {
	t.Parallel()
	out, _, _ := Payload(dialect.Claude, "PostToolUse",
		[]byte(`{"tool_name":"Edit","tool_input":{"file_path":"/w/a.go","old_string":"a","new_string":"b"},"tool_response":{}}`),
		dialect.Cursor, "afterFileEdit", Env{})
	m := decode(t, out)
	edits := m["edits"].([]any)
	if m["file_path"] != "/w/a.go" || len(edits) != 1 || edits[0].(map[string]any)["new_string"] != "b" {
		t.Fatalf("got %s", out)
	}
	out, _, _ = Payload(dialect.Cursor, "afterFileEdit", out, dialect.Claude, "PostToolUse", Env{})
	if m := decode(t, out); m["tool_name"] != "Edit" || m["tool_input"].(map[string]any)["old_string"] != "a" {
		t.Fatalf("round trip %s", out)
	}
}
