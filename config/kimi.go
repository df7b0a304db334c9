package config

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect/kimi"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeKimi reads the [[hooks]] tables of Kimi Code's config.toml, one table per hook
// ({event, matcher, command, timeout, fail_mode}); the rest of the file is Kimi Code's own
// business. As Kimi Code 2.1.0, it takes any other field in a table, an unknown event or a
// timeout out of 1 to 600 seconds as an error of the whole file; fail_mode, which only Kimi
// Code's newer documentation has, is read with a warning. A TOML syntax error is reported at its line and column, a problem in a table at the
// line of its [[hooks]] header.
func DecodeKimi(src Source, data []byte) *File {
	f := &File{Source: src, Usable: true}
	doc, ok := decodeTOML(f, data)
	if !ok {
		return f
	}
	raw, ok := doc["hooks"]
	if !ok {
		return f
	}
	list, ok := raw.([]any)
	if !ok {
		f.Problems.Add(srcpos.Pos{File: src.File, Line: keyLine(data, "hooks")}, srcpos.Error, CodeHooks, "hooks must be an array of [[hooks]] tables")
		f.Usable = false
		return f
	}
	headers := hooksHeaderLines(data)
	known := map[string]bool{}
	for _, e := range kimi.Events {
		known[e] = true
	}
	groups := map[string][]any{}
	var order []string
	lines := make([]int, 0, len(list))
	for i, v := range list {
		pos := srcpos.Pos{File: src.File}
		if i < len(headers) {
			pos.Line, pos.Col = headers[i], 1
		}
		lines = append(lines, pos.Line)
		at := fmt.Sprintf("hooks[%d]", i)
		t, isTable := v.(map[string]any)
		if !isTable {
			f.Problems.Add(pos, srcpos.Error, CodeHookEntry, at+" must be a table")
			continue
		}
		var keys []string
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch k {
			case "event", "matcher", "command", "timeout", "fail_mode":
			default:
				f.Problems.Add(pos, srcpos.Error, CodeUnknownField, fmt.Sprintf("%s: unknown field %q (Kimi Code accepts event, matcher, command, timeout and fail_mode only, and fails to load the file)", at, k))
			}
		}
		event, _ := t["event"].(string)
		command, _ := t["command"].(string)
		matcher, hasMatcher := t["matcher"].(string)
		switch {
		case event == "":
			f.Problems.Add(pos, srcpos.Error, CodeField, at+": event must be a non-empty string")
		case !known[event]:
			f.Problems.Add(pos, srcpos.Error, CodeUnknownEvent, fmt.Sprintf("%s: unknown event %q (Kimi Code fails to load the file)", at, event))
		}
		if strings.TrimSpace(command) == "" {
			f.Problems.Add(pos, srcpos.Error, CodeCommand, at+": command must be a non-empty string")
		}
		if _, has := t["matcher"]; has && !hasMatcher {
			f.Problems.Add(pos, srcpos.Error, CodeMatcher, at+": matcher must be a string")
		}
		handler := map[string]any{"type": "command", "command": command}
		if tv, has := t["timeout"]; has {
			n, isInt := tv.(int64)
			if !isInt || n < 1 || n > 600 {
				f.Problems.Add(pos, srcpos.Error, CodeField, at+": timeout must be a whole number of seconds from 1 to 600")
			} else {
				handler["timeout"] = n
			}
		}
		if fm, has := t["fail_mode"]; has {
			switch fm {
			case "open", "closed":
				// Kimi Code's newer documentation has fail_mode; 2.1.0's schema has not, and
				// refuses the whole file.
				f.Problems.Add(pos, srcpos.Warning, CodeField, at+": fail_mode is read by Kimi Code newer than 2.1.0 only; 2.1.0 refuses the whole file")
				if fm == "closed" {
					handler["failClosed"] = true
				}
			default:
				f.Problems.Add(pos, srcpos.Error, CodeField, at+`: fail_mode must be "open" or "closed"`)
			}
		}
		if _, seen := groups[event]; !seen {
			order = append(order, event)
		}
		groups[event] = append(groups[event], map[string]any{"matcher": matcher, "hooks": []any{handler}})
	}
	if f.Problems.HasErrors() {
		f.Usable = false
		return f
	}
	warnings := f.Problems
	hooks := map[string]any{}
	for _, e := range order {
		hooks[e] = groups[e]
	}
	js, err := json.Marshal(map[string]any{"hooks": hooks})
	if err != nil {
		f.Problems.Add(srcpos.Pos{File: src.File}, srcpos.Error, CodeHooks, "[[hooks]] cannot be read: "+err.Error())
		f.Usable = false
		return f
	}
	decoded := DecodeSettings(src, js)
	problems := warnings
	for _, p := range decoded.Problems {
		problems.Add(srcpos.Pos{File: src.File}, p.Severity, p.Code, "[[hooks]]: "+p.Message)
	}
	decoded.Problems = problems
	// Each hook takes the line of its table: the tables of one event are in file order.
	next := map[string]int{}
	idx := map[string][]int{}
	for i, v := range list {
		t, _ := v.(map[string]any)
		e, _ := t["event"].(string)
		idx[e] = append(idx[e], lines[i])
	}
	for _, h := range decoded.Hooks {
		h.Pos = srcpos.Pos{File: src.File}
		if l := idx[h.Event]; next[h.Event] < len(l) {
			h.Pos.Line, h.Pos.Col = l[next[h.Event]], 1
			next[h.Event]++
		}
	}
	return decoded
}

// hooksHeaderLines returns the line of each [[hooks]] header, in order.
func hooksHeaderLines(data []byte) []int {
	var out []int
	for i, l := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "[[")
		if !ok {
			continue
		}
		if name, _, ok := strings.Cut(rest, "]]"); ok && strings.TrimSpace(name) == "hooks" {
			out = append(out, i+1)
		}
	}
	return out
}

// keyLine is the line of the first line that sets key at the top level, 0 when none does.
func keyLine(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		if k, _, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) == key {
			return i + 1
		}
	}
	return 0
}
