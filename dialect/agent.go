package dialect

import (
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/decide"
)

// Agent is one agent's descriptor: everything the rest of agenthooks knows about that agent, in
// one value that its own package (dialect/<name>) fills in and dialect/agents registers. engine,
// config, the guards and the CLI look an agent up and read these fields; none of them compares
// an agent's name.
//
// A descriptor is plain data and top-level functions, so that building it costs no package
// initialisation: tables behind it (events, tool names) are built on first use.
type Agent struct {
	// Name is the agent's name in flags, configs and the audit (--agent claude).
	Name Name
	// Title is the agent's name for people ("Claude Code").
	Title string
	// Short is the agent's name in running text, when shorter than Title ("Gemini").
	Short string
	// Binary is the program the agent runs as, when it has one on PATH ("claude").
	Binary string
	// Dir is the agent's folder in the user's home and in a workspace (".claude"): the agent
	// counts as present on a machine when the home one exists.
	Dir string
	// HomeEnv names the environment variable that, when set, replaces ~/Dir as the agent's user
	// folder (Codex's CODEX_HOME); "" when there is none.
	HomeEnv string
	// HomeVars are the variables, read after HomeEnv and in this order, that move the agent's
	// user folder under their value (Gemini CLI's GEMINI_CLI_HOME holds its .gemini; Crush's and
	// OpenCode's XDG_CONFIG_HOME their crush and opencode folders); nil for none. UserDir reads
	// them.
	HomeVars []HomeVar
	// ManagedDir returns the folder of the agent's machine-wide (enterprise) files on a platform
	// (runtime.GOOS values); nil when the agent has none. ManagedEnv names the variable that
	// overrides it (for tests and embedders).
	ManagedDir func(goos string) string
	ManagedEnv string
	// Files are the places the agent reads hooks from, in priority order (see Location).
	Files []Location
	// Loads are the folders, beyond Files, whose files the agent itself runs or loads as hooks,
	// plugins or tools (OpenCode's plugin and tool folders, the Cline CLI's hooks): agenthooks
	// reads none of them, but a file the agent plants there runs later unguarded, so they are
	// protected as Files are, whether or not they exist yet. nil for none.
	Loads []Location
	// Configs are the agent's own settings files, beyond Files, that load code into it or can
	// switch its hooks off where agenthooks does not read them (OpenCode's opencode.json, whose
	// plugin list loads npm packages, and .opencode/package.json, whose dependencies OpenCode
	// installs): protected as files, whether or not they exist yet. nil for none.
	Configs []Location
	// Switches are the settings files of the program that hosts the agent where keys switch its
	// hooks off or move them (VS Code's settings.json and chat.useHooks), per platform
	// (runtime.GOOS values); nil for none. SwitchKeys are those keys, or their prefixes: the
	// agent's file tools may change such a file only when neither its text before nor after the
	// change names one; a shell command that writes it is judged as for any protected file.
	Switches   func(goos string) []Location
	SwitchKeys []string
	// Settings is what the agent's hooks file in Claude Code's settings shape adds to it.
	Settings Settings
	// Dialect returns the agent's hooks dialect; askAs is what an ask becomes where the agent
	// cannot ask a person.
	Dialect func(askAs AskAs) Dialect
	// ToolKind is the neutral kind of the agent's event, narrowed by tool when tool is not ""
	// (Claude Code's PreToolUse for Bash is a before-shell event); "" when the event is unknown or
	// the agent's matchers do not name tools.
	ToolKind func(event, tool string) Kind
	// HookSwitches: the agent's settings files can switch hooks off (Claude Code's
	// disableAllHooks and allowManagedHooksOnly), and agenthooks honours them for its files.
	HookSwitches bool
	// Answer is the contract the agent honours and what it cannot do.
	Answer Answer
	// Speaks is the agent whose hook format this agent's hooks are written in, where it is
	// another's: Codex and Gemini CLI speak Claude Code's, so Claude Code's hooks run for their
	// events. "" for an agent whose format is its own.
	Speaks Name
	// Reads are the other agents whose hooks files this agent runs as well as its own (Cursor
	// runs Claude Code's when its third-party setting is on), so that install can say where one
	// call would run a hook twice; nil for none.
	Reads []Shared
	// OwnFilesSwitch names the agent's setting that can switch its own hooks files off where
	// agenthooks cannot see it (VS Code's chat.hookFilesLocations): its own entries are then
	// never certain to run, so an agenthooks entry in another agent's file that it runs (Reads)
	// never steps aside for them (engine.Repeat) and runs a second time; "" when none can.
	OwnFilesSwitch string
	// ToSpoken rewrites the payload of one of the agent's events as the payload of its
	// namesake in the Speaks agent; nil when the payloads are the same. An event with no
	// namesake gives "" and the payload unchanged.
	ToSpoken func(event string, payload []byte) (string, []byte, []string, error)
	// PayloadDefaults are the fields, with their JSON values, that the agent always sends on
	// event and a payload given to agenthooks run may leave out; nil when a payload is passed
	// on as it came.
	PayloadDefaults func(event string, workspaces []string) []Field
	// PreToolSiblings: for one tool call the agent fires its generic pre-tool event and the
	// tool's own event (Cursor's preToolUse and beforeShellExecution), so a hook on either runs
	// once.
	PreToolSiblings bool
	// SpokenEvent names the namesake, in the Speaks agent, of one of the agent's events ("" for
	// none); RenameToSpoken and RenameFromSpoken rewrite a decoded payload, in place, from the
	// agent's shape to its namesake's in the Speaks agent and back, and say what has no place.
	// All nil when the agent's payloads are the Speaks agent's as they are.
	SpokenEvent      func(event string) string
	RenameToSpoken   func(event string, m map[string]any) []string
	RenameFromSpoken func(event string, m map[string]any) []string
	// ToSpokenTool and FromSpokenTool rename a tool between the agent's names and the Speaks
	// agent's (Gemini's run_shell_command is Claude Code's Bash); nil when the names are the same.
	ToSpokenTool, FromSpokenTool func(tool string) string
	// SpokenToolReadings lists, for one of the agent's tool names, every name in the Speaks
	// agent's vocabulary it may stand for, when more than one does (OpenCode's MCP tool
	// e2edb_list_tables is mcp__e2edb__list_tables or mcp__e2edb_list__tables); nil or an empty
	// list when ToSpoken's one name is the only one. A hook's matcher is tried on each, so a
	// deny hook is not skipped because the name split another way.
	SpokenToolReadings func(tool string) []string
	// GuardView rewrites the agent's payload, for the built-in guards, into Claude Code's field
	// and tool names (tool_name, tool_input with file_path); nil when the guards read it as it
	// comes. The event's name is not added: a payload that does not name its event keeps not
	// naming it.
	GuardView func(payload []byte) ([]byte, error)
	// HookCwd: the agent runs a hook in the session's working directory, so a relative command
	// is found there rather than beside its config file.
	HookCwd bool
	// OwnRules says why the agent's own permission rules keep a shell command from being
	// rewritten to run confined: the first of its deny or ask rules that names it ("... names
	// it"), or a file of its rules that agenthooks cannot read as the agent does; "" when
	// nothing does. It errs toward a match: a match keeps the guard's answer, and the agent then
	// applies its rule. nil when agenthooks reads none of the agent's rules.
	OwnRules func(q RulesQuery) string
	// Shell is how the agent asks its hooks about a shell command.
	Shell Shell
	// Install is what agenthooks install writes into the agent's hooks file.
	Install Install
	// Doctor is what agenthooks doctor checks of the agent beyond its hooks, where it has a
	// switch of its own or a condition doctor cannot see.
	Doctor Doctor
	// Trust says, for people, when the agent runs a project's hooks.
	Trust string
	// Unhooked names, for people, the agent's tool calls that fire no hook, so no guard sees
	// them (status notes it where agenthooks is installed); "" when every call fires one.
	Unhooked string
	// DefaultTimeout is the agent's timeout for a hook whose config sets none.
	DefaultTimeout time.Duration
	// EventTimeout is the agent's timeout for a hook of an event whose own differs from
	// DefaultTimeout (Claude Code gives UserPromptSubmit 30 s), by the event's name in the
	// agent's files; 0 for DefaultTimeout. nil where every event has DefaultTimeout.
	EventTimeout func(event string) time.Duration
	// Proven names the tests of the e2e suite (in e2e/) that show, inside the real agent, what
	// an answer does on one of its events; nil when the suite cannot run the agent, whose
	// capabilities then rest on fixtures (agenthooks agents, docs/capabilities.md).
	Proven []Proof
	// Detect tells the agent's hook payload from the others' (dialect/agents.Detect asks each
	// agent in turn); nil for the agent that is the fallback.
	Detect func(p Probe) bool
}

