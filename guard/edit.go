package guard

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/policy"
)

// editTools are the agents' own tools that write, edit or delete files, with the tool_input
// fields that name the file. Claude Code 2.1 (Write, Edit, MultiEdit, NotebookEdit), Cursor's
// preToolUse (Write, Delete), Gemini CLI 0.61 (write_file, replace), Codex 0.169 (apply_patch,
// whose patch names its files), Copilot CLI and Qwen Code (their edit, create and write tools),
// Factory Droid 0.215 (ApplyPatch: Codex's patch format, in its input field), OpenCode 1.18
// (apply_patch with patchText, the only edit tool it gives GPT models; patch).
var editTools = map[string][]string{
	"Write": {"file_path", "path"}, "Edit": {"file_path", "path"}, "MultiEdit": {"file_path"},
	"NotebookEdit": {"notebook_path", "file_path"}, "Delete": {"file_path", "path", "target_file"},
	"write_file": {"file_path", "path"}, "replace": {"file_path", "path"}, "edit": {"path", "file_path"},
	"create": {"path", "file_path"}, "str_replace_editor": {"path"}, "edit_file": {"target_file", "path", "file_path"},
	"apply_patch": {"command", "patch", "input", "patchText"}, "ApplyPatch": {"input", "patch"},
	"patch": {"patchText", "patch", "input"},
}

// isPatchTool reports whether tool's input is a patch in Codex's format, which names its files.
func isPatchTool(tool string) bool {
	return tool == "apply_patch" || tool == "ApplyPatch" || tool == "patch"
}

// IsEditTool reports whether tool is an agent's file-writing tool that EditTargets understands.
func IsEditTool(tool string) bool { _, ok := editTools[tool]; return ok }

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
	for _, field := range editTools[tool] {
		s, ok := input[field].(string)
		if !ok || s == "" {
			continue
		}
		if isPatchTool(tool) {
			out = append(out, patchFiles(s)...)
			continue
		}
		out = append(out, s)
		break
	}
	return out
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
