package e2e

import (
	"os"
	"testing"
)

// TestMain lets the test binary run as the stdio MCP server of the tool tests (serveMCP) when
// AGENTHOOKS_E2E_MCP_DIR is set; otherwise it runs the tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv(mcpServerEnv); dir != "" {
		os.Exit(serveMCP(dir, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}
