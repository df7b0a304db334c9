package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/regfile"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// maxGuardPayload bounds what a guard reads from stdin.
const maxGuardPayload = 4 << 20

// policyFlags choose the policy: --policy, else a trusted project's .agenthooks/policy.yaml,
// else the embedded default.
type policyFlags struct {
	policy string
}

func (p *policyFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&p.policy, "policy", "", "policy `FILE` (default: $AGENTHOOKS_POLICY, else the trusted project's .agenthooks/policy.yaml, else the embedded default)")
}

// policyFile is the policy file named by --policy or $AGENTHOOKS_POLICY, or "".
func (p *policyFlags) policyFile(e *env) string {
	return cmp.Or(p.policy, e.getenv("AGENTHOOKS_POLICY"))
}

// protectedPaths is what no command or file tool of the agent may change: every agent's hook
// configuration for the project (and the working directory, when it is another folder), where
// the agent's environment moves it and where it is by default, agenthooks' own files, the
// policy in use and the agenthooks binaries.
func protectedPaths(e *env, home, project, cwd, policyFile, auditFile string) []policy.Protected {
	return protectedPlacesOf(e, home, project, cwd, policyFile, auditFile).list()
}

// protectedPlaces is what protectedPaths computes the list from.
type protectedPlaces struct {
	env       config.Env
	files     []string
	binaries  func() []string // found on first need
	auditFile string
}

func protectedPlacesOf(e *env, home, project, cwd, policyFile, auditFile string) protectedPlaces {
	env := config.Env{Home: home, EnterpriseDir: e.getenv("AGENTHOOKS_ENTERPRISE_DIR"),
		ClaudeManagedDir: e.getenv("AGENTHOOKS_CLAUDE_MANAGED_DIR"), CodexHome: e.getenv("CODEX_HOME"), Getenv: e.getenv}
	for _, ws := range []string{project, cwd} {
		if ws != "" && !slices.Contains(env.Workspaces, ws) {
			env.Workspaces = append(env.Workspaces, ws)
		}
	}
	return protectedPlaces{env: env, files: []string{policyFile, auditFile}, auditFile: auditFile,
		binaries: sync.OnceValue(func() []string { return agenthooksBinaries(e) })}
}

// list is the protected paths.
func (pp protectedPlaces) list() []policy.Protected {
	out := config.ProtectedPaths(pp.env, pp.files, pp.binaries())
	if pp.auditFile != "" {
		// the database and every file beside it that holds or will hold records
		abs, _ := filepath.Abs(pp.auditFile)
		for i := range out {
			if out[i].Path == filepath.ToSlash(abs) {
				out[i].Prefix = true
			}
		}
	}
	return out
}

// mayProtect is the test run before the list is computed (config.MayProtect), itself built on
// first need: true, "compute the list", where config.MayProtect gives no test. It is nil where
// the list may hold a path that is not absolute (policy.Context.MayProtect): without a working
// directory, on Windows, where filepath.Abs can fail on a name, and with a home that is not
// absolute, under which the list holds the startup files and keys as they join (HOME=.: .bashrc).
func (pp protectedPlaces) mayProtect() func(string) bool {
	if _, err := os.Getwd(); err != nil || runtime.GOOS == "windows" || pp.env.Home != "" && !filepath.IsAbs(pp.env.Home) {
		return nil
	}
	test := sync.OnceValue(func() func(string) bool { return config.MayProtect(pp.env, pp.files, pp.binaries()) })
	return func(p string) bool {
		t := test()
		return t == nil || t(p)
	}
}

// agenthooksBinaries are the agenthooks executables an agent must not replace: this one (as
// started and with its links resolved), the companions beside it, and the agenthooks that PATH
// finds.
func agenthooksBinaries(e *env) []string {
	var out []string
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	dirs := []string{filepath.Dir(self)}
	out = append(out, self)
	if real, err := filepath.EvalSymlinks(self); err == nil && real != self {
		out = append(out, real)
		dirs = append(dirs, filepath.Dir(real))
	}
	for _, name := range []string{"agenthooks", dialect.GuardProgram} {
		if p := e.lookPath(name); p != "" {
			out = append(out, p)
		}
	}
	for _, dir := range dirs {
		for _, name := range []string{"agenthooks", "agenthooks-admin", "agenthooks-scan", dialect.GuardProgram} {
			out = append(out, filepath.Join(dir, name+exeSuffix()))
		}
	}
	return out
}