// HomeVar is an environment variable that, when set, moves an agent's user folder to Path under
// its value ("" for the value itself).
type HomeVar struct {
	Env, Path string
}

// Homes lists the variables that move the agent's user folder, in the order the agent reads
// them: HomeEnv, then HomeVars.
func (a *Agent) Homes() []HomeVar {
	if a.HomeEnv == "" {
		return a.HomeVars
	}
	return append([]HomeVar{{Env: a.HomeEnv}}, a.HomeVars...)
}

// UserDir is the agent's user folder where the agent reads it with the environment getenv
// reads: under the first of its Homes that is set, else ~/Dir ("" without a home); by names
// the variable that moved it, "" when none did.
func (a *Agent) UserDir(home string, getenv func(string) string) (dir, by string) {
	if getenv != nil {
		for _, h := range a.Homes() {
			if v := getenv(h.Env); v != "" {
				if h.Path == "" {
					return v, h.Env
				}
				return filepath.Join(v, filepath.FromSlash(h.Path)), h.Env
			}
		}
	}
	if home == "" {
		return "", ""
	}
	return filepath.Join(home, filepath.FromSlash(a.Dir)), ""
}

// ReadsAlways reports whether the agent runs agent n's hooks files, all of them, whatever its
// settings (VS Code runs Copilot CLI's hooks folders): their hooks are the agent's own.
func (a *Agent) ReadsAlways(n Name) bool {
	for _, r := range a.Reads {
		if r.Agent == n && r.Setting == "" && r.Scopes == nil {
			return true
		}
	}
	return false
}

