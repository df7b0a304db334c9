package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard"
	"github.com/agenthooks/agenthooks/guard/policy"
	"github.com/agenthooks/agenthooks/guard/secrets/client"
)

// contentGuardParams are the flags of guard read, guard prompt and guard mcp.
type contentGuardParams struct {
	policyFlags
	format     string
	askAs      string
	failClosed bool
	audit      string
}

func newContentGuardCmd(e *env, name, short, long string, run func(*env, contentGuardParams) error) *cobra.Command {
	var p contentGuardParams
	c := &cobra.Command{Use: name, Short: short, Long: long, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return run(e, p) }}
	p.register(c)
	c.Flags().StringVar(&p.format, "format", "", "the payload's and answer's format: "+agents.List("or")+" (default: detected)")
	c.Flags().StringVar(&p.askAs, "ask-as", "deny", askAsHelp())
	c.Flags().BoolVar(&p.failClosed, "fail-closed", false, "deny, saying the guard failed, when the guard itself fails or runs out of budget")
	c.Flags().StringVar(&p.audit, "audit", "", "record into this audit database, or off")
	return c
}

// guardPayload is what the read, prompt and MCP guards read of both agents' payloads.
type guardPayload struct {
	raw            []byte
	view           []byte // the payload as the guards read it (the agent's GuardView's)
	format         string
	HookEventName  string           `json:"hook_event_name"`
	Event          string           `json:"event"` // Crush's
	ToolName       string           `json:"tool_name"`
	RawToolInput   json.RawMessage  `json:"tool_input"`
	ToolInput      map[string]any   `json:"-"` // tool_input when it is an object (Cursor's MCP sends a string)
	FilePath       string           `json:"file_path"`
	Content        *string          `json:"content"`
	RawPrompt      json.RawMessage  `json:"prompt"` // a string, after the agent's GuardView (Kimi Code sends content parts)
	Prompt         string           `json:"-"`
	Attachments    []map[string]any `json:"attachments"`
	URL            string           `json:"url"`
	Command        string           `json:"command"`
	MCPContext     *mcpContext      `json:"mcp_context"`
	MCPSplit       string           `json:"mcp_split"` // a GuardView's: what joins server and tool in mcp__NAME, if not "_"
	Cwd            string           `json:"cwd"`
	WorkspaceRoots []string         `json:"workspace_roots"`
	TurnID         any              `json:"turn_id"`
	Timestamp      any              `json:"timestamp"`
	SessionIDCamel string           `json:"sessionId"`
	ToolNameCamel  string           `json:"toolName"`
	SessionID      string           `json:"session_id"` // in the guards' view, as for guard bash
	ConversationID string           `json:"conversation_id"`
	ActionName     string           `json:"agent_action_name"`
	ToolCall       any              `json:"toolCall"`
	HookName       string           `json:"hookName"`        // Cline's
	HookEventCamel string           `json:"hookEventName"`   // VS Code's
	PermissionMode any              `json:"permission_mode"` // a string tells Droid's
	ClientType     any              `json:"client_type"`     // a string tells Kimi Code's
}

