package qwen

import (
	"fmt"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// switchedOff reads a Qwen Code settings.json for the switches that turn its hooks off beyond
// disableAllHooks (which config honours itself): hooksConfig.enabled false, or the agenthooks
// hooks named in hooksConfig.disabled.
func switchedOff(file string) []dialect.Finding {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	s := DecodeSettings(file, data)
	var out []dialect.Finding
	if s.Enabled != nil && !*s.Enabled {
		out = append(out, dialect.Finding{Level: "fail", File: file, Setting: "hooksConfig.enabled: false",
			Message: "hooks switched off by hooksConfig.enabled: false: Qwen Code runs every command unguarded"})
	}
	for _, d := range s.Disabled {
		if d == "agenthooks" || strings.Contains(d, "agenthooks ") {
			out = append(out, dialect.Finding{Level: "fail", File: file, Setting: "hooksConfig.disabled",
				Message: fmt.Sprintf("hooksConfig.disabled lists %q: Qwen Code skips the agenthooks hooks", d)})
		}
	}
	return out
}