// Shared is another agent whose hooks files an agent runs as well as its own.
type Shared struct {
	Agent Name
	// Scopes are the scopes of that agent's files it runs; nil for all of them.
	Scopes []Scope
	// Setting names the agent's setting that turns this on; "" when it always does.
	Setting string
}

// Capability is what a hook's answer can make an agent do on one of its events.
type Capability string

// The capabilities.
const (
	// CapBlock: a deny stops what the event precedes (the tool call, the prompt).
	CapBlock Capability = "block"
	// CapAsk: the agent asks the person instead of running the call.
	CapAsk Capability = "ask"
	// CapRewrite: the agent runs the tool with the input the hook rewrote.
	CapRewrite Capability = "rewrite"
	// CapContext: text the hook adds reaches the model.
	CapContext Capability = "context"
)

// Proof is a test of the e2e suite that shows, inside the real agent, that it honours Can on
// Event.
type Proof struct {
	Event string
	Can   Capability
	Test  string
}

// Format is the shape of a hooks file.
type Format int

// The formats.
const (
	// FormatHooks is Cursor's hooks.json: {"version":1,"hooks":{"event":[{"command":...}]}}.
	FormatHooks Format = iota + 1
	// FormatSettings is Claude Code's settings.json shape, shared by Codex's hooks.json and Gemini
	// CLI's settings.json: {"hooks":{"Event":[{"matcher":...,"hooks":[{"type":"command",...}]}]}}.
	FormatSettings
	// FormatCodexTOML is the [hooks] table of Codex's config.toml.
	FormatCodexTOML
	// FormatCopilotHooks is GitHub Copilot CLI's hooks file: {"version":1,"hooks":{"event":
	// [{"type":"command","bash":...,"powershell":...,"timeoutSec":...}]}}.
	FormatCopilotHooks
	// FormatCopilotSettings is the "hooks" key of Copilot CLI's settings.json, in its hooks
	// file's schema.
	FormatCopilotSettings
	// FormatCrush is the "hooks" of Crush's crush.json: {"hooks":{"PreToolUse":[{"matcher":...,
	// "command":...,"timeout":...}]}}, entries without matcher groups and no version.
	FormatCrush
	// FormatBareSettings is a bare map of events in Claude Code's matcher-group shape, the
	// "hooks" of a settings.json without the key: Factory Droid's hooks.json.
	FormatBareSettings
	// FormatWindsurfHooks is Windsurf's (Devin Desktop's) Cascade hooks.json: {"hooks":{"event":
	// [{"command":...,"powershell":...,"show_output":...,"working_directory":...}]}}, one entry
	// per action, no matchers, no version.
	FormatWindsurfHooks
	// FormatAntigravityHooks is Antigravity CLI's hooks.json: an object of named groups
	// ({"NAME":{"enabled":true,"PreToolUse":[{"matcher":...,"hooks":[{"command":...}]}],
	// "Stop":[{"command":...}]}}).
	FormatAntigravityHooks
	// FormatOpenCodePlugin is the OpenCode plugin agenthooks install writes (dialect/opencode):
	// JavaScript around one JSON object of settings, the agenthooks it runs and its entries.
	FormatOpenCodePlugin

	// FormatClineHook is one of Cline's hook files: an executable named after its event, one
	// hook, whose interpreter its shebang or extension names.
	FormatClineHook

	// FormatKiroHooks is a Kiro hooks file: {"version":"v1","hooks":[{"name":...,"trigger":...,
	// "matcher":...,"action":{"type":"command","command":...}}]}.
	FormatKiroHooks
	// FormatKiroAgent is a kiro-cli agent configuration, whose "hooks" is an object of camelCase
	// events ({"preToolUse":[{"matcher":...,"command":...}]}).
	FormatKiroAgent

	// FormatVSCodeHooks is a hooks file as VS Code reads it from .github/hooks and
	// ~/.copilot/hooks: {"hooks":{"Event":[{"type":"command","command":...,"windows":...,
	// "linux":...,"osx":...,"timeout":...}]}}, or Copilot CLI's when it has a numeric version.
	FormatVSCodeHooks

	// FormatKimiTOML is the [[hooks]] array of tables of Kimi Code's config.toml: one table per
	// hook, {event, matcher, command, timeout, fail_mode}, beside the agent's other settings.
	FormatKimiTOML
)

