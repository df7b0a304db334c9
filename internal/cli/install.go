package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

type installParams struct {
	agent, scope, workspace string
	remove                  bool
}

func newInstallCmd(e *env, remove bool) *cobra.Command {
	p := installParams{remove: remove}
	use, short := "install", "Register the agenthooks shell guard and runner in an agent's own config"
	if remove {
		use, short = "uninstall", "Take out of an agent's config what agenthooks install added"
	}
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `.

Claude Code: ~/.claude/settings.json (--scope user) or <workspace>/.claude/settings.json (--scope
project) gets the guard on PreToolUse for Bash, and "agenthooks run --agent claude --from cursor"
on every event that has a Cursor counterpart, so Cursor's hooks run under Claude Code. Cursor:
~/.cursor/hooks.json or <workspace>/.cursor/hooks.json gets the guard on beforeShellExecution and
"agenthooks run --agent cursor --from claude" likewise. Codex: $CODEX_HOME/hooks.json (default
~/.codex/hooks.json) or <workspace>/.codex/hooks.json gets the guard on PreToolUse for Bash and
"agenthooks run --agent codex" on its events, which runs Cursor's and Claude Code's hooks. Gemini
CLI: ~/.gemini/settings.json or <workspace>/.gemini/settings.json gets the guard on BeforeTool for
run_shell_command and "agenthooks run --agent gemini" on its events. Other keys and hooks are kept; a second
install changes nothing; the file is written atomically and the previous one kept as FILE.bak.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runInstall(e, p) },
	}
	c.Flags().StringVar(&p.agent, "agent", "", "the agent: claude, cursor, codex or gemini (required)")
	c.Flags().StringVar(&p.scope, "scope", "user", "user or project")
	c.Flags().StringVar(&p.workspace, "workspace", "", "the project for --scope project (default: the current directory)")
	return c
}

// installEntry is one handler install adds: an event, Claude Code's matcher, the command and
// whether Cursor should treat it as fail-closed.
type installEntry struct {
	event, matcher, command string
	failClosed              bool
}

// installEntries lists what install adds for an agent.
func installEntries(agent string) []installEntry {
	switch agent {
	case "codex":
		// Codex does not read Claude Code's or Cursor's files: the runner reads both.
		out := []installEntry{{event: "PreToolUse", matcher: "Bash", command: "agenthooks guard bash"}}
		for _, ev := range []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStart",
			"SubagentStop", "SessionStart", "SessionEnd", "PreCompact"} {
			out = append(out, installEntry{event: ev, command: "agenthooks run --agent codex " + ev})
		}
		return out
	case "gemini":
		out := []installEntry{{event: "BeforeTool", matcher: "run_shell_command", command: "agenthooks guard bash"}}
		for _, ev := range []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart",
			"SessionEnd", "PreCompress"} {
			out = append(out, installEntry{event: ev, command: "agenthooks run --agent gemini " + ev})
		}
		return out
	}
	if agent == "claude" {
		out := []installEntry{{event: "PreToolUse", matcher: "Bash", command: "agenthooks guard bash"}}
		for _, ev := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
			"SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact"} {
			out = append(out, installEntry{event: ev, command: "agenthooks run --agent claude --from cursor " + ev})
		}
		return out
	}
	out := []installEntry{{event: "beforeShellExecution", command: "agenthooks guard bash", failClosed: true}}
	for _, ev := range []string{"preToolUse", "postToolUse", "postToolUseFailure", "beforeSubmitPrompt", "stop",
		"subagentStart", "subagentStop", "sessionStart", "sessionEnd", "preCompact"} {
		out = append(out, installEntry{event: ev, command: "agenthooks run --agent cursor --from claude " + ev})
	}
	return out
}

func (p installParams) file(e *env) (string, error) {
	if p.scope != "user" && p.scope != "project" {
		return "", fmt.Errorf("--scope must be user or project, not %q", p.scope)
	}
	base := e.home()
	if p.scope == "project" {
		base = p.workspace
		if base == "" {
			base, _ = os.Getwd()
		}
	}
	switch p.agent {
	case "claude":
		return filepath.Join(base, ".claude", "settings.json"), nil
	case "cursor":
		return filepath.Join(base, ".cursor", "hooks.json"), nil
	case "codex":
		if v := e.getenv("CODEX_HOME"); v != "" && p.scope == "user" {
			return filepath.Join(v, "hooks.json"), nil
		}
		return filepath.Join(base, ".codex", "hooks.json"), nil
	case "gemini":
		return filepath.Join(base, ".gemini", "settings.json"), nil
	}
	return "", fmt.Errorf("--agent must be claude, cursor, codex or gemini, not %q", p.agent)
}

func runInstall(e *env, p installParams) error {
	file, err := p.file(e)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", file, err)
	}
	var root *jsonpos.Value
	if exists && len(strings.TrimSpace(string(data))) > 0 {
		root, err = jsonpos.Parse(data, config.MaxDepth)
		if err != nil {
			pos := config.Problem(file, data, err)
			return fmt.Errorf("%s: not valid JSON, left untouched: %v", pos, err)
		}
		if root.Kind != jsonpos.Object {
			return fmt.Errorf("%s: not a JSON object, left untouched", file)
		}
	} else if p.remove {
		fmt.Fprintf(e.stdout, "%s does not exist: nothing to take out\n", file)
		return nil
	} else {
		root = jsonpos.Obj()
	}
	var changes []string
	if p.remove {
		changes = uninstallFrom(root, p.agent)
	} else {
		changes = installInto(root, p.agent)
	}
	if len(changes) == 0 {
		fmt.Fprintf(e.stdout, "%s: nothing to change\n", file)
		return nil
	}
	if exists {
		if err := config.WriteFileAtomic(file+".bak", data, 0o600); err != nil {
			return fmt.Errorf("back up %s: %w", file, err)
		}
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	if err := config.WriteFileAtomic(file, root.Encode(), mode); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	for _, c := range changes {
		fmt.Fprintf(e.stdout, "%s: %s\n", file, c)
	}
	if exists {
		fmt.Fprintf(e.stdout, "the previous file is %s.bak\n", file)
	}
	if !p.remove {
		switch {
		case p.agent == "codex":
			fmt.Fprintln(e.stdout, "note: Codex skips hooks nobody has reviewed, silently: review them in codex (or pass codex exec --dangerously-bypass-hook-trust), and trust the project for project hooks")
		case p.agent == "gemini" && p.scope == "project":
			fmt.Fprintln(e.stdout, "note: Gemini CLI runs project hooks only in a trusted folder")
		}
	}
	return nil
}

func objectAt(parent *jsonpos.Value, key string) *jsonpos.Value {
	v := parent.Get(key)
	if v == nil || v.Kind != jsonpos.Object {
		v = jsonpos.Obj()
		parent.Set(key, v)
	}
	return v
}

func arrayAt(parent *jsonpos.Value, key string) *jsonpos.Value {
	v := parent.Get(key)
	if v == nil || v.Kind != jsonpos.Array {
		v = jsonpos.Arr()
		parent.Set(key, v)
	}
	return v
}

// installInto adds the agent's entries that are not there yet and says what it added.
func installInto(root *jsonpos.Value, agent string) []string {
	var changes []string
	if agent == "cursor" && root.Get("version") == nil {
		root.Members = append([]jsonpos.Member{{Key: "version", Value: &jsonpos.Value{Kind: jsonpos.Number, Num: "1"}}}, root.Members...)
	}
	hooks := objectAt(root, "hooks")
	for _, en := range installEntries(agent) {
		list := arrayAt(hooks, en.event)
		if hasCommand(list, en.command) {
			continue
		}
		if agent != "cursor" {
			group := jsonpos.Obj()
			if en.matcher != "" {
				group.Set("matcher", jsonpos.Str(en.matcher))
			}
			h := jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(en.command))
			if agent == "gemini" {
				h = jsonpos.Obj("name", jsonpos.Str("agenthooks"), "type", jsonpos.Str("command"), "command", jsonpos.Str(en.command))
			}
			group.Set("hooks", jsonpos.Arr(h))
			list.Elems = append(list.Elems, group)
		} else {
			h := jsonpos.Obj("command", jsonpos.Str(en.command))
			if en.failClosed {
				h.Set("failClosed", jsonpos.BoolValue(true))
			}
			list.Elems = append(list.Elems, h)
		}
		changes = append(changes, "added "+en.event+": "+en.command)
	}
	return changes
}

// hasCommand reports whether an event's list (Cursor's entries or Claude Code's matcher
// groups) already runs command.
func hasCommand(list *jsonpos.Value, command string) bool {
	for _, el := range list.Elems {
		if c := el.Get("command"); c != nil && c.Kind == jsonpos.String && c.Str == command {
			return true
		}
		if hs := el.Get("hooks"); hs != nil && hs.Kind == jsonpos.Array {
			for _, h := range hs.Elems {
				if c := h.Get("command"); c != nil && c.Kind == jsonpos.String && c.Str == command {
					return true
				}
			}
		}
	}
	return false
}

// uninstallFrom removes exactly the handlers install adds, and the groups and event lists that
// only they filled.
func uninstallFrom(root *jsonpos.Value, agent string) []string {
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonpos.Object {
		return nil
	}
	ours := map[string]bool{}
	for _, en := range installEntries(agent) {
		ours[en.event+"\x00"+en.command] = true
	}
	isOurs := func(event string, v *jsonpos.Value) bool {
		c := v.Get("command")
		return c != nil && c.Kind == jsonpos.String && ours[event+"\x00"+c.Str]
	}
	var changes []string
	for _, m := range append([]jsonpos.Member(nil), hooks.Members...) {
		if m.Value.Kind != jsonpos.Array {
			continue
		}
		before := len(m.Value.Elems)
		kept := m.Value.Elems[:0]
		for _, el := range m.Value.Elems {
			if isOurs(m.Key, el) {
				changes = append(changes, "removed "+m.Key+": "+el.Get("command").Str)
				continue
			}
			if hs := el.Get("hooks"); agent != "cursor" && hs != nil && hs.Kind == jsonpos.Array {
				n := len(hs.Elems)
				keptH := hs.Elems[:0]
				for _, h := range hs.Elems {
					if isOurs(m.Key, h) {
						changes = append(changes, "removed "+m.Key+": "+h.Get("command").Str)
						continue
					}
					keptH = append(keptH, h)
				}
				hs.Elems = keptH
				if len(keptH) == 0 && n > 0 {
					continue // a group only install filled
				}
			}
			kept = append(kept, el)
		}
		m.Value.Elems = kept
		if len(kept) == 0 && before > 0 {
			hooks.Delete(m.Key)
		}
	}
	return changes
}
