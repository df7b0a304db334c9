package cli

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/pelletier/go-toml/v2"
)

// The machine-wide settings an administrator (or an MDM profile) puts in place, which win over
// the user's: where Gemini CLI and Codex read them, and what in them switches agenthooks off.

// geminiSystemSettings is Gemini CLI's system settings file, which overrides the user's and
// the project's: $GEMINI_CLI_SYSTEM_SETTINGS_PATH, else the platform's.
func geminiSystemSettings(getenv func(string) string) string {
	if p := getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		return filepath.Join(programData(getenv), "gemini-cli", "settings.json")
	}
	return "/etc/gemini-cli/settings.json"
}

// codexSystemDir is the folder of Codex's machine-wide files (config.toml, managed_config.toml,
// requirements.toml): /etc/codex, or %ProgramData%\OpenAI\Codex on Windows.
// $AGENTHOOKS_CODEX_SYSTEM_DIR replaces it (for tests; Codex itself has no such variable).
func codexSystemDir(getenv func(string) string) string {
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

// codexSystemFindings reads Codex's machine-wide files for what switches the user's and the
// project's agenthooks hooks off: [features] hooks = false in config.toml, managed_config.toml
// or requirements.toml, and allow_managed_hooks_only = true in requirements.toml (then Codex
// runs only hooks an administrator placed). It returns (file, why) pairs.
func codexSystemFindings(getenv func(string) string) [][2]string {
	dir := codexSystemDir(getenv)
	var out [][2]string
	for _, name := range []string{"config.toml", "managed_config.toml", "requirements.toml"} {
		file := filepath.Join(dir, name)
		if why := codexSwitchedOff(file); why != "" {
			out = append(out, [2]string{file, why})
		}
	}
	req := filepath.Join(dir, "requirements.toml")
	if data, err := os.ReadFile(req); err == nil {
		var doc struct {
			AllowManagedHooksOnly bool `toml:"allow_managed_hooks_only"`
		}
		if toml.Unmarshal(data, &doc) == nil && doc.AllowManagedHooksOnly {
			out = append(out, [2]string{req, "allow_managed_hooks_only = true: Codex runs only the hooks an administrator placed, not the user's or the project's agenthooks"})
		}
	}
	return out
}
