package decide

import (
	"encoding/json"
	"strings"
)

// Permission is a hook's verdict on a gated operation. The empty value means "no opinion".
type Permission string

// The permissions, from weakest to strongest.
const (
	None  Permission = ""
	Allow Permission = "allow"
	Ask   Permission = "ask"
	// Defer is Claude Code's "decide later" (non-interactive runs): stronger than ask.
	Defer Permission = "defer"
	Deny  Permission = "deny"
)

// rank orders permissions for the merge: deny beats defer beats ask beats allow.
func (p Permission) rank() int {
	switch p {
	case Allow:
		return 1
	case Ask:
		return 2
	case Defer:
		return 3
	case Deny:
		return 4
	}
	return 0
}

// Answer is what one hook said, already validated and translated into the canonical vocabulary.
// Index is the hook's place in the ordered list of hooks for the event.
type Answer struct {
	Index                int               `json:"index"`
	Permission           Permission        `json:"permission,omitempty"`
	UserMessage          string            `json:"user_message,omitempty"`
	AgentMessage         string            `json:"agent_message,omitempty"`
	Followup             string            `json:"followup_message,omitempty"`
	UpdatedInput         json.RawMessage   `json:"updated_input,omitempty"`
	AdditionalContext    string            `json:"additional_context,omitempty"`
	Env                  map[string]string `json:"env,omitempty"`
	PluginPaths          []string          `json:"plugin_paths,omitempty"`
	UpdatedMCPToolOutput json.RawMessage   `json:"updated_mcp_tool_output,omitempty"`
	// Halt is Claude Code's continue:false: the agent stops altogether, StopReason says why.
	Halt       bool   `json:"halt,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	// SystemMessage is a warning for the user.
	SystemMessage string `json:"system_message,omitempty"`
	// Notes are what a translation between dialects could not carry.
	Notes []string `json:"notes,omitempty"`
}

// Mode selects how answers are merged.
type Mode string

// The merge modes.
const (
	// MergeAll considers every answer: deny beats ask beats allow, and the messages of every
	// answer with the winning permission are kept in hook order.
	MergeAll Mode = "all"
	// MergeFirst is Cursor's older rule: the first answer, in hook order, decides alone.
	MergeFirst Mode = "first"
)

// Decision is the merged outcome. Permission is None when no hook expressed one; the caller
// applies its own default (allow, for Cursor).
type Decision struct {
	Permission           Permission        `json:"permission,omitempty"`
	UserMessage          string            `json:"user_message,omitempty"`
	AgentMessage         string            `json:"agent_message,omitempty"`
	Followup             string            `json:"followup_message,omitempty"`
	UpdatedInput         json.RawMessage   `json:"updated_input,omitempty"`
	AdditionalContext    string            `json:"additional_context,omitempty"`
	Env                  map[string]string `json:"env,omitempty"`
	PluginPaths          []string          `json:"plugin_paths,omitempty"`
	UpdatedMCPToolOutput json.RawMessage   `json:"updated_mcp_tool_output,omitempty"`
	Halt                 bool              `json:"halt,omitempty"`
	StopReason           string            `json:"stop_reason,omitempty"`
	SystemMessage        string            `json:"system_message,omitempty"`
	// DecidedBy lists the Index of every answer whose permission is the decision's, in order.
	DecidedBy []int `json:"decided_by,omitempty"`
}

// Merge combines answers, which must be sorted by Index. It never looks at completion order.
func Merge(answers []Answer, mode Mode) Decision {
	if mode == MergeFirst && len(answers) > 0 {
		answers = answers[:1]
	}
	var d Decision
	for _, a := range answers {
		if a.Permission.rank() > d.Permission.rank() {
			d.Permission = a.Permission
		}
	}
	var users, agents, followups, contexts, stops, systems []string
	for _, a := range answers {
		if a.Halt {
			d.Halt = true
			stops = appendNonEmpty(stops, a.StopReason)
		}
		systems = appendNonEmpty(systems, a.SystemMessage)
		if a.Permission != None && a.Permission == d.Permission {
			d.DecidedBy = append(d.DecidedBy, a.Index)
			users = appendNonEmpty(users, a.UserMessage)
			agents = appendNonEmpty(agents, a.AgentMessage)
		}
		followups = appendNonEmpty(followups, a.Followup)
		contexts = appendNonEmpty(contexts, a.AdditionalContext)
		if a.UpdatedInput != nil {
			d.UpdatedInput = a.UpdatedInput // the last rewrite in hook order wins
		}
		if a.UpdatedMCPToolOutput != nil {
			d.UpdatedMCPToolOutput = a.UpdatedMCPToolOutput
		}
		for k, v := range a.Env {
			if d.Env == nil {
				d.Env = map[string]string{}
			}
			if _, set := d.Env[k]; !set { // a higher-priority hook's value stands
				d.Env[k] = v
			}
		}
		for _, p := range a.PluginPaths {
			if !contains(d.PluginPaths, p) {
				d.PluginPaths = append(d.PluginPaths, p)
			}
		}
	}
	d.UserMessage = strings.Join(users, "\n")
	d.AgentMessage = strings.Join(agents, "\n")
	d.Followup = strings.Join(followups, "\n\n")
	d.AdditionalContext = strings.Join(contexts, "\n\n")
	d.StopReason = strings.Join(stops, "\n")
	d.SystemMessage = strings.Join(systems, "\n")
	return d
}

func appendNonEmpty(list []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		list = append(list, s)
	}
	return list
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Rewrites reports whether the answers rewrite the tool input in more than one way: hooks that
// ran side by side each judged and rewrote the original input, so a merge that keeps one rewrite
// would run an input that the other hooks never saw (a guard's sandboxed command replaced by
// another hook's rewrite of the original, say). Identical rewrites agree. A denying answer's
// rewrite does not count: a deny stands whatever it carries.
func Rewrites(answers []Answer) (conflict bool) {
	var first json.RawMessage
	for _, a := range answers {
		if a.UpdatedInput == nil || a.Permission == Deny {
			continue
		}
		if first == nil {
			first = a.UpdatedInput
			continue
		}
		if !sameJSON(first, a.UpdatedInput) {
			return true
		}
	}
	return false
}

// sameJSON reports whether a and b hold the same JSON value (key order and spacing aside).
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return string(a) == string(b)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}