// readScript reads a script a command runs, for the guard to judge: a regular file only (never
// a FIFO or a device, which could hang the guard), at most shell.MaxScript bytes.
//
// A command line reads the same file for more than one of its commands (npm ci and npm run build
// both read package.json), so what a process has read is kept for the rest of it: a guard
// process judges one command line by one reading of each file, and guard test and explain judge
// commands that run nothing, so no file changes under them.
func readScript(p string) (string, bool) {
	scriptsRead.Lock()
	defer scriptsRead.Unlock()
	if r, ok := scriptsRead.m[p]; ok {
		return r.text, r.ok
	}
	data, err := regfile.Read(p, shell.MaxScript)
	if scriptsRead.m == nil {
		scriptsRead.m = map[string]scriptRead{}
	}
	scriptsRead.m[p] = scriptRead{string(data), err == nil}
	return string(data), err == nil
}

type scriptRead struct {
	text string
	ok   bool
}

// scriptsRead are the files readScript has read, by path.
var scriptsRead struct {
	sync.Mutex
	m map[string]scriptRead
}

// lookPath finds name in the folders of $PATH, as a shell would, without os/exec.
func (e *env) lookPath(name string) string {
	if strings.Contains(name, "/") {
		return ""
	}
	for _, dir := range filepath.SplitList(e.getenv("PATH")) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name+exeSuffix())
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func exeSuffix() string {
	if filepath.Separator == '\\' {
		return ".exe"
	}
	return ""
}

// ProjectPolicy is where a project keeps its policy.
const ProjectPolicy = config.ProjectPolicy

// policyError is a policy that cannot be used: broken, unreadable, or missing when named. A
// guard denies on it whatever its fail mode: the person chose that policy, and exit 1 reads as
// "go ahead" to Claude Code, Codex and Copilot.
type policyError struct{ problems srcpos.List }

func (e *policyError) Error() string { return "invalid policy:\n" + e.problems.Err().Error() }

// reason is the deny's reason: one line, the first problem with its place.
func (e *policyError) reason() string {
	errs := e.problems.Errors()
	msg := "the guard's policy is broken, so agenthooks blocks until it is fixed (agenthooks lint " + errs[0].Pos.File + "): " + errs[0].String()
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(errs)-1)
	}
	return msg
}

// report prints every problem of the policy on stderr.
func (e *policyError) report(env *env) {
	for _, pr := range e.problems.Errors() {
		fmt.Fprintln(env.stderr, "agenthooks: policy error:", pr)
	}
}

// load returns the policy and, when a project policy was passed over, why. A project's policy
// is used only with the content the trust store recorded for it; any other is passed over for
// the default, with a note.
func (p *policyFlags) load(e *env, project string) (*policy.Policy, string, error) {
	file := cmp.Or(p.policy, e.getenv("AGENTHOOKS_POLICY"))
	if file != "" {
		pol, problems := policy.Load(file)
		if problems.HasErrors() {
			return nil, "", &policyError{problems}
		}
		return pol, "", nil
	}
	if project != "" {
		file := filepath.Join(project, ProjectPolicy)
		data, err := regfile.Read(file, policy.MaxFileSize)
		if err == nil {
			if u := config.NewTrustStore(e.home()).Check()(project, file, data); u != nil {
				return policy.Default(), fmt.Sprintf("%s is not used: %s", file, u.Message), nil
			}
			pol, problems := policy.Parse(file, data)
			if problems.HasErrors() {
				return nil, "", &policyError{problems}
			}
			return pol, "", nil
		} else if !os.IsNotExist(err) { // os's own error: no unwrapping needed, and errors.Is costs the guard's start
			return policy.Default(), fmt.Sprintf("%s is not used: its content cannot be checked against the trust store: %v", file, err), nil
		}
	}
	return policy.Default(), "", nil
}

func newGuardCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "guard",
		Short: "Built-in guards that run as hooks, and tools for their policies",
	}
	c.AddCommand(newGuardBashCmd(e), newGuardReadCmd(e), newGuardPromptCmd(e), newGuardMCPCmd(e), newGuardExplainCmd(e), newGuardTestCmd(e))
	return c
}

type guardBashParams struct {
	policyFlags
	format     string
	askAs      string
	failClosed bool
	audit      string
	agent      string // the agent whose hooks file holds this entry (--agent)
}

