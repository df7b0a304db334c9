package gemini

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// What agenthooks doctor checks of Gemini CLI beyond its hooks: the switches in its settings
// files, the user's, the project's and the system's, that turn its hooks off.

// SystemSettings is Gemini CLI's system settings file, which overrides the user's and the
// project's: $GEMINI_CLI_SYSTEM_SETTINGS_PATH, else the platform's.
func SystemSettings(getenv func(string) string) string {
	if p := getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		pd := getenv("ProgramData")
		if pd == "" {
			pd = `C:\ProgramData`
		}
		return filepath.Join(pd, "gemini-cli", "settings.json")
	}
	return "/etc/gemini-cli/settings.json"
}

// systemDefaults is Gemini CLI's system defaults file (0.61.0), the lowest layer, which the
// user's and the project's settings override: $GEMINI_CLI_SYSTEM_DEFAULTS_PATH, else the
// platform's system-defaults.json beside the system settings.
func systemDefaults(getenv func(string) string) string {
	if p := getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p
	}
	sys := SystemSettings(func(k string) string {
		if k == "GEMINI_CLI_SYSTEM_SETTINGS_PATH" {
			return "" // the defaults do not follow a moved system settings file
		}
		return getenv(k)
	})
	return filepath.Join(filepath.Dir(sys), "system-defaults.json")
}

// switches says why the system settings switch hooks off, and the system defaults where none of
// the hooks files (the user's, the project's) sets hooksConfig.enabled itself.
func switches(env dialect.DoctorEnv, hooksFiles []string) []dialect.Finding {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var out []dialect.Finding
	for _, fd := range switchedOff(SystemSettings(getenv)) {
		fd.Message += " (system settings, which override the user's)"
		out = append(out, fd)
	}
	for _, f := range hooksFiles {
		if enabledSet(f) {
			return out
		}
	}
	for _, fd := range switchedOff(systemDefaults(getenv)) {
		if fd.Setting == "hooksConfig.enabled: false" {
			fd.Message += " (system defaults, which the user's or the project's hooksConfig.enabled: true would override)"
			out = append(out, fd)
		}
	}
	return out
}

// enabledSet reports whether a Gemini CLI settings file sets hooksConfig.enabled.
func enabledSet(file string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	var s struct {
		HooksConfig struct {
			Enabled *bool `json:"enabled"`
		} `json:"hooksConfig"`
	}
	return json.Unmarshal(dialect.StripJSONComments(data), &s) == nil && s.HooksConfig.Enabled != nil
}

// switchedOff reads a Gemini CLI settings.json for the switches that turn its hooks off:
// hooksConfig.enabled false, or the agenthooks hooks named in hooks.disabled.
func switchedOff(file string) []dialect.Finding {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var s struct {
		HooksConfig struct {
			Enabled *bool `json:"enabled"`
		} `json:"hooksConfig"`
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	var out []dialect.Finding
	if s.HooksConfig.Enabled != nil && !*s.HooksConfig.Enabled {
		out = append(out, dialect.Finding{Level: "fail", File: file, Setting: "hooksConfig.enabled: false",
			Message: "hooks switched off by hooksConfig.enabled: false: Gemini CLI runs every command unguarded"})
	}
	var disabled []string
	if json.Unmarshal(s.Hooks["disabled"], &disabled) == nil {
		for _, d := range disabled {
			if d == "agenthooks" || strings.Contains(d, "agenthooks ") || strings.Contains(d, dialect.GuardProgram) {
				out = append(out, dialect.Finding{Level: "fail", File: file, Setting: "hooks.disabled",
					Message: fmt.Sprintf("hooks.disabled lists %q: Gemini CLI skips the agenthooks hooks", d)})
			}
		}
	}
	return out
}