func readGuardPayload(e *env, forced string) (*guardPayload, error) {
	p := &guardPayload{format: forced}
	if p.format == "" {
		p.format = string(agents.Fallback().Name)
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, maxGuardPayload*4+1))
	if err != nil {
		return p, fmt.Errorf("read payload: %w", err)
	}
	if len(data) > maxGuardPayload*4 {
		return p, fmt.Errorf("payload is larger than %d bytes", maxGuardPayload*4)
	}
	p.raw = data
	if err := checkObject(data); err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, p); err != nil {
		return p, dialect.JSONError("payload", data, err)
	}
	if forced == "" {
		mode, _ := p.PermissionMode.(string)
		client, _ := p.ClientType.(string)
		p.format = string(agents.Detect(dialect.Probe{HookEvent: p.HookEventName, Event: p.Event, Tool: p.ToolName, TurnID: p.TurnID,
			Timestamp: p.Timestamp, CamelCase: p.SessionIDCamel != "" || p.ToolNameCamel != "",
			WorkspaceRoots: len(p.WorkspaceRoots) > 0, CommandOnly: p.RawToolInput == nil && p.Command != "",
			ActionName: p.ActionName, ToolCall: p.ToolCall != nil && p.HookEventName == "", HookName: p.HookName, HookEventCamel: p.HookEventCamel,
			PermissionMode: mode, ClientType: client}).Name)
	}
	if err := guardView(p.format, &data, p); err != nil {
		return p, err
	}
	p.view = data
	if len(p.RawPrompt) > 0 && string(p.RawPrompt) != "null" {
		if err := json.Unmarshal(p.RawPrompt, &p.Prompt); err != nil {
			return p, dialect.JSONError("payload field \"prompt\"", p.RawPrompt, err)
		}
	}
	if p.HookEventName == "" && p.Event == "" && p.HookName == "" && p.HookEventCamel == "" && p.ActionName == "" && p.ToolCall == nil &&
		p.ToolName == "" && p.ToolNameCamel == "" && p.FilePath == "" && p.Prompt == "" && p.Command == "" && p.URL == "" &&
		p.MCPContext == nil && p.RawToolInput == nil {
		// {} or an object of fields no agent sends: nothing to judge, which is an error
		return p, fmt.Errorf("payload names no event, tool, file or prompt: the guard has nothing to judge")
	}
	if len(p.RawToolInput) > 0 && p.RawToolInput[0] == '{' {
		if err := json.Unmarshal(p.RawToolInput, &p.ToolInput); err != nil {
			return p, dialect.JSONError("payload field \"tool_input\"", p.RawToolInput, err)
		}
	}
	return p, nil
}

func (p *guardPayload) project(e *env) string {
	if v := cmp.Or(e.getenv("CLAUDE_PROJECT_DIR"), e.getenv("CURSOR_PROJECT_DIR")); v != "" {
		return v
	}
	if len(p.WorkspaceRoots) > 0 {
		return p.WorkspaceRoots[0]
	}
	return p.Cwd
}

// fullPolicy is the policy with every section: the chosen file's sections, and the default's
// for the sections it leaves out.
func (p contentGuardParams) fullPolicy(e *env, project string) (*policy.Policy, error) {
	pol, note, err := p.load(e, project)
	if note != "" {
		fmt.Fprintln(e.stderr, "agenthooks:", note)
	}
	if err != nil {
		return nil, err
	}
	def := policy.DefaultFull()
	out := *pol
	if out.Read == nil {
		out.Read = def.Read
	}
	if out.Prompt == nil {
		out.Prompt = def.Prompt
	}
	if out.MCP == nil {
		out.MCP = def.MCP
	}
	return &out, nil
}

// finishGuard answers, records and maps errors to the fail mode, for the three guards.
func (p contentGuardParams) finish(e *env, origin, event string, pl *guardPayload, decision guard.Decision, reason string, err error, start time.Time, answer func(guard.Decision, string) error) error {
	verdict := string(decision)
	if pe, broken := err.(*policyError); broken {
		pe.report(e)
		decision, reason, verdict = guard.Deny, pe.reason(), "failed-closed" // a broken policy always blocks
	} else if err != nil {
		if !p.failClosed {
			recordGuard(e, p.audit, origin, pl, event, "error", err.Error(), "error", start)
			return err // exit 1: never a block
		}
		decision, reason, verdict = guard.Deny, "agenthooks "+origin+" failed, and it is fail-closed, so this is denied: "+err.Error(), "failed-closed"
	}
	recordGuard(e, p.audit, origin, pl, event, string(decision), reason, verdict, start)
	return answer(decision, reason)
}

func recordGuard(e *env, flag, origin string, pl *guardPayload, event, decision, reason, verdict string, start time.Time) {
	if e.getenv("AGENTHOOKS_RUN_DEPTH") != "" || pl == nil {
		return
	}
	if event == "" {
		event = pl.HookEventName
	}
	record(e, auditPath(e, flag), &audit.Record{Origin: origin, Agent: pl.format, Event: event, Workspace: pl.project(e),
		Session: cmp.Or(pl.SessionID, pl.ConversationID, pl.SessionIDCamel), Decision: decision, Reason: reason, Payload: string(pl.raw),
		Runs: []audit.Run{{Hook: "agenthooks " + origin, Event: event, Command: "agenthooks " + origin, Verdict: verdict,
			Duration: time.Since(start), Error: map[bool]string{true: reason}[verdict == "error" || verdict == "failed-closed"]}}})
}

