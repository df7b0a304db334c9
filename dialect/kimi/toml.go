package kimi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/dialect"
)

// Hook is one [[hooks]] table of Kimi Code's config.toml. Kimi Code accepts these five fields
// only: any other makes the whole file fail to load.
type Hook struct {
	Event    string `toml:"event"`
	Matcher  string `toml:"matcher,omitempty"`
	Command  string `toml:"command"`
	Timeout  int    `toml:"timeout,omitempty"`
	FailMode string `toml:"fail_mode,omitempty"`
}

// isHooksHeader reports whether a line is the header of a [[hooks]] table, alone on its line (a
// comment may follow it).
func isHooksHeader(line string) bool {
	l := strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(l, "[[")
	if !ok {
		return false
	}
	name, after, ok := strings.Cut(rest, "]]")
	after = strings.TrimSpace(after)
	return ok && strings.TrimSpace(name) == "hooks" && (after == "" || strings.HasPrefix(after, "#"))
}

// isTableHeader reports whether a line is a table header, which ends the table before it.
func isTableHeader(line string) bool { return strings.HasPrefix(strings.TrimLeft(line, " \t"), "[") }

// block is one [[hooks]] table of the file as text: its lines [start, end) and the hook.
type block struct {
	start, end int
	hook       Hook
	ok         bool // the table decodes alone as a Hook
	marked     bool // its header carries install's mark
}

// Mark is the comment install writes after the header of each of its [[hooks]] tables, so that
// uninstall finds them whatever the program's path.
const Mark = "# agenthooks"

// blocks finds the [[hooks]] tables of a file's lines. A table runs from its header to the next
// table header or the end of the file; the blank lines and comments at its end that precede a
// following header are left to what follows.
func blocks(lines []string) []block {
	var out []block
	for i := 0; i < len(lines); i++ {
		if !isHooksHeader(lines[i]) {
			continue
		}
		j := i + 1
		for j < len(lines) && !isTableHeader(lines[j]) {
			j++
		}
		end := j
		{ // leave trailing blank lines and comments to what follows
			for end > i+1 && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#")) {
				end--
			}
		}
		var doc struct{ Hooks []Hook }
		body := strings.Join(lines[i:end], "\n")
		b := block{start: i, end: end, marked: strings.HasSuffix(strings.TrimSpace(lines[i]), Mark)}
		if toml.Unmarshal([]byte(body), &doc) == nil && len(doc.Hooks) == 1 {
			b.hook, b.ok = doc.Hooks[0], true
		}
		out = append(out, b)
		i = end - 1
	}
	return out
}