// FlatEntries reports whether a hooks file of format f lists an event's hooks as entries with a
// command each (Cursor's hooks.json, Crush's crush.json) rather than in matcher groups.
func (f Format) FlatEntries() bool {
	return f == FormatHooks || f == FormatCrush || f == FormatWindsurfHooks
}

// Settings is what an agent's hooks file in Claude Code's settings shape (FormatSettings) adds
// to Claude Code's.
type Settings struct {
	// TimeoutUnit is the unit of a handler's timeout; 0 means seconds, as Claude Code's.
	TimeoutUnit time.Duration
	// GroupFields and HandlerFields are the fields the agent reads beyond Claude Code's, in a
	// matcher group and in a handler.
	GroupFields, HandlerFields []string
	// RegexMatcher: the agent reads every matcher as an unanchored regular expression (Goose's):
	// "Bash" matches any name containing Bash, and a bare "*" is no regular expression, so the
	// agent skips its group.
	RegexMatcher bool
	// OnFailure: a handler's on_failure, "allow" (the default) or "block", says whether the
	// agent treats its failure on a pre-tool event as a block (Goose's); any other value makes
	// the agent refuse the whole file.
	OnFailure bool
	// DefaultType is a handler's type when it names none ("command" for Goose); "" when the
	// type is required, as Claude Code requires it.
	DefaultType string
	// HooksSettings are the keys of the hooks object that are the agent's settings, not events
	// (Factory Droid's hooksDisabled and showHookOutput); nil for none.
	HooksSettings []string
}

// Scope is the layer a hooks file belongs to; its values are config.Layer's.
type Scope string

// The scopes, in priority order.
const (
	ScopeEnterprise Scope = "enterprise"
	ScopeTeam       Scope = "team"
	ScopeLocal      Scope = "local"
	ScopeProject    Scope = "project"
	ScopeUser       Scope = "user"
)

// Root is the folder a Location's path starts at.
type Root int

// The roots.
const (
	// RootManaged is the agent's machine-wide folder (Agent.ManagedDir).
	RootManaged Root = iota + 1
	// RootTeam is the folder agenthooks sync writes team bundles into (~/.cursor/managed).
	RootTeam
	// RootWorkspace is each workspace root in turn.
	RootWorkspace
	// RootHome is the agent's user folder (Agent.UserDir): $HomeEnv, else under the first of its
	// HomeVars set, else ~/Dir.
	RootHome
	// RootUserHome is the user's home folder itself (~), for a place outside the agent's
	// folder (the Cline CLI's ~/.cline/hooks beside the extension's ~/Documents/Cline).
	RootUserHome
	// RootEnv is the folder or file that the environment variable Location.Env names, when it
	// is set (Claude Code's CLAUDE_CONFIG_DIR, OpenCode's OPENCODE_CONFIG_DIR): the location is
	// nowhere when it is not. Path is under it ("" for the named path itself).
	RootEnv
)

// Location is one place an agent reads hooks from.
type Location struct {
	Scope Scope
	Root  Root
	// Path is slash-separated, under Root; a "*" in it matches, in name order.
	Path   string
	Format Format
	// Env names an environment variable that, when set, is this file's whole path instead
	// (Qwen Code's QWEN_CODE_SYSTEM_SETTINGS_PATH); "" for none. Under RootEnv it is the
	// variable that names the root.
	Env string
}