func newGuardBashCmd(e *env) *cobra.Command {
	var p guardBashParams
	c := &cobra.Command{
		Use:   "bash",
		Short: "Judge a shell command from a hook payload on stdin (Claude Code or Cursor)",
		Long: `Read a shell hook payload on stdin (Claude Code's PreToolUse on Bash, Cursor's
beforeShellExecution, or Cursor's preToolUse on Shell), parse the command as bash does and judge
every command that would run against the policy.

Claude Code: allow is exit 0 with no output; ask is exit 0 with a PreToolUse permissionDecision
"ask" on stdout; deny is exit 2 with the reason on stderr. Cursor: {"permission": ...} on stdout,
exit 0. Codex (PreToolUse on Bash) and Gemini CLI (BeforeTool on run_shell_command): deny is exit
2 with the reason on stderr and nothing on stdout, the one block they honour; they cannot ask, so
an ask becomes --ask-as (deny unless set to allow), with a warning on stderr. Qwen Code
(PreToolUse on run_shell_command): JSON on stdout, exit 0, with decision "block" and
hookSpecificOutput's deny. Copilot CLI (preToolUse, camelCase toolName and toolArgs): JSON
{"permissionDecision": ...} on stdout, exit 0, never exit 2. A policy that
cannot be read or has an error is always a deny that says where (file:line:col). Another error
of the guard itself (bad JSON, a payload over 4 MiB) exits 1, never 2, unless --fail-closed
turns it into a deny that says the guard failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runGuardBash(e, p) },
	}
	p.register(c)
	c.Flags().StringVar(&p.format, "format", "", "the payload's and answer's format: "+agents.List("or")+" (default: detected from the payload)")
	c.Flags().StringVar(&p.askAs, "ask-as", "deny", askAsHelp())
	c.Flags().BoolVar(&p.failClosed, "fail-closed", false, "deny, saying the guard failed, when the guard itself fails")
	c.Flags().StringVar(&p.audit, "audit", "", "record into this audit database, or off (default: $AGENTHOOKS_AUDIT, else ~/.agenthooks/audit.db)")
	return c
}

// shellPayload holds the fields of Claude Code's and Cursor's shell payloads. The loosely typed
// fields are decoded as any, not json.RawMessage: a RawMessage costs a second decode and, in a
// process that decodes once, encoding/json's first look for its Unmarshaler method.
type shellPayload struct {
	HookEventName  string   `json:"hook_event_name"`
	Event          string   `json:"event"` // Crush's
	Command        any      `json:"command"`
	Cwd            string   `json:"cwd"`
	ToolName       string   `json:"tool_name"`
	ToolInput      any      `json:"tool_input"`
	WorkspaceRoots []string `json:"workspace_roots"`
	TurnID         any      `json:"turn_id"`
	Timestamp      any      `json:"timestamp"`
	// SessionIDCamel and ToolNameCamel tell a camelCase payload (Copilot CLI's).
	SessionIDCamel string `json:"sessionId"`
	ToolNameCamel  string `json:"toolName"`
	// SessionID and ConversationID name the session in Claude Code's shape, the agent's
	// GuardView having moved its own field there (OpenCode's sessionID, Cline's taskId).
	SessionID      string `json:"session_id"`
	ConversationID string `json:"conversation_id"`
	// ActionName is Windsurf's agent_action_name.
	ActionName string `json:"agent_action_name"`
	// ToolCall is Antigravity's toolCall.
	ToolCall any `json:"toolCall"`
	// HookName is Cline's event.
	HookName string `json:"hookName"`
	// HookEventCamel is VS Code's hookEventName.
	HookEventCamel string `json:"hookEventName"`
	// PermissionMode tells Droid's payload from Claude Code's (any type: only a string counts).
	PermissionMode any `json:"permission_mode"`
	// ClientType tells Kimi Code's payload from Claude Code's (its client_type).
	ClientType any `json:"client_type"`
}

// probe is what the payload shows of its agent, for the agents' Detect.
func (pl *shellPayload) probe() dialect.Probe {
	mode, _ := pl.PermissionMode.(string)
	client, _ := pl.ClientType.(string)
	return dialect.Probe{HookEvent: pl.HookEventName, Event: pl.Event, Tool: pl.ToolName, TurnID: pl.TurnID, Timestamp: pl.Timestamp,
		CamelCase:      pl.SessionIDCamel != "" || pl.ToolNameCamel != "",
		WorkspaceRoots: len(pl.WorkspaceRoots) > 0, CommandOnly: pl.ToolInput == nil && pl.Command != nil,
		ActionName: pl.ActionName, ToolCall: pl.ToolCall != nil && pl.HookEventName == "", HookName: pl.HookName, HookEventCamel: pl.HookEventCamel,
		PermissionMode: mode, ClientType: client}
}

// shellCall is what the guard judges.
type shellCall struct {
	payload []byte
	event   string
	format  string // claude, cursor, codex or gemini
	command string
	cwd     string
	project string
	session string // the agent's session, for the audit trail
	skip    bool   // not a shell call: not this guard's business
	// tool and edits are set for an agent's file tool (Write, Edit, write_file, apply_patch):
	// the files it changes, judged against the protected paths.
	tool  string
	edits []string
	input map[string]any // the file tool's input, in Claude Code's shape
}

func runGuardBash(e *env, p guardBashParams) error {
	if err := checkFormat(p.format, p.askAs); err != nil {
		return err
	}
	if err := refuseTerminal(e, "guard bash", `{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`); err != nil {
		return err // exit 1, even with --fail-closed: nobody is calling as an agent
	}
	if _, ok := agents.Lookup(p.agent); !ok && p.agent != "" {
		return fmt.Errorf("--agent must be %s, not %q", agents.List("or"), p.agent)
	}
	start := time.Now()
	call, err := readShellCall(e, p.format)
	if err == nil && p.agent != "" {
		if sa := repeated(e, engine.Repeat{In: dialect.Name(p.agent), Payload: call.payload, Guard: "bash", Policy: p.policy, FailClosed: p.failClosed}, []string{call.project}); sa != nil {
			fmt.Fprintln(e.stderr, "agenthooks:", sa)
			return nil // the calling agent's own entry answers
		}
	}
	decision, reason, policyName := guard.Allow, "", ""
	if err == nil && call.tool != "" {
		ctx := guard.Context{Home: e.home(), Cwd: call.cwd, Project: call.project,
			Protected: protectedPaths(e, e.home(), call.project, call.cwd, p.policyFile(e), auditPath(e, p.audit))}
		v := guard.Default().CheckEditText(call.tool, call.edits, guard.EditText(call.input, func(f string) ([]byte, error) {
			if !filepath.IsAbs(f) && call.cwd != "" {
				f = filepath.Join(call.cwd, f)
			}
			return guard.ReadEditTarget(f)
		}), ctx)
		decision, reason = v.Decision, v.Reason
		if decision == guard.Allow {
			return answerShell(e, call.format, dialect.AskAs(p.askAs), decision, "") // unrecorded: not a shell call
		}
		call.command = call.tool + " " + strings.Join(call.edits, " ")
	} else if err == nil && !call.skip && call.command != "" {
		var pol *policy.Policy
		var note string
		pol, note, err = p.load(e, call.project)
		if note != "" {
			fmt.Fprintln(e.stderr, "agenthooks:", note)
		}
		if err == nil {
			places := protectedPlacesOf(e, e.home(), call.project, call.cwd, p.policyFile(e), auditPath(e, p.audit))
			v := guard.New(pol).Check(call.command, guard.Context{Home: e.home(), Cwd: call.cwd, Project: call.project,
				ProtectedFunc: places.list,         // on first need: most commands name no path
				MayProtect:    places.mayProtect(), // and most that write one write a file of the project's
				LookPath:      e.lookPath, Getenv: e.getenv, ReadFile: readScript})
			decision, reason, policyName = v.Decision, v.Reason, pol.Name
			if updated, note := confineRewrite(e, pol, call, decision, p.policyFile(e)); updated != nil {
				return p.answerConfined(e, call, updated, decision, reason, policyName, start) // what it would ask about runs confined
			} else if note != "" && decision == guard.Ask {
				reason += " (" + note + ")"
			}
		}
	}
	verdict := string(decision)
	if pe, broken := err.(*policyError); broken {
		pe.report(e)
		decision, reason, verdict = guard.Deny, pe.reason(), "failed-closed" // a broken policy always blocks
	} else if err != nil {
		if !p.failClosed {
			p.record(e, call, "error", err.Error(), "error", policyName, start)
			return err // exit 1: an error of the guard is never a block
		}
		decision, reason, verdict = guard.Deny, "agenthooks guard failed, and it is fail-closed, so this is denied: "+err.Error(), "failed-closed"
	}
	if !call.skip && (call.command != "" || err != nil) {
		p.record(e, call, string(decision), reason, verdict, policyName, start)
	}
	return answerShell(e, call.format, dialect.AskAs(p.askAs), decision, reason)
}

// record writes the guard's decision to the audit trail, unless the guard runs inside
// agenthooks run, which records its hooks' runs itself.
func (p guardBashParams) record(e *env, call shellCall, decision, reason, verdict, policyName string, start time.Time) {
	if e.getenv("AGENTHOOKS_RUN_DEPTH") != "" {
		return
	}
	event := call.event
	if event == "" {
		if a, ok := agents.Lookup(call.format); ok {
			event = a.Shell.Event
		}
	}
	hook := "agenthooks guard bash"
	if policyName != "" && policyName != policy.DefaultName {
		hook += " (" + policyName + ")"
	}
	record(e, auditPath(e, p.audit), &audit.Record{Origin: "guard bash", Agent: call.format, Event: event,
		Workspace: call.project, Session: call.session, Decision: decision, Reason: reason, Payload: string(call.payload),
		Runs: []audit.Run{{Hook: hook, Event: event, Command: "agenthooks guard bash", Verdict: verdict, Duration: time.Since(start),
			Error: map[bool]string{true: reason}[verdict == "error" || verdict == "failed-closed"]}}})
}

// readShellCall decodes the payload. The format is set even on error, so that a fail-closed
// answer speaks the right contract.
func readShellCall(e *env, forced string) (shellCall, error) {
	call := shellCall{format: forced}
	if call.format == "" {
		call.format = string(agents.Fallback().Name)
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, maxGuardPayload+1))
	if err != nil {
		return call, fmt.Errorf("read payload: %w", err)
	}
	if len(data) > maxGuardPayload {
		return call, fmt.Errorf("payload is larger than %d bytes", maxGuardPayload)
	}
	call.payload = data
	if err := checkObject(data); err != nil {
		return call, err
	}
	var pl shellPayload
	if err := pl.decode(data); err != nil {
		return call, dialect.JSONError("payload", data, err)
	}
	call.event = pl.HookEventName
	if forced == "" {
		call.format = string(agents.Detect(pl.probe()).Name)
	}
	if err := guardView(call.format, &data, &pl); err != nil {
		return call, err
	}
	call.cwd = pl.Cwd
	call.session = cmp.Or(pl.SessionID, pl.ConversationID, pl.SessionIDCamel)
	call.project = cmp.Or(e.getenv("CLAUDE_PROJECT_DIR"), e.getenv("CURSOR_PROJECT_DIR"))
	if call.project == "" && len(pl.WorkspaceRoots) > 0 {
		call.project = pl.WorkspaceRoots[0]
	}
	if call.project == "" {
		call.project = call.cwd
	}
	shellTool := pl.ToolName == "" || pl.ToolName == "Bash" || pl.ToolName == "Shell" || pl.ToolName == "run_shell_command" || agents.IsShellTool(pl.ToolName)
	if pl.ToolInput == nil && pl.Command == nil {
		// nothing to judge: a payload of another event, or a call whose input is missing or
		// null, which for a shell or file tool is an error, never "no command"
		return call, noCommand(data, pl, shellTool)
	}
	command := pl.Command
	if pl.ToolInput != nil {
		if !shellTool {
			in, ok := pl.ToolInput.(map[string]any)
			if guard.IsEditTool(pl.ToolName) {
				if !ok {
					return call, fmt.Errorf("payload: field \"tool_input\" of the %s call must be an object", pl.ToolName)
				}
				call.tool, call.edits, call.input = pl.ToolName, guard.EditTargets(pl.ToolName, in), in
				if len(call.edits) == 0 {
					// a file tool whose input names no file the guard can find (a field it
					// does not know, a patch in another format): it cannot be judged
					return call, fmt.Errorf("payload: the %s call names no file the guard can find in tool_input", pl.ToolName)
				}
				return call, nil
			}
			call.skip = true // another tool: registered too widely, not this guard's business
			return call, nil
		}
		// a shell tool, this agent's or another's in a payload not recognised as that agent's
		// (a field it added since): judged by its command, never skipped
		in, ok := pl.ToolInput.(map[string]any)
		if !ok {
			return call, fmt.Errorf("payload: field \"tool_input\" must be an object")
		}
		command = in["command"]
		if command == nil {
			return call, fmt.Errorf("payload: the %s call has no command (tool_input.command is missing or null)", cmp.Or(pl.ToolName, "shell"))
		}
	}
	s, ok := command.(string)
	if !ok {
		return call, fmt.Errorf("payload: field %q must be a string", map[bool]string{true: "tool_input.command", false: "command"}[pl.ToolInput != nil])
	}
	call.command = s
	return call, nil
}

// noCommand is the error, or nil, of a shell payload with neither tool_input nor command: a
// shell or file tool whose input is missing or null, a command that is null, or an object that
// names no event, tool or command, cannot be judged; another tool's or another event's payload
// is not this guard's business (nil).
func noCommand(data []byte, pl shellPayload, shellTool bool) error {
	var keys map[string]json.RawMessage // only on this rare path: which fields are there, null or not
	if err := json.Unmarshal(data, &keys); err != nil {
		return dialect.JSONError("payload", data, err)
	}
	_, hasCommand := keys["command"]
	_, hasInput := keys["tool_input"]
	switch {
	case hasCommand:
		return fmt.Errorf("payload: field \"command\" is null; a shell call needs its command")
	case pl.ToolName != "" && (shellTool || guard.IsEditTool(pl.ToolName)):
		return fmt.Errorf("payload: the %s call has no input (tool_input is missing or null)", pl.ToolName)
	case pl.ToolName == "" && hasInput:
		return fmt.Errorf("payload: field \"tool_input\" is null and the payload names no tool")
	case pl.ToolName == "" && pl.HookEventName == "" && pl.Event == "" && pl.HookName == "" && pl.HookEventCamel == "" && pl.ActionName == "" && pl.ToolCall == nil:
		return fmt.Errorf("payload names no event, tool or command: the guard has nothing to judge")
	}
	return nil
}

// checkObject refuses a payload that is not a JSON object (null, a list, a string): no agent
// sends one, and decoded into a struct it would read as an empty payload.
func checkObject(data []byte) error {
	t := strings.TrimLeft(string(data[:min(len(data), 64)]), " \t\r\n")
	if t == "" || t[0] != '{' {
		if t != "" && (t[0] == '[' || t[0] == 'n' || t[0] == '"' || t[0] == 't' || t[0] == 'f' || t[0] == '-' || t[0] >= '0' && t[0] <= '9') {
			return fmt.Errorf("payload must be a JSON object")
		}
	}
	return nil
}

// checkFormat checks the --format and --ask-as flags of the guards.
func checkFormat(format, askAs string) error {
	if _, ok := agents.Lookup(format); !ok && format != "" {
		return fmt.Errorf("--format must be %s, not %q", agents.List("or"), format)
	}
	if askAs != string(dialect.AskAsDeny) && askAs != string(dialect.AskAsAllow) {
		return fmt.Errorf("--ask-as must be deny or allow, not %q", askAs)
	}
	return nil
}

// guardView decodes the payload again, into v, as the agent of format's GuardView rewrites it
// in Claude Code's names, when the agent has one (Copilot CLI's camelCase toolName and toolArgs).
func guardView(format string, data *[]byte, v any) error {
	a, ok := agents.Lookup(format)
	if !ok || a.GuardView == nil {
		return nil
	}
	view, err := a.GuardView(*data)
	if err != nil {
		return err
	}
	*data = view
	if pl, ok := v.(*shellPayload); ok {
		err = pl.decode(view)
	} else {
		err = json.Unmarshal(view, v)
	}
	if err != nil {
		return dialect.JSONError("payload", view, err)
	}
	return nil
}

// answerShell writes the shell guard's decision in the contract of the format's agent.
func answerShell(e *env, format string, askAs dialect.AskAs, d guard.Decision, reason string) error {
	return answerGuard(e, format, dialect.BeforeShell, askAs, d, reason)
}

// answerGuard writes a guard's decision on an event of kind in the contract of the format's
// agent (its descriptor's Guard encoder). A prompt is blocked or not; an agent that cannot ask
// a person (Codex, Gemini CLI) gets askAs for an ask.
func answerGuard(e *env, format string, kind dialect.Kind, askAs dialect.AskAs, d guard.Decision, reason string) error {
	ag, ok := agents.Lookup(format)
	if !ok {
		ag = agents.Fallback()
	}
	if kind == dialect.PromptSubmit && d != guard.Allow {
		d = guard.Deny // a secret is never sent
	}
	if d == guard.Ask && !ag.Answer.CanAsk {
		if askAs == dialect.AskAsAllow {
			fmt.Fprintf(e.stderr, "agenthooks: %s cannot ask a person; allowed as configured (--ask-as allow): %s\n", ag.Title, reason)
			return nil
		}
		d, reason = guard.Deny, ag.Title+" cannot ask a person, so agenthooks denies (--ask-as deny): "+reason
	}
	r := ag.Answer.Guard(kind, decide.Permission(d), reason)
	e.stdout.Write(r.Stdout)
	e.stderr.Write(r.Stderr)
	if r.ExitCode != 0 {
		return silentExit{code: r.ExitCode}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

type guardExplainParams struct {
	policyFlags
	cwd, project string
	json         bool
	guard        string
	packs        bool
	agent        string
}

func newGuardExplainCmd(e *env) *cobra.Command {
	var p guardExplainParams
	c := &cobra.Command{
		Use:   "explain COMMAND",
		Short: "Show how the shell guard reads a command and why it decides as it does",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if p.packs {
				return explainPacks(e, p)
			}
			return runGuardExplain(e, p, args[0])
		},
	}
	p.register(c)
	c.Flags().StringVar(&p.cwd, "cwd", "", "the working directory the command runs in (default: the current one)")
	c.Flags().StringVar(&p.project, "project", "", "the project root (default: the working directory)")
	c.Flags().BoolVar(&p.json, "json", false, "print the verdict and the analysis as JSON")
	c.Flags().StringVar(&p.guard, "guard", "bash", "which guard: bash (COMMAND), read (a file), prompt (the text), mcp (server/tool or mcp__server__tool)")
	c.Flags().BoolVar(&p.packs, "packs", false, "list the policy's rule packs, their rules and whether each is switched on (no COMMAND)")
	c.Flags().StringVar(&p.agent, "agent", string(agents.Fallback().Name), explainAgentHelp())
	c.Args = func(cmd *cobra.Command, args []string) error {
		if p.packs {
			return cobra.NoArgs(cmd, args)
		}
		return cobra.ExactArgs(1)(cmd, args)
	}
	return c
}

// packRules names each rule with its pack: "git/git-push-force".
func packRules(pol *policy.Policy, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id
		for _, r := range pol.Rules {
			if r.ID == id && r.Pack != "" {
				out[i] = r.Pack + "/" + id
			}
		}
	}
	return out
}

// explainPacks prints the policy's rule packs.
func explainPacks(e *env, p guardExplainParams) error {
	pol, note, err := p.load(e, "")
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintln(e.stderr, "agenthooks:", note)
	}
	packs := pol.PackList()
	if p.json {
		return writeJSON(e.stdout, packs)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PACK\tON\tRULES")
	for _, pk := range packs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", pk.Name, map[bool]string{true: "yes", false: "no"}[pk.Enabled], strings.Join(pk.Rules, ", "))
	}
	return tw.Flush()
}

func (p *guardExplainParams) context(e *env) guard.Context {
	cwd := p.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	project := p.project
	if project == "" {
		project = cwd
	}
	return guard.Context{Home: e.home(), Cwd: cwd, Project: project,
		Protected: protectedPaths(e, e.home(), project, cwd, p.policyFile(e), auditPath(e, "")), LookPath: e.lookPath, Getenv: e.getenv, ReadFile: readScript}
}

func runGuardExplain(e *env, p guardExplainParams, command string) error {
	if p.guard != "bash" {
		d, reason, err := judgeOther(e, p, command)
		if err != nil {
			return err
		}
		if p.json {
			return writeJSON(e.stdout, map[string]string{"guard": p.guard, "subject": command, "decision": string(d), "reason": reason})
		}
		if reason == "" {
			reason = "nothing in the policy's " + p.guard + " section stops it"
		}
		fmt.Fprintf(e.stdout, "decision: %s\nreason: %s\n", d, reason)
		return nil
	}
	if _, ok := agents.Lookup(p.agent); !ok {
		return fmt.Errorf("--agent must be %s, not %q", agents.List("or"), p.agent)
	}
	ctx := p.context(e)
	pol, note, err := p.load(e, ctx.Project)
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintln(e.stderr, "agenthooks:", note)
	}
	g := guard.New(pol)
	script := g.Analyze(command, ctx)
	v := pol.Evaluate(script, ctx)
	for i := range script.Findings {
		script.Findings[i].Message = policy.Plain(script.Findings[i].Message)
	}
	confined := explainConfined(e, p, pol, command, ctx, v)
	if p.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			guard.Verdict
			Confined *confinedView `json:"confined,omitempty"`
			Findings any           `json:"findings,omitempty"`
			Policy   string        `json:"policy"`
		}{v, confined, script.Findings, pol.Name})
	}
	fmt.Fprintf(e.stdout, "decision: %s\nreason: %s\npolicy: %s\n", v.Decision, v.Reason, pol.Name)
	if confined != nil && confined.Command != "" {
		fmt.Fprintf(e.stdout, "runs confined as: %s\nwhy: %s\n", confined.Command, confined.Why)
	} else if confined != nil {
		fmt.Fprintf(e.stdout, "%s\n", confined.Why)
	}
	fmt.Fprintln(e.stdout)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POS\tCOMMAND\tINSIDE\tDECISION\tBY")
	for _, inv := range v.Invocations {
		by := strings.Join(packRules(pol, inv.Rules), ", ")
		if by == "" {
			by = inv.AllowedBy
		}
		if by == "" {
			by = policy.RuleUnknown
		}
		inside := strings.Join(inv.Wrappers, " > ")
		if inside == "" {
			inside = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", inv.Pos, clip(policy.Plain(strings.Join(inv.Argv, " ")), 60), inside, inv.Decision, by)
	}
	tw.Flush()
	if len(script.Findings) > 0 {
		fmt.Fprintln(e.stdout, "\nfindings:")
		for _, f := range script.Findings {
			fmt.Fprintf(e.stdout, "  %s %s: %s\n", f.Pos, f.Kind, f.Message)
		}
	}
	return nil
}

type guardTestParams struct {
	guardExplainParams
	home  string
	stats bool
}

// judgeOther runs the read, prompt or MCP guard on one subject: a file, a prompt's text, or an
// MCP tool as server/tool or mcp__server__tool.
func judgeOther(e *env, p guardExplainParams, subject string) (guard.Decision, string, error) {
	cp := contentGuardParams{policyFlags: p.policyFlags}
	ctx := p.context(e)
	pl := &guardPayload{format: string(agents.Default().Name), Cwd: ctx.Cwd, WorkspaceRoots: []string{ctx.Project}}
	switch p.guard {
	case "read":
		pl.FilePath = subject
		return cp.judgeRead(e, pl)
	case "prompt":
		pl.Prompt = subject
		return cp.judgePrompt(e, pl)
	case "mcp":
		pl.HookEventName = "beforeMCPExecution"
		if strings.HasPrefix(subject, "mcp__") {
			pl.ToolName = subject
		} else if server, tool, ok := strings.Cut(subject, "/"); ok {
			pl.Command, pl.ToolName = server, tool
		} else {
			pl.ToolName = subject
		}
		return cp.judgeMCP(e, pl)
	}
	return "", "", fmt.Errorf("--guard must be bash, read, prompt or mcp, not %q", p.guard)
}

func newGuardTestCmd(e *env) *cobra.Command {
	var p guardTestParams
	c := &cobra.Command{
		Use:   "test CORPUS.tsv...",
		Short: "Run a table of verdict<TAB>command lines against a policy and print the misses",
		Long: `Each line of a corpus is a verdict (allow, ask or deny), a tab, and a command; blank lines and
lines starting with # are skipped; \n in a command stands for a newline. Every miss is printed as
file:line: want X, got Y: command (reason). Exit status 1 when any line misses.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGuardTest(e, p, args)
		},
	}
	p.register(c)
	c.Flags().StringVar(&p.cwd, "cwd", "/home/dev/project", "the working directory of every command")
	c.Flags().StringVar(&p.project, "project", "", "the project root (default: the working directory)")
	c.Flags().StringVar(&p.home, "home", "/home/dev", "the home folder")
	c.Flags().BoolVar(&p.stats, "stats", false, "print deny/ask/allow counts per category and for each expected verdict instead of each miss")
	c.Flags().StringVar(&p.guard, "guard", "bash", "which guard the corpus is for: bash (commands), read (files), prompt (texts), mcp (server/tool)")
	return c
}

