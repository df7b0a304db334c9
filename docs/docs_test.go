package docs_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/agenthooks/agenthooks/internal/admincli"
)

// pages returns README.md and every Markdown page under docs/, as paths relative to the
// repository's root.
func pages(t *testing.T) []string {
	t.Helper()
	out := []string{"README.md"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			out = append(out, filepath.Join("docs", path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func read(t *testing.T, page string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", page))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// prose returns the page's lines with fenced code blocks blanked, so that a line number still
// points into the file, and the code blocks' lines apart, each with its line number.
func split(text string) (prose []string, code map[int]string) {
	code = map[int]string{}
	lines := strings.Split(text, "\n")
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			lines[i] = ""
			continue
		}
		if fence {
			code[i+1] = l
			lines[i] = ""
		}
	}
	return lines, code
}

var (
	linkRe       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCodeRe = regexp.MustCompile("`([^`]+)`")
	headingRe    = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
)

// slug is GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped,
// spaces as '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchors(t *testing.T, page string) map[string]bool {
	prose, _ := split(read(t, page))
	out := map[string]bool{}
	for _, l := range prose {
		if m := headingRe.FindStringSubmatch(l); m != nil {
			s := slug(m[1])
			for n := 1; out[s]; n++ { // GitHub numbers repeated headings
				s = slug(m[1]) + "-" + string(rune('0'+n))
			}
			out[s] = true
		}
	}
	return out
}

// TestLinks: every link in the documentation stays inside the repository and reaches a file
// that exists and, with a #fragment, a heading of that file.
func TestLinks(t *testing.T) {
	for _, page := range pages(t) {
		prose, _ := split(read(t, page))
		for i, l := range prose {
			for _, m := range linkRe.FindAllStringSubmatch(inlineCodeRe.ReplaceAllString(l, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					t.Errorf("%s:%d: link %s leaves the repository", page, i+1, target)
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				dest := page
				if file != "" {
					dest = filepath.Clean(filepath.Join(filepath.Dir(page), file))
					if strings.HasPrefix(dest, "..") {
						t.Errorf("%s:%d: link %s leaves the repository", page, i+1, target)
						continue
					}
					if _, err := os.Stat(filepath.Join("..", dest)); err != nil {
						t.Errorf("%s:%d: link %s: %s does not exist", page, i+1, target, dest)
						continue
					}
				}
				if frag != "" {
					if !strings.HasSuffix(dest, ".md") {
						continue
					}
					if !anchors(t, dest)[frag] {
						t.Errorf("%s:%d: link %s: %s has no heading #%s", page, i+1, target, dest, frag)
					}
				}
			}
		}
	}
}

// words splits a shell-like line into words; quoted text is one word and never a flag.
func words(line string) (ws []string, quoted []bool) {
	var cur strings.Builder
	inWord, q := false, false
	var quote rune
	flush := func() {
		if inWord {
			ws = append(ws, cur.String())
			quoted = append(quoted, q)
		}
		cur.Reset()
		inWord, q = false, false
	}
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord, q = r, true, true
		case r == ' ' || r == '\t':
			flush()
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return ws, quoted
}

// helpOf returns agenthooks-admin's --help for the command path (agenthooks-admin has every
// command agenthooks has, and the database ones).
var helpCache = map[string]string{}

func helpOf(t *testing.T, path []string) string {
	key := strings.Join(path, " ")
	if h, ok := helpCache[key]; ok {
		return h
	}
	var out, errb bytes.Buffer
	args := append(append([]string{}, path...), "--help")
	admincli.Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	h := out.String() + errb.String()
	helpCache[key] = h
	return h
}

// hidden reports whether name is a command that its parent's help does not list.
func hidden(t *testing.T, name string) bool {
	h := helpOf(t, []string{name})
	return h != helpOf(t, nil) && !strings.Contains(h, "unknown command")
}

// subcommands lists the names under "Available Commands:" in a help text.
func subcommands(help string) map[string]bool {
	out := map[string]bool{}
	_, rest, ok := strings.Cut(help, "Available Commands:")
	if !ok {
		return out
	}
	for _, l := range strings.Split(rest, "\n")[1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		if f := strings.Fields(l); len(f) > 0 {
			out[f[0]] = true
		}
	}
	return out
}

var flagRe = regexp.MustCompile(`^(--[a-z][a-z0-9-]*|-[a-zA-Z])(=.*)?$`)

// leadIn reports whether w may stand before the program a command line runs: a prompt, an
// assignment, or a program that runs the next word (npx, env, go run, sudo).
func leadIn(w string) bool {
	switch w {
	case "$", "npx", "env", "go", "run", "sudo", "exec", "command", "time":
		return true
	}
	return regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(w)
}

// commandsIn returns the agenthooks command lines in a piece of text: the words after each
// `agenthooks` or `agenthooks-admin` word up to the end of its simple command.
func commandsIn(text string) [][2][]string {
	var out [][2][]string
	text = strings.NewReplacer(`\|`, " ", "[", " ", "]", " ", "…", " ").Replace(text)
	for _, seg := range regexp.MustCompile(`\|\||&&|[|;()]`).Split(text, -1) {
		ws, quoted := words(seg)
		for i, w := range ws {
			if quoted[i] || (w != "agenthooks" && w != "agenthooks-admin" && !strings.HasSuffix(w, "/agenthooks") && w != "./cmd/agenthooks") {
				if !leadIn(w) {
					break // agenthooks is not what this command runs: a word in a message or a table
				}
				continue
			}
			rest, rq := ws[i+1:], quoted[i+1:]
			var q []string
			for _, b := range rq {
				if b {
					q = append(q, "q")
				} else {
					q = append(q, "")
				}
			}
			out = append(out, [2][]string{rest, q})
			break
		}
	}
	return out
}

// TestCommands: every agenthooks command a page shows, in a code block or in inline code,
// names commands that exist and flags those commands have.
func TestCommands(t *testing.T) {
	checked := 0
	for _, page := range pages(t) {
		prose, code := split(read(t, page))
		check := func(line int, text string) {
			for _, c := range commandsIn(text) {
				ws, quoted := c[0], c[1]
				var path []string
				for i, w := range ws {
					if quoted[i] == "q" || strings.HasPrefix(w, "-") {
						continue
					}
					if subcommands(helpOf(t, path))[w] || len(path) == 0 && i == 0 && hidden(t, w) {
						path = append(path, w)
						continue
					}
					if len(path) == 0 && i == 0 && regexp.MustCompile(`^[a-z][a-z-]+$`).MatchString(w) && w != "agenthooks" {
						t.Errorf("%s:%d: `agenthooks %s`: no such command", page, line, w)
						return
					}
				}
				help := helpOf(t, path)
				for i, w := range ws {
					m := flagRe.FindStringSubmatch(w)
					if quoted[i] == "q" || m == nil || w == "--" {
						continue
					}
					flag := m[1]
					if !regexp.MustCompile(`(^|[\s,])` + regexp.QuoteMeta(flag) + `([\s,=]|$)`).MatchString(help) {
						t.Errorf("%s:%d: `agenthooks %s` has no flag %s", page, line, strings.Join(path, " "), flag)
					}
					checked++
				}
			}
		}
		for n, l := range code {
			check(n, l)
		}
		for i, l := range prose {
			for _, m := range inlineCodeRe.FindAllStringSubmatch(l, -1) {
				check(i+1, m[1])
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d documented flags found: the command reader is broken", checked)
	}
}

// TestLayout: docs/library.md lists every package of the module, so that a newcomer's map of
// the repository does not miss one.
func TestLayout(t *testing.T) {
	page := read(t, "docs/library.md")
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != ".." {
			return filepath.SkipDir // another module
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		hasCode := false
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				hasCode = true
			}
		}
		if !hasCode || path == ".." {
			return nil
		}
		rel, _ := filepath.Rel("..", path)
		if !strings.Contains(page, "| `"+filepath.ToSlash(rel)+"` |") {
			t.Errorf("docs/library.md does not list the package %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