// ours reports whether a hook is one install wrote: its command runs prog, or agenthooks by any
// path, with the arguments of one of install's entries for its event.
func ours(h Hook, prog string, entries []dialect.InstallEntry) bool {
	for _, en := range entries {
		if en.Event == h.Event && h.Command == en.Command(prog) {
			return true
		}
	}
	p, args, ok := splitProgram(h.Command)
	if !ok || !strings.HasPrefix(path.Base(strings.ReplaceAll(p, `\`, "/")), "agenthooks") {
		return false
	}
	args = ownArgs(p, args)
	for _, en := range entries {
		if en.Event == h.Event && en.Args == args {
			return true
		}
	}
	return false
}

// installed reports whether a hook, as the file reads without its comments, may be one of
// install's: ours, or any program with the arguments of one of install's entries for its event.
func installed(h Hook, prog string, entries []dialect.InstallEntry) bool {
	if ours(h, prog, entries) {
		return true
	}
	p, args, ok := splitProgram(h.Command)
	args = ownArgs(p, args)
	for _, en := range entries {
		if ok && en.Event == h.Event && en.Args == args {
			return true
		}
	}
	return false
}

// ownArgs is args as agenthooks takes them: after "guard" when prog is agenthooks-guard
// (dialect.GuardProgram), which runs agenthooks' guards alone.
func ownArgs(prog, args string) string {
	if dialect.OwnName(prog) == dialect.GuardProgram {
		return "guard " + args
	}
	return args
}

// splitProgram cuts a command into its program (unquoted) and the rest.
func splitProgram(c string) (string, string, bool) {
	c = strings.TrimSpace(c)
	for _, q := range []byte{'"', '\''} {
		if len(c) > 0 && c[0] == q {
			end := strings.IndexByte(c[1:], q)
			if end < 0 {
				return "", "", false
			}
			return c[1 : 1+end], strings.TrimSpace(c[end+2:]), true
		}
	}
	prog, rest, _ := strings.Cut(c, " ")
	return prog, strings.TrimSpace(rest), prog != ""
}

// wanted is the hook install writes for an entry.
func wanted(prog string, en dialect.InstallEntry) Hook {
	h := Hook{Event: en.Event, Matcher: en.Matcher, Command: en.Command(prog)}
	if en.FailClosed {
		h.FailMode = "closed"
	}
	return h
}

// Edit is install's edit of Kimi Code's config.toml (dialect.Install.Edit): it adds a [[hooks]]
// table for each entry not there yet, at the end of the file, and takes out install's tables
// that no entry wants any more (all of them with remove). Every other byte stays as it was. A
// file that is not valid TOML, or whose other settings the edit would change, is an error and is
// left untouched.
func Edit(old []byte, prog string, entries []dialect.InstallEntry, remove bool) ([]byte, []string, error) {
	var before map[string]any
	if err := toml.Unmarshal(old, &before); err != nil {
		pos := ""
		var de *toml.DecodeError
		if errorsAs(err, &de) {
			l, c := de.Position()
			pos = fmt.Sprintf("%d:%d: ", l, c)
		}
		return nil, nil, fmt.Errorf("%snot valid TOML, left untouched: %v", pos, err)
	}
	if h, has := before["hooks"]; has {
		if _, isList := h.([]any); !isList {
			return nil, nil, fmt.Errorf("hooks is not an array of [[hooks]] tables, left untouched")
		}
	}
	lines := strings.Split(string(old), "\n") // a CRLF file's lines keep their \r
	want := map[Hook]bool{}
	if !remove {
		for _, en := range entries {
			want[wanted(prog, en)] = true
		}
	}
	var changes []string
	have := map[Hook]bool{}
	drop := map[int]bool{}
	for _, b := range blocks(lines) {
		if !b.ok || !b.marked && !ours(b.hook, prog, entries) {
			continue
		}
		if want[b.hook] && !have[b.hook] {
			have[b.hook] = true
			continue
		}
		for i := b.start; i < b.end; i++ {
			drop[i] = true
		}
		for i := b.start - 1; i >= 0 && strings.TrimSpace(lines[i]) == ""; i-- {
			drop[i] = true // the blank line install wrote before it
		}
		changes = append(changes, "removed "+describe(b.hook))
	}
	var kept []string
	for i, l := range lines {
		if !drop[i] {
			kept = append(kept, l)
		}
	}
	var add bytes.Buffer
	if !remove {
		for _, en := range entries {
			h := wanted(prog, en)
			if have[h] {
				continue
			}
			have[h] = true
			add.WriteString("\n" + strings.Replace(Render(h), "[[hooks]]", "[[hooks]] "+Mark, 1))
			changes = append(changes, "added "+describe(h))
		}
	}
	if len(changes) == 0 {
		return old, nil, nil
	}
	out := strings.Join(kept, "\n")
	if add.Len() > 0 {
		out = strings.TrimRight(out, "\n")
		if out != "" {
			out += "\n\n"
		}
		out += strings.TrimLeft(add.String(), "\n")
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
	}
	if err := sameSettings(before, []byte(out), prog, entries); err != nil {
		return nil, nil, err
	}
	return []byte(out), changes, nil
}

// sameSettings checks that the edited file reads as the old one but for install's own hooks.
func sameSettings(before map[string]any, edited []byte, prog string, entries []dialect.InstallEntry) error {
	var after map[string]any
	if err := toml.Unmarshal(edited, &after); err != nil {
		return fmt.Errorf("the edit would not be valid TOML (%v); left untouched", err)
	}
	strip := func(m map[string]any) []any {
		var keep []any
		list, _ := m["hooks"].([]any)
		for _, v := range list {
			t, _ := v.(map[string]any)
			h := Hook{}
			h.Event, _ = t["event"].(string)
			h.Command, _ = t["command"].(string)
			if !installed(h, prog, entries) {
				keep = append(keep, v)
			}
		}
		delete(m, "hooks")
		return keep
	}
	if before == nil {
		before = map[string]any{}
	}
	if after == nil {
		after = map[string]any{}
	}
	b, a := strip(before), strip(after)
	if !reflect.DeepEqual(before, after) || !reflect.DeepEqual(b, a) {
		return fmt.Errorf("the edit would change settings that are not agenthooks' hooks; left untouched")
	}
	return nil
}

func describe(h Hook) string {
	s := h.Event
	if h.Matcher != "" {
		s += " (" + h.Matcher + ")"
	}
	return s + ": " + h.Command
}

// Render writes a hook as a [[hooks]] table (with no install mark).
func Render(h Hook) string {
	var b strings.Builder
	b.WriteString("[[hooks]]\n")
	b.WriteString("event = " + Quote(h.Event) + "\n")
	if h.Matcher != "" {
		b.WriteString("matcher = " + Quote(h.Matcher) + "\n")
	}
	b.WriteString("command = " + Quote(h.Command) + "\n")
	if h.Timeout > 0 {
		fmt.Fprintf(&b, "timeout = %d\n", h.Timeout)
	}
	if h.FailMode != "" {
		b.WriteString("fail_mode = " + Quote(h.FailMode) + "\n")
	}
	return b.String()
}

// Quote writes s as a TOML basic string.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func errorsAs(err error, target **toml.DecodeError) bool { return errors.As(err, target) }

// RenderSettings writes hooks given in Claude Code's settings shape ({"hooks":{"Event":[{"matcher":...,
// "hooks":[{"type":"command","command":...,"timeout":...,"failClosed":...}]}]}}) as Kimi Code's
// [[hooks]] tables, in the order of Kimi Code's events (dialect.Install.Render). A handler that
// is not a command, an event Kimi Code has not, a timeout out of 1 to 600 seconds and
// failClosed (fail_mode, which 2.1.0 refuses) are not carried.
func RenderSettings(settings []byte) ([]byte, []string) {
	var doc struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(settings, &doc); err != nil {
		return nil, []string{"the hooks cannot be read: " + err.Error()}
	}
	var lost []string
	var b strings.Builder
	for _, event := range slices.Sorted(maps.Keys(doc.Hooks)) {
		if _, ok := events()[event]; !ok {
			lost = append(lost, event+": Kimi Code has no such event")
		}
	}
	for _, event := range Events {
		for _, g := range doc.Hooks[event] {
			for _, hd := range g.Hooks {
				typ, _ := hd["type"].(string)
				command, _ := hd["command"].(string)
				if typ != "" && typ != "command" || command == "" {
					lost = append(lost, fmt.Sprintf("%s: a %s handler (Kimi Code runs commands only)", event, typ))
					continue
				}
				h := Hook{Event: event, Matcher: g.Matcher, Command: command}
				if g.Matcher == "*" {
					h.Matcher = "" // Claude Code's match-all; a regular expression "*" is invalid
				}
				if t, ok := hd["timeout"].(float64); ok {
					if t >= 1 && t <= 600 && t == float64(int(t)) {
						h.Timeout = int(t)
					} else {
						lost = append(lost, fmt.Sprintf("%s: %s: timeout %v (Kimi Code takes 1 to 600 seconds; its default, 30, applies)", event, command, t))
					}
				}
				if fc, _ := hd["failClosed"].(bool); fc {
					lost = append(lost, fmt.Sprintf("%s: %s: failClosed (Kimi Code 2.1.0 has no fail_mode and refuses a file that sets it; the hook fails open)", event, command))
				}
				if b.Len() > 0 {
					b.WriteString("\n")
				}
				b.WriteString(Render(h))
			}
		}
	}
	return []byte(b.String()), lost
}
