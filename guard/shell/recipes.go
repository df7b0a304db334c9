package shell

import (
	"strings"
)

// Recipes and package scripts a command line writes and then runs: a justfile's recipes (just
// X), and package.json scripts set by a jq program (jq '.scripts.test = "..."' package.json >
// p.json && mv p.json package.json && npm test), read like make's recipes and npm pkg set.

// justTargets follows just: the recipes named (or the first one) in the justfile of the
// working directory, with just's {{...}} interpolations left unknown.
func (a *analyzer) justTargets(args []Word, f *frame, ctx *callCtx) {
	files := []string{"justfile", "Justfile", ".justfile", "JUSTFILE"}
	var targets []string
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-f" || v == "--justfile":
			if i+1 < len(args) {
				files = []string{args[i+1].Value}
				i++
			}
		case strings.HasPrefix(v, "--justfile="):
			files = []string{strings.TrimPrefix(v, "--justfile=")}
		case v == "-d" || v == "--working-directory" || v == "--set":
			i++
		case v == "-l" || v == "--list" || v == "--summary" || v == "--show" || v == "-s" || v == "--dry-run" || v == "-n" ||
			v == "--help" || v == "-h" || v == "--version" || v == "--evaluate" || v == "--dump" || v == "--choose":
			return // lists or prints recipes: nothing runs
		case strings.HasPrefix(v, "-"):
		case strings.Contains(v, "=") || strings.Contains(v, "/"):
		default:
			targets = append(targets, v)
		}
	}
	var text string
	ok := false
	for _, file := range files {
		if text, ok = a.scriptText(Word{Value: file, Static: true}); ok {
			break
		}
	}
	if !ok {
		return
	}
	recipes, first := justRecipes(text)
	if len(targets) == 0 && first != "" {
		targets = []string{first}
	}
	seen := map[string]bool{}
	var follow func(t string, depth int)
	follow = func(t string, depth int) {
		if seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		r, ok := recipes[t]
		if !ok {
			return
		}
		for _, dep := range r.deps {
			follow(dep, depth+1)
		}
		if len(r.lines) == 0 {
			return
		}
		body := justToShell(strings.Join(r.lines, "\n"))
		if lang := shebang(body); lang != "" && !shells.has(lang) {
			a.scanCode(lang, body, f.with("just "+t), ctx) // a recipe with its own interpreter
			return
		}
		a.nested(body, f.with("just "+t), ctx)
	}
	for _, t := range targets {
		follow(t, 0)
	}
}

// justRecipes reads a justfile's recipes: each one's dependencies and body lines. Arguments
// after a recipe's name are parameters; recipes whose name is not a word are skipped.
func justRecipes(text string) (map[string]*makeRecipe, string) {
	out := map[string]*makeRecipe{}
	first := ""
	var cur *makeRecipe
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			if cur != nil {
				body := strings.TrimSpace(line)
				if !strings.HasPrefix(body, "#!") {
					body = strings.TrimLeft(body, "@-")
				}
				cur.lines = append(cur.lines, body)
			}
			continue
		}
		cur = nil
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "[") || strings.HasPrefix(t, "set ") ||
			strings.HasPrefix(t, "export ") || strings.HasPrefix(t, "alias ") || strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "mod ") {
			continue
		}
		head, deps, ok := strings.Cut(t, ":")
		if !ok || strings.HasPrefix(deps, "=") {
			continue // name := value
		}
		fields := strings.Fields(strings.TrimLeft(head, "@"))
		if len(fields) == 0 || !isWordlike(fields[0]) {
			continue
		}
		r := &makeRecipe{}
		for _, d := range strings.Fields(deps) {
			if d == "&&" {
				continue
			}
			r.deps = append(r.deps, strings.Trim(d, "()"))
		}
		out[fields[0]] = r
		cur = r
		if first == "" {
			first = fields[0]
		}
	}
	return out, first
}

// isWordlike reports whether s is a recipe name: letters, digits, - and _.
func isWordlike(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// justToShell turns just's {{expr}} interpolations into an unknown value; {{{{ is a literal {{.
func justToShell(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		if strings.HasPrefix(s[i:], "{{{{") {
			b.WriteString("{{")
			s = s[i+4:]
			continue
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			b.WriteString("${JUSTVAR_}")
			return b.String()
		}
		b.WriteString("${JUSTVAR_}")
		s = s[i+j+2:]
	}
}

// rememberJqScripts keeps the package.json scripts a jq program sets to a literal
// (.scripts.test = "...", .scripts["pre-commit"] |= "..."), for npm run and npm install later
// in the same command line: what jq writes is meant to become package.json.
func (a *analyzer) rememberJqScripts(args []Word) {
	for _, w := range args[1:] {
		if !w.Static || !strings.Contains(w.Value, ".scripts") {
			continue
		}
		prog := w.Value
		for {
			i := strings.Index(prog, ".scripts")
			if i < 0 {
				break
			}
			prog = prog[i+len(".scripts"):]
			var name string
			switch {
			case strings.HasPrefix(prog, "."):
				end := strings.IndexFunc(prog[1:], func(r rune) bool {
					return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == ':')
				})
				if end < 0 {
					end = len(prog) - 1
				}
				name, prog = prog[1:1+end], prog[1+end:]
			case strings.HasPrefix(prog, `["`) || strings.HasPrefix(prog, `."`):
				rest := prog[2:]
				end := strings.Index(rest, `"`)
				if end < 0 {
					return
				}
				name, prog = rest[:end], strings.TrimPrefix(rest[end+1:], "]")
			default:
				continue
			}
			rest := strings.TrimLeft(prog, " ")
			op := ""
			for _, o := range []string{"|=", "=", "+="} {
				if strings.HasPrefix(rest, o) && !strings.HasPrefix(rest, "==") {
					op = o
					break
				}
			}
			if op == "" {
				continue
			}
			val, ok := jqString(strings.TrimLeft(rest[len(op):], " "))
			if a.pkgScripts == nil {
				a.pkgScripts = map[string]string{}
			}
			if !ok {
				val = "${JQVALUE_}" // a value computed by jq: not known until it runs
			}
			if op == "+=" {
				val = a.pkgScripts[name] + val
			}
			a.pkgScripts[name] = val
		}
	}
}

// jqString reads a jq string literal at the start of s: "..." with its escapes.
func jqString(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), true
		case '\\':
			if i+1 >= len(s) {
				return "", false
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '(':
				return "", false // an interpolation
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}