func newGuardReadCmd(e *env) *cobra.Command {
	return newContentGuardCmd(e, "read", "Deny reading files that are secrets, by name or by content (gitleaks' rules)",
		`Read a file-read hook payload on stdin (Cursor's beforeReadFile or beforeTabFileRead, Claude Code's
PreToolUse on Read, Grep or Glob) and deny files that are secrets by name or path (.env but not
.env.example, private keys, *.pem, *.p12, cloud credentials, kube configs), files such as .npmrc or
.git/config when they hold a token, and any file whose content gitleaks' rules flag, within the
policy's size and time budget. The message names the rule and the line, never the secret.`, runGuardRead)
}

func runGuardRead(e *env, p contentGuardParams) error {
	return p.run(e, "guard read", dialect.BeforeRead, p.judgeRead, func(pl *guardPayload, d guard.Decision, r string) error {
		return answerGuard(e, pl.format, dialect.BeforeRead, dialect.AskAs(p.askAs), d, r)
	})
}

// run reads the payload, judges it, records the decision and answers in the payload's contract.
func (p contentGuardParams) run(e *env, origin string, kind dialect.Kind, judge func(*env, *guardPayload) (guard.Decision, string, error),
	answer func(*guardPayload, guard.Decision, string) error) error {
	if err := checkFormat(p.format, p.askAs); err != nil {
		return err
	}
	example := cmp.Or(map[string]string{"guard read": `{"tool_name":"Read","tool_input":{"file_path":".env"}}`,
		"guard prompt": `{"hook_event_name":"UserPromptSubmit","prompt":"hello"}`}[origin], `{"tool_name":"mcp__github__create_issue","tool_input":{}}`)
	if err := refuseTerminal(e, origin, example); err != nil {
		return err
	}
	start := time.Now()
	pl, err := readGuardPayload(e, p.format)
	event, decision, reason := "", guard.Decision(guard.Allow), ""
	if err == nil {
		// The payload's event, else the agent's event for what this guard judges.
		event = cmp.Or(pl.HookEventName, translate.EventFor(dialect.Name(pl.format), kind))
		decision, reason, err = judge(e, pl)
	}
	return p.finish(e, origin, event, pl, decision, reason, err, start, func(d guard.Decision, r string) error { return answer(pl, d, r) })
}

func (p contentGuardParams) judgeRead(e *env, pl *guardPayload) (guard.Decision, string, error) {
	file := pl.FilePath
	switch {
	case pl.ToolInput == nil && pl.FilePath == "" && (isReadTool(pl.ToolName) || pl.HookEventName == "beforeReadFile" || pl.HookEventName == "beforeTabFileRead"):
		// a read whose input is missing or null (tool_input, or Cursor's file_path): nothing
		// the guard can judge, which is an error, never an allow
		return "", "", fmt.Errorf("payload: the %s call names no file (tool_input or file_path is missing or null)", cmp.Or(pl.ToolName, pl.HookEventName))
	case pl.ToolInput == nil && len(pl.RawToolInput) > 0 && pl.RawToolInput[0] != 'n' && isReadTool(pl.ToolName):
		return "", "", fmt.Errorf("payload: field \"tool_input\" must be an object")
	}
	if pl.ToolInput != nil {
		if pl.ToolName != "" && !isReadTool(pl.ToolName) {
			return guard.Allow, "", nil // another tool
		}
		var paths [3]string
		for i, k := range []string{"file_path", "absolute_path", "path"} { // absolute_path: Gemini's read_file, older versions
			v, set := pl.ToolInput[k]
			if !set || v == nil {
				continue
			}
			str, ok := v.(string)
			if !ok {
				// a path the guard cannot read is an error of the call, never an allow
				return "", "", fmt.Errorf("payload: field %q must be a string", "tool_input."+k)
			}
			paths[i] = str
		}
		file = cmp.Or(paths[0], paths[1], paths[2])
		if file == "" && pl.ToolInput["file_paths"] == nil && (pl.ToolName == "Read" || pl.ToolName == "read_file") {
			return "", "", fmt.Errorf("payload: the %s call names no file (tool_input.file_path is missing or null)", pl.ToolName)
		}
		if list, set := pl.ToolInput["file_paths"]; set && list != nil {
			// a read of several files (Cline's read_files, Kiro's fs_read operations): each is
			// judged, and any secret denies the read
			items, ok := list.([]any)
			if !ok {
				return "", "", fmt.Errorf("payload: field %q must be a list of paths", "tool_input.file_paths")
			}
			for i, it := range items {
				f, ok := it.(string)
				if !ok {
					return "", "", fmt.Errorf("payload: field tool_input.file_paths[%d] must be a string", i)
				}
				if f == "" || f == file {
					continue
				}
				sub := *pl
				sub.Content = nil // the payload's content, if any, is the first file's
				d, r, err := p.judgeFile(e, &sub, f)
				if err != nil || d != guard.Allow {
					return d, r, err
				}
			}
		}
	}
	return p.judgeFile(e, pl, file)
}

