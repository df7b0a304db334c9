package gemini

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// switchedOff reads a Gemini CLI settings.json for the switches that turn its hooks off:
// hooksConfig.enabled false, or the agenthooks hooks named in hooks.disabled.
func switchedOff(file string) []string {
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
	var out []string
	if s.HooksConfig.Enabled != nil && !*s.HooksConfig.Enabled {
		out = append(out, "hooks switched off by hooksConfig.enabled: false: Gemini CLI runs every command unguarded")
	}
	var disabled []string
	if json.Unmarshal(s.Hooks["disabled"], &disabled) == nil {
		for _, d := range disabled {
			if d == "agenthooks" || strings.Contains(d, "agenthooks ") {
				out = append(out, fmt.Sprintf("hooks.disabled lists %q: Gemini CLI skips the agenthooks hooks", d))
			}
		}
	}
	return out
}
