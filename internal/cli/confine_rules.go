package cli

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

	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// The agents' own permission rules, applied to the original command before the guard rewrites
// it: the rewritten command (agenthooks confine ... -- bash -c '...') no longer matches them,
// so a rewrite would otherwise run what the person's own rules stop or ask about. Each reader
// errs toward a match: a match keeps the guard's own answer, and the agent then applies its
// rule; a file that cannot be read as the agent reads it is a match too ("not confined rather
// than guessed").

// maxRulesFile bounds what is read of one of the agents' rules or settings files.
const maxRulesFile = 4 << 20

// agentRuleFor says why the agent whose shell tool the rewrite would run in keeps call's
// command from being rewritten: the first of its own deny or ask rules that names the command
// ("... names it"), or a file of its rules that agenthooks cannot read as the agent does; ""
// when nothing does.
func agentRuleFor(e *env, agent string, call shellCall) string {
	switch agent {
	case "claude":
		rule := claudeRuleFor(e, call)
		if file, ok := strings.CutPrefix(rule, "in "); ok {
			return "Claude Code's settings " + strings.TrimSuffix(file, " (unreadable: not confined rather than guessed)") + " cannot be read, and not confined rather than guessed"
		}
		if rule != "" {
			return "Claude Code's own permission rule " + rule + " names it"
		}
	case "codex":
		return codexRuleFor(e, call)
	case "gemini":
		return geminiRuleFor(e, call)
	}
	return ""
}

// unreadable says that one of an agent's rules files cannot be read as the agent reads it.
func unreadable(agent, what string, err error) string {
	return fmt.Sprintf("%s %s cannot be read as %s reads it (%v), and not confined rather than guessed", agent, what, agent, err)
}

// ruleSubjects are what the agents' rules are matched against: the command as written and each
// command in it, as words (a wrapper's words before the command it runs, as the agent sees
// them) and as text.
type ruleSubjects struct {
	argvs [][]string
	texts []string
}

func subjectsOf(e *env, call shellCall) ruleSubjects {
	var s ruleSubjects
	whole := strings.TrimSpace(call.command)
	s.texts = append(s.texts, whole)
	// Codex matches a script it cannot split into plain commands as its shell's argv.
	s.argvs = append(s.argvs, []string{"bash", "-lc", call.command})
	for _, inv := range shell.Analyze(call.command, shell.Options{Home: e.home(), Cwd: call.cwd}).Invocations {
		words := make([]string, len(inv.Args))
		for i, w := range inv.Args {
			words[i] = w.Display()
		}
		if len(words) == 0 {
			continue
		}
		s.texts = append(s.texts, strings.Join(words, " "))
		s.argvs = append(s.argvs, words)
		if base := filepath.Base(words[0]); base != words[0] {
			s.argvs = append(s.argvs, append([]string{base}, words[1:]...))
		}
		for _, w := range inv.Wrappers {
			wrapped := append(strings.Fields(w), words...)
			s.argvs = append(s.argvs, wrapped)
			s.texts = append(s.texts, strings.Join(wrapped, " "))
		}
	}
	return s
}

// ---- Codex: execpolicy rules (prefix_rule in Starlark .rules files) ----

// codexRule is one prefix_rule: each pattern element lists its alternatives.
type codexRule struct {
	pattern  [][]string
	decision string // allow, prompt or forbidden
	line     int
}

// codexRulesDirs lists the folders Codex loads *.rules files from: the system's, the user's
// ($CODEX_HOME/rules) and each .codex/rules from the working directory up to the root (Codex
// reads a project's only when it trusts the project; agenthooks reads them all, erring toward a
// match).
func codexRulesDirs(e *env, cwd, project string) []string {
	dirs := []string{filepath.Join(cmp.Or(e.getenv("AGENTHOOKS_CODEX_SYSTEM_DIR"), "/etc/codex"), "rules")}
	home := e.getenv("CODEX_HOME")
	if home == "" && e.home() != "" {
		home = filepath.Join(e.home(), ".codex")
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "rules"))
	}
	for _, start := range []string{cwd, project} {
		for dir := start; filepath.IsAbs(dir); {
			d := filepath.Join(dir, ".codex", "rules")
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return dirs
}

// codexRuleFor returns the first of Codex's forbidden or prompt rules that names one of the
// commands in call, or "".
func codexRuleFor(e *env, call shellCall) string {
	subjects := subjectsOf(e, call)
	for _, dir := range codexRulesDirs(e, call.cwd, call.project) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
		slices.Sort(files)
		for _, file := range files {
			data, err := regfile.Read(file, maxRulesFile)
			if err != nil {
				return unreadable("Codex", "rules file "+file, err)
			}
			rules, err := parseCodexRules(file, data)
			if err != nil {
				return unreadable("Codex", "rules file "+file, err)
			}
			for _, r := range rules {
				if r.decision == "allow" {
					continue
				}
				for _, argv := range subjects.argvs {
					if r.matches(argv) {
						return fmt.Sprintf("Codex's own rule %s (%s) at %s:%d names it", r.String(), r.decision, file, r.line)
					}
				}
			}
		}
	}
	return ""
}

