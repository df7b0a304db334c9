package coverage

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// Window is how far apart a call's time in its transcript and a decision's may be for the two
// to be matched by command (the agents write the call before the hook runs; a slow hook or a
// clock step moves them apart).
const Window = 2 * time.Minute

// Decision is what coverage needs of an audit record: who decided on which call, and when.
type Decision struct {
	Agent     string
	Session   string
	ToolUseID string
	// CallID is the model's id of the call where the payload carries it beside an id of the
	// agent's own (Qwen Code's tool_call_id, which its transcript holds).
	CallID string
	// Keys are what the call's input holds (its command, file path or patch), redacted as
	// the audit trail stores them.
	Keys []string
	// Raw is the stored payload, for a payload cut short (it is not JSON): a call matches
	// when its redacted command is in it.
	Raw  string
	Time time.Time
}

// preToolEvent reports whether a decision on event comes before a tool call runs: an event of
// a registered agent's whose kind is before a tool (any tool, the shell, MCP, a file read).
func preToolEvent(event string) bool {
	preTool.once.Do(func() {
		preTool.events = map[string]bool{}
		for _, a := range agents.All() {
			d := a.Dialect(dialect.AskAsDeny)
			for _, name := range d.Names() {
				if s, ok := d.Lookup(name); ok && s.Kind.IsPreTool() {
					preTool.events[name] = true
				}
			}
		}
	})
	return preTool.events[event]
}

// preTool is the set of events before a tool call, built on first use (not when the program
// starts: agenthooks links this package).
var preTool struct {
	once   sync.Once
	events map[string]bool
}

// DecisionOf reads a decision from an audit record; ok is false for a record made on any
// event but the one before a tool call.
func DecisionOf(r *audit.Record) (Decision, bool) {
	if !preToolEvent(r.Event) {
		return Decision{}, false
	}
	d := Decision{Agent: r.Agent, Session: r.Session, Time: r.Time}
	var p struct {
		SessionID      string          `json:"session_id"`
		ConversationID string          `json:"conversation_id"`
		ToolUseID      string          `json:"tool_use_id"`
		ToolCallID     string          `json:"tool_call_id"`
		ToolInput      json.RawMessage `json:"tool_input"`
		// Copilot CLI's camelCase payloads.
		SessionIDCamel string          `json:"sessionId"`
		ToolArgs       json.RawMessage `json:"toolArgs"`
		Command        string          `json:"command"`
	}
	if checkDepth([]byte(r.Payload)) != nil || json.Unmarshal([]byte(r.Payload), &p) != nil {
		d.Raw = r.Payload
		return d, true
	}
	d.Session = cmp.Or(p.SessionID, p.ConversationID, p.SessionIDCamel, d.Session)
	d.ToolUseID, d.CallID = p.ToolUseID, p.ToolCallID
	if len(p.ToolInput) == 0 {
		p.ToolInput = p.ToolArgs
	}
	if p.Command != "" {
		d.Keys = append(d.Keys, p.Command)
	}
	// Only the fields that name what a call does are kept (not a Write's content): a report
	// holds every decision of its window in memory.
	var in struct {
		Command      json.RawMessage `json:"command"`
		Cmd          string          `json:"cmd"`
		FilePath     string          `json:"file_path"`
		NotebookPath string          `json:"notebook_path"`
		Path         string          `json:"path"`
		Patch        string          `json:"patch"`
		Input        string          `json:"input"`
	}
	if json.Unmarshal(p.ToolInput, &in) == nil {
		var command string
		if json.Unmarshal(in.Command, &command) != nil {
			var argv []string
			if json.Unmarshal(in.Command, &argv) == nil {
				command = argvCommand(argv)
			}
		}
		for _, k := range []string{command, in.Cmd, in.FilePath, in.NotebookPath, in.Path, in.Patch, in.Input} {
			if k != "" {
				d.Keys = append(d.Keys, clipCommand(k))
			}
		}
	}
	if complete := agentDecisions()[r.Agent]; complete != nil {
		complete([]byte(r.Payload), &d)
	}
	return d, true
}

// agentDecisions are the agents' Decision functions by name, gathered on first use (not when
// the program starts: agenthooks links this package).
func agentDecisions() map[string]func([]byte, *Decision) {
	decisionFuncs.once.Do(func() {
		decisionFuncs.m = map[string]func([]byte, *Decision){}
		for _, a := range Agents() {
			if a.Decision != nil {
				decisionFuncs.m[a.Name] = a.Decision
			}
		}
	})
	return decisionFuncs.m
}

var decisionFuncs struct {
	once sync.Once
	m    map[string]func([]byte, *Decision)
}

// Match says how a call was matched with a decision, or tried to be.
type Match string

