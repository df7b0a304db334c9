package vscode

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// What agenthooks doctor checks of VS Code beyond its hooks files: the setting chat.useHooks
// (on by default; the ChatHooks device policy sets it too), which, off, makes VS Code's Local
// harness run no hook at all. VS Code reads it from the user's settings (each product's, a
// profile's, a remote machine's; on Linux under $XDG_CONFIG_HOME when set) and from a trusted workspace's .vscode/settings.json, which
// overrides the user's.

// switches lists the settings files that switch VS Code's hooks off: chat.useHooks false in a
// user's settings (a failure: that VS Code runs every command unguarded), in a profile's (a
// warning: only while that profile is in use), and in the .vscode/settings.json of a workspace
// whose .github/hooks holds one of the hooks files.
func switches(env dialect.DoctorEnv, hooksFiles []string) []dialect.Finding {
	var out []dialect.Finding
	check := func(file, level, when string) {
		if line, ok := hooksOff(file); ok {
			out = append(out, dialect.Finding{Level: level, File: file, Setting: "chat.useHooks: false", Line: line,
				Message: fmt.Sprintf("line %d: chat.useHooks is false: VS Code runs no hook%s, every command unguarded", line, when)})
		}
	}
	// On Linux VS Code keeps its user folder in $XDG_CONFIG_HOME (Electron's appData) when set
	xdg := ""
	if runtime.GOOS == "linux" && env.Getenv != nil {
		if v := env.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(v) {
			xdg = v
		}
	}
	if env.Home != "" {
		for _, l := range settingsFiles(runtime.GOOS) {
			if l.Root != dialect.RootUserHome {
				continue
			}
			p := filepath.Join(env.Home, filepath.FromSlash(l.Path))
			if rest, ok := strings.CutPrefix(l.Path, ".config/"); ok && xdg != "" {
				p = filepath.Join(xdg, filepath.FromSlash(rest))
			}
			if !strings.Contains(l.Path, "*") {
				check(p, "fail", "")
				continue
			}
			profiles, _ := filepath.Glob(p)
			for _, f := range profiles {
				check(f, "warn", " while this profile is in use")
			}
		}
	}
	seen := map[string]bool{}
	for _, f := range hooksFiles {
		hooksDir := filepath.Dir(f)
		if filepath.Base(hooksDir) != "hooks" || filepath.Base(filepath.Dir(hooksDir)) != ".github" {
			continue // not a workspace's .github/hooks
		}
		ws := filepath.Dir(filepath.Dir(hooksDir))
		if p := filepath.Join(ws, ".vscode", "settings.json"); !seen[p] {
			seen[p] = true
			check(p, "fail", " in "+ws)
		}
	}
	return out
}

// hooksOff reports whether a VS Code settings file sets chat.useHooks to false (as the dotted
// key or inside a "chat" object), and the line where it does. A file that is missing or that
// VS Code could not read either says nothing.
func hooksOff(file string) (int, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	return useHooksOff(data)
}

// useHooksOff reports whether the text of a VS Code settings file sets chat.useHooks to false,
// and on which line.
func useHooksOff(data []byte) (int, bool) {
	clean := stripTrailingCommas(dialect.StripJSONComments(data))
	v, err := jsonpos.Parse(clean, 64)
	if err != nil {
		return 0, false
	}
	use := v.Get("chat.useHooks")
	if use == nil {
		use = v.Get("chat").Get("useHooks")
	}
	if use == nil || use.Kind != jsonpos.Bool || use.Bool {
		return 0, false
	}
	return 1 + strings.Count(string(data[:use.Off]), "\n"), true
}

// stripTrailingCommas blanks the commas before a closing } or ] outside strings, which VS Code's
// settings files allow (JSONC), keeping every offset.
func stripTrailingCommas(data []byte) []byte {
	inString := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == ',':
			j := i + 1
			for j < len(data) && strings.IndexByte(" \t\r\n", data[j]) >= 0 {
				j++
			}
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				data[i] = ' '
			}
		}
	}
	return data
}