func runGuardTest(e *env, p guardTestParams, files []string) error {
	ctx := guard.Context{Home: p.home, Cwd: p.cwd, Project: p.project}
	if ctx.Project == "" {
		ctx.Project = ctx.Cwd
	}
	// The corpus's home, not this machine's binaries: a corpus judges the same everywhere.
	ctx.Protected = slices.DeleteFunc(protectedPaths(e, p.home, ctx.Project, ctx.Cwd, p.policyFile(e), ""),
		func(p policy.Protected) bool { return p.Binary })
	pol, note, err := p.load(e, "")
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintln(e.stderr, "agenthooks:", note)
	}
	g := guard.New(pol)
	passed, failed := 0, 0
	st := newCorpusStats()
	for _, file := range files {
		cases, err := readCorpusFile(file)
		if err != nil {
			return err
		}
		for _, c := range cases {
			v := guard.Verdict{}
			if p.guard == "bash" {
				v = g.Check(c.Command, ctx)
			} else {
				q := p.guardExplainParams
				q.cwd, q.project = ctx.Cwd, ctx.Project
				d, reason, err := judgeOther(e, q, c.Command)
				if err != nil {
					return err
				}
				v.Decision, v.Reason = d, reason
			}
			st.add(c, v.Decision)
			if v.Decision == c.Want {
				passed++
				continue
			}
			failed++
			if !p.stats {
				fmt.Fprintf(e.stdout, "%s:%d: want %s, got %s: %s (%s)\n", file, c.Line, c.Want, v.Decision, c.Command, policy.Plain(v.Reason))
			}
		}
	}
	if p.stats {
		st.print(e.stdout)
	}
	fmt.Fprintf(e.stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return silentExit{code: 1}
	}
	return nil
}

