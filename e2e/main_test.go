package e2e

import (
	"os"
	"testing"
)

// TestMain lets the test binary run as the stdio MCP server of the tool tests (serveMCP) when
// AGENTHOOKS_E2E_MCP_DIR is set; otherwise it runs the tests, then removes the binaries
// agenthooksDir built (some 70 MB a run, which piled up in the temporary folder).
func TestMain(m *testing.M) {
	if dir := os.Getenv(mcpServerEnv); dir != "" {
		os.Exit(serveMCP(dir, os.Stdin, os.Stdout))
	}
	code := m.Run()
	if bins.dir != "" {
		_ = os.RemoveAll(bins.dir)
	}
	os.Exit(code)
}
