package droid

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// What agenthooks doctor checks of Factory Droid beyond its hooks: Droid 0.215.0 runs no hook at
// all while its settings say hooks.hooksDisabled: true (the Hooks switch of its settings screen,
// SettingsService.getHooksDisabled, read before each event's hooks are matched). The value comes
// from the first of its settings that sets it, in their order (managed, project, user); a legacy
// hooks.json may carry it at its top level.

// switches lists the first of Droid's files (hooksFiles, highest priority first) that sets
// hooksDisabled, when it sets it to true. FACTORY_RUNTIME_SETTINGS_PATH, in doctor's
// environment, names settings that Droid (what --settings sets) merges over the others.
func switches(env dialect.DoctorEnv, hooksFiles []string) []dialect.Finding {
	if env.Getenv != nil {
		if p := env.Getenv("FACTORY_RUNTIME_SETTINGS_PATH"); p != "" {
			hooksFiles = append([]string{p}, hooksFiles...)
		}
	}
	for _, f := range hooksFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		off, set := hooksDisabled(filepath.Base(f), data)
		if !set {
			continue
		}
		if !off {
			return nil
		}
		line := 0
		if i := strings.Index(string(data), `"hooksDisabled"`); i >= 0 {
			line = 1 + strings.Count(string(data[:i]), "\n")
		}
		return []dialect.Finding{{Level: "fail", File: f, Setting: "hooks.hooksDisabled: true", Line: line,
			Message: fmt.Sprintf("line %d: hooks switched off by hooksDisabled: true: Droid runs no hook, every command unguarded", line)}}
	}
	return nil
}

// hooksDisabled reads hooksDisabled from one of Droid's files named name (its "hooks" object in
// a settings.json, the top level of a hooks.json): set when it is there as a boolean.
func hooksDisabled(name string, data []byte) (off, set bool) {
	var s struct {
		Hooks struct {
			Disabled *bool `json:"hooksDisabled"`
		} `json:"hooks"`
		Disabled *bool `json:"hooksDisabled"`
	}
	if json.Unmarshal(dialect.StripJSONComments(data), &s) != nil {
		return false, false
	}
	v := s.Hooks.Disabled
	if name == "hooks.json" {
		v = s.Disabled
	}
	if v == nil {
		return false, false
	}
	return *v, true
}
