package cline

import (
	"bytes"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
)

// WrapperMarker is the line that marks a hook file as agenthooks' own wrapper: uninstall
// deletes only files that carry it, and install rewrites only those.
const WrapperMarker = "agenthooks-cline-wrapper v1"

// IsWrapper reports whether a hook file's content is a wrapper install wrote.
func IsWrapper(content []byte) bool { return bytes.Contains(content, []byte(WrapperMarker)) }

// Wrappers renders the hook files install writes for entries: one per event, named after it,
// a POSIX sh script (goos other than windows: Cline runs an extensionless file by its shebang,
// and the VS Code extension only an executable named exactly after the event) or a PowerShell
// script named EVENT.ps1 (windows: the only name the VS Code extension runs there). Each reads
// the payload once and runs agenthooks at path with each entry's arguments in turn: the first
// that answers is the answer.
//
// When agenthooks is gone, or exits with a failure and no answer, a wrapper of an event whose
// entries are FailClosed (the events that gate a call, Agent.Gates: PreToolUse) answers cancel:
// Cline ignores a hook's exit status and would otherwise run the call unguarded. On every other
// event a cancel would not stop a call but the user's task (the Cline CLI stops the run on a
// PostToolUse cancel, after the tool ran), so there the wrapper answers cancel false with the
// failure as errorMessage (the Cline CLI hands it to the model as context), writes it on stderr
// too (the VS Code extension shows a hook's stderr), and the task goes on.
func Wrappers(prog, path, goos string, entries []dialect.InstallEntry) []dialect.WrapperFile {
	var order []string
	steps := map[string][]string{}
	closed := map[string]bool{}
	for _, en := range entries {
		closed[en.Event] = closed[en.Event] || en.FailClosed
		args := en.Args
		if strings.HasPrefix(args, "guard ") && !strings.Contains(args, "--format") {
			args += " --format cline"
		}
		if _, seen := steps[en.Event]; !seen {
			order = append(order, en.Event)
		}
		if !contains(steps[en.Event], args) {
			steps[en.Event] = append(steps[en.Event], args)
		}
	}
	out := make([]dialect.WrapperFile, 0, len(order))
	for _, ev := range order {
		if goos == "windows" {
			out = append(out, dialect.WrapperFile{Name: ev + ".ps1", Data: ps1Wrapper(path, ev, steps[ev], closed[ev]), FailClosed: closed[ev]})
			continue
		}
		out = append(out, dialect.WrapperFile{Name: ev, Data: shWrapper(path, ev, steps[ev], closed[ev]), FailClosed: closed[ev]})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// missing is what a wrapper answers when agenthooks is not at path: a cancel where the wrapper
// fails closed, else the same words with cancel false.
func missing(path, event string, closed bool) string {
	b, _ := json.Marshal(map[string]any{"cancel": closed, "errorMessage": "agenthooks is missing (" + path + "), so this Cline " +
		event + " hook " + outcome(closed) + ": reinstall agenthooks, or run agenthooks uninstall --agent cline"})
	return string(b)
}

// outcome says what a wrapper's failure does to Cline's call or task.
func outcome(closed bool) string {
	if closed {
		return "blocks"
	}
	return "lets the task go on"
}

// failed is the format of the answer a wrapper prints when a step fails, for printf (sh) with
// the step's first argument and its exit status.
func failed(event string, closed bool) string {
	return `{"cancel":` + strconv.FormatBool(closed) + `,"errorMessage":"agenthooks %s failed (exit status %s), so this Cline ` +
		event + " hook " + outcome(closed) + `"}`
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func shWrapper(path, event string, steps []string, closed bool) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString("# Cline " + event + " hook: runs agenthooks (" + WrapperMarker + ").\n")
	b.WriteString("# Written by agenthooks install --agent cline, which rewrites it; agenthooks uninstall --agent cline\n")
	b.WriteString("# deletes it. Take out the marker above to keep a file of your own here.\n")
	b.WriteString("prog=" + shQuote(path) + "\n")
	b.WriteString("if [ ! -x \"$prog\" ]; then\n")
	if !closed {
		b.WriteString("\tprintf '%s\\n' " + shQuote("agenthooks is missing ("+path+")") + " >&2\n")
	}
	b.WriteString("\tprintf '%s\\n' " + shQuote(missing(path, event, closed)) + "\n\texit 0\nfi\n")
	b.WriteString("payload=$(cat)\n")
	b.WriteString("step() {\n")
	b.WriteString("\tout=$(printf '%s\\n' \"$payload\" | \"$prog\" \"$@\")\n")
	b.WriteString("\tst=$?\n")
	// agenthooks' answer passes when it exited 0 with a JSON object (or nothing), or failed with
	// a cancel of its own; anything else (a crash's text, truncated JSON) is a failure, which
	// Cline would take for no answer and run the call: the failure's answer instead (a cancel
	// where the wrapper fails closed).
	b.WriteString("\tcase \"$st:$out\" in\n")
	b.WriteString("\t0:) return 0 ;;\n")
	b.WriteString("\t0:\\{*\\} | *:\\{*'\"cancel\":true'*\\}) printf '%s\\n' \"$out\"; exit 0 ;;\n")
	b.WriteString("\tesac\n")
	// a failure's answer, on a non-gating event also on stderr (the wrapper's own words, not
	// agenthooks' output, which may hold the payload)
	if !closed {
		b.WriteString("\tprintf 'agenthooks %s failed (exit status %s)\\n' \"$1\" \"$st\" >&2\n")
	}
	b.WriteString("\tprintf " + shQuote(failed(event, closed)+`\n`) + " \"$1\" \"$st\"\n")
	b.WriteString("\texit 0\n}\n")
	for _, s := range steps {
		var q []string
		for _, a := range strings.Fields(s) {
			q = append(q, shQuote(a))
		}
		b.WriteString("step " + strings.Join(q, " ") + "\n")
	}
	return []byte(b.String())
}

func psQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func ps1Wrapper(path, event string, steps []string, closed bool) []byte {
	var b strings.Builder
	b.WriteString("# Cline " + event + " hook: runs agenthooks (" + WrapperMarker + ").\r\n")
	b.WriteString("# Written by agenthooks install --agent cline, which rewrites it; agenthooks uninstall --agent cline\r\n")
	b.WriteString("# deletes it. Take out the marker above to keep a file of your own here.\r\n")
	b.WriteString("$utf8 = New-Object System.Text.UTF8Encoding $false\r\n")
	b.WriteString("[Console]::OutputEncoding = $utf8\r\n$OutputEncoding = $utf8\r\n")
	b.WriteString("$prog = " + psQuote(path) + "\r\n")
	b.WriteString("if (-not (Test-Path -LiteralPath $prog -PathType Leaf)) {\r\n")
	if !closed {
		b.WriteString("\t[Console]::Error.WriteLine(" + psQuote("agenthooks is missing ("+path+")") + ")\r\n")
	}
	b.WriteString("\t[Console]::Out.WriteLine(" + psQuote(missing(path, event, closed)) + ")\r\n\texit 0\r\n}\r\n")
	b.WriteString("$payload = [Console]::In.ReadToEnd()\r\n")
	b.WriteString("function Step([string[]]$a) {\r\n")
	b.WriteString("\t$out = $payload | & $prog @a\r\n")
	b.WriteString("\t$st = $LASTEXITCODE\r\n")
	b.WriteString("\t$text = (($out | Out-String)).Trim()\r\n")
	b.WriteString("\tif ($st -eq 0 -and -not $text) { return }\r\n")
	b.WriteString("\tif ($text.StartsWith('{') -and $text.EndsWith('}') -and ($st -eq 0 -or $text.Contains('\"cancel\":true'))) { [Console]::Out.WriteLine($text); exit 0 }\r\n")
	if !closed {
		b.WriteString("\t[Console]::Error.WriteLine('agenthooks ' + $a[0] + ' failed (exit status ' + $st + ')')\r\n")
	}
	b.WriteString("\t[Console]::Out.WriteLine('{\"cancel\":" + strconv.FormatBool(closed) + ",\"errorMessage\":\"agenthooks ' + $a[0] + ' failed (exit status ' + $st + '), so this Cline " + event + " hook " + outcome(closed) + "\"}')\r\n")
	b.WriteString("\texit 0\r\n}\r\n")
	for _, s := range steps {
		var q []string
		for _, a := range strings.Fields(s) {
			q = append(q, psQuote(a))
		}
		b.WriteString("Step @(" + strings.Join(q, ", ") + ")\r\n")
	}
	return []byte(b.String())
}

// hookExts are the extensions of the hook files the Cline CLI runs (SUPPORTED_HOOK_FILE_EXTENSIONS).
var hookExts = []string{"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}

// HookFileEvent names the Cline event of a file in a hooks folder, as the CLI matches it: the
// name without a supported extension, in any case ("pretooluse.py" is PreToolUse); "" for a
// file Cline does not run.
func HookFileEvent(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	ext := strings.ToLower(path.Ext(name))
	if !contains(hookExts, ext) {
		return ""
	}
	base := strings.TrimSpace(strings.ToLower(strings.TrimSuffix(name, name[len(name)-len(ext):])))
	for _, ev := range Events {
		if strings.ToLower(ev) == base && ev != "Notification" {
			return ev
		}
	}
	return ""
}

// HookCommand is how the Cline CLI runs a hook file (inferHookCommand): its shebang's
// interpreter (env skipped; bash, sh and zsh by their names; python on Windows as py -3),
// else by its extension, else bash; the file's path last. goos is the platform's.
func HookCommand(file string, content []byte, goos string) []string {
	if first, _, _ := bytes.Cut(content, []byte("\n")); bytes.HasPrefix(bytes.TrimSpace(first), []byte("#!")) {
		if tokens := strings.Fields(strings.TrimSpace(string(bytes.TrimSpace(first)[2:]))); len(tokens) > 0 {
			return append(normalizeInterpreter(tokens, goos), file)
		}
	}
	switch strings.ToLower(path.Ext(strings.ReplaceAll(file, `\`, "/"))) {
	case ".sh", ".bash", ".zsh":
		return []string{"bash", file}
	case ".js", ".mjs", ".cjs":
		return []string{"node", file}
	case ".ts", ".mts", ".cts":
		return []string{"bun", "run", file}
	case ".py":
		if goos == "windows" {
			return []string{"py", "-3", file}
		}
		return []string{"python3", file}
	case ".ps1":
		if goos == "windows" {
			return []string{"powershell", "-File", file}
		}
		return []string{"pwsh", "-File", file}
	}
	return []string{"bash", file}
}

func normalizeInterpreter(tokens []string, goos string) []string {
	if len(tokens) == 0 {
		return tokens
	}
	name := strings.ToLower(strings.ReplaceAll(tokens[0], `\`, "/"))
	name = name[strings.LastIndex(name, "/")+1:]
	switch name {
	case "env":
		if len(tokens) == 1 {
			return tokens
		}
		return normalizeInterpreter(tokens[1:], goos)
	case "bash", "sh", "zsh":
		return append([]string{name}, tokens[1:]...)
	case "python3", "python":
		if goos == "windows" {
			return append([]string{"py", "-3"}, tokens[1:]...)
		}
		return append([]string{name}, tokens[1:]...)
	}
	return append([]string(nil), tokens...)
}

// WrapperSteps reads a wrapper install wrote: the agenthooks it runs and the arguments of each
// of its steps, with the 1-based line of each, so that doctor, status and list see its calls as
// they see an agenthooks entry in a hooks file. ok is false for a file that is no wrapper or
// that was edited out of shape.
func WrapperSteps(content []byte) (prog string, steps [][]string, lines []int, ok bool) {
	if !IsWrapper(content) {
		return "", nil, nil, false
	}
	for i, line := range strings.Split(strings.ReplaceAll(string(content), "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "prog="):
			if w, ok := shWords(strings.TrimPrefix(line, "prog=")); ok && len(w) == 1 {
				prog = w[0]
			}
		case strings.HasPrefix(line, "$prog = "):
			if w, ok := psWords(strings.TrimPrefix(line, "$prog = ")); ok && len(w) == 1 {
				prog = w[0]
			}
		case strings.HasPrefix(line, "step "):
			if w, ok := shWords(strings.TrimPrefix(line, "step ")); ok {
				steps, lines = append(steps, w), append(lines, i+1)
			}
		case strings.HasPrefix(line, "Step @(") && strings.HasSuffix(line, ")"):
			if w, ok := psWords(strings.TrimSuffix(strings.TrimPrefix(line, "Step @("), ")")); ok {
				steps, lines = append(steps, w), append(lines, i+1)
			}
		}
	}
	return prog, steps, lines, prog != "" && len(steps) > 0
}

// shWords splits words written as shQuote writes them: single-quoted runs and \' between them.
func shWords(s string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	in, started := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			cur.WriteByte(c)
		case c == '\'':
			in, started = true, true
		case c == '\\' && i+1 < len(s) && s[i+1] == '\'':
			cur.WriteByte('\'')
			i++
			started = true
		case c == ' ' || c == '\t':
			if started {
				out, started = append(out, cur.String()), false
				cur.Reset()
			}
		default:
			return nil, false
		}
	}
	if in {
		return nil, false
	}
	if started {
		out = append(out, cur.String())
	}
	return out, true
}

// psWords splits PowerShell single-quoted words separated by commas (a doubled quote is one).
func psWords(s string) ([]string, bool) {
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return nil, false
	}
	out := strings.Split(s[1:len(s)-1], "', '")
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], "''", "'")
	}
	return out, true
}
