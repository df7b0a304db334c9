package auggie

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestGuardViewRemoveFiles: remove-files deletes every file it names; the edit guard gets it as
// Delete with each in file_paths, and a list it cannot read is an error.
func TestGuardViewRemoveFiles(t *testing.T) {
	t.Parallel()
	b, err := GuardView([]byte(`{"hook_event_name":"PreToolUse","tool_name":"remove-files","tool_input":{"file_paths":["a","~/.augment/settings.json"]}}`))
	var m map[string]any
	if err != nil || json.Unmarshal(b, &m) != nil || m["tool_name"] != "Delete" ||
		fmt.Sprint(m["tool_input"].(map[string]any)["file_paths"]) != "[a ~/.augment/settings.json]" {
		t.Errorf("remove-files view = %s, %v", b, err)
	}
	for _, bad := range []string{`"x"`, `[1]`, `[""]`, `{"a":1}`} {
		if b, err := GuardView([]byte(`{"hook_event_name":"PreToolUse","tool_name":"remove-files","tool_input":{"file_paths":` + bad + `}}`)); err == nil {
			t.Errorf("file_paths %s viewed as %s", bad, b)
		}
	}
}

// FuzzGuardView: GuardView's answer is an error or a JSON object.
func FuzzGuardView(f *testing.F) {
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"remove-files","tool_input":{"file_paths":["a"]}}`)
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"save-file","tool_input":{"path":"a","file_content":"x"}}`)
	f.Add(`{"tool_name":"remove-files","tool_input":null}`)
	f.Fuzz(func(t *testing.T, payload string) {
		b, err := GuardView([]byte(payload))
		if err != nil {
			return
		}
		if _, err := dialect.DecodePayload(b); err != nil {
			t.Fatalf("GuardView wrote what it cannot read: %s", b)
		}
	})
}