// judgeFile is the read guard's decision on one file.
func (p contentGuardParams) judgeFile(e *env, pl *guardPayload, file string) (guard.Decision, string, error) {
	if file == "" {
		return guard.Allow, "", nil
	}
	if !filepath.IsAbs(file) && pl.Cwd != "" {
		file = filepath.Join(pl.Cwd, file)
	}
	pol, err := p.fullPolicy(e, pl.project(e))
	if err != nil {
		return "", "", err
	}
	rd := pol.Read
	verdict, glob := rd.FileVerdict(file)
	if verdict == "deny" {
		return guard.Deny, fmt.Sprintf("%s is a secret by its name (read.deny %q)", file, glob), nil
	}
	if verdict == "" && !rd.ScanContent {
		return guard.Allow, "", nil
	}
	var content string
	switch st, statErr := os.Stat(file); {
	case pl.Content != nil:
		content = *pl.Content
	case statErr == nil && st.IsDir():
		return guard.Allow, "", nil // a folder to search: its name was checked
	case statErr == nil:
		content, err = readHead(file, rd.MaxBytes)
		if err != nil {
			return "", "", err
		}
	case errors.Is(statErr, os.ErrNotExist):
		return guard.Allow, "", nil // nothing to leak
	default:
		return "", "", statErr
	}
	res, err := client.Scan(e.getenv, content, rd.MaxBytes, rd.Budget)
	if err != nil {
		return "", "", err
	}
	if len(res.Findings) > 0 {
		return guard.Deny, fmt.Sprintf("%s holds a secret: %s", file, client.Describe(res.Findings)), nil
	}
	if res.Truncated {
		fmt.Fprintf(e.stderr, "agenthooks: guard read: only the first %d bytes of %s were scanned\n", rd.MaxBytes, file)
	}
	return guard.Allow, "", nil
}

func readHead(file string, max int) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)))
	return string(b), err
}

func newGuardPromptCmd(e *env) *cobra.Command {
	return newContentGuardCmd(e, "prompt", "Block prompts, and their attachments, that carry secrets",
		`Read a prompt hook payload on stdin (Cursor's beforeSubmitPrompt, Claude Code's UserPromptSubmit)
and block the prompt when it, or a file attached to it, carries a secret (gitleaks' rules; the
read guard's rules for attached files). Cursor: {"continue": false, "user_message": ...}; Claude
Code: {"decision": "block", "reason": ...}. The message names the rule and the line, never the secret.`, runGuardPrompt)
}