// Answer is the answer contract an agent honours.
type Answer struct {
	// CanAsk: the agent can ask a person; otherwise an ask becomes the configured AskAs.
	CanAsk bool
	// Loses names what of a decision the agent's answer to ev cannot carry ("a system
	// message"); nil for nothing.
	Loses func(ev *Spec, d decide.Decision) []string
	// Guard writes a built-in guard's decision (allow, deny, or ask where the agent can ask) on
	// an event of kind (BeforeShell, BeforeMCP, BeforeRead, PromptSubmit) in the form the agent
	// honours from a hook registered directly in its config. A prompt guard's decision is allow
	// or deny.
	Guard func(kind Kind, perm decide.Permission, reason string) Reply
	// Rewrite writes an allow that runs the tool with input instead, on the agent's pre-tool
	// event; nil when the agent does not run a hook's rewritten input.
	Rewrite func(input map[string]any, reason string) Reply
	// RewriteInRun is the rewrite as a hook written in the agent's format answers agenthooks
	// run with, on the format's event for any tool: the runner reads it through the agent's
	// dialect, so it carries the allow and the reason the dialect reads beside the input
	// (Gemini CLI's decision, Cursor's preToolUse, whose beforeShellExecution cannot rewrite);
	// nil when it is Rewrite's.
	RewriteInRun func(input map[string]any, reason string) Reply
	// RunsOwnHooks: the agent runs the hooks of its own files itself, so the runner it calls
	// reads only the other agents' files.
	RunsOwnHooks bool
}

// Shell is the event and tool under which an agent asks its hooks about a shell command.
type Shell struct {
	Event string
	Tool  string // "" when the event is about shell commands only
	// Payload is the payload the agent sends for command, run in cwd (doctor's canary).
	Payload func(command, cwd string) map[string]any
	// GitBashOnWindows: on Windows the agent runs its hooks, like its shell tool, with Git for
	// Windows' bash when it finds one (others use cmd.exe).
	GitBashOnWindows bool
}

// Install is what agenthooks install writes into an agent's hooks file: the shell guard on
// Shell.Event (matched by ShellMatcher), the runner on Events, then the edit guard
// (Agent.InstallEntries).
type Install struct {
	// File is the hooks file install writes, under the agent's folder ("settings.json").
	File string
	// ShellMatcher selects the shell tool for the shell guard's entry.
	ShellMatcher string
	// Events are the events the runner is installed on, each as "agenthooks <RunArgs> <event>",
	// or "agenthooks <RunArgs> --fail-closed <event>" on an event that Gates.
	Events  []string
	RunArgs string
	// EditEvent and EditMatcher are the guard's entry for the agent's own file tools, so the
	// agent cannot switch its guard off with its edit tool.
	EditEvent, EditMatcher string
	// OneGuard: the agent's matcher names several tools as a |-list (a regular expression
	// matched against the whole tool name, as Copilot CLI's), so where the edit guard shares the
	// shell guard's event, install writes the two as one entry matching ShellMatcher|EditMatcher:
	// an agent that runs the file and ignores matchers (VS Code) then runs the guard once per
	// call, not twice. Only for an install file that is agenthooks' own (Own), which install
	// rewrites whole, so that a file with an older install's two entries keeps none of them.
	OneGuard bool
	// FileOf, when set, names the agent whose install file this agent runs as its own (VS Code
	// runs Copilot CLI's hooks folder): install writes for this agent that agent's file, entry
	// for entry, so that wiring either, or both, gives one file.
	FileOf Name
	// FailClosed: the agent has a fail-closed setting of its own for a hook that fails (Cursor's
	// failClosed on an entry; the OpenCode plugin and the Cline wrappers, which install writes,
	// block on their own), and install asks for it on the guards' entries and on the runner's
	// entries on the events that Gate, so that a missing agenthooks, a crash or the agent's
	// timeout blocks the call instead of letting it run past the guard or the user's deny hooks.
	FailClosed bool
	// OpenTimeout, when set, is the agent's shortest timeout for a hook where it kills a hook
	// that runs longer and lets the call run as if the hook had not answered (Cline: its VS Code
	// extension after 30 s): the runner given --fail-closed answers within RunTimeLimit on an
	// event that can block, and denies when a hook it runs has not answered by then, so that a
	// slow hook does not turn into an allow. 0 where the agent's timeout blocks (Cursor's
	// failClosed, the OpenCode plugin's own timeout) or the agent waits long enough.
	OpenTimeout time.Duration
	// GuardFormat: the guards' entries name the agent's format (--format NAME), for an agent
	// whose payload is another's with a few fields of its own (a field it adds later would make
	// it look like that other's) and that honours only its own answer form.
	GuardFormat bool
	// HandlerName is the "name" install gives its handlers, for an agent that names them.
	HandlerName string
	// Group, when set, is the named group install owns in a file whose top-level keys are
	// named groups of hooks (Antigravity's hooks.json): install writes its entries there, tool
	// events as matcher groups and the others as handlers, and uninstall deletes the group.
	Group string
	// Note is said after an install; ProjectNote after a project install.
	Note, ProjectNote string
	// Timeout, when set, is written on every entry install adds, in the unit of the file's
	// timeouts (Settings.TimeoutUnit).
	Timeout time.Duration
	// ProjectFile is the file a project install writes, under the workspace, when it is not
	// File under Dir (Copilot's .github/hooks/agenthooks.json).
	ProjectFile string
	// Own, when set, makes the install file agenthooks' own (an agent that reads every file of
	// a folder): install writes it whole, as Own renders it, and uninstall deletes it. prog is
	// the program as the shell runs it (quoted), path the same unquoted.
	Own func(prog, path string, entries []InstallEntry) []byte
	// Wrappers, when set, makes File (and ProjectFile) a folder of one executable per event
	// (Cline's hooks folder): install writes each file Wrappers renders for goos, uninstall
	// deletes those Ours says are install's, and install refuses to overwrite any other.
	Wrappers func(prog, path, goos string, entries []InstallEntry) []WrapperFile
	Ours     func(content []byte) bool
	// Edit, when set, makes File a text file of the agent's own format, shared with its other
	// settings (Kimi Code's config.toml), that the agent's package edits: install adds entries
	// not there yet, uninstall (remove) takes out the ones that are agenthooks' own, and every
	// other byte is kept. It returns the new content and one line per change; an error leaves
	// the file untouched. prog is the program as the shell runs it.
	Edit func(old []byte, prog string, entries []InstallEntry, remove bool) ([]byte, []string, error)
	// Render, set with Edit, writes hooks given in Claude Code's settings shape (the matcher
	// groups convert builds for the agent's events) in the agent's own format, and says what it
	// cannot carry.
	Render func(settings []byte) ([]byte, []string)
}

