package engine

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
)

// Some agents run another agent's hooks files as well as their own (Agent.Reads: Cursor runs
// Claude Code's settings files when its third-party setting is on). Where agenthooks is installed
// for both, one call of the reading agent reaches agenthooks twice: through its own entry, and
// through the entry in the other agent's file. The entry in the other's file names the agent it
// was written for (guard bash --agent claude, run --agent claude), and the payload tells who
// really called; when the caller is an agent that reads that file and its own files register the
// same agenthooks entry for this very call, the call through the other's file is a repeat, and
// steps aside: the own entry decides. A deny is never dropped: the repeat steps aside only for an
// own entry that is certain to run, as the caller runs it, with the same answer:
//   - the caller has no setting that switches its own files off unseen (Agent.OwnFilesSwitch:
//     VS Code's chat.hookFilesLocations), so they run whenever the other agent's do;
//   - it is in one of the caller's own user, team or enterprise files (a project file runs only
//     when the agent trusts the workspace, which agenthooks cannot see);
//   - it is the same guard with the same policy (an absolute path or none), or a runner of the
//     caller's that reads the other agent's files, and it is at least as fail-closed;
//   - its matcher (and Claude Code's "if") accepts this call, on the event the payload names or
//     on the sibling event the caller fires for the same call (Cursor's beforeShellExecution for
//     a preToolUse of its shell tool).

// Repeat is an agenthooks entry in agent In's hooks file, called for one call, that asks whether
// the calling agent's own files run the same entry for that call.
type Repeat struct {
	// In is the agent the entry was written for: the file's agent, from its --agent flag.
	In dialect.Name
	// Payload is the call's payload, as it came.
	Payload []byte
	// Guard is the built-in guard the entry runs ("bash") with its --policy value; "" for the
	// runner (agenthooks run).
	Guard, Policy string
	// FailClosed: the entry is fail-closed, so the own entry must be too.
	FailClosed bool
}

// Caller is the agent whose payload r carries, when it is not In and it runs In's files as well
// as its own (Agent.Reads); nil otherwise.
func (r Repeat) Caller() *dialect.Agent {
	if r.In == "" {
		return nil
	}
	var p struct {
		HookEventName  string   `json:"hook_event_name"`
		Event          string   `json:"event"`
		ToolName       string   `json:"tool_name"`
		ToolInput      any      `json:"tool_input"`
		Command        string   `json:"command"`
		WorkspaceRoots []string `json:"workspace_roots"`
		TurnID         any      `json:"turn_id"`
		Timestamp      any      `json:"timestamp"`
		SessionIDCamel string   `json:"sessionId"`
		ToolNameCamel  string   `json:"toolName"`
		ActionName     string   `json:"agent_action_name"`
		ToolCall       any      `json:"toolCall"`
		HookEventCamel string   `json:"hookEventName"`
		HookName       string   `json:"hookName"`
		PermissionMode any      `json:"permission_mode"`
		ClientType     any      `json:"client_type"`
	}
	if json.Unmarshal(r.Payload, &p) != nil {
		return nil
	}
	mode, _ := p.PermissionMode.(string)
	client, _ := p.ClientType.(string)
	a := agents.Detect(dialect.Probe{HookEvent: p.HookEventName, Event: p.Event, Tool: p.ToolName, TurnID: p.TurnID,
		Timestamp: p.Timestamp, CamelCase: p.SessionIDCamel != "" || p.ToolNameCamel != "",
		WorkspaceRoots: len(p.WorkspaceRoots) > 0, CommandOnly: p.ToolInput == nil && p.Command != "",
		ActionName: p.ActionName, ToolCall: p.ToolCall != nil && p.HookEventName == "",
		HookEventCamel: p.HookEventCamel, HookName: p.HookName, PermissionMode: mode, ClientType: client})
	if a.Name == r.In {
		return nil
	}
	for _, s := range a.Reads {
		if s.Agent == r.In {
			return a
		}
	}
	return nil
}

