package coverage

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
)

// Codex keeps one rollout file a session (and one a subagent thread) under
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl ($CODEX_HOME defaults to ~/.codex;
// archived sessions go to archived_sessions/). Its first line, session_meta, names the session
// and cli_version; a call is a response_item whose payload is a function_call (exec_command,
// shell, shell_command, container.exec, apply_patch: arguments a JSON string), a
// custom_tool_call (apply_patch: its input the patch) or a local_shell_call (action.command
// an argv). Hook payloads carry the call's call_id as tool_use_id.

// codexTool says whether a Codex tool is a shell or file-changing one.
func codexTool(name string) (Kind, bool) {
	switch name {
	case "exec_command", "shell", "shell_command", "container.exec", "local_shell":
		return Shell, true
	case "apply_patch":
		return File, true
	}
	return "", false
}

func codexAgent() Agent {
	return Agent{Name: "codex", HookIDs: true, Parse: parseCodex, Files: func(home string, env func(string) string) []string {
		dir := env("CODEX_HOME")
		if dir == "" {
			dir = filepath.Join(home, ".codex")
		}
		day := filepath.Join("*", "*", "*", "rollout-*.jsonl")
		return recent(filepath.Join(dir, "sessions", day), filepath.Join(dir, "archived_sessions", "rollout-*.jsonl"),
			filepath.Join(dir, "archived_sessions", day))
	}}
}

type codexLine struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		CLIVersion string `json:"cli_version"`
		// Source is where the session came from: "exec", "cli", ..., or for a subagent's
		// thread an object {"subagent": ...} (Codex's SessionSource::SubAgent; not yet seen in
		// a real transcript of the e2e suite, whose fake model spawns none).
		Source    json.RawMessage `json:"source"`
		Name      string          `json:"name"`
		Arguments string          `json:"arguments"`
		Input     string          `json:"input"`
		CallID    string          `json:"call_id"`
		Action    struct {
			Command []string `json:"command"`
		} `json:"action"`
	} `json:"payload"`
}

func parseCodex(file string, r io.Reader) ([]Call, []Problem) {
	var calls []Call
	var probs []Problem
	session, version, subagent := "", "", ""
	probs = append(probs, lines(file, r, func(n int, b []byte) {
		if !bytes.Contains(b, []byte(`"session_meta"`)) && !bytes.Contains(b, []byte(`"response_item"`)) {
			return
		}
		var l codexLine
		if p := decodeLine(file, n, b, &l); p != nil {
			probs = append(probs, *p)
			return
		}
		p := l.Payload
		if l.Type == "session_meta" {
			if session == "" {
				session, version = p.ID, p.CLIVersion
				var src map[string]json.RawMessage
				if json.Unmarshal(p.Source, &src) == nil && src["subagent"] != nil {
					subagent = p.ID
				}
			}
			return
		}
		if l.Type != "response_item" {
			return
		}
		var name, cmd string
		switch p.Type {
		case "function_call":
			name = p.Name
			cmd = codexArguments(p.Name, p.Arguments)
		case "custom_tool_call":
			name, cmd = p.Name, p.Input
		case "local_shell_call":
			name, cmd = "local_shell", argvCommand(p.Action.Command)
		default:
			return
		}
		kind, ok := codexTool(name)
		if !ok {
			return
		}
		if session == "" {
			probs = append(probs, Problem{file, n, "a tool call before the session_meta line: skipped"})
			return
		}
		calls = append(calls, Call{Agent: "codex", Version: version, Session: session, ToolUseID: p.CallID, Tool: name, Kind: kind,
			Command: clipCommand(cmd), Time: parseTime(l.Timestamp), Subagent: subagent, File: file, Line: n})
	})...)
	return calls, probs
}

// codexArguments reads the command (or the patch) from a function call's JSON arguments.
func codexArguments(name, args string) string {
	if checkDepth([]byte(args)) != nil {
		return args
	}
	var a struct {
		Cmd     string          `json:"cmd"`
		Command json.RawMessage `json:"command"`
		Input   string          `json:"input"`
		Patch   string          `json:"patch"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return args
	}
	switch {
	case a.Cmd != "":
		return a.Cmd
	case len(a.Command) > 0:
		var s string
		if json.Unmarshal(a.Command, &s) == nil {
			return s
		}
		var argv []string
		if json.Unmarshal(a.Command, &argv) == nil {
			return argvCommand(argv)
		}
	case a.Input != "":
		return a.Input
	case a.Patch != "":
		return a.Patch
	}
	return args
}

// argvCommand is the command an argv runs: the script of bash -lc SCRIPT, else the words joined.
func argvCommand(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		switch filepath.Base(argv[0]) {
		case "bash", "sh", "zsh", "dash":
			return argv[2]
		}
	}
	return strings.Join(argv, " ")
}