// WrapperFile is one executable install writes into an agent's hooks folder; FailClosed when it
// blocks the call as agenthooks fails (its event gates a call).
type WrapperFile struct {
	Name       string
	Data       []byte
	FailClosed bool
}

// InstallEntry is one handler install adds: the event, the matcher, the arguments after the
// program, and whether the agent should treat its failure as a block.
type InstallEntry struct {
	Event, Matcher, Args string
	FailClosed           bool
	// Guard and GuardPath are agenthooks-guard (GuardProgram) beside agenthooks, quoted for a
	// shell and as a path, on an entry of the shell guard when install found it there: the
	// entry then runs it, with Args after "guard" (Command, Argv). Empty on every other entry.
	Guard, GuardPath string
}

// Command is the entry's command line for a shell, prog being agenthooks quoted for one: prog
// and Args, or agenthooks-guard and Args after "guard" on an entry that runs it.
func (en InstallEntry) Command(prog string) string {
	if rest, ok := strings.CutPrefix(en.Args, "guard "); ok && en.Guard != "" {
		return en.Guard + " " + rest
	}
	return prog + " " + en.Args
}

// Argv is the entry's call for a program started without a shell, path being agenthooks': the
// program's path and its arguments, as Command.
func (en InstallEntry) Argv(path string) (string, []string) {
	if rest, ok := strings.CutPrefix(en.Args, "guard "); ok && en.GuardPath != "" {
		return en.GuardPath, strings.Fields(rest)
	}
	return path, strings.Fields(en.Args)
}

