package cli_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/cursor"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden")

// goldenPayloads are realistic payloads per event; events not listed get a minimal one.
var goldenPayloads = map[string]string{
	"cursor/beforeShellExecution": `{"conversation_id":"c1","generation_id":"g1","model":"gpt-5","command":"npm test","cwd":"/w","sandbox":false}`,
	"cursor/beforeMCPExecution":   `{"conversation_id":"c1","tool_name":"create_issue","tool_input":"{\"title\":\"x\"}","url":"https://mcp.example.com/github"}`,
	"cursor/beforeReadFile":       `{"conversation_id":"c1","file_path":"/w/.env","content":"A=1","attachments":[]}`,
	"cursor/beforeSubmitPrompt":   `{"conversation_id":"c1","prompt":"deploy it","attachments":[]}`,
	"cursor/preToolUse":           `{"conversation_id":"c1","tool_name":"Shell","tool_input":{"command":"ls"},"tool_use_id":"t1","cwd":"/w"}`,
	"cursor/stop":                 `{"conversation_id":"c1","status":"completed","loop_count":0}`,
	"cursor/subagentStop":         `{"conversation_id":"c1","subagent_type":"explore","status":"completed","loop_count":0}`,
	"claude/PreToolUse":           `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"},"tool_use_id":"t1"}`,
	"claude/PermissionRequest":    `{"session_id":"s1","cwd":"/w","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"npm test"}}`,
	"claude/PostToolUse":          `{"session_id":"s1","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/w/a.go"},"tool_response":{"success":true},"tool_use_id":"t1"}`,
	"claude/UserPromptSubmit":     `{"session_id":"s1","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"deploy it"}`,
	"claude/Stop":                 `{"session_id":"s1","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`,
	"claude/SessionStart":         `{"session_id":"s1","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}`,
}

// goldenHooks are the four hooks every event is run with, in the agent's own dialect.
var goldenModes = []string{"allow", "deny", "ask", "error"}

func goldenCommand(dialect, event, mode string) string {
	switch mode {
	case "deny":
		return "cat >/dev/null; echo 'denied by the golden hook' >&2; exit 2"
	case "error":
		return "cat >/dev/null; echo 'the golden hook crashed' >&2; exit 1"
	}
	var answer string
	if dialect == "cursor" {
		answer = map[string]string{"allow": `{"permission":"allow","followup_message":"go on","continue":true}`,
			"ask": `{"permission":"ask","user_message":"the golden hook asks","agent_message":"wait for the user"}`}[mode]
		ev, _ := cursor.Lookup(event)
		if ev.Shape == cursor.ReadPermission || ev.Shape == cursor.SubagentGate {
			answer = map[string]string{"allow": `{"permission":"allow"}`, "ask": `{"permission":"deny","user_message":"reads ask as deny"}`}[mode]
		}
		if ev.Shape == cursor.Prompt {
			answer = map[string]string{"allow": `{"continue":true}`, "ask": `{"continue":false,"user_message":"not this prompt"}`}[mode]
		}
		if ev.Shape == cursor.Followup {
			answer = `{"followup_message":"run the tests again"}`
		}
		if ev.Shape == cursor.Observe || ev.Shape == cursor.Compact || ev.Shape == cursor.PostTool || ev.Shape == cursor.SessionStart || ev.Shape == cursor.WorkspaceOpen {
			answer = `{}`
		}
	} else {
		switch event {
		case "PreToolUse":
			answer = fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":%q,"permissionDecisionReason":"golden"}}`, mode)
		case "PermissionRequest":
			answer = map[string]string{"allow": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`,
				"ask": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`}[mode]
		case "Stop", "SubagentStop":
			answer = `{"decision":"block","reason":"run the tests again"}`
		case "UserPromptSubmit", "PostToolUse", "PreCompact", "ConfigChange", "TaskCreated", "PostToolBatch", "UserPromptExpansion":
			answer = map[string]string{"allow": `{"systemMessage":"looked fine"}`, "ask": `{"decision":"block","reason":"the golden hook blocks"}`}[mode]
		case "SessionStart", "SubagentStart", "Setup":
			answer = fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":%q,"additionalContext":"golden context"}}`, event)
		default:
			answer = map[string]string{"allow": ``, "ask": `{"continue":false,"stopReason":"the golden hook stops"}`}[mode]
		}
	}
	if answer == "" {
		return "cat >/dev/null; exit 0"
	}
	return "cat >/dev/null; echo '" + answer + "'"
}

func goldenConfig(dialect, event, command string) (flagName, body string) {
	if dialect == "cursor" {
		cfg := map[string]any{"version": 1, "hooks": map[string]any{event: []any{map[string]any{"command": command}}}}
		b, _ := json.Marshal(cfg)
		return "--config", string(b)
	}
	cfg := map[string]any{"hooks": map[string]any{event: []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}}}}
	b, _ := json.Marshal(cfg)
	return "--settings", string(b)
}

// TestGolden runs every event of both dialects through the built binary with an allowing, a
// denying, an asking and a failing hook, and compares exit code, stdout and stderr with
// testdata/golden/<dialect>/<event>.golden (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	if _, err := exec.LookPath("agenthooks"); err != nil {
		t.Skip("agenthooks is not on PATH (testscript puts it there)")
	}
	events := map[string][]string{"cursor": cursor.Names(), "claude": claude.Names()}
	for _, dialect := range []string{"cursor", "claude"} {
		for _, event := range events[dialect] {
			t.Run(dialect+"/"+event, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				payload := goldenPayloads[dialect+"/"+event]
				if payload == "" {
					payload = `{"session_id":"s1","conversation_id":"c1","cwd":"/w"}`
				}
				var got bytes.Buffer
				fmt.Fprintf(&got, "# payload\n%s\n", payload)
				for _, mode := range goldenModes {
					flagName, cfg := goldenConfig(dialect, event, goldenCommand(dialect, event, mode))
					file := filepath.Join(dir, mode+".json")
					os.WriteFile(file, []byte(cfg), 0o644)
					cmd := exec.Command("agenthooks", "run", "--agent", dialect, event, flagName, file)
					cmd.Env = append(os.Environ(), "HOME="+dir, "AGENTHOOKS_ENTERPRISE_DIR="+dir, "AGENTHOOKS_CLAUDE_MANAGED_DIR="+dir, "CURSOR_PROJECT_DIR=", "CLAUDE_PROJECT_DIR=")
					cmd.Dir = dir
					cmd.Stdin = strings.NewReader(payload)
					var stdout, stderr bytes.Buffer
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					err := cmd.Run()
					code := 0
					if ee, ok := err.(*exec.ExitError); ok {
						code = ee.ExitCode()
					} else if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&got, "# %s hook: exit %d\nstdout: %s\nstderr: %s\n", mode, code, strings.TrimSpace(stdout.String()), strings.TrimSpace(stderr.String()))
				}
				golden := filepath.Join("testdata", "golden", dialect, event+".golden")
				if *updateGolden {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					os.WriteFile(golden, got.Bytes(), 0o644)
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./internal/cli -run TestGolden -update writes it)", err)
				}
				if got.String() != string(want) {
					t.Errorf("%s differs:\n--- got\n%s--- want\n%s", golden, got.String(), want)
				}
			})
		}
	}
}
