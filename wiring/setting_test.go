package wiring

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSettingLine: the line that sets a setting, as the agents' findings name it, in JSON
// (a dotted key path, the keys in turn) and in TOML (a key under its table, at the start of a
// line, not in a comment or another table).
func TestSettingLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	js := write("settings.json", "{\n  \"hooks\": {\"disabled\": [\"x\"]},\n  \"hooksConfig\": {\n    \"enabled\": false\n  },\n  \"disableAllHooks\": true\n}\n")
	toml := write("config.toml", "[other]\nhooks = true\n[features]\n# hooks = false\nhooks = false\nallow_managed_hooks_only = true\n")
	for _, c := range []struct {
		file, setting string
		want          int
	}{
		{js, "hooksConfig.enabled: false", 4},
		{js, "disableAllHooks", 6},
		{js, "hooks.disabled", 2},
		{js, "permissions.deny", 0},
		{toml, "[features] hooks = false", 5},
		{toml, "allow_managed_hooks_only = true", 6},
		{toml, "[nothing] hooks = false", 0},
		{filepath.Join(dir, "missing.json"), "disableAllHooks", 0},
	} {
		if got := settingLine(c.file, c.setting); got != c.want {
			t.Errorf("%s in %s: line %d, want %d", c.setting, filepath.Base(c.file), got, c.want)
		}
	}
}
