package gemini

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// Gemini CLI's own permission rules: tools.exclude (excludeTools) in its settings files, and
// its policy engine's TOML rules, which agenthooks applies to a command before rewriting it to
// run confined (dialect.RulesQuery).

// systemDir is where Gemini CLI's system settings and admin policies live.
func systemDir(getenv func(string) string) string {
	if d := getenv("AGENTHOOKS_GEMINI_SYSTEM_DIR"); d != "" {
		return d
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/GeminiCli"
	case "windows":
		return `C:\ProgramData\gemini-cli`
	}
	return "/etc/gemini-cli"
}

// ownRules returns the first of Gemini CLI's own exclusions (tools.exclude, excludeTools) or
// deny or ask_user policy rules that names one of the commands in q, or why a file of them
// cannot be read as Gemini CLI reads it; "" for none.
func ownRules(q dialect.RulesQuery) string {
	texts, _ := q.Subjects()
	sys := systemDir(q.Getenv)
	settings := []string{cmp.Or(q.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"), filepath.Join(sys, "settings.json")),
		filepath.Join(sys, "system-defaults.json")}
	if q.Project != "" {
		settings = append(settings, filepath.Join(q.Project, ".gemini", "settings.json"))
	}
	if q.UserDir != "" { // ~/.gemini, or where GEMINI_CLI_HOME moves it
		settings = append(settings, filepath.Join(q.UserDir, "settings.json"))
	}
	for _, file := range settings {
		if rule := excludeFor(file, texts); rule != "" {
			return rule
		}
	}
	dirs := []string{filepath.Join(sys, "policies")}
	if q.Project != "" {
		dirs = append(dirs, filepath.Join(q.Project, ".gemini", "policies"))
	}
	if q.UserDir != "" {
		dirs = append(dirs, filepath.Join(q.UserDir, "policies"))
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
		slices.Sort(files)
		for _, file := range files {
			if rule := policyFor(file, texts); rule != "" {
				return rule
			}
		}
	}
	return ""
}

// excludeFor checks one settings file's tools.exclude and excludeTools: an entry
// "run_shell_command" (or "ShellTool") excludes every command, "run_shell_command(git push)"
// the commands that start with it.
func excludeFor(file string, texts []string) string {
	data, err := regfile.Read(file, dialect.MaxRulesFile)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		return dialect.Unreadable("Gemini CLI", "settings file "+file, err)
	}
	var s struct {
		Tools struct {
			Exclude []any `json:"exclude"`
		} `json:"tools"`
		ExcludeTools []any `json:"excludeTools"`
	}
	if err := json.Unmarshal(dialect.StripJSONComments(data), &s); err != nil {
		return dialect.Unreadable("Gemini CLI", "settings file "+file, err)
	}
	for _, x := range append(s.Tools.Exclude, s.ExcludeTools...) {
		entry, _ := x.(string)
		entry = strings.TrimSpace(entry)
		tool, arg, hasArg := strings.Cut(entry, "(")
		if tool != "run_shell_command" && tool != "ShellTool" {
			continue
		}
		if !hasArg {
			return fmt.Sprintf("Gemini CLI's own exclusion %q in %s names it", entry, file)
		}
		prefix := strings.TrimSpace(strings.TrimSuffix(arg, ")"))
		for _, t := range texts {
			if commandPrefix(t, prefix) {
				return fmt.Sprintf("Gemini CLI's own exclusion %q in %s names it", entry, file)
			}
		}
	}
	return ""
}

// commandPrefix reports whether text starts with prefix as a whole word, as Gemini CLI matches
// a command prefix.
func commandPrefix(text, prefix string) bool {
	if prefix == "" {
		return true
	}
	rest, ok := strings.CutPrefix(text, prefix)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"' || rest[0] == '\n')
}

// policyFile is the part of a Gemini CLI policy file that can stop a shell command.
type policyFile struct {
	Rule []struct {
		ToolName      any    `toml:"toolName"`
		McpName       string `toml:"mcpName"`
		ArgsPattern   string `toml:"argsPattern"`
		CommandPrefix any    `toml:"commandPrefix"`
		CommandRegex  string `toml:"commandRegex"`
		Decision      string `toml:"decision"`
	} `toml:"rule"`
}

// policyFor checks one policy file's rules: a deny or ask_user rule for the shell tool
// (toolName run_shell_command, a wildcard, or none) whose conditions (commandPrefix,
// commandRegex, argsPattern; none at all) name one of the commands. Modes, priorities and
// allow rules are not weighed: a deny or ask rule that could apply keeps the guard's answer.
func policyFor(file string, texts []string) string {
	data, err := regfile.Read(file, dialect.MaxRulesFile)
	if err != nil {
		return dialect.Unreadable("Gemini CLI", "policy file "+file, err)
	}
	var pol policyFile
	if err := toml.Unmarshal(data, &pol); err != nil {
		return dialect.Unreadable("Gemini CLI", "policy file "+file, errors.New(strings.ReplaceAll(err.Error(), "\n", " ")))
	}
	for i, r := range pol.Rule {
		if r.Decision != "deny" && r.Decision != "ask_user" || r.McpName != "" || !shellTool(r.ToolName) {
			continue
		}
		what := fmt.Sprintf("Gemini CLI's own policy rule #%d (%s) in %s names it", i+1, r.Decision, file)
		prefixes := stringsOf(r.CommandPrefix)
		var patterns []string
		switch {
		case len(prefixes) > 0:
			for _, t := range texts {
				for _, p := range prefixes {
					if commandPrefix(t, p) {
						return what
					}
				}
			}
			continue
		case r.CommandRegex != "":
			patterns = append(patterns, `"command":"`+r.CommandRegex)
		case r.ArgsPattern != "":
			patterns = append(patterns, r.ArgsPattern)
		default:
			return what // every shell command
		}
		for _, pat := range patterns {
			re, err := regexp.Compile(pat)
			if err != nil {
				return fmt.Sprintf("Gemini CLI's own policy rule #%d (%s) in %s has a pattern agenthooks cannot read (%v), and not confined rather than guessed", i+1, r.Decision, file, err)
			}
			for _, t := range texts {
				args, _ := json.Marshal(map[string]string{"command": t})
				if re.Match(args) {
					return what
				}
			}
		}
	}
	return ""
}

// shellTool reports whether a policy rule's toolName covers run_shell_command.
func shellTool(v any) bool {
	names := stringsOf(v)
	if v == nil {
		return true
	}
	for _, n := range names {
		if n == "run_shell_command" || n == "*" {
			return true
		}
		if ok, _ := filepath.Match(n, "run_shell_command"); ok {
			return true
		}
	}
	return false
}

// stringsOf returns a TOML value that is a string or a list of strings as a list.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