// How calls are matched.
const (
	ByID      Match = "session+tool_use_id"
	ByCommand Match = "session+command+time"
)

// Unguarded is a call with no decision, and how a decision was looked for.
type Unguarded struct {
	Call
	Match Match `json:"match"`
}

// SessionCount is one session's calls.
type SessionCount struct {
	Agent     string    `json:"agent"`
	Version   string    `json:"agent_version,omitempty"`
	Session   string    `json:"session"`
	Calls     int       `json:"calls"`
	Unguarded int       `json:"unguarded"`
	Subagent  int       `json:"unguarded_in_subagents"`
	Last      time.Time `json:"last_call"`
}

// AgentCount is one agent's calls (one version of it).
type AgentCount struct {
	Agent       string    `json:"agent"`
	Version     string    `json:"agent_version"`
	Transcripts int       `json:"transcripts"`
	Sessions    int       `json:"sessions"`
	Calls       int       `json:"calls"`
	Guarded     int       `json:"guarded"`
	Unguarded   int       `json:"unguarded"`
	Match       Match     `json:"match"`
	Last        time.Time `json:"last_call,omitzero"`
}

// Report is what coverage found.
type Report struct {
	Since     time.Time      `json:"since,omitzero"`
	Calls     int            `json:"calls"`
	Unguarded int            `json:"unguarded"`
	Agents    []AgentCount   `json:"agents"`
	Sessions  []SessionCount `json:"sessions"`
	// Examples are unguarded calls, at most MaxExamples a session, newest first.
	Examples []Unguarded `json:"examples"`
	Problems []Problem   `json:"problems,omitempty"`
}

// MaxExamples bounds the unguarded calls a report lists for one session.
const MaxExamples = 5

// Options say what to read.
type Options struct {
	Home   string
	Getenv func(string) string
	Since  time.Time // calls before it are left out; zero: all
	Agents []Agent   // default Agents()
}

// Read reads the transcripts of every agent under o.Home and the calls in them since o.Since.
func Read(o Options) (calls []Call, transcripts map[string]int, probs []Problem) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Agents == nil {
		o.Agents = Agents()
	}
	transcripts = map[string]int{}
	for _, a := range o.Agents {
		for _, file := range a.Files(o.Home, o.Getenv) {
			if len(calls) >= MaxCalls {
				probs = append(probs, Problem{File: file, Msg: fmt.Sprintf("more than %d calls in the newer transcripts: not read", MaxCalls)})
				continue
			}
			if a.ParseFile != nil {
				cs, ps := a.ParseFile(file)
				transcripts[a.Name]++
				probs = append(probs, ps...)
				for _, c := range cs {
					if o.Since.IsZero() || !c.Time.Before(o.Since) {
						calls = append(calls, c)
					}
				}
				continue
			}
			if !o.Since.IsZero() {
				if fi, err := os.Stat(file); err == nil && fi.ModTime().Before(o.Since) {
					continue // not written since
				}
			}
			f, err := openTranscript(file)
			if err != nil {
				probs = append(probs, Problem{File: file, Msg: err.Error()})
				continue
			}
			cs, ps := a.Parse(file, f)
			f.Close()
			transcripts[a.Name]++
			probs = append(probs, ps...)
			for _, c := range cs {
				if o.Since.IsZero() || !c.Time.Before(o.Since) {
					calls = append(calls, c)
				}
			}
		}
	}
	return calls, transcripts, probs
}