// OwnEntry says where the calling agent's own files register, for the call, the entry r is a
// repeat of ("file:line:col"); "" when r is not a repeat, or it is not certain: then r runs.
func (e *Engine) OwnEntry(r Repeat) string {
	caller := r.Caller()
	if caller == nil || caller.OwnFilesSwitch != "" || r.Guard != "" && r.Policy != "" && !filepath.IsAbs(r.Policy) {
		return "" // VS Code can switch its own files off unseen: its own entry may not run
	}
	var p struct {
		HookEventName string `json:"hook_event_name"`
	}
	if json.Unmarshal(r.Payload, &p) != nil || p.HookEventName == "" {
		return ""
	}
	agentSpec, ok := dialectFor(caller.Name).Lookup(p.HookEventName)
	if !ok {
		return "" // not an event of the caller's by its own name: in doubt
	}
	spec, raw, _, err := hookEvent(agentSpec, r.Payload)
	if err != nil {
		return ""
	}
	body, err := e.preparePayload(spec, raw)
	if err != nil {
		return ""
	}
	kind := spec.Kind
	if k := agentFor(spec.Dialect).ToolKind(spec.Name, body.str("tool_name")); k != "" {
		kind = k
	}
	own := config.Load(config.CandidatesOf(e.opts.Env, caller.Name), config.TrustAll)
	theirs := config.CandidatesOf(e.opts.Env, r.In)
	same := func(h *config.Hook) bool {
		if h.Source.Family != caller.Name || h.Source.Layer != config.User && h.Source.Layer != config.Team && h.Source.Layer != config.Enterprise {
			return false
		}
		if isCandidate(theirs, h.Source.File) || atPlaceOf(r.In, h.Source.File) {
			// A file of both agents' (VS Code's hooks folder is Copilot CLI's): it may be the
			// entry itself. By its place too, not only as r.In's files are found now: COPILOT_HOME
			// moves Copilot CLI's folder, not VS Code's ~/.copilot/hooks.
			return false
		}
		if r.Guard != "" {
			return e.guardKey(h) == guardKeyOf(r.Guard, r.Policy) && (!r.FailClosed || h.FailClosed || hasArg(h.Command, "--fail-closed"))
		}
		return e.readsAs(h, caller.Name, r.In) && (!r.FailClosed || h.FailClosed || hasArg(h.Command, "--fail-closed"))
	}
	for _, h := range own.HooksFor(spec.Dialect, spec.Name, kind) {
		if same(h) {
			if _, _, _, why, err := e.prepare(spec, h, body.bytes()); err == nil && why == "" {
				return h.Pos.String()
			}
		}
	}
	if r.Guard == "" {
		return "" // the runner runs on the event itself
	}
	if sib, sibSpec, sibBody := e.siblingEvent(spec, body.bytes()); sib != "" {
		for _, h := range own.HooksFor(spec.Dialect, sib, sibSpec.Kind) {
			if same(h) && skipReason(sibSpec, h, sibBody) == "" {
				return h.Pos.String()
			}
		}
	}
	return ""
}

// atPlaceOf reports whether file is at one of agent n's places for hooks files, wherever its
// folders are moved to (config.LocationOf).
func atPlaceOf(n dialect.Name, file string) bool {
	a := agents.Get(n)
	if a == nil {
		return false
	}
	_, ok := config.LocationOf(a, file)
	return ok
}

// isCandidate reports whether file is one of the candidates (a path or a glob of paths).
func isCandidate(cands []config.Candidate, file string) bool {
	for _, c := range cands {
		if ok, _ := filepath.Match(c.Path, file); ok || c.Path == file {
			return true
		}
	}
	return false
}

// guardKeyOf is guardKey's value for a guard and a --policy value.
func guardKeyOf(guard, policy string) string {
	if policy == "" {
		return guard
	}
	return guard + "\x00" + policy
}

// readsAs reports whether h is one plain call of this agenthooks's runner for agent caller on
// the event it is registered for, reading agent in's files (no --from, or --from naming it),
// answering in the agent's own form.
func (e *Engine) readsAs(h *config.Hook, caller, in dialect.Name) bool {
	args, ok := e.selfCall(h)
	if !ok || len(args) < 2 || args[0] != "run" {
		return false
	}
	agent, event, from, format := string(agents.Default().Name), "", []string(nil), "agent"
	for i := 1; i < len(args); i++ {
		a := args[i]
		name, val, eq := strings.Cut(a, "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			if event != "" {
				return false
			}
			event = a
			continue
		case a == "--fail-closed" || a == "--sequential" || a == "-v" || a == "--verbose" || a == "--trust":
			continue
		case !eq && i+1 < len(args):
			i++
			val = args[i]
		case !eq:
			return false
		}
		switch name {
		case "--agent":
			agent = val
		case "--from":
			from = append(from, strings.Split(val, ",")...)
		case "--format":
			format = val
		case "--ask-as", "--merge", "--audit", "--workspace":
		default:
			return false // --config, --settings and the rest change what it reads
		}
	}
	return agent == string(caller) && event == h.Event && (format == "agent" || format == agent) &&
		(from == nil || slices.Contains(from, string(in)))
}

// selfCall returns the arguments after the program when h is one plain, static call of this
// agenthooks (by the name agenthooks or this executable's path), or of agenthooks-guard beside
// it, whose arguments are agenthooks' after "guard" (dialect.OwnArgs). ./agenthooks in a
// repository, or another build, is not known to be this one.
func (e *Engine) selfCall(h *config.Hook) ([]string, bool) {
	if h.Type != "command" && h.Type != "" || h.Async || len(h.Args) > 0 || h.Refused != "" || h.Unsupported != "" {
		return nil, false
	}
	s := shell.Analyze(h.Command, shell.Options{})
	if len(s.Invocations) != 1 {
		return nil, false
	}
	for _, f := range s.Findings {
		if f.Kind == shell.FindingParse || f.Kind == shell.FindingTooDeep {
			return nil, false
		}
	}
	inv := s.Invocations[0]
	if len(inv.Wrappers) > 0 || len(inv.Redirects) > 0 || len(inv.Args) < 2 {
		return nil, false
	}
	var out []string
	for _, w := range inv.Args {
		if !w.Static {
			return nil, false
		}
		out = append(out, w.Value)
	}
	args, own := dialect.OwnArgs(inv.Name, out[1:])
	if prog := out[0]; !own || prog != inv.Name && !e.isSelf(prog, dialect.OwnName(inv.Name)) {
		return nil, false
	}
	return args, true
}

// hasArg reports whether command's words include arg.
func hasArg(command, arg string) bool {
	for _, f := range strings.Fields(command) {
		if f == arg {
			return true
		}
	}
	return false
}
