package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// chatModel speaks OpenAI's Chat Completions API, streamed or not, as Qwen Code, Kimi Code and GitHub
// Copilot CLI (in BYOK mode) call it: each turn of the main loop (a request with tools) asks for
// the next scripted call through the agent's shell tool (or, for "read:PATH", its file-read
// tool), found by name among the tools the request offers; when the script is done, or a
// request offers no tools, it answers with text.
func chatModel(m *model) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := m.record(r)
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			writeJSONResponse(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "gpt-4.1", "object": "model", "owned_by": "e2e"}}})
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model    string           `json:"model"`
			Stream   bool             `json:"stream"`
			Messages []map[string]any `json:"messages"`
			Tools    []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(body, &req)
		var tools []string
		for _, t := range req.Tools {
			tools = append(tools, t.Function.Name)
		}
		step := 0
		for _, msg := range req.Messages {
			if msg["role"] == "tool" {
				step++
			}
		}
		var call map[string]any
		if len(tools) > 0 && step < len(m.commands) {
			name, args := chatToolCall(tools, m.commands[step])
			b, _ := json.Marshal(args)
			call = map[string]any{"index": 0, "id": fmt.Sprintf("call_%02d", step), "type": "function",
				"function": map[string]any{"name": name, "arguments": string(b)}}
		}
		chatReply(w, req.Model, req.Stream, step, call)
	}
}

// chatReply answers a Chat Completions request with call, or with the text "done" when call is
// nil, streamed or not as the request asked.
func chatReply(w http.ResponseWriter, model string, stream bool, step int, call map[string]any) {
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	id := fmt.Sprintf("chatcmpl-e2e-%d", step)
	if !stream {
		msg := map[string]any{"role": "assistant", "content": "done"}
		finish := "stop"
		if call != nil {
			delete(call, "index")
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}
			finish = "tool_calls"
		}
		writeJSONResponse(w, map[string]any{"id": id, "object": "chat.completion", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	var chunks []map[string]any
	if call != nil {
		chunks = append(chunks, chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}, nil),
			chunk(map[string]any{}, "tool_calls"))
	} else {
		chunks = append(chunks, chunk(map[string]any{"role": "assistant", "content": "done"}, nil), chunk(map[string]any{}, "stop"))
	}
	last := chunk(map[string]any{}, nil)
	last["choices"], last["usage"] = []any{}, usage
	chunks = append(chunks, last)
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range chunks {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// chatToolCall names the tool and its arguments for one scripted step: "call:NAME ARGS" calls
// tool NAME with the JSON object ARGS, "read:PATH" reads a file, "write:PATH=CONTENT" writes one,
// anything else is a shell command. The tools are found by
// the names Qwen Code (run_shell_command, read_file, write_file), Copilot CLI (bash, view,
// create) and Kimi Code (Bash, Read, Write) give them.
func chatToolCall(tools []string, step string) (string, map[string]any) {
	if name, args, ok := scriptedCall(step); ok { // a named tool and its arguments (tools_test.go)
		return name, args
	}
	if slices.Contains(tools, "ReadMediaFile") { // Kimi Code's tools, which name their file path
		if path, ok := strings.CutPrefix(step, "read:"); ok {
			return "Read", map[string]any{"path": path}
		}
		if rest, ok := strings.CutPrefix(step, "write:"); ok {
			path, content, _ := strings.Cut(rest, "=")
			return "Write", map[string]any{"path": path, "content": content}
		}
		return "Bash", map[string]any{"command": step, "description": "run the command"}
	}
	pick := func(names ...string) string {
		for _, n := range names {
			if slices.Contains(tools, n) {
				return n
			}
		}
		return names[0]
	}
	if path, ok := strings.CutPrefix(step, "read:"); ok {
		switch name := pick("read_file", "view", "read"); name {
		case "read": // OpenCode's
			return name, map[string]any{"filePath": path}
		case "view":
			if slices.Contains(tools, "multiedit") { // Crush's view takes file_path, Copilot's path
				return name, map[string]any{"file_path": path}
			}
			return name, map[string]any{"path": path}
		default:
			return name, map[string]any{"file_path": path}
		}
	}
	if rest, ok := strings.CutPrefix(step, "write:"); ok {
		path, content, _ := strings.Cut(rest, "=")
		if !slices.ContainsFunc(tools, func(n string) bool { return n == "write_file" || n == "create" || n == "write" || n == "Create" }) {
			// The Cline CLI's only file-writing tool, and Factory Droid's for GPT models.
			for _, name := range []string{"apply_patch", "ApplyPatch"} {
				if slices.Contains(tools, name) {
					return name, map[string]any{"input": "*** Begin Patch\n*** Add File: " + path + "\n+" + content + "\n*** End Patch\n"}
				}
			}
		}
		if slices.Contains(tools, "Create") { // Factory Droid's
			return "Create", map[string]any{"file_path": path, "content": content}
		}
		switch name := pick("write_file", "create", "write"); name {
		case "write":
			if slices.Contains(tools, "view") { // Crush's write takes file_path, OpenCode's filePath
				return name, map[string]any{"file_path": path, "content": content}
			}
			return name, map[string]any{"filePath": path, "content": content}
		case "create":
			return name, map[string]any{"path": path, "file_text": content}
		default:
			return name, map[string]any{"file_path": path, "content": content}
		}
	}
	if slices.Contains(tools, "run_commands") { // the Cline CLI's shell tool, a list of commands
		return "run_commands", map[string]any{"commands": []any{step}}
	}
	if slices.Contains(tools, "Execute") { // Factory Droid's shell tool, which wants its risk classified
		return "Execute", map[string]any{"command": step, "riskLevelReason": "a scripted test command", "riskLevel": "low"}
	}
	return pick("run_shell_command", "bash", "shell"), map[string]any{"command": step, "description": "run the command"}
}
