package claude

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// ownRules returns the first of Claude Code's own permissions.deny or permissions.ask rules, in
// the settings files Claude Code reads for the project (q.Files: managed, project, local,
// user), that names q's command or one of the commands in it, or "".
func ownRules(q dialect.RulesQuery) string {
	texts := []string{strings.TrimSpace(q.Command)}
	for _, c := range q.Calls {
		texts = append(texts, strings.Join(c.Words, " "))
	}
	for _, file := range q.Files {
		data, err := regfile.Read(file, dialect.MaxRulesFile)
		if err != nil {
			continue
		}
		var s struct {
			Permissions struct {
				Deny []any `json:"deny"`
				Ask  []any `json:"ask"`
			} `json:"permissions"`
		}
		if json.Unmarshal(data, &s) != nil {
			return "Claude Code's settings " + file + " cannot be read, and not confined rather than guessed"
		}
		for _, r := range append(s.Permissions.Deny, s.Permissions.Ask...) {
			rule, _ := r.(string)
			if ruleMatches(rule, texts) {
				return fmt.Sprintf("Claude Code's own permission rule %q in %s names it", rule, file)
			}
		}
	}
	return ""
}

// ruleMatches reports whether a Claude Code permission rule (Bash, Bash(*), Bash(git push:*),
// Bash(npm run *), Bash(rm -rf foo)) names one of texts. It errs toward a match: a match keeps
// the guard's ask, and Claude Code then applies its own rule.
func ruleMatches(rule string, texts []string) bool {
	rule = strings.TrimSpace(rule)
	if rule == "Bash" {
		return true
	}
	spec, ok := strings.CutPrefix(rule, "Bash(")
	if !ok || !strings.HasSuffix(spec, ")") {
		return false
	}
	spec = strings.TrimSpace(strings.TrimSuffix(spec, ")"))
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		spec = prefix + " *"
	}
	if spec == "" || spec == "*" {
		return true
	}
	parts := strings.Split(spec, "*")
	for _, t := range texts {
		if globWords(parts, t) {
			return true
		}
	}
	return false
}

// globWords matches t against the parts of a pattern split at its stars; "rm *" also matches
// a bare "rm".
func globWords(parts []string, t string) bool {
	if len(parts) == 2 && parts[1] == "" && strings.HasSuffix(parts[0], " ") && t == strings.TrimSuffix(parts[0], " ") {
		return true
	}
	if !strings.HasPrefix(t, parts[0]) {
		return false
	}
	t = t[len(parts[0]):]
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		switch {
		case last && part == "":
			return true
		case last:
			return strings.HasSuffix(t, part)
		}
		j := strings.Index(t, part)
		if j < 0 {
			return false
		}
		t = t[j+len(part):]
	}
	return t == ""
}