func runGuardPrompt(e *env, p contentGuardParams) error {
	return p.run(e, "guard prompt", dialect.PromptSubmit, p.judgePrompt, func(pl *guardPayload, d guard.Decision, r string) error {
		if d != guard.Allow && p.format == "" && pl.format == string(agents.Fallback().Name) {
			// Claude Code's shape without --format is not certain to be Claude Code's: Kiro's
			// hooks file sends it to the letter, and a payload that did not decode shows no
			// agent. A block on exit 2 with the reason on stderr is one Claude Code and Kiro
			// both honour (VS Code, Codex and Gemini CLI are answered so by their own
			// descriptors); Claude Code's {"decision":"block"} on exit 0 Kiro ignores.
			reply := dialect.GuardByExit2(dialect.PromptSubmit, decide.Deny, r)
			e.stderr.Write(reply.Stderr)
			return silentExit{code: reply.ExitCode}
		}
		return answerGuard(e, pl.format, dialect.PromptSubmit, dialect.AskAsDeny, d, r)
	})
}

func (p contentGuardParams) judgePrompt(e *env, pl *guardPayload) (guard.Decision, string, error) {
	pol, err := p.fullPolicy(e, pl.project(e))
	if err != nil {
		return "", "", err
	}
	pr := pol.Prompt
	if !pr.Scan {
		return guard.Allow, "", nil
	}
	if pl.Prompt == "" && pl.view != nil {
		// an empty prompt is one; a missing or null one is a payload the guard cannot judge
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(pl.view, &keys); err != nil {
			return "", "", dialect.JSONError("payload", pl.view, err)
		}
		if v, ok := keys["prompt"]; !ok || string(v) == "null" {
			return "", "", fmt.Errorf("payload: field \"prompt\" is missing or null: the prompt guard has nothing to judge")
		}
	}
	res, err := client.Scan(e.getenv, pl.Prompt, pr.MaxBytes, pr.Budget)
	if err != nil {
		return "", "", err
	}
	if len(res.Findings) > 0 {
		return guard.Deny, "the prompt carries a secret: " + client.Describe(res.Findings), nil
	}
	if !pr.Attachments {
		return guard.Allow, "", nil
	}
	for _, a := range pl.Attachments {
		file, _ := a["file_path"].(string)
		if file == "" {
			file, _ = a["filePath"].(string)
		}
		if file == "" {
			continue
		}
		sub := &guardPayload{raw: pl.raw, format: pl.format, FilePath: file, Cwd: pl.Cwd, WorkspaceRoots: pl.WorkspaceRoots}
		d, r, err := p.judgeRead(e, sub)
		if err != nil {
			return "", "", err
		}
		if d != guard.Allow {
			return d, "an attachment: " + r, nil
		}
	}
	return guard.Allow, "", nil
}

func newGuardMCPCmd(e *env) *cobra.Command {
	return newContentGuardCmd(e, "mcp", "Allow, ask or deny MCP tool calls by server and tool",
		`Read an MCP hook payload on stdin (Cursor's beforeMCPExecution or preToolUse on MCP:<tool>, Claude
Code's PreToolUse on mcp__<server>__<tool>) and decide by the policy's mcp rules: the first rule
whose server (name, url or command) and tool globs match; servers no rule names get the default
(ask).`, runGuardMCP)
}

func runGuardMCP(e *env, p contentGuardParams) error {
	return p.run(e, "guard mcp", dialect.BeforeMCP, p.judgeMCP, func(pl *guardPayload, d guard.Decision, r string) error {
		return answerGuard(e, pl.format, dialect.BeforeMCP, dialect.AskAs(p.askAs), d, r)
	})
}

// hasMCPEvent reports whether the agent of format fires an event of its own for MCP calls
// (Cursor's beforeMCPExecution), whose payload names the tool with no tool_input.
func hasMCPEvent(format string) bool {
	a, ok := agents.Lookup(format)
	if !ok {
		return false
	}
	d := a.Dialect(dialect.AskAsDeny)
	for _, name := range d.Names() {
		if s, _ := d.Lookup(name); s.Kind == dialect.BeforeMCP {
			return true
		}
	}
	return false
}

// mcpContext is what Gemini CLI 0.61 says of an MCP call on BeforeTool, whose tool_name is
// mcp_<server>_<tool> (both may hold underscores, so the name alone does not split).
type mcpContext struct {
	ServerName string `json:"server_name"`
	ToolName   string `json:"tool_name"`
	Command    string `json:"command"`
	URL        string `json:"url"`
}

