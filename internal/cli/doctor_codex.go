package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Codex (0.169) runs a hook from a user or project file only when a person has reviewed it
// (/hooks in codex): the review is [hooks.state."<key>"] trusted_hash = "sha256:..." in the
// user's config.toml, where key is "<absolute path of the file>:<event label>:<group
// index>:<handler index>" and the hash is over the hook's normalized definition. A hook with no
// review, or changed since, is skipped silently; enabled = false switches one off. Checked
// against codex 0.169.0's own hooks/list (app-server), which reports each hook's key,
// currentHash and trustStatus.

// codexEventLabels is each Codex event's label in state keys and in the hashed identity.
var codexEventLabels = map[string]string{
	"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use",
	"PreCompact": "pre_compact", "PostCompact": "post_compact", "SessionStart": "session_start",
	"SessionEnd": "session_end", "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
	"SubagentStop": "subagent_stop", "Stop": "stop",
}

// codexMatcherEvents are the events whose matcher Codex keeps; for the others it is dropped
// before hashing.
var codexMatcherEvents = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionStart", "SubagentStart", "SubagentStop"}

// codexContextLimitEvents are the events whose additionalContextLimit Codex keeps (when it is
// not the default, 2500).
var codexContextLimitEvents = []string{"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SubagentStart"}

// codexHandler is one hook handler as Codex's files write it (hooks.json or config.toml).
type codexHandler struct {
	Type           string  `json:"type" toml:"type"`
	Command        string  `json:"command" toml:"command"`
	CommandWindows *string `json:"commandWindows" toml:"commandWindows"`
	Timeout        *int64  `json:"timeout" toml:"timeout"`
	Async          bool    `json:"async" toml:"async"`
	StatusMessage  *string `json:"statusMessage" toml:"statusMessage"`
	ContextLimit   *int64  `json:"additionalContextLimit" toml:"additionalContextLimit"`
}

type codexGroup struct {
	Matcher *string        `json:"matcher" toml:"matcher"`
	Hooks   []codexHandler `json:"hooks" toml:"hooks"`
}

// codexHook is one command hook of a Codex file with the key and hash Codex gives it.
type codexHook struct {
	Event, Command, Key, Hash string
}

