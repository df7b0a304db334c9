package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// mcpServerEnv, when set to a folder, makes the test binary a stdio MCP server (see TestMain)
// whose tools leave a marker file in that folder when they run.
const mcpServerEnv = "AGENTHOOKS_E2E_MCP_DIR"

// mcpServer is the server's name in the agents' configs, and mcpTools its tools: each, when
// called, writes <tool>.txt in the marker folder, so a test sees which calls ran.
const mcpServer = "e2edb"

var mcpTools = []string{"drop_table", "list_tables"}

// serveMCP answers MCP's JSON-RPC on newline-delimited stdio: initialize, tools/list and
// tools/call, empty lists for resources and prompts, and method-not-found for the rest.
func serveMCP(dir string, in io.Reader, out io.Writer) int {
	enc := json.NewEncoder(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification, or not JSON-RPC
		}
		var result any
		switch req.Method {
		case "initialize":
			version := req.Params.ProtocolVersion
			if version == "" {
				version = "2025-06-18"
			}
			result = map[string]any{"protocolVersion": version, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": mcpServer, "version": "1.0.0"}}
		case "ping":
			result = map[string]any{}
		case "tools/list":
			var tools []any
			for _, name := range mcpTools {
				tools = append(tools, map[string]any{"name": name, "description": "the e2e database's " + name,
					"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
			}
			result = map[string]any{"tools": tools}
		case "tools/call":
			_ = os.WriteFile(filepath.Join(dir, req.Params.Name+".txt"), []byte("ran\n"), 0o644)
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": req.Params.Name + " ran"}}}
		case "resources/list":
			result = map[string]any{"resources": []any{}}
		case "resources/templates/list":
			result = map[string]any{"resourceTemplates": []any{}}
		case "prompts/list":
			result = map[string]any{"prompts": []any{}}
		default:
			_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
	return 0
}