// corpusStats counts verdicts per category and per expected verdict.
type corpusStats struct {
	order []string
	cats  map[string]*[4]int // want's rank-less key: allow, ask, deny counts, then misses
	wants map[guard.Decision]*[3]int
}

func newCorpusStats() *corpusStats {
	return &corpusStats{cats: map[string]*[4]int{}, wants: map[guard.Decision]*[3]int{}}
}

func (s *corpusStats) add(c guard.CorpusCase, got guard.Decision) {
	cat := cmp.Or(c.Category, "(none)")
	key := string(c.Want) + "\t" + cat
	row := s.cats[key]
	if row == nil {
		row = &[4]int{}
		s.cats[key] = row
		s.order = append(s.order, key)
	}
	w := s.wants[c.Want]
	if w == nil {
		w = &[3]int{}
		s.wants[c.Want] = w
	}
	i := map[guard.Decision]int{guard.Deny: 0, guard.Ask: 1, guard.Allow: 2}[got]
	row[i]++
	w[i]++
	if got != c.Want {
		row[3]++
	}
}

func (s *corpusStats) print(w io.Writer) {
	slices.Sort(s.order)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "WANT\tCATEGORY\tDENY\tASK\tALLOW\tMISSED\t")
	for _, key := range s.order {
		r := s.cats[key]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", key, r[0], r[1], r[2], r[3])
	}
	tw.Flush()
	for _, want := range []guard.Decision{guard.Deny, guard.Ask, guard.Allow} {
		r := s.wants[want]
		if r == nil {
			continue
		}
		n := r[0] + r[1] + r[2]
		pct := func(k int) string { return fmt.Sprintf("%d (%.1f%%)", k, 100*float64(k)/float64(n)) }
		fmt.Fprintf(w, "want %s, %d commands: denied %s, asked %s, allowed %s\n", want, n, pct(r[0]), pct(r[1]), pct(r[2]))
	}
}

// readCorpusFile reads a guard corpus file.
func readCorpusFile(file string) ([]guard.CorpusCase, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return guard.ReadCorpus(f, file)
}
