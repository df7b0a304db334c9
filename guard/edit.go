package guard

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/guard/policy"
)

// editTools are the agents' own tools that write, edit or delete files, with the tool_input
// fields that name the file. Claude Code 2.1 (Write, Edit, MultiEdit, NotebookEdit), Cursor's
// preToolUse (Write, Delete), Gemini CLI 0.61 (write_file, replace), Codex 0.169 (apply_patch,
// whose patch names its files), Copilot CLI and Qwen Code (their edit, create and write tools;
// Qwen Code 0.24's notebook_edit),
// Factory Droid 0.215 (ApplyPatch: Codex's patch format, in its input field), OpenCode 1.18
// (apply_patch with patchText, the only edit tool it gives GPT models; patch), Crush after
// v0.90 (download, which saves a URL's content to file_path, and lsp_replace_symbol; its
// write, edit and multiedit reach the guard as Claude Code's).
var editTools = [...]struct {
	tool   string
	fields []string
}{
	{"Write", []string{"file_path", "path"}},
	{"Edit", []string{"file_path", "path"}},
	{"MultiEdit", []string{"file_path"}},
	{"NotebookEdit", []string{"notebook_path", "file_path"}},
	{"notebook_edit", []string{"notebook_path"}},
	{"Delete", []string{"file_path", "path", "target_file"}},
	{"write_file", []string{"file_path", "path"}},
	{"replace", []string{"file_path", "path"}},
	{"edit", []string{"path", "file_path"}},
	{"create", []string{"path", "file_path"}},
	{"str_replace_editor", []string{"path"}},
	{"edit_file", []string{"target_file", "path", "file_path"}},
	{"apply_patch", []string{"command", "patch", "input", "patchText"}},
	{"ApplyPatch", []string{"input", "patch"}},
	{"patch", []string{"patchText", "patch", "input"}},
	{"download", []string{"file_path"}},
	{"lsp_replace_symbol", []string{"file_path"}},
}

// editFields are the fields of tool's input that name the file it writes, or nil when tool
// is not an edit tool (a table laid out by the linker, not a map built at every start).
func editFields(tool string) []string {
	for _, e := range editTools {
		if e.tool == tool {
			return e.fields
		}
	}
	return nil
}

// isPatchTool reports whether tool's input is a patch in Codex's format, which names its files.
func isPatchTool(tool string) bool {
	return tool == "apply_patch" || tool == "ApplyPatch" || tool == "patch"
}

// IsEditTool reports whether tool is an agent's file-writing tool that EditTargets understands.
func IsEditTool(tool string) bool { return editFields(tool) != nil }

// EditTargets returns the files an agent's file tool call writes, edits or deletes, from its
// tool_input. For a patch (apply_patch, ApplyPatch) they are the files the patch adds, updates,
// deletes or moves to. A call that changes several files (VS Code's multi_replace_string_in_file,
// Auggie's remove-files) names every one in file_paths, the neutral field an agent's GuardView
// fills: each is a target.
func EditTargets(tool string, input map[string]any) []string {
	var out []string
	if list, ok := input["file_paths"].([]any); ok {
		for _, f := range list {
			if s, ok := f.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	}
	for _, field := range editFields(tool) {
		s, ok := input[field].(string)
		if !ok || s == "" {
			continue
		}
		if isPatchTool(tool) {
			if inner, ok := encodedInput(s); ok {
				// Droid 0.215 hands a custom model's ApplyPatch arguments on JSON-encoded once
				// more: {"input":"{\"input\":\"*** Begin Patch…\"}"}
				out = append(out, EditTargets(tool, inner)...)
				continue
			}
			out = append(out, patchFiles(s)...)
			continue
		}
		out = append(out, s)
		break
	}
	return out
}

// encodedInput decodes a patch field whose text is a JSON object (a tool's arguments encoded a
// second time), one level deep.
func encodedInput(s string) (map[string]any, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal([]byte(s), &m) != nil {
		return nil, false
	}
	for k, v := range m {
		if inner, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(inner), "{") {
			delete(m, k) // one level: a patch nested deeper is not read
		}
	}
	return m, true
}

