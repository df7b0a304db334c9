package codex

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/dialect"
)

// doctorSettings reads the config.toml in Codex's user folder and beside each of its hooks files
// for the feature flag that turns hooks off.
func doctorSettings(userDir string, dirs []string) []dialect.Finding {
	files := []string{filepath.Join(userDir, "config.toml")}
	for _, d := range dirs {
		if c := filepath.Join(d, "config.toml"); !slices.Contains(files, c) {
			files = append(files, c)
		}
	}
	var out []dialect.Finding
	for _, f := range files {
		if why := switchedOff(f); why != "" {
			out = append(out, dialect.Finding{File: f, Message: why})
		}
	}
	return out
}

// switchedOff reads a Codex config.toml for the feature flag that turns hooks off:
// [features] hooks = false (codex_hooks is its older name).
func switchedOff(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	var doc struct {
		Features map[string]any `toml:"features"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return ""
	}
	for _, k := range []string{"hooks", "codex_hooks"} {
		if v, ok := doc.Features[k].(bool); ok && !v {
			return "hooks switched off by [features] " + k + " = false: Codex runs every command unguarded"
		}
	}
	return ""
}
