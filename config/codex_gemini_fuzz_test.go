package config

import (
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// FuzzDecodeCodexTOML: any config.toml is decoded without a panic, and problems name the file.
func FuzzDecodeCodexTOML(f *testing.F) {
	f.Add([]byte("[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\ntimeout = 30\n"))
	f.Add([]byte("model = \"x\"\n[hooks.state.k]\ntrusted_hash = \"h\"\n"))
	f.Add([]byte("[hooks\n"))
	f.Add([]byte("hooks = 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := DecodeCodexTOML(Source{Layer: User, Family: dialect.Codex, File: "config.toml", Trusted: true}, data)
		for _, p := range file.Problems {
			if p.File != "config.toml" {
				t.Fatalf("problem without its file: %v", p)
			}
		}
		if file.Usable && file.Problems.HasErrors() {
			t.Fatal("a file with errors is usable")
		}
	})
}

// FuzzDecodeGeminiSettings: any Gemini settings.json is decoded without a panic.
func FuzzDecodeGeminiSettings(f *testing.F) {
	f.Add([]byte(`{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "sequential": true, "hooks": [{"name": "x", "type": "command", "command": "true", "timeout": 500}]}]}}`))
	f.Add([]byte(`{"hooks": {"PreToolUse": []}}`))
	f.Add([]byte(`{"security": {}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := DecodeSettings(Source{Layer: User, Family: dialect.Gemini, File: "settings.json", Trusted: true}, data)
		for _, h := range file.Hooks {
			if h.Dialect != dialect.Gemini && h.Dialect != dialect.Cursor && h.Dialect != dialect.Claude && h.Dialect != dialect.Codex {
				t.Fatalf("hook of unknown dialect %q", h.Dialect)
			}
		}
	})
}
