package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// Rule is one of OpenCode's permission rules for its bash tool: a pattern and its action
// (allow, ask, deny). Where names where it was written: "permission", "permission.bash" or
// "agent.NAME.permission...".
type Rule struct {
	Where, Pattern, Action string
}

// DecodeRules reads the permission rules for the bash tool from an OpenCode config file named
// name (JSON with comments): "permission" as one action for every tool, its "*" and "bash" keys
// (an action, or an object of patterns to actions), and the same in each agent's
// "permission". An error names the file with line and column, or the field.
func DecodeRules(name string, data []byte) ([]Rule, error) {
	if err := dialect.CheckDepth(data, dialect.MaxResponseDepth); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var raw struct {
		Permission json.RawMessage            `json:"permission"`
		Agent      map[string]json.RawMessage `json:"agent"`
	}
	data = dialect.StripJSONComments(data)
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, dialect.JSONError(name, data, err)
	}
	rules, err := permissionRules("permission", raw.Permission)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	agents := make([]string, 0, len(raw.Agent))
	for a := range raw.Agent {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		var ag struct {
			Permission json.RawMessage `json:"permission"`
		}
		if err := json.Unmarshal(raw.Agent[a], &ag); err != nil {
			return nil, fmt.Errorf("%s: agent.%s: must be an object", name, a)
		}
		r, err := permissionRules("agent."+a+".permission", ag.Permission)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rules = append(rules, r...)
	}
	return rules, nil
}

// permissionRules reads one "permission" value: an action, or an object whose "*" and "bash"
// keys hold an action or an object of patterns.
func permissionRules(where string, raw json.RawMessage) ([]Rule, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var action string
	if json.Unmarshal(raw, &action) == nil {
		return []Rule{{Where: where, Pattern: "*", Action: action}}, nil
	}
	var perm map[string]json.RawMessage
	if err := json.Unmarshal(raw, &perm); err != nil {
		return nil, fmt.Errorf("%s: must be an action or an object", where)
	}
	var rules []Rule
	for _, key := range []string{"*", "bash"} {
		v, ok := perm[key]
		if !ok || string(v) == "null" {
			continue
		}
		w := where + "." + key
		if json.Unmarshal(v, &action) == nil {
			rules = append(rules, Rule{Where: w, Pattern: "*", Action: action})
			continue
		}
		var patterns map[string]string
		if err := json.Unmarshal(v, &patterns); err != nil {
			return nil, fmt.Errorf("%s: must be an action or an object of patterns to actions", w)
		}
		keys := make([]string, 0, len(patterns))
		for p := range patterns {
			keys = append(keys, p)
		}
		sort.Strings(keys) // order does not matter here: any ask or deny that matches counts
		for _, p := range keys {
			rules = append(rules, Rule{Where: w, Pattern: p, Action: patterns[p]})
		}
	}
	return rules, nil
}

// configFiles are the OpenCode config files that may hold permission rules for a command run in
// q.Cwd: the global ones ($XDG_CONFIG_HOME/opencode or ~/.config/opencode), /etc/opencode,
// $OPENCODE_CONFIG, and opencode.json(c) and .opencode/opencode.json(c) in q.Cwd, the project
// and each folder above them (OpenCode stops at the worktree's root; going on errs toward a
// match).
func configFiles(q dialect.RulesQuery) []string {
	getenv := q.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var files []string
	cfg := getenv("XDG_CONFIG_HOME")
	if cfg == "" && q.Home != "" {
		cfg = filepath.Join(q.Home, ".config")
	}
	if cfg != "" {
		for _, n := range []string{"config.json", "opencode.json", "opencode.jsonc"} {
			files = append(files, filepath.Join(cfg, "opencode", n))
		}
	}
	files = append(files, "/etc/opencode/opencode.json", "/etc/opencode/opencode.jsonc")
	if f := getenv("OPENCODE_CONFIG"); f != "" {
		files = append(files, f)
	}
	seen := map[string]bool{}
	for _, dir := range []string{q.Cwd, q.Project} {
		for ; filepath.IsAbs(dir) && !seen[dir]; dir = filepath.Dir(dir) {
			seen[dir] = true
			for _, n := range []string{"opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"} {
				files = append(files, filepath.Join(dir, filepath.FromSlash(n)))
			}
		}
	}
	return files
}

// ownRules returns why OpenCode's own permission rules keep q's command from being rewritten:
// the first ask or deny rule for its bash tool, in any config file or $OPENCODE_CONFIG_CONTENT,
// whose pattern names the command or one of the commands in it; or a config file agenthooks
// cannot read as OpenCode does. OpenCode applies its rules inside the bash tool, after the
// plugin, to the command it runs: a rewritten command would no longer match them. It errs toward
// a match: an ask or deny counts even where a later allow would win in OpenCode.
func ownRules(q dialect.RulesQuery) string {
	texts, _ := q.Subjects()
	check := func(name string, data []byte) string {
		rules, err := DecodeRules(name, data)
		if err != nil {
			return dialect.Unreadable("OpenCode", "config "+name, err)
		}
		for _, r := range rules {
			if r.Action != "ask" && r.Action != "deny" {
				continue
			}
			for _, t := range texts {
				if WildcardMatch(r.Pattern, t) {
					return fmt.Sprintf("OpenCode's own permission rule %q: %q (%s) in %s names it", r.Pattern, r.Action, r.Where, name)
				}
			}
		}
		return ""
	}
	for _, file := range configFiles(q) {
		data, err := regfile.Read(file, dialect.MaxRulesFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return dialect.Unreadable("OpenCode", "config "+file, err)
		}
		if why := check(file, data); why != "" {
			return why
		}
	}
	if q.Getenv != nil {
		if c := q.Getenv("OPENCODE_CONFIG_CONTENT"); c != "" {
			return check("$OPENCODE_CONFIG_CONTENT", []byte(c))
		}
	}
	return ""
}

// WildcardMatch reports whether an OpenCode permission pattern matches s as OpenCode's wildcard
// does: * any run of characters (newlines too), ? one character, the rest literal, the whole
// string; a pattern ending in " *" also matches without that tail ("git *" matches "git").
func WildcardMatch(pattern, s string) bool {
	var b strings.Builder
	b.WriteString("(?s)^")
	body, tail := pattern, false
	if strings.HasSuffix(pattern, " *") {
		body, tail = strings.TrimSuffix(pattern, " *"), true
	}
	for _, r := range body {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if tail {
		b.WriteString("( .*)?")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return true // too large for Go's limits: a match, rather than a guess
	}
	return re.MatchString(s)
}
