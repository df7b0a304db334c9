package qwen

import (
	"fmt"
	"os"
	"path/filepath"
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
		if d == "agenthooks" || strings.Contains(d, "agenthooks ") || strings.Contains(d, dialect.GuardProgram) {
			out = append(out, dialect.Finding{Level: "fail", File: file, Setting: "hooksConfig.disabled",
				Message: fmt.Sprintf("hooksConfig.disabled lists %q: Qwen Code skips the agenthooks hooks", d)})
		}
	}
	return out
}

// switches: Qwen Code 0.24.4, started without QWEN_HOME in its environment, takes it from
// ~/.qwen/.env, else ~/.env (cli-entry.js, preResolveQwenHome), and then reads its user
// settings in that folder, not in ~/.qwen, where doctor read them.
func switches(env dialect.DoctorEnv, _ []string) []dialect.Finding {
	if env.Home == "" || env.Getenv != nil && env.Getenv("QWEN_HOME") != "" {
		return nil
	}
	usual := filepath.Join(env.Home, ".qwen")
	for _, f := range []string{filepath.Join(usual, ".env"), filepath.Join(env.Home, ".env")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		v, line := dotenv(data, "QWEN_HOME")
		if v == "" {
			continue
		}
		dir := qwenHome(env.Home, v)
		if filepath.Clean(dir) == filepath.Clean(usual) {
			return nil
		}
		return []dialect.Finding{{Level: "fail", File: f, Setting: "QWEN_HOME", Line: line,
			Message: fmt.Sprintf("line %d: sets QWEN_HOME=%s, which Qwen Code takes when its environment has none: it reads its user settings in %s, not %s (run agenthooks install --agent qwen and doctor with QWEN_HOME=%s)",
				line, v, dir, usual, dir)}}
	}
	return nil
}

// qwenHome resolves a QWEN_HOME value as Qwen Code does: "~" and "~/..." under the home, a
// relative path against the working folder.
func qwenHome(home, v string) string {
	switch {
	case v == "~":
		return home
	case strings.HasPrefix(v, "~/") || strings.HasPrefix(v, `~\`):
		return filepath.Join(home, filepath.FromSlash(strings.ReplaceAll(v[2:], `\`, "/")))
	}
	abs, err := filepath.Abs(v)
	if err != nil {
		return v
	}
	return abs
}

// dotenv reads key from a .env file as Node's util.parseEnv does for the simple forms (KEY=value,
// export KEY=value, a quoted value, a # comment) and as Qwen Code allows "KEY: value": the last
// assignment wins. It returns the value and its line, "" when key is not set.
func dotenv(data []byte, key string) (string, int) {
	var val string
	var at int
	for i, ln := range strings.Split(strings.TrimPrefix(string(data), "\uFEFF"), "\n") {
		ln = strings.TrimSpace(strings.TrimSuffix(ln, "\r"))
		ln = strings.TrimSpace(strings.TrimPrefix(ln, "export "))
		rest, ok := strings.CutPrefix(ln, key)
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, ":") {
			continue
		}
		v := strings.TrimSpace(rest[1:])
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'' || v[0] == '`') && strings.IndexByte(v[1:], v[0]) >= 0 {
			v = v[1 : 1+strings.IndexByte(v[1:], v[0])]
		} else if j := strings.Index(v, " #"); j >= 0 {
			v = strings.TrimSpace(v[:j])
		}
		val, at = v, i+1
	}
	return val, at
}