func (p contentGuardParams) judgeMCP(e *env, pl *guardPayload) (guard.Decision, string, error) {
	servers, tool := []string{pl.URL, pl.Command}, pl.ToolName
	switch {
	case pl.MCPContext != nil && pl.MCPContext.ToolName != "":
		c := pl.MCPContext
		servers, tool = []string{c.ServerName, c.URL, c.Command}, c.ToolName
	case strings.HasPrefix(pl.ToolName, "mcp__") && !strings.Contains(strings.TrimPrefix(pl.ToolName, "mcp__"), "__"):
		return p.judgeJoinedMCP(e, pl, strings.TrimPrefix(pl.ToolName, "mcp__"))
	case strings.HasPrefix(pl.ToolName, "mcp__"):
		parts := strings.SplitN(strings.TrimPrefix(pl.ToolName, "mcp__"), "__", 2)
		servers, tool = []string{parts[0]}, parts[len(parts)-1]
	case strings.HasPrefix(pl.ToolName, "MCP:"):
		servers, tool = []string{""}, strings.TrimPrefix(pl.ToolName, "MCP:")
	case pl.HookEventName == "beforeMCPExecution" || pl.URL != "" || pl.ToolInput == nil && hasMCPEvent(pl.format):
	default:
		return guard.Allow, "", nil // not an MCP call
	}
	if tool == "" {
		return guard.Allow, "", nil
	}
	pol, err := p.fullPolicy(e, pl.project(e))
	if err != nil {
		return "", "", err
	}
	d, why := pol.MCP.Decide(servers, tool)
	if d == guard.Allow {
		return d, "", nil
	}
	return d, fmt.Sprintf("MCP tool %s of %s: %s", tool, cmp.Or(append(servers, "an unnamed server")...), why), nil
}

// judgeJoinedMCP judges an MCP call whose name joins server and tool with "_" (mcp__NAME, as an
// agent's GuardView writes OpenCode's SERVER_TOOL and VS Code's mcp_SERVER_TOOL) or with the
// payload's mcp_split (Copilot CLI's SERVER-TOOL, "-"): each way of
// splitting the name is judged, and the strictest answer stands. A split no rule names gets the
// policy's default, so an ambiguous name is never allowed unless every reading of it is.
func (p contentGuardParams) judgeJoinedMCP(e *env, pl *guardPayload, joined string) (guard.Decision, string, error) {
	if joined == "" {
		return "", "", fmt.Errorf("payload: the MCP tool %q names no server or tool", pl.ToolName)
	}
	pol, err := p.fullPolicy(e, pl.project(e))
	if err != nil {
		return "", "", err
	}
	sep := cmp.Or(pl.MCPSplit, "_")
	if len(sep) != 1 {
		return "", "", fmt.Errorf("payload: field \"mcp_split\" must be one character, not %q", pl.MCPSplit)
	}
	rank := map[guard.Decision]int{guard.Allow: 0, guard.Ask: 1, guard.Deny: 2}
	best, why, server, tool := guard.Decision(""), "", "", joined
	splits := 0
	for i := 0; i < len(joined); i++ {
		if joined[i] != sep[0] || i == 0 || i == len(joined)-1 {
			continue
		}
		splits++
		s, t := joined[:i], joined[i+1:]
		if d, w := pol.MCP.Decide([]string{s}, t); best == "" || rank[d] > rank[best] {
			best, why, server, tool = d, w, s, t
		}
	}
	if splits == 0 { // nothing to split at: the server is not known
		best, why = pol.MCP.Decide([]string{""}, joined)
		server = ""
	}
	if best == guard.Allow {
		return best, "", nil
	}
	return best, fmt.Sprintf("MCP tool %s of %s (the name %s splits into server and tool in %d ways; the strictest reading stands): %s",
		tool, cmp.Or(server, "an unnamed server"), joined, max(splits, 1), why), nil
}

// isReadTool reports whether tool is one the read guard judges by its input.
func isReadTool(tool string) bool {
	switch tool {
	case "Read", "Grep", "Glob", "read_file", "grep_search", "glob":
		return true
	}
	return false
}
