package codex

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// Codex's own permission rules: execpolicy's prefix_rule calls in Starlark .rules files, which
// agenthooks applies to a command before rewriting it to run confined (dialect.RulesQuery).

// rule is one prefix_rule: each pattern element lists its alternatives.
type rule struct {
	pattern  [][]string
	decision string // allow, prompt or forbidden
	line     int
}

// rulesDirs lists the folders Codex loads *.rules files from: the system's, the user's
// ($CODEX_HOME/rules) and each .codex/rules from the working directory up to the root (Codex
// reads a project's only when it trusts the project; agenthooks reads them all, erring toward a
// match).
func rulesDirs(q dialect.RulesQuery) []string {
	dirs := []string{filepath.Join(SystemDir(q.Getenv), "rules")}
	home := q.Getenv("CODEX_HOME")
	if home == "" && q.Home != "" {
		home = filepath.Join(q.Home, ".codex")
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "rules"))
	}
	for _, start := range []string{q.Cwd, q.Project} {
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

// ownRules returns the first of Codex's forbidden or prompt rules that names one of the
// commands in q, or why a rules file cannot be read as Codex reads it; "" for none.
func ownRules(q dialect.RulesQuery) string {
	_, argvs := q.Subjects()
	for _, dir := range rulesDirs(q) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
		slices.Sort(files)
		for _, file := range files {
			data, err := regfile.Read(file, dialect.MaxRulesFile)
			if err != nil {
				return dialect.Unreadable("Codex", "rules file "+file, err)
			}
			rules, err := parseRules(file, data)
			if err != nil {
				return dialect.Unreadable("Codex", "rules file "+file, err)
			}
			for _, r := range rules {
				if r.decision == "allow" {
					continue
				}
				for _, argv := range argvs {
					if r.matches(argv) {
						return fmt.Sprintf("Codex's own rule %s (%s) at %s:%d names it", r.String(), r.decision, file, r.line)
					}
				}
			}
		}
	}
	return ""
}

func (r rule) matches(argv []string) bool {
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

func (r rule) String() string {
	parts := make([]string, len(r.pattern))
	for i, alts := range r.pattern {
		parts[i] = strings.Join(alts, "|")
	}
	return "prefix_rule " + strings.Join(parts, " ")
}

// parseRules reads the prefix_rule calls of a Codex .rules file. Codex evaluates the file
// as Starlark; agenthooks reads the part of it that Codex's own files and documentation use:
// top-level calls whose arguments are literals (strings, lists, numbers, True, False, None).
// prefix_rule's pattern and decision must be literals; other calls (host_executable,
// network_rule) are skipped. Anything else is an error with its line, so that a rule is never
// silently missed.
func parseRules(file string, data []byte) ([]rule, error) {
	p := &starlarkLexer{file: file, src: string(data), line: 1}
	var rules []rule
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
		r, err := ruleOf(args)
		if err != nil {
			return nil, p.errorf(name.line, "prefix_rule: %v", err)
		}
		r.line = name.line
		rules = append(rules, r)
	}
}

// ruleOf builds a rule from prefix_rule's arguments (pattern, decision, match, not_match,
// justification, by position or name).
func ruleOf(args []starlarkArg) (rule, error) {
	params := []string{"pattern", "decision", "match", "not_match", "justification"}
	named := map[string]any{}
	for i, a := range args {
		name := a.name
		if name == "" {
			if i >= len(params) {
				return rule{}, fmt.Errorf("too many arguments")
			}
			name = params[i]
		}
		if _, dup := named[name]; dup {
			return rule{}, fmt.Errorf("%s given twice", name)
		}
		named[name] = a.value
	}
	var r rule
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
