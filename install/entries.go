package install

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// entry is one handler install adds: an event, Claude Code's matcher, the arguments after the
// program and whether the entry is marked fail-closed.
type entry struct {
	event, matcher, args string
	failClosed           bool
}

// dialectEntry is en as the agents' writers take it, running p: agenthooks-guard on the shell
// guard's entries where it lies beside agenthooks (program.guard).
func (p program) dialectEntry(en entry) dialect.InstallEntry {
	out := dialect.InstallEntry{Event: en.event, Matcher: en.matcher, Args: en.args, FailClosed: en.failClosed}
	if strings.HasPrefix(en.args, "guard bash ") && p.guard != "" {
		out.Guard, out.GuardPath = p.guard, p.guardPath
	}
	return out
}

// program is what install's entries run: agenthooks, quoted for a shell (cmd) and as a path,
// and agenthooks-guard (dialect.GuardProgram) when it lies beside agenthooks, quoted and as a
// path: the shell guard's entries then run it, which starts faster than agenthooks.
type program struct{ cmd, path, guard, guardPath string }

// program is what o's entries run (Options.Program).
func (o Options) program() program {
	p := program{cmd: cmp.Or(o.Program, "agenthooks")}
	p.path = p.cmd
	if unquoted, _, ok := Call(p.cmd + " run"); ok {
		p.path = unquoted
	}
	if g := GuardBeside(p.path); g != "" {
		p.guard, p.guardPath = shell.Quote(g), g
	}
	return p
}

// Guard is the agenthooks-guard the shell guard's entries run, beside Program, as a path; ""
// when they run agenthooks guard bash.
func (o Options) Guard() string { return o.program().guardPath }

// GuardBeside returns the agenthooks-guard in the folder of agenthooks at path (an absolute
// path), agenthooks-guard.exe beside agenthooks.exe, when it is an executable file there; ""
// otherwise, and for a bare name.
func GuardBeside(path string) string {
	if !filepath.IsAbs(path) {
		return ""
	}
	name := dialect.GuardProgram
	if ext := filepath.Ext(path); strings.EqualFold(ext, ".exe") {
		name += ext
	}
	g := filepath.Join(filepath.Dir(path), name)
	st, err := os.Stat(g)
	if err != nil || !st.Mode().IsRegular() || (runtime.GOOS != "windows" && st.Mode()&0o111 == 0) {
		return ""
	}
	return g
}

// GuardArgs is how install runs the shell guard: fail-closed, so that a guard that cannot work
// (a broken policy, an unreadable payload) blocks the command instead of letting it through.
const GuardArgs = "guard bash --fail-closed"

// entries lists what install adds for an agent, as its descriptor says (Agent.InstallEntries):
// the shell guard, the runner on each of its events, and the guard on the agent's own file
// tools, so that the shell guard judges a write, edit or delete of a protected file (an agent's
// hooks, agenthooks' policy and trust) by these tools too and the agent cannot switch its guard
// off with its edit tool. For an agent whose install file is another's (Install.FileOf: VS
// Code's is Copilot CLI's), they are that agent's entries.
//
// In the files of an agent that another agent runs too (Agent.Reads: Cursor runs Claude Code's),
// the guard's entries name the file's agent (--agent claude), as the runner's do: when the other
// agent calls them and runs the same guard through its own entry, they step aside, so one call
// runs the guard once (engine.Repeat).
func entries(a *dialect.Agent) []entry {
	a = fileAgent(a)
	guardArgs := GuardArgs
	if a.Install.GuardFormat {
		guardArgs += " --format " + string(a.Name)
	}
	if len(agents.ReadBy(a.Name)) > 0 {
		guardArgs += " --agent " + string(a.Name)
	}
	var out []entry
	for _, en := range a.InstallEntries(guardArgs) {
		out = append(out, entry{event: en.Event, matcher: en.Matcher, args: en.Args, failClosed: en.FailClosed})
	}
	return out
}

// fileAgent is the agent whose install file install writes for a: the agent named by
// Install.FileOf, else a itself.
func fileAgent(a *dialect.Agent) *dialect.Agent {
	if of := agents.Get(a.Install.FileOf); a.Install.FileOf != "" && of != nil {
		return of
	}
	return a
}

// Call splits command when it is one plain call of a program named agenthooks (bare, by path,
// quoted): the program as written and its arguments. A call of agenthooks-guard, the shell
// guard's own binary, is the same call: its arguments come after "guard"
// (dialect.OwnArgs).
func Call(command string) (string, []string, bool) {
	s := shell.Analyze(command, shell.Options{})
	if len(s.Invocations) != 1 {
		return "", nil, false
	}
	for _, f := range s.Findings {
		if f.Kind == shell.FindingParse || f.Kind == shell.FindingTooDeep {
			return "", nil, false
		}
	}
	inv := s.Invocations[0]
	if len(inv.Wrappers) > 0 || len(inv.Redirects) > 0 {
		return "", nil, false
	}
	var args []string
	for _, w := range inv.Args {
		if !w.Static {
			return "", nil, false
		}
		args = append(args, w.Value)
	}
	if len(args) == 0 {
		return "", nil, false
	}
	own, ok := dialect.OwnArgs(inv.Name, args[1:])
	if !ok {
		return "", nil, false
	}
	return args[0], own, true
}