// InstallEntries lists the handlers install adds for the agent, its guards running guardArgs:
// the shell guard on Shell.Event, the runner on each of Install.Events (run --fail-closed where
// the event Gates, and there marked FailClosed for the agent too when Install.FailClosed), then
// the edit guard;
// with Install.OneGuard, an install file of agenthooks' own (Install.Own) and the edit guard on
// the shell guard's event, the two guards are one entry, the first, matching both tools.
func (a *Agent) InstallEntries(guardArgs string) []InstallEntry {
	in := a.Install
	shell := InstallEntry{Event: a.Shell.Event, Matcher: in.ShellMatcher, Args: guardArgs, FailClosed: in.FailClosed}
	// Only in a file install writes whole (Own): merged into a file of the user's, the joined
	// entry would be added beside an older install's two, not put in their place.
	join := in.OneGuard && in.Own != nil && in.EditEvent == a.Shell.Event && in.ShellMatcher != "" && in.EditMatcher != ""
	if join {
		shell.Matcher += "|" + in.EditMatcher
	}
	out := []InstallEntry{shell}
	for _, ev := range in.Events {
		en := InstallEntry{Event: ev, Args: in.RunArgs + " " + ev}
		if a.Gates(ev) {
			// a runner the agent cannot start, or kills at its timeout, must not skip the
			// deny hooks it runs: the agent blocks, as for the guards
			en.Args, en.FailClosed = in.RunArgs+" --fail-closed "+ev, in.FailClosed
		}
		out = append(out, en)
	}
	if join {
		return out
	}
	return append(out, InstallEntry{Event: in.EditEvent, Matcher: in.EditMatcher, Args: guardArgs, FailClosed: in.FailClosed})
}

// Gates reports whether the agent honours a deny on its event ev (Spec.Gates): the events on
// which install runs the runner fail-closed (run --fail-closed), so that a hooks file agenthooks
// cannot read blocks the call, with the file and position, instead of switching its deny hooks
// off. Elsewhere a deny means nothing, and the runner is left as it is.
func (a *Agent) Gates(ev string) bool {
	if a.Dialect == nil {
		return false
	}
	s, ok := a.Dialect(AskAsDeny).Lookup(ev)
	return ok && s.Gates
}

// RunTimeLimit is how long agenthooks run --fail-closed lets the hooks of an event that can
// block run before it stops them and denies: four fifths of the time the agent gives the
// runner's entry before it kills it and lets the call run (Install.OpenTimeout; else, where the
// agent's timeout does not block (no Install.FailClosed), its timeout for the event, TimeoutFor,
// as install's entries set no timeout), leaving the rest for agenthooks to start, stop its hooks and answer before the
// agent gives up on it; 0 for no limit beyond each hook's own timeout.
func (a *Agent) RunTimeLimit(event string) time.Duration {
	budget := a.Install.OpenTimeout
	if budget == 0 && !a.Install.FailClosed {
		budget = a.TimeoutFor(event)
	}
	return budget - budget/5
}

// TimeoutFor is the agent's timeout for a hook of event whose config sets none: EventTimeout's,
// else DefaultTimeout.
func (a *Agent) TimeoutFor(event string) time.Duration {
	if a.EventTimeout != nil {
		if t := a.EventTimeout(event); t > 0 {
			return t
		}
	}
	return a.DefaultTimeout
}

// RewriteFor is the form of a rewrite of the agent's, given to the agent itself (inRun false)
// or to agenthooks run; nil when it has none.
func (a *Agent) RewriteFor(inRun bool) func(input map[string]any, reason string) Reply {
	if inRun && a.Answer.RewriteInRun != nil {
		return a.Answer.RewriteInRun
	}
	return a.Answer.Rewrite
}

// InstallFormat is the format of the hooks file install writes: that of the agent's user file
// of that name.
func (a *Agent) InstallFormat() Format {
	for _, l := range a.Files {
		if ok, _ := path.Match(l.Path, a.Install.File); ok && l.Root == RootHome {
			return l.Format
		}
	}
	return 0
}

// SharesInstallFile reports whether install writes one file for a and b (Install.FileOf: VS
// Code's hooks folder is Copilot CLI's): an agent that runs the other's files then runs
// agenthooks once per call.
func (a *Agent) SharesInstallFile(b *Agent) bool {
	return a.Install.FileOf == b.Name || b.Install.FileOf == a.Name
}

// ShortTitle is the agent's name in running text: Short, else Title.
func (a *Agent) ShortTitle() string {
	if a.Short != "" {
		return a.Short
	}
	return a.Title
}

// SpeaksAs reports whether a hook of agent a reads agent n's payloads unchanged: its own, or
// those of the agent whose format it speaks without rewriting.
func (a *Agent) SpeaksAs(n Name) bool {
	return a.Name == n || a.Speaks == n && a.ToSpoken == nil
}

