package cline

import (
	"encoding/json"
	"testing"
)

func clinePayload(tool, input, parent string) []byte {
	return []byte(`{"clineVersion":"3.0.65","hookName":"tool_call","taskId":"t1","workspaceRoots":["/tmp"],"agent_id":"a2","parent_agent_id":` + parent +
		`,"tool_call":{"id":"c1","name":"` + tool + `","input":` + input + `},"preToolUse":{"toolName":"` + tool + `","parameters":{}}}`)
}

// TestMCPToolNames: a Claude Code hook run under the Cline CLI 3.0.65 reads its MCP tools,
// SERVER__TOOL (and the older use_mcp_tool naming both in its input), as mcp__SERVER__TOOL.
func TestMCPToolNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ tool, input, want string }{
		{"e2edb__drop_table", `{"table":"users"}`, "mcp__e2edb__drop_table"},
		{"my_db__list__tables", `{}`, "mcp__my_db__list__tables"},
		{"use_mcp_tool", `{"server_name":"e2edb","tool_name":"drop_table","arguments":"{}"}`, "mcp__e2edb__drop_table"},
		{"use_mcp_tool", `{"server_name":"e2edb"}`, "use_mcp_tool"},
		{"mcp__a__b", `{}`, "mcp__a__b"},
		{"run_commands", `{"commands":["ls"]}`, "Bash"},
		{"apply_patch", `{"input":""}`, "apply_patch"},
	} {
		_, b, _, err := ToClaude("PreToolUse", clinePayload(c.tool, c.input, "null"))
		var v struct {
			Tool string `json:"tool_name"`
		}
		if err == nil {
			err = json.Unmarshal(b, &v)
		}
		if err != nil || v.Tool != c.want {
			t.Errorf("%s is %s (%v), want %s", c.tool, v.Tool, err, c.want)
		}
	}
}

// TestSubagentIdentity: Cline names every agent (agent_id), the task's own too, and a
// subagent's parent (parent_agent_id); a Claude Code hook reads agent_id only from a subagent's
// call, as Claude Code sends it.
func TestSubagentIdentity(t *testing.T) {
	t.Parallel()
	for parent, want := range map[string]any{`"a1"`: "a2", `null`: nil, `""`: nil} {
		_, b, _, err := ToClaude("PreToolUse", clinePayload("run_commands", `{"commands":["ls"]}`, parent))
		var m map[string]any
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil || m["agent_id"] != want {
			t.Errorf("parent_agent_id %s: agent_id %v (%v), want %v", parent, m["agent_id"], err, want)
		}
	}
}