// Check matches calls with decisions: by session and tool-use id for an agent whose hooks get
// the id (a call with one), else by session, command and a time within Window, each decision
// used once. A call with an id falls back to its command only for decisions that carry no id
// (an older agent's payloads, a payload cut short).
func Check(calls []Call, decisions []Decision, agents []Agent) *Report {
	if agents == nil {
		agents = Agents()
	}
	hookIDs := map[string]bool{}
	for _, a := range agents {
		hookIDs[a.Name] = a.HookIDs
	}
	type sk struct{ agent, session string }
	byID := map[string]bool{}
	byKey := map[string][]int{} // agent, session, key → decision indexes
	var raw []int
	for i, d := range decisions {
		for _, id := range []string{d.ToolUseID, d.CallID} {
			if id != "" {
				byID[d.Agent+"\x00"+d.Session+"\x00"+id] = true
			}
		}
		for _, k := range d.Keys {
			key := d.Agent + "\x00" + d.Session + "\x00" + k
			byKey[key] = append(byKey[key], i)
		}
		if d.Raw != "" {
			raw = append(raw, i)
		}
	}
	used := make([]bool, len(decisions))
	sorted := slices.Clone(calls)
	slices.SortStableFunc(sorted, func(a, b Call) int { return a.Time.Compare(b.Time) })
	rep := &Report{Agents: []AgentCount{}, Sessions: []SessionCount{}, Examples: []Unguarded{}}
	sessions := map[sk]*SessionCount{}
	type ak struct{ agent, version string }
	agentsSeen := map[ak]*AgentCount{}
	agentSessions := map[ak]map[string]bool{}
	perSession := map[sk]int{}
	for _, c := range sorted {
		match := ByCommand
		guarded := false
		if hookIDs[c.Agent] && c.ToolUseID != "" {
			match = ByID
			guarded = byID[c.Agent+"\x00"+c.Session+"\x00"+c.ToolUseID]
		}
		if !guarded {
			key := audit.Redact(c.Command)
			for _, i := range byKey[c.Agent+"\x00"+c.Session+"\x00"+key] {
				// A decision that names another call's id is that call's.
				if !used[i] && within(decisions[i].Time, c.Time) && (match != ByID || decisions[i].ToolUseID == "" && decisions[i].CallID == "") {
					used[i], guarded = true, true
					break
				}
			}
			if !guarded && key != "" {
				quoted, _ := json.Marshal(key)
				needle := strings.Trim(string(quoted), `"`)
				for _, i := range raw {
					d := decisions[i]
					if !used[i] && d.Agent == c.Agent && (d.Session == "" || d.Session == c.Session) && within(d.Time, c.Time) &&
						strings.Contains(d.Raw, needle) {
						used[i], guarded = true, true
						break
					}
				}
			}
		}
		k := sk{c.Agent, c.Session}
		s := sessions[k]
		if s == nil {
			s = &SessionCount{Agent: c.Agent, Version: c.Version, Session: c.Session}
			sessions[k] = s
		}
		s.Calls++
		s.Version = cmp.Or(c.Version, s.Version)
		if c.Time.After(s.Last) {
			s.Last = c.Time
		}
		a := agentsSeen[ak{c.Agent, c.Version}]
		if a == nil {
			a = &AgentCount{Agent: c.Agent, Version: c.Version, Match: ByCommand}
			if hookIDs[c.Agent] {
				a.Match = ByID
			}
			agentsSeen[ak{c.Agent, c.Version}] = a
			agentSessions[ak{c.Agent, c.Version}] = map[string]bool{}
		}
		agentSessions[ak{c.Agent, c.Version}][c.Session] = true
		a.Calls++
		if c.Time.After(a.Last) {
			a.Last = c.Time
		}
		rep.Calls++
		if guarded {
			a.Guarded++
			continue
		}
		a.Unguarded++
		s.Unguarded++
		rep.Unguarded++
		if c.Subagent != "" {
			s.Subagent++
		}
		perSession[k]++
		if perSession[k] <= MaxExamples {
			rep.Examples = append(rep.Examples, Unguarded{c, match})
		}
	}
	for k, a := range agentsSeen {
		a.Sessions = len(agentSessions[k])
		rep.Agents = append(rep.Agents, *a)
	}
	slices.SortFunc(rep.Agents, func(a, b AgentCount) int {
		return cmp.Or(cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Version, b.Version))
	})
	for _, s := range sessions {
		rep.Sessions = append(rep.Sessions, *s)
	}
	slices.SortFunc(rep.Sessions, func(a, b SessionCount) int {
		return cmp.Or(cmp.Compare(b.Unguarded, a.Unguarded), b.Last.Compare(a.Last), cmp.Compare(a.Session, b.Session))
	})
	slices.SortStableFunc(rep.Examples, func(a, b Unguarded) int { return b.Time.Compare(a.Time) })
	return rep
}

func within(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return true
	}
	d := a.Sub(b)
	return d > -Window && d < Window
}

// Run reads the transcripts under o.Home and the audit trail of store since o.Since, and says
// which calls no decision matches. Transcripts made on this machine need the audit trail of
// this machine.
func Run(ctx context.Context, store *audit.Store, o Options) (*Report, error) {
	calls, transcripts, probs := Read(o)
	var decisions []Decision
	f := audit.Filter{Since: o.Since, Oldest: true, Limit: 5000}
	if !o.Since.IsZero() {
		f.Since = o.Since.Add(-Window)
	}
	for {
		recs, err := store.Query(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("coverage: read the audit trail: %w", err)
		}
		for i := range recs {
			if d, ok := DecisionOf(&recs[i]); ok {
				decisions = append(decisions, d)
			}
		}
		if len(recs) < f.Limit {
			break
		}
		f.AfterID = recs[len(recs)-1].ID
	}
	rep := Check(calls, decisions, o.Agents)
	rep.Since, rep.Problems = o.Since, probs
	for i := range rep.Agents {
		rep.Agents[i].Transcripts = transcripts[rep.Agents[i].Agent]
	}
	return rep, nil
}