// Loses names what of d an answer to ev cannot carry, common to every agent: updated input on
// an event other than inputEvents and a follow-up message on an event that does not loop.
func Loses(ev *Spec, d decide.Decision, inputEvents ...string) []string {
	var out []string
	if d.UpdatedInput != nil && !contains(inputEvents, ev.Name) {
		out = append(out, "updated input")
	}
	if d.Followup != "" && ev.Kind != Stop && ev.Kind != SubagentStop {
		out = append(out, "a follow-up message")
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

// GuardByExit2 is a guard's answer for an agent that honours one block, exit status 2 with the
// reason on stderr and nothing on stdout: a deny blocks, anything else lets the call run.
func GuardByExit2(_ Kind, perm decide.Permission, reason string) Reply {
	if perm != decide.Deny {
		return Reply{}
	}
	return Reply{ExitCode: 2, Stderr: []byte("Blocked by agenthooks: " + reason + "\n")}
}

// Doctor is what doctor checks of an agent beyond its hooks.
type Doctor struct {
	// HooksFile says why one of the agent's hooks files keeps its hooks from running (its
	// settings switch them off, with Finding.Setting naming the setting; the file cannot run);
	// nil when nothing in a hooks file can.
	HooksFile func(file string) []Finding
	// Switches says which of the agent's other files (its machine-wide ones, a config beside a
	// hooks file) switch off the hooks of its hooks files, and why; nil when none can.
	Switches func(env DoctorEnv, hooksFiles []string) []Finding
	// Review says, of the agenthooks hooks in one of the agent's hooks files (ours tells an
	// agenthooks command), which the agent runs and which it skips for want of a person's
	// review, and names the skipped ones; nil when the agent runs every hook of its files.
	Review func(env DoctorEnv, file string, ours func(command string) bool) ([]Finding, []Skipped)
	// SessionEnv reads the variables one of the agent's settings files sets for its sessions,
	// and so for its hooks (Claude Code's "env"); nil when its settings set none.
	SessionEnv func(file string) map[string]string
	// ProjectWarning is said when agenthooks is registered in one of the agent's project files.
	ProjectWarning string
	// OffVars are the environment variables that, set to a true value (1, true, yes, on), switch
	// the agent's hooks off for a run (Claude Code's CLAUDE_CODE_SIMPLE, which --bare sets):
	// doctor, finding one in its own environment, says an agent started from it runs unguarded.
	// nil for none.
	OffVars []OffVar
}

// OffVar is an environment variable that switches an agent's hooks off, and what it does
// ("what --bare sets: no hooks from settings or plugins").
type OffVar struct {
	Env, Does string
}

// DoctorEnv is where doctor looks: the user's home and the environment.
type DoctorEnv struct {
	Home   string
	Getenv func(string) string
}

// Finding is one thing doctor found: Level is "ok", "warn" or "fail" (the agent would run a
// command unguarded). Setting, on a failure, names the agent's own setting that switches the
// agenthooks hooks off or makes the agent skip them (such as disableAllHooks, or [features]
// hooks = false); "" when the failure is not a setting's.
type Finding struct {
	Level, File, Message string
	Setting              string
	// Line is the line of File that sets Setting, 0 when unknown.
	Line int
}

// Skipped is a hook the agent skips: its file, event and command.
type Skipped struct {
	File, Event, Command string
}

// Field is one payload field and its JSON value.
type Field struct{ Key, JSON string }

// Probe is what a payload shows of its agent, for Agent.Detect.
type Probe struct {
	HookEvent string
	Tool      string
	TurnID    any
	// Event is the payload's "event" field (Crush names its event there, not in
	// hook_event_name).
	Event string
	// WorkspaceRoots: the payload names its workspace roots (workspace_roots: Cursor's and
	// Auggie's).
	WorkspaceRoots bool
	// CommandOnly: the payload has a command at its top level and no tool_input.
	CommandOnly bool
	// Timestamp is the payload's timestamp field, nil when it has none.
	Timestamp any
	// CamelCase: the payload names its fields in camelCase (sessionId, toolName) and has no
	// hook_event_name.
	CamelCase bool
	// ActionName is the payload's agent_action_name (Windsurf's Cascade names its event there).
	ActionName string
	// ToolCall: the payload has a toolCall object (Antigravity's) and no hook_event_name.
	ToolCall bool
	// HookName is the payload's hookName (Cline names its event there).
	HookName string
	// HookEventCamel is the payload's hookEventName (VS Code names its event there).
	HookEventCamel string
	// PermissionMode is the payload's permission_mode (Droid's autonomy levels are not Claude
	// Code's modes).
	PermissionMode string
	// ClientType is the payload's client_type (Kimi Code's kimi_code_cli).
	ClientType string
}