// patchFiles lists the files an apply_patch patch touches.
func patchFiles(patch string) []string {
	var out []string
	for line := range strings.Lines(patch) {
		line = strings.TrimSpace(line)
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ", "+++ b/", "--- a/", "+++ ", "--- "} {
			if f, ok := strings.CutPrefix(line, p); ok && f != "/dev/null" {
				out = append(out, strings.TrimSpace(f))
				break
			}
		}
	}
	return out
}

// CheckEdit judges an agent's file tool writing, editing or deleting files: a change to a
// protected path (ctx.Protected) is denied; any other file is allowed, as this guard judges only
// what switches guards off.
func (g *Guard) CheckEdit(tool string, files []string, ctx Context) Verdict {
	if ctx.Project == "" {
		ctx.Project = ctx.Cwd
	}
	return policy.CheckEdit(tool, files, ctx)
}

// maxEditRead bounds the file an edit's result is worked out from: a larger one is not read,
// and the edit counts as unseen.
const maxEditRead = 1 << 20

// EditText returns what an agent's file tool call (input in Claude Code's shape, as GuardView
// gives it) makes of a file: the file's text now (read with read) and after the call. The
// result is known for a whole-file write (content, file_text, new_text with no command but
// create) and for string replacements (old_string/new_string and their kin, edits[]), where
// both the first and every occurrence replaced are given; any other input is unseen.
func EditText(input map[string]any, read func(string) ([]byte, error)) policy.EditText {
	return func(file string) (string, string, bool) {
		data, err := read(file)
		missing := errors.Is(err, fs.ErrNotExist)
		if err != nil && !missing || len(data) > maxEditRead {
			return "", "", false
		}
		before := string(data)
		if cmd, _ := input["command"].(string); cmd == "" || cmd == "create" {
			for _, k := range []string{"content", "file_text", "new_text", "text"} {
				if s, ok := input[k].(string); ok && input["old_text"] == nil && input["insert_line"] == nil {
					return before, s, true
				}
			}
		}
		if missing {
			return "", "", false // an edit of a file that is not there (or not where it was looked for): not known
		}
		edits := []map[string]any{input}
		if list, ok := input["edits"].([]any); ok {
			edits = nil
			for _, e := range list {
				m, ok := e.(map[string]any)
				if !ok {
					return before, "", false
				}
				edits = append(edits, m)
			}
		}
		first, all := before, before
		for _, e := range edits {
			old, repl, ok := replacement(e)
			if !ok {
				return before, "", false
			}
			first, all = strings.Replace(first, old, repl, 1), strings.ReplaceAll(all, old, repl)
		}
		return before, first + "\n" + all, true
	}
}

// replacement is one string replacement's text before and after, as the agents name them.
func replacement(m map[string]any) (string, string, bool) {
	for _, k := range [][2]string{{"old_string", "new_string"}, {"old_str", "new_str"}, {"oldString", "newString"}, {"old_text", "new_text"}} {
		old, ok1 := m[k[0]].(string)
		repl, ok2 := m[k[1]].(string)
		if ok1 && ok2 && old != "" {
			return old, repl, true
		}
	}
	return "", "", false
}

// ReadEditTarget reads the file an edit changes, for EditText: at most maxEditRead bytes and
// one more, so that a larger file counts as unseen without being read whole.
func ReadEditTarget(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxEditRead+1))
}

// CheckEditText is CheckEdit knowing what the call writes (see policy.CheckEditText).
func (g *Guard) CheckEditText(tool string, files []string, text policy.EditText, ctx Context) Verdict {
	if ctx.Project == "" {
		ctx.Project = ctx.Cwd
	}
	return policy.CheckEditText(tool, files, text, ctx)
}
