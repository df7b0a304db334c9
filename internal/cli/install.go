package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
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
install changes nothing; the file is written atomically and the previous one kept as FILE.bak.

The guard is registered fail-closed (guard bash --fail-closed): a guard that cannot work blocks
the command. Every command names agenthooks by its absolute path, as the agent may start with
another PATH: the agenthooks on PATH when it is this executable (a package manager's link is
kept, so upgrades need no new install), else this executable. Entries an earlier install wrote
(another path, no --fail-closed) are brought up to date.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runInstall(e, p) },
	}
	c.Flags().StringVar(&p.agent, "agent", "", "the agent: "+agents.List("or")+" (required)")
	c.Flags().StringVar(&p.scope, "scope", "user", "user or project")
	c.Flags().StringVar(&p.workspace, "workspace", "", "the project for --scope project (default: the current directory)")
	return c
}

// installEntry is one handler install adds: an event, Claude Code's matcher, the arguments after
// the program and whether Cursor should treat it as fail-closed.
type installEntry struct {
	event, matcher, args string
	failClosed           bool
}

// guardArgs is how install runs the shell guard: fail-closed, so that a guard that cannot work
// (a broken policy, an unreadable payload) blocks the command instead of letting it through.
const guardArgs = "guard bash --fail-closed"

// installEntries lists what install adds for an agent, as its descriptor says: the shell guard,
// the runner on each of its events, and the guard on the agent's own file tools, so that the
// shell guard judges a write, edit or delete of a protected file (an agent's hooks, agenthooks'
// policy and trust) by these tools too and the agent cannot switch its guard off with its edit
// tool.
func installEntries(a *dialect.Agent) []installEntry {
	in := a.Install
	out := []installEntry{{event: a.Shell.Event, matcher: in.ShellMatcher, args: guardArgs, failClosed: in.FailClosed}}
	for _, ev := range in.Events {
		out = append(out, installEntry{event: ev, args: in.RunArgs + " " + ev})
	}
	return append(out, installEntry{event: in.EditEvent, matcher: in.EditMatcher, args: guardArgs, failClosed: in.FailClosed})
}

// ourArgs returns the arguments after the program when command is one plain call of a program
// named agenthooks (bare, by path, quoted), with --fail-closed left out, so that the entries
// an older install wrote (the bare name, no --fail-closed) are recognised as install's own.
func ourArgs(command string) (string, bool) {
	_, args, ok := agenthooksCall(command)
	if !ok {
		return "", false
	}
	var kept []string
	for _, a := range args {
		if a != "--fail-closed" {
			kept = append(kept, a)
		}
	}
	return strings.Join(kept, " "), true
}

// sameEntry reports whether command is what install writes for en, in any version.
func sameEntry(en installEntry, command string) bool {
	got, ok := ourArgs(command)
	want, _ := ourArgs("agenthooks " + en.args)
	return ok && got == want
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
	a, ok := agents.Lookup(p.agent)
	if !ok {
		return "", fmt.Errorf("--agent must be %s, not %q", agents.List("or"), p.agent)
	}
	if a.Install.ProjectFile != "" && p.scope == "project" {
		return filepath.Join(base, filepath.FromSlash(a.Install.ProjectFile)), nil
	}
	dir := filepath.Join(base, a.Dir)
	if v := e.getenv(a.HomeEnv); a.HomeEnv != "" && v != "" && p.scope == "user" {
		dir = v
	}
	return filepath.Join(dir, filepath.FromSlash(a.Install.File)), nil
}

