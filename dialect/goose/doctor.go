package goose

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/agenthooks/agenthooks/dialect"
)

// What agenthooks doctor checks of Goose beyond its hooks files (block/goose's
// crates/goose/src/plugins/discovery.rs at 21aecaf and config/paths.rs at 0780e22): Goose runs
// a plugin's hooks only while the plugin is enabled. A plugin folder is switched off by name in
// a settings.json's "disabledPlugins" (the session's project's .config/goose/settings.local.json,
// then its .config/goose/settings.json, then the user's ~/.config/goose/settings.json, or
// $GOOSE_PATH_ROOT/.config/goose/settings.json: the first that lists the name in
// disabledPlugins or enabledPlugins decides), and by its path in the "plugins" map of Goose's
// config.yaml ({"<plugin folder>": {"enabled": false}}; $GOOSE_PATH_ROOT/config/config.yaml,
// else $XDG_CONFIG_HOME/goose/config.yaml or ~/.config/goose/config.yaml), which the PLUGINS
// variable, as JSON, replaces.

// switches lists what switches off the plugins whose hooks files (hooksFiles, each
// <plugins>/<name>/hooks/hooks.json) register agenthooks.
func switches(env dialect.DoctorEnv, hooksFiles []string) []dialect.Finding {
	var out []dialect.Finding
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	root := getenv("GOOSE_PATH_ROOT")
	if !filepath.IsAbs(root) {
		root = "" // Goose ignores a relative one
	}
	userSettings := filepath.Join(env.Home, ".config", "goose", "settings.json")
	if root != "" {
		userSettings = filepath.Join(root, ".config", "goose", "settings.json")
	}
	configYAML := configFile(env.Home, root, getenv)
	for _, f := range hooksFiles {
		plugin := filepath.Dir(filepath.Dir(f))
		if filepath.Base(filepath.Dir(f)) != "hooks" || filepath.Base(filepath.Dir(plugin)) != "plugins" {
			continue
		}
		name := filepath.Base(plugin)
		// settings: the project's (for a project's plugin, its project; a user's plugin is
		// switched off by the session's project too, which doctor does not know), then the user's
		var settings []string
		if agents := filepath.Dir(filepath.Dir(plugin)); filepath.Base(agents) == ".agents" {
			if project := filepath.Dir(agents); filepath.Clean(project) != filepath.Clean(env.Home) && filepath.Clean(project) != filepath.Clean(root) {
				settings = append(settings, filepath.Join(project, ".config", "goose", "settings.local.json"),
					filepath.Join(project, ".config", "goose", "settings.json"))
			}
		}
		settings = append(settings, userSettings)
		for _, s := range settings {
			decided, off, line := listed(s, name)
			if !decided {
				continue
			}
			if off {
				out = append(out, dialect.Finding{Level: "fail", File: s, Setting: "disabledPlugins", Line: line,
					Message: fmt.Sprintf("line %d: disabledPlugins lists %q: Goose does not load the plugin %s, nor run its hooks", line, name, plugin)})
			}
			break
		}
		if v := getenv("PLUGINS"); v != "" {
			if off, ok := disabledIn([]byte(v), plugin, json.Unmarshal); ok && off {
				out = append(out, dialect.Finding{Level: "fail", Setting: "PLUGINS",
					Message: fmt.Sprintf("the PLUGINS variable, which replaces config.yaml's plugins, switches the plugin %s off: Goose started with it does not run its hooks", plugin)})
			}
			continue
		}
		data, err := os.ReadFile(configYAML)
		if configYAML == "" || err != nil {
			continue
		}
		if off, ok := disabledIn(data, plugin, yaml.Unmarshal); ok && off {
			line := lineOf(data, plugin)
			out = append(out, dialect.Finding{Level: "fail", File: configYAML, Setting: "plugins", Line: line,
				Message: fmt.Sprintf("line %d: plugins sets %s to enabled: false: Goose does not load the plugin, nor run its hooks", line, plugin)})
		}
	}
	return out
}

// configFile is Goose's config.yaml: in $GOOSE_PATH_ROOT/config, else in its configuration
// folder ($XDG_CONFIG_HOME/goose or ~/.config/goose); "" on Windows, whose folder doctor does
// not know.
func configFile(home, root string, getenv func(string) string) string {
	switch {
	case root != "":
		return filepath.Join(root, "config", "config.yaml")
	case runtime.GOOS == "windows":
		return ""
	case getenv("XDG_CONFIG_HOME") != "" && filepath.IsAbs(getenv("XDG_CONFIG_HOME")):
		return filepath.Join(getenv("XDG_CONFIG_HOME"), "goose", "config.yaml")
	}
	return filepath.Join(home, ".config", "goose", "config.yaml")
}

// listed reads a Goose settings.json for name: decided when disabledPlugins or enabledPlugins
// lists it, off when disabledPlugins does (Goose looks there first), and the line. A file that
// is missing or not JSON decides nothing, as Goose skips it.
func listed(file, name string) (decided, off bool, line int) {
	data, err := os.ReadFile(file)
	if err != nil {
		return false, false, 0
	}
	var s struct {
		Enabled  []string `json:"enabledPlugins"`
		Disabled []string `json:"disabledPlugins"`
	}
	if json.Unmarshal(data, &s) != nil {
		return false, false, 0
	}
	switch {
	case slices.Contains(s.Disabled, name):
		return true, true, lineOf(data, `"disabledPlugins"`)
	case slices.Contains(s.Enabled, name):
		return true, false, 0
	}
	return false, false, 0
}

// disabledIn reads the plugins map ({"<folder>": {"enabled": bool}}) from data, decoded with
// unmarshal, at the top level as config.yaml holds it (as the PLUGINS variable holds it, the
// map itself): ok when it names plugin, off when it sets enabled false there.
func disabledIn(data []byte, plugin string, unmarshal func([]byte, any) error) (off, ok bool) {
	type entry struct {
		Enabled *bool `json:"enabled" yaml:"enabled"`
	}
	var whole struct {
		Plugins map[string]entry `json:"plugins" yaml:"plugins"`
	}
	m := map[string]entry{}
	if unmarshal(data, &whole) == nil && whole.Plugins != nil {
		m = whole.Plugins
	} else if unmarshal(data, &m) != nil {
		return false, false
	}
	e, found := m[plugin]
	if !found {
		return false, false
	}
	return e.Enabled != nil && !*e.Enabled, true
}

// lineOf is the line of data where s first appears, 0 when it does not.
func lineOf(data []byte, s string) int {
	i := strings.Index(string(data), s)
	if i < 0 {
		return 0
	}
	return 1 + strings.Count(string(data[:i]), "\n")
}
