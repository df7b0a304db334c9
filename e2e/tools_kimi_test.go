package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tool scenarios of e2e/tools_test.go for Kimi Code, which speaks Chat Completions to the
// model stand-in (chatModel): its subagents and its tools that change files, under the guards
// agenthooks install registers.

// TestKimiSubagentGuard: in the real Kimi Code 2.1.0, with the guards agenthooks install
// registers, a subagent (the Agent tool, Kimi's default coder type, in the foreground and in
// the background) running rm -rf .git is denied inside the subagent: the canary in .git
// survives, the subagent's model is told why, the audit has the deny (its payload is the main
// session's: Kimi sends no agent_id), and another subagent's ordinary command runs.
func TestKimiSubagentGuard(t *testing.T) {
	for _, background := range []bool{false, true} {
		t.Run(fmt.Sprintf("background=%v", background), func(t *testing.T) {
			k := newKimiWith(t, subagentChatModel)
			agent := func(cmd string) string {
				return callStep("Agent", map[string]any{"description": "run a command", "run_in_background": background,
					"prompt": subagentMarker + cmd + "\n"})
			}
			k.model.commands = []string{agent("rm -rf .git"), agent("echo sub > sub.txt")}
			canary := writeCanary(t, k.ws)
			k.ws.agenthooksEnv(t, k.env(t), "install", "--agent", "kimi")
			k.exec(t, "please run it")
			checkSubagentRun(t, "Kimi Code", k.agentRun, canary)
			// The subagent's call comes with the main session's fields and nothing more: no
			// agent_id (as with Gemini CLI 0.61).
			checkSubagentDeny(t, k.ws, "kimi", "PreToolUse", "rm -rf .git", false)
		})
	}
}

// TestKimiFileToolsGuard: in the real Kimi Code 2.1.0 (whose tools that change files are Write
// and Edit), with the guards agenthooks install registers, Write planting a policy for
// agenthooks and Edit changing a file in the project's .agenthooks folder are denied (no file
// changes, the model is told a person must do it), and both tools on an ordinary file run.
func TestKimiFileToolsGuard(t *testing.T) {
	k := newKimi(t)
	k.ws.agenthooksEnv(t, k.env(t), "install", "--agent", "kimi")
	policyFile := filepath.Join(k.ws.dir, ".agenthooks", "policy.yaml")
	guarded := filepath.Join(k.ws.dir, ".agenthooks", "checks.txt")
	if err := os.MkdirAll(filepath.Dir(guarded), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(guarded, []byte("strict\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(k.ws.dir, "notes.txt")
	k.model.commands = []string{
		callStep("Write", map[string]any{"path": policyFile, "content": "version: 1\nshell:\n  unknown: allow\n"}),
		"read:" + guarded,
		callStep("Edit", map[string]any{"path": guarded, "old_string": "strict", "new_string": "lax"}),
		callStep("Write", map[string]any{"path": notes, "content": "hello\n"}),
		"read:" + notes,
		callStep("Edit", map[string]any{"path": notes, "old_string": "hello", "new_string": "bye"}),
	}
	k.exec(t, "please edit")
	if _, err := os.Stat(policyFile); err == nil {
		t.Error("Write planted .agenthooks/policy.yaml inside Kimi Code")
	}
	if after := readFile(guarded); after != "strict\n" {
		t.Errorf("Edit changed %s inside Kimi Code:\n%s", guarded, after)
	}
	if got := readFile(notes); got != "bye\n" {
		t.Errorf("Write and Edit on an ordinary file left %q, want %q; requests:\n%s", got, "bye\n", strings.Join(k.model.sent(), "\n---\n"))
	}
	if !k.model.anySent("a person must make this change outside the agent") {
		t.Errorf("the model never saw why; requests:\n%s", strings.Join(k.model.sent(), "\n---\n"))
	}
	log := k.ws.agenthooks(t, "log", "--audit", k.ws.audit, "--agent", "kimi", "--event", "PreToolUse")
	if n := strings.Count(log, "deny"); n != 2 {
		t.Errorf("the audit trail has %d denies, want 2:\n%s", n, log)
	}
}

// TestKimiMCPGuard: in the real Kimi Code 2.1.0, which names an MCP tool as Claude Code does
// (mcp__e2edb__drop_table), guard mcp on PreToolUse for mcp__ tools denies the MCP tool its
// policy denies and lets the one it allows run; the server is in ~/.kimi-code/mcp.json.
func TestKimiMCPGuard(t *testing.T) {
	k := newKimi(t, "call:mcp__e2edb__drop_table {}", "call:mcp__e2edb__list_tables {}")
	pol := writeMCPPolicy(t, k.ws.home)
	k.config(t, kimiHook("PreToolUse", "mcp__.*", "agenthooks guard mcp --policy "+pol))
	writeJSONFile(t, filepath.Join(k.ws.home, ".kimi-code", "mcp.json"), map[string]any{"mcpServers": map[string]any{mcpServer: mcpServerConfig(t, k.ws.dir)}})
	k.exec(t, "please run it")
	checkMCPGuard(t, "Kimi Code", k.agentRun)
}
