package coverage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Kind says what a tool call does.
type Kind string

// The kinds of call coverage counts.
const (
	Shell Kind = "shell" // runs a command
	File  Kind = "file"  // writes, edits or patches files
)

// Call is one shell or file-changing tool call read from a transcript.
type Call struct {
	Agent   string `json:"agent"`
	Version string `json:"agent_version,omitempty"` // the agent's version the transcript names
	Session string `json:"session"`
	// ToolUseID is the agent's id of the call, "" when its transcript gives none.
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Tool      string    `json:"tool"`
	Kind      Kind      `json:"kind"`
	Command   string    `json:"command"` // the shell command, the file changed, or the patch
	Time      time.Time `json:"time"`
	// Subagent is the id of the subagent that made the call, "" for the main loop.
	Subagent string `json:"subagent,omitempty"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

// Problem is a part of a transcript that could not be read: skipped, and reported.
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"` // 0: the whole file
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return p.File + ": " + p.Msg
}

// Limits on what is read of the transcripts.
const (
	// MaxLine bounds one line of a JSONL transcript; a longer one is skipped and reported.
	MaxLine = 16 << 20
	// MaxFile bounds what is read of one transcript; the rest is reported, not read.
	MaxFile = 512 << 20
	// MaxFiles bounds how many transcripts one report reads (the newest first).
	MaxFiles = 5000
	// MaxDepth bounds the JSON nesting of a line (or of a whole JSON chat file).
	MaxDepth = 64
	// MaxCommand bounds what is kept of a call's command.
	MaxCommand = 4096
	// MaxCalls bounds the calls one report holds; past it the oldest transcripts are not read.
	MaxCalls = 1 << 20
)

// An Agent is what coverage knows of one agent's transcripts.
type Agent struct {
	// Name is the agent as the audit trail names it (claude, codex, gemini, qwen, copilot).
	Name string
	// Files lists its transcript files under home (env reads the environment, for a folder an
	// agent lets the user move).
	Files func(home string, env func(string) string) []string
	// Parse reads the calls of one transcript.
	Parse func(file string, r io.Reader) ([]Call, []Problem)
	// ParseFile, when set, reads the calls of one transcript that is not read as a stream (a
	// database): Parse is not used, and the file's time does not say whether it was written
	// since o.Since (its journal is another file), so its calls are filtered by their time only.
	ParseFile func(file string) ([]Call, []Problem)
	// Decision, when set, completes a decision from the agent's own pre-tool payload (raw as
	// the audit trail stores it) where its fields are not Claude Code's: the session the
	// transcript names, the call's id, what the call does.
	Decision func(payload []byte, d *Decision)
	// HookIDs says whether the agent's hook payloads carry the call's id (tool_use_id), so a
	// call and a decision are matched by session and id; else by session, command and time.
	HookIDs bool
}

// Agents are the agents whose transcripts coverage reads.
func Agents() []Agent {
	return []Agent{claudeAgent(), codexAgent(), geminiAgent(), qwenAgent(), copilotAgent(), openCodeAgent(), clineAgent(), droidAgent(), crushAgent()}
}

// lines calls fn with each line of r (1-based), at most MaxFile bytes of it; a line longer than
// MaxLine is skipped and reported.
func lines(file string, r io.Reader, fn func(n int, line []byte)) []Problem {
	var probs []Problem
	lr := &io.LimitedReader{R: r, N: MaxFile}
	br := bufio.NewReaderSize(lr, 64<<10)
	var buf []byte
	n, long := 0, false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && len(buf)+len(chunk) > MaxLine+1 {
			long, buf = true, buf[:0]
		}
		if !long {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(chunk) > 0 || long || len(buf) > 0 {
			n++
			if long {
				probs = append(probs, Problem{file, n, fmt.Sprintf("line longer than %d bytes: skipped", MaxLine)})
			} else if l := bytes.TrimSpace(buf); len(l) > 0 {
				fn(n, l)
			}
		}
		buf, long = buf[:0], false
		if err == io.EOF {
			if lr.N <= 0 {
				probs = append(probs, Problem{file, n, fmt.Sprintf("transcript larger than %d bytes: the rest is not read", MaxFile)})
			}
			return probs
		}
		if err != nil {
			return append(probs, Problem{file, n, err.Error()})
		}
	}
}

// checkDepth says where b's JSON nesting goes deeper than MaxDepth, so that a hostile line is
// refused before it is decoded.
func checkDepth(b []byte) error {
	depth, inString, escaped := 0, false, false
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > MaxDepth {
				return fmt.Errorf("JSON nested deeper than %d at byte %d", MaxDepth, i+1)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// jsonProblem positions a JSON error within its line: the byte where it is, when json says.
func jsonProblem(file string, line int, err error) Problem {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return Problem{file, line, fmt.Sprintf("not JSON at byte %d: %v", syn.Offset, err)}
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return Problem{file, line, fmt.Sprintf("unexpected JSON at byte %d: %s is %s, want %s", typ.Offset, typ.Field, typ.Value, typ.Type)}
	}
	return Problem{file, line, "not JSON: " + err.Error()}
}

// decodeLine decodes one JSON line into v after checking its depth; a problem says why not.
func decodeLine(file string, line int, b []byte, v any) *Problem {
	if err := checkDepth(b); err != nil {
		return &Problem{file, line, err.Error()}
	}
	if err := json.Unmarshal(b, v); err != nil {
		p := jsonProblem(file, line, err)
		return &p
	}
	return nil
}

// recent lists the regular files matched by the glob patterns, newest first, at most MaxFiles.
// Links are not followed.
func recent(patterns ...string) []string {
	type f struct {
		path string
		mod  time.Time
	}
	var all []f
	seen := map[string]bool{}
	for _, p := range patterns {
		m, _ := filepath.Glob(p)
		for _, path := range m {
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || seen[path] {
				continue
			}
			seen[path] = true
			all = append(all, f{path, fi.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].mod.Equal(all[j].mod) {
			return all[i].mod.After(all[j].mod)
		}
		return all[i].path < all[j].path
	})
	out := make([]string, 0, min(len(all), MaxFiles))
	for i := range min(len(all), MaxFiles) {
		out = append(out, all[i].path)
	}
	return out
}

func clipCommand(s string) string {
	if len(s) > MaxCommand {
		return s[:MaxCommand]
	}
	return s
}

// parseTime reads an RFC 3339 time, the zero time when it is not one.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
