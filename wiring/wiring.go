package wiring

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Options say where Check looks and what it may start.
type Options struct {
	// Home is the user's home folder (the agents' folders, Codex's config).
	Home string
	// Getenv reads the environment (default os.Getenv).
	Getenv func(string) string
	// Environ is the environment the agents give their hooks before their own settings add to
	// it (default os.Environ()): its PATH resolves a bare agenthooks.
	Environ []string
	// Cwd is the folder the canary's payloads say the agent works in.
	Cwd string
	// Canary sends the agent's shell payload for "rm -rf /" and for "git status" through every
	// hook the agent runs for its shell tool, and measures their start-up: it starts processes.
	Canary bool
	// Probe runs each registered agenthooks with --version to check it answers as agenthooks:
	// it starts processes. Without it a program resolves when it is an executable file.
	Probe bool
}

// Finding is one thing Check found about an agent: Level is "ok", "warn" or "fail" (fail: the
// agent would run a command unguarded).
type Finding struct {
	Level   string `json:"level"`
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// Canary is the canary's result: the dangerous payload blocked, the benign one not.
type Canary struct {
	Event         string  `json:"event"`
	Hooks         int     `json:"hooks"`
	Blocked       bool    `json:"blocked"`
	BenignAllowed bool    `json:"benign_allowed"`
	StartupMS     float64 `json:"startup_ms"`
}

// States of an agent in a Report.
const (
	StateOK            = "ok"
	StateWarn          = "warn"
	StateFail          = "fail"
	StateNotRegistered = "not registered" // installed, and agenthooks is not in its config
	StateNotInstalled  = "not installed"  // no config file and no folder of the agent's
)

// Agent is what Check found of one agent (agenthooks doctor's JSON form).
type Agent struct {
	Agent    dialect.Name `json:"agent"`
	Title    string       `json:"title"`
	State    string       `json:"state"` // ok, warn, fail, not registered, not installed
	Files    []string     `json:"files"`
	Canary   *Canary      `json:"canary,omitempty"`
	Findings []Finding    `json:"findings"`
	// Wiring is the agent's wiring state in a form a program reads (team sync uploads it).
	Wiring Wiring `json:"-"`
}

// Wiring is whether an agent's config makes it run the agenthooks guard on its shell tool,
// read from its files without starting anything.
type Wiring struct {
	// Registered: an agenthooks guard or runner is registered for the agent's shell tool, in a
	// config file the agent can read.
	Registered bool
	// FailClosed: one of those entries is marked --fail-closed (a guard that cannot work
	// blocks rather than lets the call through).
	FailClosed bool
	// Resolves: every agenthooks program the agent's files name resolves, as the agent's shell
	// would run it, to an executable file (and with Options.Probe, answers as agenthooks).
	Resolves bool
	// DisabledBy are the agent's own settings that switch those entries off or make the agent
	// skip them, each with where it is set when that is known (disableAllHooks in
	// ~/.claude/settings.json; [features] hooks = false).
	DisabledBy []string
}

// Problem says why the wiring would let a call through unguarded, "" when it lets the guard
// block: "not wired" (no agenthooks guard on the shell tool, or a program that does not
// resolve), or "disabled by" and the settings that switch it off.
func (w Wiring) Problem() string {
	switch {
	case !w.Registered || !w.Resolves:
		return "not wired"
	case len(w.DisabledBy) > 0:
		return "disabled by " + strings.Join(w.DisabledBy, ", ")
	}
	return ""
}

// Report is what Check found of every agent agenthooks knows, in the register's order.
type Report struct {
	OK     bool    `json:"ok"` // no agent would run a command unguarded where agenthooks is registered
	Agents []Agent `json:"agents"`
}

// Check diagnoses every agent in cfg (the files of every layer, as engine.Load or config.Load
// gathered them).
func Check(ctx context.Context, cfg *config.Config, o Options) *Report {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Environ == nil {
		o.Environ = os.Environ()
	}
	rep := &Report{OK: true}
	for _, a := range agents.Names() {
		ag := diagnose(ctx, cfg, a, o)
		if ag.State == StateFail {
			rep.OK = false
		}
		rep.Agents = append(rep.Agents, ag)
	}
	overlaps(cfg, rep.Agents)
	return rep
}

// diagnose checks one agent.
func diagnose(ctx context.Context, cfg *config.Config, a dialect.Name, o Options) Agent {
	ag := Agent{Agent: a, Title: title(a), Findings: []Finding{}, Files: []string{}}
	add := func(level, file, msg string) { ag.Findings = append(ag.Findings, Finding{level, file, msg}) }
	w := &ag.Wiring
	w.Resolves = true
	disabled := func(setting string) {
		if setting != "" && !slices.Contains(w.DisabledBy, setting) {
			w.DisabledBy = append(w.DisabledBy, setting)
		}
	}
	desc := agents.Get(a)
	userDir, movedBy := desc.UserDir(o.Home, o.Getenv)
	var files []*config.File
	for _, f := range cfg.Files {
		// The agent's files, and those of an agent whose files it always runs as its own (VS Code
		// runs Copilot CLI's hooks folders), which config lists once, as the other's: where they
		// are at one of the agent's own places (COPILOT_HOME moves Copilot CLI's, not VS Code's).
		if (f.Source.Family == a || desc.ReadsAlways(f.Source.Family) && readsAt(desc, userDir, f)) && f.Source.Layer != config.Default {
			files = append(files, f)
			ag.Files = append(ag.Files, f.Source.File)
		}
	}
	denv := dialect.DoctorEnv{Home: o.Home, Getenv: o.Getenv}
	environ := agentEnv(o.Environ, desc, files)
	skipped := map[dialect.Skipped]bool{} // the hooks the agent skips (Codex's unreviewed ones)
	path := getEnv(environ, "PATH")
	registered, inProject := false, false
	cache := map[string]reach{}
	versions, skewed := map[string]string{}, false // by program name, for a guard of another release
	seen := map[string]string{}                    // event, matcher and arguments of an agenthooks entry: where first
	for _, f := range files {
		if !f.Usable {
			add(StateFail, f.Source.File, "the file has errors, the agent may ignore it (agenthooks lint "+f.Source.File+")")
		}
		for _, pr := range f.Problems {
			// an event or hook type of a newer version of the agent: agenthooks skips those hooks
			if pr.Severity == srcpos.Warning && (pr.Code == config.CodeUnknownEvent || pr.Code == config.CodeUnknownType) {
				add(StateWarn, f.Source.File, fmt.Sprintf("line %d: agenthooks skips hooks it does not know, which the agent may run: %s (an older agenthooks? upgrade it)", pr.Line, pr.Message))
			}
		}
		if why := cfg.Disabled(f); why != "" && hasAgenthooks(f) {
			if setting, file, ok := strings.Cut(why, " in "); ok {
				why = settingIn(setting, fileLine(file, settingLine(file, setting)))
			}
			add(StateFail, f.Source.File, "hooks switched off by "+why+": the agent runs every command unguarded")
			disabled(why)
		}
		if check := desc.Doctor.HooksFile; check != nil {
			for _, fd := range check(f.Source.File) {
				fd.File = f.Source.File
				add(fd.Level, fd.File, withLine(&fd))
				if fd.Level == StateFail && hasAgenthooks(f) {
					if fd.Setting != "" {
						disabled(settingIn(fd.Setting, fileLine(fd.File, fd.Line)))
					} else {
						w.Resolves = false // the file itself cannot run (Cline's wrapper not executable)
					}
				}
			}
		}
		if review := desc.Doctor.Review; review != nil && hasAgenthooks(f) {
			findings, skips := review(denv, f.Source.File, isAgenthooks)
			for _, fd := range findings {
				add(fd.Level, fd.File, fd.Message)
				if fd.Level == StateFail {
					disabled(fd.Setting)
				}
			}
			for _, s := range skips {
				skipped[s] = true
			}
		}
		for _, h := range f.Hooks {
			prog, all, ok := install.Call(h.CommandLine())
			if !ok {
				continue
			}
			registered = true
			if f.Source.Layer == config.Project || f.Source.Layer == config.Local {
				inProject = true
			}
			if f.Usable && onShellEvent(a, h) && len(all) > 0 && (all[0] == "guard" || all[0] == "run") {
				w.Registered = true
				w.FailClosed = w.FailClosed || slices.Contains(all, "--fail-closed")
			}
			args, _ := install.OwnArgs(h.CommandLine())
			if len(all) > 0 && all[0] == "run" && !slices.Contains(all, "--fail-closed") {
				if fa := agents.Get(f.Source.Family); fa != nil && fa.Gates(h.Event) {
					// an older install's entry: a hooks file agenthooks cannot read then turns its
					// deny hooks off, the call runs and nothing says so
					add(StateWarn, f.Source.File, fmt.Sprintf("agenthooks %s on %s is not fail-closed: a hooks file agenthooks cannot read switches its deny hooks off and the call runs unblocked (agenthooks install --agent %s writes it with --fail-closed)",
						strings.Join(all, " "), h.Event, f.Source.Family))
				}
			}
			if len(all) > 0 && all[0] == "run" && !h.FailClosed {
				if fa := agents.Get(f.Source.Family); fa != nil && fa.Install.FailClosed && fa.InstallFormat().FlatEntries() && fa.Gates(h.Event) {
					// the agent's own fail-closed setting (Cursor's failClosed) left off: a missing
					// agenthooks, a crash or the agent's timeout lets the call run past the
					// user's deny hooks that the runner would have run
					add(StateWarn, f.Source.File, fmt.Sprintf("agenthooks %s on %s is not failClosed: if agenthooks is missing, crashes or times out, %s lets the call run and the deny hooks it runs are skipped (agenthooks install --agent %s marks it)",
						strings.Join(all, " "), h.Event, fa.Title, f.Source.Family))
				}
			}
			if desc.Install.GuardFormat && strings.HasPrefix(args, "guard ") && !namesFormat(args, string(a)) {
				// the agent's payload reads as another's (Kiro's as Claude Code's): a guard that
				// does not name the agent's format may answer a deny the agent does not honour
				add(StateWarn, f.Source.File, fmt.Sprintf("agenthooks %s on %s does not name --format %s: its deny may come in another agent's form, which %s does not honour (agenthooks install --agent %s writes it)",
					args, h.Event, a, desc.Title, a))
			}
			key := h.Event + "\x00" + h.Matcher + "\x00" + args
			if first, dup := seen[key]; dup {
				add(StateWarn, f.Source.File, fmt.Sprintf("duplicate: agenthooks %s on %s (matcher %q) is also registered at %s", args, h.Event, h.Matcher, first))
			} else {
				seen[key] = h.Pos.String()
			}
			ck := prog + "\x00" + f.Source.Dir()
			if _, done := cache[ck]; done {
				continue
			}
			r := resolve(ctx, prog, f.Source.Dir(), path, o.Probe)
			cache[ck] = r
			switch {
			case r.problem != "":
				w.Resolves = false
				add(StateFail, f.Source.File, r.problem+" (the agent's PATH: "+clip(path, 200)+")")
			case !isPath(prog):
				add(StateWarn, f.Source.File, "hooks run agenthooks by bare name, resolved with the agent's PATH to "+r.path+"; an agent started from a desktop may have another PATH (agenthooks install writes an absolute path)")
			case r.version == "":
				add(StateOK, f.Source.File, ownName(r.path)+" resolves to "+r.path)
			default:
				add(StateOK, f.Source.File, ownName(r.path)+" resolves to "+r.path+" ("+r.version+")")
				versions[ownName(r.path)] = r.version
				if g, a := versions[dialect.GuardProgram], versions["agenthooks"]; g != "" && a != "" && g != a && !skewed {
					skewed = true // agenthooks-guard and agenthooks come from one release
					add(StateWarn, f.Source.File, fmt.Sprintf("the hooks run %s %s and agenthooks %s: the shell guard then judges by another release's rules than the rest (install both from one release)", dialect.GuardProgram, g, a))
				}
			}
		}
	}
	_, dirErr := os.Stat(userDir)
	if movedBy != "" && moved(desc, o, userDir, movedBy, registered, add) {
		dirErr = nil // registered where the agent reads without the variable: installed
	}
	switch {
	case !registered && len(files) == 0 && dirErr != nil:
		ag.State = StateNotInstalled
		return ag
	case !registered:
		ag.State = StateNotRegistered
		add(StateWarn, "", "agenthooks is not registered: the agent runs commands unguarded (agenthooks install --agent "+string(a)+")")
		return ag
	}
	if switches := desc.Doctor.Switches; switches != nil {
		for _, fd := range switches(denv, ag.Files) {
			add(fd.Level, fd.File, withLine(&fd))
			if fd.Level == StateFail {
				disabled(settingIn(fd.Setting, fileLine(fd.File, fd.Line)))
			}
		}
	}
	for _, v := range desc.Doctor.OffVars {
		if val := o.Getenv(v.Env); truthy(val) {
			add(StateFail, "", fmt.Sprintf("%s=%s is set in this environment (%s): %s started from it runs every command unguarded", v.Env, val, v.Does, desc.ShortTitle()))
			disabled(v.Env + "=" + val + " in the environment")
		}
	}
	if desc.Doctor.ProjectWarning != "" && inProject {
		add(StateWarn, "", desc.Doctor.ProjectWarning)
	}
	skip := func(h *config.Hook) bool {
		return skipped[dialect.Skipped{File: h.Source.File, Event: h.Event, Command: h.CommandLine()}]
	}
	if o.Canary {
		ag.Canary = canary(ctx, cfg, files, a, o.Cwd, environ, skip, add)
	}
	ag.State = StateOK
	for _, f := range ag.Findings {
		if f.Level == StateFail {
			ag.State = StateFail
			break
		}
		if f.Level == StateWarn {
			ag.State = StateWarn
		}
	}
	return ag
}

// moved says where a variable of doctor's environment moves the agent's user folder (dir, moved
// by the variable by), which is where doctor read its user hooks files, and warns when one of
// the agent's hooks files in its usual folder (~/Dir) registers agenthooks: the agent started with
// the same variable does not read it, and one started without it does not read the moved one.
// It reports whether it warned. registered: agenthooks is registered in the files doctor read.
func moved(a *dialect.Agent, o Options, dir, by string, registered bool, add func(level, file, msg string)) bool {
	usual, _ := a.UserDir(o.Home, nil)
	if usual == "" || filepath.Clean(usual) == filepath.Clean(dir) {
		return false
	}
	if registered {
		add(StateOK, "", fmt.Sprintf("%s=%s moves %s's user folder to %s: doctor reads it there, as %s does when started with it (agenthooks install --agent %s, with the same %s, writes there)",
			by, o.Getenv(by), a.Title, dir, a.ShortTitle(), a.Name, by))
	}
	var cands []config.Candidate // the agent's user files in its usual folder
	for _, c := range config.AgentCandidates(config.Env{Home: o.Home}, a) {
		if rel, err := filepath.Rel(usual, c.Path); err == nil && c.Layer == config.User && filepath.IsLocal(rel) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return false
	}
	warned := false
	for _, f := range config.Load(cands, config.TrustAll).Files {
		if !hasAgenthooks(f) {
			continue
		}
		msg := fmt.Sprintf("agenthooks is registered in %s, which %s does not read while %s is set: started with this environment it runs every command unguarded (agenthooks install --agent %s, with %s set, writes %s)",
			f.Source.File, a.ShortTitle(), by, a.Name, by, dir)
		if registered {
			msg = fmt.Sprintf("agenthooks is registered in %s too, which %s reads only when started without %s", f.Source.File, a.ShortTitle(), by)
		}
		add(StateWarn, f.Source.File, msg)
		warned = true
	}
	return warned
}

// readsAt reports whether agent a reads another agent's file f at one of its own places: a
// workspace's, or its user folder (dir).
func readsAt(a *dialect.Agent, dir string, f *config.File) bool {
	if _, ok := config.LocationOf(a, f.Source.File); !ok {
		return false
	}
	if f.Source.Layer != config.User {
		return true
	}
	rel, err := filepath.Rel(dir, f.Source.File)
	return err == nil && filepath.IsLocal(rel)
}

// truthy reports whether an environment variable's value switches a flag on as the agents read
// it: 1, true, yes or on, in any case.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// fileLine is file:line, or file when the line is not known.
func fileLine(file string, line int) string {
	if line <= 0 || file == "" {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// withLine fills in the line of fd's file that sets its setting, when the agent's package did
// not say, and returns fd's message, which starts with that line ("line 3: ...").
func withLine(fd *dialect.Finding) string {
	if fd.Line == 0 && fd.Setting != "" {
		if fd.Line = settingLine(fd.File, fd.Setting); fd.Line > 0 {
			return fmt.Sprintf("line %d: %s", fd.Line, fd.Message)
		}
	}
	return fd.Message
}

// settingLine is the line of file that sets setting, as the agents' findings name their
// settings: a JSON key path, dotted ("disableAllHooks", "hooksConfig.enabled: false"), or in a
// .toml file a key under its table ("[features] hooks = false", "allow_managed_hooks_only =
// true"); 0 when the file or the key cannot be found.
func settingLine(file, setting string) int {
	if file == "" || setting == "" {
		return 0
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	text := string(data)
	at := 0 // where the search goes on from
	find := func(s string) bool {
		i := strings.Index(text[at:], s)
		if i < 0 {
			return false
		}
		at += i
		return true
	}
	key, _, _ := strings.Cut(setting, ":")
	key, _, _ = strings.Cut(key, " = ")
	key = strings.TrimSpace(key)
	if strings.HasSuffix(file, ".toml") {
		if table, rest, ok := strings.Cut(key, "]"); ok && strings.HasPrefix(table, "[") {
			if !find(table + "]") {
				return 0
			}
			key = strings.TrimSpace(rest)
		}
		for {
			if !find(key) {
				return 0
			}
			line := strings.LastIndexByte(text[:at], '\n') + 1
			if strings.TrimSpace(text[line:at]) == "" { // the key starts its line
				break
			}
			at += len(key)
		}
	} else {
		for seg := range strings.SplitSeq(key, ".") {
			if !find(`"` + seg + `"`) {
				return 0
			}
		}
	}
	return 1 + strings.Count(text[:at], "\n")
}

// settingIn names a setting with the file that sets it.
func settingIn(setting, file string) string {
	if setting == "" || file == "" {
		return setting
	}
	return setting + " in " + file
}

// overlaps warns, for each agent that runs another's hooks files as well as its own
// (Agent.Reads) where agenthooks is registered for both, that one call reaches agenthooks through
// both files: the other file's entries that name their agent (--agent) step aside for the
// agent's own, and those that do not (written by an older install) run a second time.
func overlaps(cfg *config.Config, list []Agent) {
	registered := map[dialect.Name]bool{}
	for _, ag := range list {
		registered[ag.Agent] = ag.State != StateNotInstalled && ag.State != StateNotRegistered
	}
	for i := range list {
		ag := &list[i]
		desc := agents.Get(ag.Agent)
		if desc == nil || !registered[ag.Agent] {
			continue
		}
		for _, r := range desc.Reads {
			if o := agents.Get(r.Agent); !registered[r.Agent] || o == nil || desc.SharesInstallFile(o) {
				continue // one file for both (VS Code's and Copilot CLI's): no call runs it twice
			}
			when := "always"
			if r.Setting != "" {
				when = "when its setting " + r.Setting + " is on"
			}
			unnamed := 0
			for _, f := range cfg.Files {
				if f.Source.Family != r.Agent || f.Source.Layer == config.Default {
					continue
				}
				for _, h := range f.Hooks {
					if _, args, ok := install.Call(h.CommandLine()); ok && !slices.Contains(args, "--agent") {
						unnamed++
					}
				}
			}
			msg := fmt.Sprintf("%s also runs %s's hooks files %s: one call then reaches agenthooks through both; the entries in %s's files name their agent (--agent %s) and step aside for %s's own entries, but %s's other hooks run twice (directly and through %s's runner)",
				desc.Title, title(r.Agent), when, title(r.Agent), r.Agent, desc.Title, title(r.Agent), desc.Title)
			if desc.OwnFilesSwitch != "" {
				msg = fmt.Sprintf("%s also runs %s's hooks files %s: one call then runs agenthooks' entries of both files, the guard twice: those in %s's files do not step aside, as %s's setting %s can switch its own files off where agenthooks cannot see it; %s's other hooks run twice too (directly and through %s's runner)",
					desc.Title, title(r.Agent), when, title(r.Agent), desc.Short, desc.OwnFilesSwitch, title(r.Agent), desc.Title)
			}
			if unnamed > 0 {
				msg = fmt.Sprintf("%s also runs %s's hooks files %s: %d agenthooks hook(s) there name no agent (an older install) and run a second time for one call; run agenthooks install --agent %s again",
					desc.Title, title(r.Agent), when, unnamed, r.Agent)
			}
			ag.Findings = append(ag.Findings, Finding{Level: StateWarn, Message: msg})
			if ag.State == StateOK {
				ag.State = StateWarn
			}
		}
	}
}

func hasAgenthooks(f *config.File) bool {
	return slices.ContainsFunc(f.Hooks, func(h *config.Hook) bool { return isAgenthooks(h.CommandLine()) })
}

// isAgenthooks reports whether a hook's command runs agenthooks.
func isAgenthooks(command string) bool {
	_, _, ok := install.Call(command)
	return ok
}

// onShellEvent reports whether agent a runs hook h for its shell tool: h is on a's shell event
// and its matcher selects the shell tool; or h is in the file of another agent whose files a
// runs as its own (VS Code runs Copilot CLI's), on that agent's namesake of the event for its
// name of the tool, both told through the format they speak (Claude Code's).
func onShellEvent(a dialect.Name, h *config.Hook) bool {
	st := agents.Get(a).Shell
	if h.Source == nil || h.Source.Family == a || h.Source.Family == "" {
		return h.Event == st.Event && (st.Tool == "" || h.Matches(st.Tool, false))
	}
	self, other := agents.Get(a), agents.Get(h.Source.Family)
	if other == nil || self.SpokenEvent == nil || other.SpokenEvent == nil || self.SpokenEvent(st.Event) == "" ||
		other.SpokenEvent(h.Event) != self.SpokenEvent(st.Event) {
		return false
	}
	tool := st.Tool
	if tool != "" && self.ToSpokenTool != nil && other.FromSpokenTool != nil {
		tool = other.FromSpokenTool(self.ToSpokenTool(tool))
	}
	return tool == "" || h.Matches(tool, false)
}

// namesFormat reports whether a guard's arguments name --format format.
func namesFormat(args, format string) bool {
	f := strings.Fields(args)
	for i, w := range f {
		if w == "--format="+format || w == "--format" && i+1 < len(f) && f[i+1] == format {
			return true
		}
	}
	return false
}

// title is the registered agent's name for people; "" for a name not registered.
func title(n dialect.Name) string {
	if a := agents.Get(n); a != nil {
		return a.Title
	}
	return ""
}

// clip shortens s to n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