// OwnArgs returns the arguments after the program when command is one plain call of a program
// named agenthooks, with --fail-closed left out, so that the entries an older install wrote (the
// bare name, no --fail-closed) are recognised as install's own.
func OwnArgs(command string) (string, bool) {
	_, args, ok := Call(command)
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

// same reports whether command is what install writes for en, in any version: a guard's entry
// with or without the --agent an earlier version did not write.
func same(en entry, command string) bool {
	got, ok := OwnArgs(command)
	want, _ := OwnArgs("agenthooks " + en.args)
	return ok && guardWithoutAgent(got) == guardWithoutAgent(want)
}

// guardWithoutAgent is a guard's arguments without --agent NAME; other arguments as they are.
func guardWithoutAgent(args string) string {
	f := strings.Fields(args)
	if len(f) == 0 || f[0] != "guard" {
		return args
	}
	var kept []string
	for i := 0; i < len(f); i++ {
		if f[i] == "--agent" && i+1 < len(f) {
			i++
			continue
		}
		kept = append(kept, f[i])
	}
	return strings.Join(kept, " ")
}

// into adds the agent's entries that are not there yet, running prog, brings up to date those
// an earlier install wrote differently (another path, no --fail-closed), and says what it
// changed. New entries go after every entry already there; nothing else moves.
func into(root *jsonpos.Value, agent *dialect.Agent, prog program) []string {
	var changes []string
	flat := agent.InstallFormat().FlatEntries() // Cursor's, Crush's and Windsurf's entries, not matcher groups
	if agent.InstallFormat() == dialect.FormatHooks && root.Get("version") == nil {
		root.Members = append([]jsonpos.Member{{Key: "version", Value: &jsonpos.Value{Kind: jsonpos.Number, Num: "1"}}}, root.Members...)
	}
	hooks := root.At("hooks", jsonpos.Object)
	for _, en := range entries(agent) {
		command := prog.dialectEntry(en).Command(prog.cmd)
		list := hooks.At(en.event, jsonpos.Array)
		if g := narrower(list, en); g != nil {
			// an earlier install's entry for fewer of the agent's tools: widened in place, so
			// that the guard does not run twice on the tools both name
			m := g.Get("matcher")
			changes = append(changes, "updated "+en.event+": matcher "+m.Str+" → "+en.matcher)
			m.Str = en.matcher
		}
		if h := find(list, en); h != nil {
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

// narrower returns the matcher group of an event's list that an earlier install wrote for en
// on fewer tools: its only handler is en's command, and its matcher's alternatives are some,
// not all, of en's (Qwen Code's run_shell_command before run_shell_command|monitor). Nil when
// there is none, or when en's own group is there already.
func narrower(list *jsonpos.Value, en entry) *jsonpos.Value {
	if en.matcher == "" || find(list, en) != nil {
		return nil
	}
	want := strings.Split(en.matcher, "|")
	for _, el := range list.Elems {
		m, hs := el.Get("matcher"), el.Get("hooks")
		if m == nil || m.Kind != jsonpos.String || hs == nil || hs.Kind != jsonpos.Array || len(hs.Elems) != 1 {
			continue
		}
		if c := hs.Elems[0].Get("command"); c == nil || c.Kind != jsonpos.String || !same(en, c.Str) {
			continue
		}
		have := strings.Split(m.Str, "|")
		if len(have) < len(want) && !slices.ContainsFunc(have, func(a string) bool { return !slices.Contains(want, a) }) {
			return el
		}
	}
	return nil
}

// find returns the handler of an event's list (Cursor's entries or the handlers of Claude
// Code's matcher groups) that install wrote for en, in this version or an earlier one.
func find(list *jsonpos.Value, en entry) *jsonpos.Value {
	for _, el := range list.Elems {
		if c := el.Get("command"); c != nil && c.Kind == jsonpos.String && same(en, c.Str) {
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
				if c := h.Get("command"); c != nil && c.Kind == jsonpos.String && same(en, c.Str) {
					return h
				}
			}
		}
	}
	return nil
}

// from removes exactly the handlers install adds, and the groups and event lists that only they
// filled.
func from(root *jsonpos.Value, agent *dialect.Agent) []string {
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonpos.Object {
		return nil
	}
	ens := entries(agent)
	isOurs := func(event string, v *jsonpos.Value) bool {
		c := v.Get("command")
		if c == nil || c.Kind != jsonpos.String {
			return false
		}
		for _, en := range ens {
			if en.event == event && same(en, c.Str) {
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