func (r codexRule) matches(argv []string) bool {
	if len(argv) < len(r.pattern) {
		return false
	}
	for i, alts := range r.pattern {
		if !slices.Contains(alts, argv[i]) {
			return false
		}
	}
	return true
}

func (r codexRule) String() string {
	parts := make([]string, len(r.pattern))
	for i, alts := range r.pattern {
		parts[i] = strings.Join(alts, "|")
	}
	return "prefix_rule " + strings.Join(parts, " ")
}

// parseCodexRules reads the prefix_rule calls of a Codex .rules file. Codex evaluates the file
// as Starlark; agenthooks reads the part of it that Codex's own files and documentation use:
// top-level calls whose arguments are literals (strings, lists, numbers, True, False, None).
// prefix_rule's pattern and decision must be literals; other calls (host_executable,
// network_rule) are skipped. Anything else is an error with its line, so that a rule is never
// silently missed.
func parseCodexRules(file string, data []byte) ([]codexRule, error) {
	p := &starlarkLexer{file: file, src: string(data), line: 1}
	var rules []codexRule
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		switch {
		case tok.kind == tokEOF:
			return rules, nil
		case tok.kind == tokNewline || tok.kind == tokPunct && tok.text == ";":
			continue
		case tok.kind != tokIdent:
			return nil, p.errorf(tok.line, "%s where a call like prefix_rule(...) belongs", tok.describe())
		}
		name := tok
		open, err := p.next()
		if err != nil {
			return nil, err
		}
		if open.kind != tokPunct || open.text != "(" {
			return nil, p.errorf(name.line, "only calls like prefix_rule(...) are read, not %q followed by %s", name.text, open.describe())
		}
		args, err := p.callArgs(name.text == "prefix_rule")
		if err != nil {
			return nil, err
		}
		if name.text != "prefix_rule" {
			continue
		}
		r, err := codexRuleOf(args)
		if err != nil {
			return nil, p.errorf(name.line, "prefix_rule: %v", err)
		}
		r.line = name.line
		rules = append(rules, r)
	}
}

// codexRuleOf builds a rule from prefix_rule's arguments (pattern, decision, match, not_match,
// justification, by position or name).
func codexRuleOf(args []starlarkArg) (codexRule, error) {
	params := []string{"pattern", "decision", "match", "not_match", "justification"}
	named := map[string]any{}
	for i, a := range args {
		name := a.name
		if name == "" {
			if i >= len(params) {
				return codexRule{}, fmt.Errorf("too many arguments")
			}
			name = params[i]
		}
		if _, dup := named[name]; dup {
			return codexRule{}, fmt.Errorf("%s given twice", name)
		}
		named[name] = a.value
	}
	var r codexRule
	pattern, ok := named["pattern"].([]any)
	if !ok || len(pattern) == 0 {
		return r, fmt.Errorf("pattern must be a non-empty list")
	}
	for _, el := range pattern {
		switch v := el.(type) {
		case string:
			r.pattern = append(r.pattern, []string{v})
		case []any:
			var alts []string
			for _, a := range v {
				s, ok := a.(string)
				if !ok {
					return r, fmt.Errorf("pattern alternatives must be strings")
				}
				alts = append(alts, s)
			}
			if len(alts) == 0 {
				return r, fmt.Errorf("pattern alternatives cannot be empty")
			}
			r.pattern = append(r.pattern, alts)
		default:
			return r, fmt.Errorf("pattern elements must be strings or lists of strings")
		}
	}
	r.decision = "allow"
	if d, ok := named["decision"]; ok {
		s, _ := d.(string)
		switch s {
		case "allow", "prompt", "forbidden":
			r.decision = s
		default:
			return r, fmt.Errorf("decision must be allow, prompt or forbidden, not %v", d)
		}
	}
	return r, nil
}

// ---- Gemini CLI: tools.exclude (excludeTools) in settings.json, and policy engine TOML ----