func runInstall(e *env, p installParams) error {
	file, err := p.file(e)
	if err != nil {
		return err
	}
	if agents.Get(dialect.Name(p.agent)).Install.Own != nil {
		return installOwnFile(e, p, file)
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
	var prog, progNote string
	agent := agents.Get(dialect.Name(p.agent))
	switch {
	case p.remove && agent.Install.Group != "":
		changes = uninstallGroup(root, agent)
	case p.remove:
		changes = uninstallFrom(root, agent)
	case agent.Install.Group != "":
		prog, progNote = installProgram(e.agenthooks(), exec.LookPath)
		changes = installGroup(root, agent, prog)
	default:
		prog, progNote = installProgram(e.agenthooks(), exec.LookPath)
		changes = installInto(root, agent, prog)
	}
	if len(changes) == 0 {
		fmt.Fprintf(e.stdout, "%s: nothing to change\n", file)
		if !p.remove {
			fmt.Fprintln(e.stdout, progNote)
		}
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
		fmt.Fprintln(e.stdout, progNote)
		fmt.Fprintln(e.stdout, "the shell guard is fail-closed (--fail-closed): when it cannot work, the command is blocked, not let through")
		in := agents.Get(dialect.Name(p.agent)).Install
		if in.Note != "" {
			fmt.Fprintln(e.stdout, in.Note)
		}
		if in.ProjectNote != "" && p.scope == "project" {
			fmt.Fprintln(e.stdout, in.ProjectNote)
		}
	}
	return nil
}

// installProgram is the program install writes into an agent's config, quoted for the agent's
// shell, and a line saying which it is. The agent may start with another PATH than this shell
// (an editor launched from the dock, a clone's bin/ that was never on PATH), so it is always an
// absolute path: the agenthooks found on PATH when that is this executable, through a link or
// not (a package manager's link such as Homebrew's /opt/homebrew/bin/agenthooks or npm's bin
// link stays valid across upgrades, while the file it points to moves), else this executable
// itself with its links resolved (a link off PATH is nobody's stable name for it).
func installProgram(self string, lookPath func(string) (string, error)) (string, string) {
	real, err := filepath.EvalSymlinks(self)
	if self == "" || err != nil {
		// No known executable (an embedder): the name, which the agent must find on its PATH.
		return "agenthooks", "hooks run agenthooks by name: this executable's path is unknown, so the agent must find agenthooks on its PATH"
	}
	real, _ = filepath.Abs(real)
	onPath, err := lookPath("agenthooks")
	if err == nil {
		if abs, err := filepath.Abs(onPath); err == nil && sameFile(abs, real) {
			return shell.Quote(abs), "hooks run " + shell.Quote(abs) + ", the agenthooks on PATH (an absolute path, so an agent with another PATH finds it too)"
		}
		return shell.Quote(real), "hooks run " + shell.Quote(real) + ", this executable; the agenthooks on PATH (" + onPath + ") is another file"
	}
	return shell.Quote(real), "hooks run " + shell.Quote(real) + ", this executable (agenthooks is not on PATH)"
}

// sameFile reports whether the paths a and b lead to the same file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
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

// installInto adds the agent's entries that are not there yet, running prog, brings up to date
// those an earlier install wrote differently (another path, no --fail-closed), and says what it
// changed.
func installInto(root *jsonpos.Value, agent *dialect.Agent, prog string) []string {
	var changes []string
	flat := agent.InstallFormat().FlatEntries() // Cursor's, Crush's and Windsurf's entries, not matcher groups
	if agent.InstallFormat() == dialect.FormatHooks && root.Get("version") == nil {
		root.Members = append([]jsonpos.Member{{Key: "version", Value: &jsonpos.Value{Kind: jsonpos.Number, Num: "1"}}}, root.Members...)
	}
	hooks := objectAt(root, "hooks")
	for _, en := range installEntries(agent) {
		command := prog + " " + en.args
		list := arrayAt(hooks, en.event)
		if h := findEntry(list, en); h != nil {
			c := h.Get("command")
			changed := c.Str != command
			if changed {
				changes = append(changes, "updated "+en.event+": "+c.Str+" → "+command)
				c.Str = command
			}
			if flat && en.failClosed {
				if fc := h.Get("failClosed"); fc == nil || fc.Kind != jsonpos.Bool || !fc.Bool {
					h.Set("failClosed", jsonpos.BoolValue(true))
					if !changed {
						changes = append(changes, "updated "+en.event+": "+command+" is failClosed")
					}
				}
			}
			continue
		}
		if !flat {
			group := jsonpos.Obj()
			if en.matcher != "" {
				group.Set("matcher", jsonpos.Str(en.matcher))
			}
			h := jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(command))
			if agent.Install.HandlerName != "" {
				h = jsonpos.Obj("name", jsonpos.Str(agent.Install.HandlerName), "type", jsonpos.Str("command"), "command", jsonpos.Str(command))
			}
			if t := agent.Install.Timeout; t > 0 {
				h.Set("timeout", &jsonpos.Value{Kind: jsonpos.Number, Num: json.Number(strconv.FormatInt(int64(t/cmp.Or(agent.Settings.TimeoutUnit, time.Second)), 10))})
			}
			group.Set("hooks", jsonpos.Arr(h))
			list.Elems = append(list.Elems, group)
		} else {
			h := jsonpos.Obj("command", jsonpos.Str(command))
			if en.matcher != "" {
				h.Set("matcher", jsonpos.Str(en.matcher))
			}
			if en.failClosed {
				h.Set("failClosed", jsonpos.BoolValue(true))
			}
			list.Elems = append(list.Elems, h)
		}
		changes = append(changes, "added "+en.event+": "+command)
	}
	return changes
}

// findEntry returns the handler of an event's list (Cursor's entries or the handlers of Claude
// Code's matcher groups) that install wrote for en, in this version or an earlier one.
func findEntry(list *jsonpos.Value, en installEntry) *jsonpos.Value {
	for _, el := range list.Elems {
		if c := el.Get("command"); c != nil && c.Kind == jsonpos.String && sameEntry(en, c.Str) {
			if m := el.Get("matcher"); en.matcher != "" && m != nil && m.Kind == jsonpos.String && m.Str != en.matcher {
				continue // the same guard on another tool (Crush's shell and edit entries)
			}
			return el
		}
		if hs := el.Get("hooks"); hs != nil && hs.Kind == jsonpos.Array {
			if m := el.Get("matcher"); en.matcher != "" && (m == nil || m.Kind != jsonpos.String || m.Str != en.matcher) {
				continue
			}
			for _, h := range hs.Elems {
				if c := h.Get("command"); c != nil && c.Kind == jsonpos.String && sameEntry(en, c.Str) {
					return h
				}
			}
		}
	}
	return nil
}

// uninstallFrom removes exactly the handlers install adds, and the groups and event lists that
// only they filled.
func uninstallFrom(root *jsonpos.Value, agent *dialect.Agent) []string {
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonpos.Object {
		return nil
	}
	entries := installEntries(agent)
	isOurs := func(event string, v *jsonpos.Value) bool {
		c := v.Get("command")
		if c == nil || c.Kind != jsonpos.String {
			return false
		}
		for _, en := range entries {
			if en.event == event && sameEntry(en, c.Str) {
				return true
			}
		}
		return false
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
			if hs := el.Get("hooks"); !agent.InstallFormat().FlatEntries() && hs != nil && hs.Kind == jsonpos.Array {
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