// codexHooksOf reads the command hooks of a Codex hooks.json or config.toml, with their state
// keys and hashes. A file that cannot be read or decoded has none (lint reports it).
func codexHooksOf(file string) []codexHook {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var events map[string][]codexGroup
	if strings.HasSuffix(file, ".toml") {
		var doc struct {
			Hooks map[string]any `toml:"hooks"`
		}
		if toml.Unmarshal(data, &doc) != nil {
			return nil
		}
		delete(doc.Hooks, "state")
		// Re-encode the event tables alone, as JSON, to read them with the same types.
		b, err := json.Marshal(doc.Hooks)
		if err != nil || json.Unmarshal(b, &events) != nil {
			return nil
		}
	} else {
		var doc struct {
			Hooks map[string][]codexGroup `json:"hooks"`
		}
		if json.Unmarshal(data, &doc) != nil {
			return nil
		}
		events = doc.Hooks
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil
	}
	var out []codexHook
	for event, groups := range events {
		label, ok := codexEventLabels[event]
		if !ok {
			continue
		}
		for gi, g := range groups {
			for hi, h := range g.Hooks {
				if h.Type != "command" {
					continue
				}
				command := h.Command
				if runtime.GOOS == "windows" && h.CommandWindows != nil {
					command = *h.CommandWindows
				}
				if strings.TrimSpace(command) == "" {
					continue
				}
				out = append(out, codexHook{
					Event:   event,
					Command: command,
					Key:     abs + ":" + label + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi),
					Hash:    codexHookHash(event, g.Matcher, h, command),
				})
			}
		}
	}
	slices.SortFunc(out, func(a, b codexHook) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// codexHookHash is Codex's trust hash of one handler: sha256 over the compact JSON, keys sorted,
// of {"event_name": label, "matcher": ..., "hooks": [the normalized handler]}, where the
// normalized handler has its timeout filled in (600 s by default, at least 1; Session End:
// 1 to 3 s), no commandWindows, and no field that is unset.
func codexHookHash(event string, matcher *string, h codexHandler, command string) string {
	timeout := int64(600)
	if h.Timeout != nil {
		timeout = *h.Timeout
	}
	if event == "SessionEnd" {
		if h.Timeout == nil {
			timeout = 1
		}
		timeout = min(max(timeout, 1), 3)
	} else {
		timeout = max(timeout, 1)
	}
	handler := map[string]any{"type": "command", "command": command, "timeout": timeout, "async": h.Async}
	if h.StatusMessage != nil {
		handler["statusMessage"] = *h.StatusMessage
	}
	if h.ContextLimit != nil && *h.ContextLimit != 2500 && slices.Contains(codexContextLimitEvents, event) {
		handler["additionalContextLimit"] = *h.ContextLimit
	}
	identity := map[string]any{"event_name": codexEventLabels[event], "hooks": []any{handler}}
	if matcher != nil && slices.Contains(codexMatcherEvents, event) {
		identity["matcher"] = *matcher
	}
	// encoding/json sorts map keys and writes no spaces: Codex's canonical form. Like serde_json,
	// do not escape <, > and &.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity)
	sum := sha256.Sum256([]byte(strings.TrimSuffix(b.String(), "\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexHookState is one [hooks.state."<key>"] entry.
type codexHookState struct {
	Enabled     *bool  `toml:"enabled"`
	TrustedHash string `toml:"trusted_hash"`
}

// codexHookStates reads the hook reviews of Codex's user config.toml.
func codexHookStates(userConfig string) map[string]codexHookState {
	data, err := os.ReadFile(userConfig)
	if err != nil {
		return nil
	}
	var doc struct {
		Hooks struct {
			State map[string]codexHookState `toml:"state"`
		} `toml:"hooks"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := map[string]codexHookState{}
	for k, v := range doc.Hooks.State {
		out[strings.TrimSpace(k)] = v
	}
	return out
}

// codexReviewFindings says, for the agenthooks hooks of one Codex file, which ones Codex runs
// and which it skips (and why), and records the skipped ones in skipped by file, event and
// command.
func codexReviewFindings(file string, states map[string]codexHookState, skipped map[string]bool) []doctorFinding {
	const (
		off = iota
		unreviewed
		changed
		reviewed
	)
	var events [4][]string
	for _, h := range codexHooksOf(file) {
		if _, _, ours := agenthooksCall(h.Command); !ours {
			continue
		}
		st, found := states[h.Key]
		kind := reviewed
		switch {
		case found && st.Enabled != nil && !*st.Enabled:
			kind = off
		case !found || st.TrustedHash == "":
			kind = unreviewed
		case st.TrustedHash != h.Hash:
			kind = changed
		}
		events[kind] = append(events[kind], h.Event)
		if kind != reviewed {
			skipped[file+"\x00"+h.Event+"\x00"+h.Command] = true
		}
	}
	var out []doctorFinding
	add := func(level string, evs []string, msg string) {
		if len(evs) > 0 {
			out = append(out, doctorFinding{level, file, fmt.Sprintf("%d agenthooks hook(s) %s (on %s)", len(evs), msg, strings.Join(slices.Compact(evs), ", "))})
		}
	}
	add("fail", events[off], "switched off in Codex (enabled = false under [hooks.state]): Codex skips them, so commands run unguarded")
	add("fail", events[unreviewed], "nobody has reviewed in Codex, which skips them silently, so commands run unguarded: review them with /hooks in codex")
	add("fail", events[changed], "changed since they were reviewed in Codex, which skips them silently: review them again with /hooks in codex")
	add("ok", events[reviewed], "reviewed in Codex")
	return out
}