// geminiSystemDir is where Gemini CLI's system settings and admin policies live.
func geminiSystemDir(e *env) string {
	if d := e.getenv("AGENTHOOKS_GEMINI_SYSTEM_DIR"); d != "" {
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

// geminiRuleFor returns the first of Gemini CLI's own exclusions (tools.exclude, excludeTools)
// or deny or ask_user policy rules that names one of the commands in call, or "".
func geminiRuleFor(e *env, call shellCall) string {
	subjects := subjectsOf(e, call)
	sys := geminiSystemDir(e)
	settings := []string{cmp.Or(e.getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"), filepath.Join(sys, "settings.json")),
		filepath.Join(sys, "system-defaults.json")}
	if call.project != "" {
		settings = append(settings, filepath.Join(call.project, ".gemini", "settings.json"))
	}
	if e.home() != "" {
		settings = append(settings, filepath.Join(e.home(), ".gemini", "settings.json"))
	}
	for _, file := range settings {
		if rule := geminiExcludeFor(file, subjects); rule != "" {
			return rule
		}
	}
	dirs := []string{filepath.Join(sys, "policies")}
	if call.project != "" {
		dirs = append(dirs, filepath.Join(call.project, ".gemini", "policies"))
	}
	if e.home() != "" {
		dirs = append(dirs, filepath.Join(e.home(), ".gemini", "policies"))
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
		slices.Sort(files)
		for _, file := range files {
			if rule := geminiPolicyFor(file, subjects); rule != "" {
				return rule
			}
		}
	}
	return ""
}

// geminiExcludeFor checks one settings file's tools.exclude and excludeTools: an entry
// "run_shell_command" (or "ShellTool") excludes every command, "run_shell_command(git push)"
// the commands that start with it.
func geminiExcludeFor(file string, subjects ruleSubjects) string {
	data, err := regfile.Read(file, maxRulesFile)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		return unreadable("Gemini CLI", "settings file "+file, err)
	}
	var s struct {
		Tools struct {
			Exclude []any `json:"exclude"`
		} `json:"tools"`
		ExcludeTools []any `json:"excludeTools"`
	}
	if err := json.Unmarshal(stripJSONComments(data), &s); err != nil {
		return unreadable("Gemini CLI", "settings file "+file, err)
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
		for _, t := range subjects.texts {
			if geminiPrefix(t, prefix) {
				return fmt.Sprintf("Gemini CLI's own exclusion %q in %s names it", entry, file)
			}
		}
	}
	return ""
}

// geminiPrefix reports whether text starts with prefix as a whole word, as Gemini CLI matches
// a command prefix.
func geminiPrefix(text, prefix string) bool {
	if prefix == "" {
		return true
	}
	rest, ok := strings.CutPrefix(text, prefix)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"' || rest[0] == '\n')
}

// geminiPolicy is the part of a Gemini CLI policy file that can stop a shell command.
type geminiPolicy struct {
	Rule []struct {
		ToolName      any    `toml:"toolName"`
		McpName       string `toml:"mcpName"`
		ArgsPattern   string `toml:"argsPattern"`
		CommandPrefix any    `toml:"commandPrefix"`
		CommandRegex  string `toml:"commandRegex"`
		Decision      string `toml:"decision"`
	} `toml:"rule"`
}

// geminiPolicyFor checks one policy file's rules: a deny or ask_user rule for the shell tool
// (toolName run_shell_command, a wildcard, or none) whose conditions (commandPrefix,
// commandRegex, argsPattern; none at all) name one of the commands. Modes, priorities and
// allow rules are not weighed: a deny or ask rule that could apply keeps the guard's answer.
func geminiPolicyFor(file string, subjects ruleSubjects) string {
	data, err := regfile.Read(file, maxRulesFile)
	if err != nil {
		return unreadable("Gemini CLI", "policy file "+file, err)
	}
	var pol geminiPolicy
	if err := toml.Unmarshal(data, &pol); err != nil {
		return unreadable("Gemini CLI", "policy file "+file, errors.New(strings.ReplaceAll(err.Error(), "\n", " ")))
	}
	for i, r := range pol.Rule {
		if r.Decision != "deny" && r.Decision != "ask_user" || r.McpName != "" || !geminiShellTool(r.ToolName) {
			continue
		}
		what := fmt.Sprintf("Gemini CLI's own policy rule #%d (%s) in %s names it", i+1, r.Decision, file)
		prefixes := stringsOf(r.CommandPrefix)
		var patterns []string
		switch {
		case len(prefixes) > 0:
			for _, t := range subjects.texts {
				for _, p := range prefixes {
					if geminiPrefix(t, p) {
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
			for _, t := range subjects.texts {
				args, _ := json.Marshal(map[string]string{"command": t})
				if re.Match(args) {
					return what
				}
			}
		}
	}
	return ""
}

// geminiShellTool reports whether a policy rule's toolName covers run_shell_command.
func geminiShellTool(v any) bool {
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

// stripJSONComments blanks // and /* */ comments outside strings: Gemini CLI's settings files
// may have them. Offsets are kept.
func stripJSONComments(data []byte) []byte {
	out := slices.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}
