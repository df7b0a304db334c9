package codex

import (
	"path/filepath"
	"runtime"
)

// SystemDir is the folder of Codex's machine-wide files (config.toml, managed_config.toml,
// requirements.toml, rules/): /etc/codex, or %ProgramData%\OpenAI\Codex on Windows.
// $AGENTHOOKS_CODEX_SYSTEM_DIR replaces it (for tests; Codex itself has no such variable).
func SystemDir(getenv func(string) string) string {
	if p := getenv("AGENTHOOKS_CODEX_SYSTEM_DIR"); p != "" {
		return p
	}
	if runtime.GOOS == "windows" {
		return filepath.Join(programData(getenv), "OpenAI", "Codex")
	}
	return "/etc/codex"
}

func programData(getenv func(string) string) string {
	if p := getenv("ProgramData"); p != "" {
		return p
	}
	return `C:\ProgramData`
}
