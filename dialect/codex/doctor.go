package codex

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
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/dialect"
)

// What agenthooks doctor checks of Codex beyond its hooks: the reviews Codex requires before it
// runs a hook, and the switches in its config.toml files and machine-wide files that turn hooks
// off.

// userConfig is Codex's user config.toml, in $CODEX_HOME or ~/.codex.
func userConfig(env dialect.DoctorEnv) string {
	if v := env.Getenv("CODEX_HOME"); v != "" {
		return filepath.Join(v, "config.toml")
	}
	return filepath.Join(env.Home, ".codex", "config.toml")
}

// switches lists what switches the hooks of Codex's hooks files off: [features] hooks = false
// in the user's config.toml or one beside a hooks file, and Codex's machine-wide files.
func switches(env dialect.DoctorEnv, hooksFiles []string) []dialect.Finding {
	configs := []string{userConfig(env)}
	for _, f := range hooksFiles {
		dir, err := filepath.Abs(filepath.Dir(f))
		if err != nil {
			dir = filepath.Dir(f)
		}
		if c := filepath.Join(dir, "config.toml"); !slices.Contains(configs, c) {
			configs = append(configs, c)
		}
	}
	var out []dialect.Finding
	for _, file := range configs {
		if why, setting := switchedOff(file); why != "" {
			out = append(out, dialect.Finding{Level: "fail", File: file, Message: why, Setting: setting})
		}
	}
	return append(out, systemFindings(env.Getenv)...)
}

// switchedOff reads a Codex config.toml for the feature flag that turns hooks off: [features]
// hooks = false (codex_hooks is its older name). It returns why, and the setting.
func switchedOff(file string) (why, setting string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", ""
	}
	var doc struct {
		Features map[string]any `toml:"features"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return "", ""
	}
	for _, k := range []string{"hooks", "codex_hooks"} {
		if v, ok := doc.Features[k].(bool); ok && !v {
			setting = "[features] " + k + " = false"
			return "hooks switched off by " + setting + ": Codex runs every command unguarded", setting
		}
	}
	return "", ""
}

// systemFindings reads Codex's machine-wide files for what switches the user's and the
// project's agenthooks hooks off: [features] hooks = false in config.toml, managed_config.toml
// or requirements.toml, and allow_managed_hooks_only = true in requirements.toml (then Codex
// runs only hooks an administrator placed).
func systemFindings(getenv func(string) string) []dialect.Finding {
	dir := SystemDir(getenv)
	var out []dialect.Finding
	for _, name := range []string{"config.toml", "managed_config.toml", "requirements.toml"} {
		file := filepath.Join(dir, name)
		if why, setting := switchedOff(file); why != "" {
			out = append(out, dialect.Finding{Level: "fail", File: file, Message: why, Setting: setting})
		}
	}
	req := filepath.Join(dir, "requirements.toml")
	if data, err := os.ReadFile(req); err == nil {
		var doc struct {
			AllowManagedHooksOnly bool `toml:"allow_managed_hooks_only"`
		}
		if toml.Unmarshal(data, &doc) == nil && doc.AllowManagedHooksOnly {
			out = append(out, dialect.Finding{Level: "fail", File: req, Setting: "allow_managed_hooks_only = true",
				Message: "allow_managed_hooks_only = true: Codex runs only the hooks an administrator placed, not the user's or the project's agenthooks"})
		}
	}
	return out
}

// review says, for the agenthooks hooks of one Codex file, which ones Codex runs and which it
// skips (and why): all of a project's file in a project Codex does not trust (projectDistrust),
// else by the reviews in the user's config.toml.
func review(env dialect.DoctorEnv, file string, ours func(string) bool) ([]dialect.Finding, []dialect.Skipped) {
	if why := projectDistrust(env, file); why != "" {
		var skipped []dialect.Skipped
		for _, h := range hooksOf(file) {
			if ours(h.Command) {
				skipped = append(skipped, dialect.Skipped{File: file, Event: h.Event, Command: h.Command})
			}
		}
		if len(skipped) == 0 {
			return nil, nil
		}
		return []dialect.Finding{{Level: "fail", File: file, Message: why, Setting: "project trust_level"}}, skipped
	}
	states := hookStates(userConfig(env))
	const (
		off = iota
		unreviewed
		changed
		reviewed
	)
	var events [4][]string
	var skipped []dialect.Skipped
	for _, h := range hooksOf(file) {
		if !ours(h.Command) {
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
			skipped = append(skipped, dialect.Skipped{File: file, Event: h.Event, Command: h.Command})
		}
	}
	var out []dialect.Finding
	add := func(level, setting string, evs []string, msg string) {
		if len(evs) > 0 {
			out = append(out, dialect.Finding{Level: level, File: file, Setting: setting,
				Message: fmt.Sprintf("%d agenthooks hook(s) %s (on %s)", len(evs), msg, strings.Join(slices.Compact(evs), ", "))})
		}
	}
	add("fail", "[hooks.state] enabled = false", events[off], "switched off in Codex (enabled = false under [hooks.state]): Codex skips them, so commands run unguarded")
	add("fail", "hooks not reviewed (/hooks)", events[unreviewed], "nobody has reviewed in Codex, which skips them silently, so commands run unguarded: review them with /hooks in codex")
	add("fail", "hooks changed since reviewed (/hooks)", events[changed], "changed since they were reviewed in Codex, which skips them silently: review them again with /hooks in codex")
	add("ok", "", events[reviewed], "reviewed in Codex")
	return out, skipped
}

// Codex (0.169) runs a hook from a user or project file only when a person has reviewed it
// (/hooks in codex): the review is [hooks.state."<key>"] trusted_hash = "sha256:..." in the
// user's config.toml, where key is "<absolute path of the file>:<event label>:<group
// index>:<handler index>" and the hash is over the hook's normalized definition. A hook with no
// review, or changed since, is skipped silently; enabled = false switches one off. Checked
// against codex 0.169.0's own hooks/list (app-server), which reports each hook's key,
// currentHash and trustStatus.

// eventLabels is each Codex event's label in state keys and in the hashed identity.
var eventLabels = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use",
		"PreCompact": "pre_compact", "PostCompact": "post_compact", "SessionStart": "session_start",
		"SessionEnd": "session_end", "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
		"SubagentStop": "subagent_stop", "Stop": "stop",
	}
})

// matcherEvents are the events whose matcher Codex keeps; for the others it is dropped
// before hashing.
var matcherEvents = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionStart", "SubagentStart", "SubagentStop"}

// contextLimitEvents are the events whose additionalContextLimit Codex keeps (when it is
// not the default, 2500).
var contextLimitEvents = []string{"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SubagentStart"}

// handler is one hook handler as Codex's files write it (hooks.json or config.toml).
type handler struct {
	Type           string  `json:"type" toml:"type"`
	Command        string  `json:"command" toml:"command"`
	CommandWindows *string `json:"commandWindows" toml:"commandWindows"`
	Timeout        *int64  `json:"timeout" toml:"timeout"`
	Async          bool    `json:"async" toml:"async"`
	StatusMessage  *string `json:"statusMessage" toml:"statusMessage"`
	ContextLimit   *int64  `json:"additionalContextLimit" toml:"additionalContextLimit"`
}

type group struct {
	Matcher *string   `json:"matcher" toml:"matcher"`
	Hooks   []handler `json:"hooks" toml:"hooks"`
}

// hook is one command hook of a Codex file with the key and hash Codex gives it.
type hook struct {
	Event, Command, Key, Hash string
}

// hooksOf reads the command hooks of a Codex hooks.json or config.toml, with their state
// keys and hashes. A file that cannot be read or decoded has none (lint reports it).
func hooksOf(file string) []hook {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var events map[string][]group
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
			Hooks map[string][]group `json:"hooks"`
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
	var out []hook
	for event, groups := range events {
		label, ok := eventLabels()[event]
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
				out = append(out, hook{
					Event:   event,
					Command: command,
					Key:     abs + ":" + label + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi),
					Hash:    hookHash(event, g.Matcher, h, command),
				})
			}
		}
	}
	slices.SortFunc(out, func(a, b hook) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// hookHash is Codex's trust hash of one handler: sha256 over the compact JSON, keys sorted,
// of {"event_name": label, "matcher": ..., "hooks": [the normalized handler]}, where the
// normalized handler has its timeout filled in (600 s by default, at least 1; Session End:
// 1 to 3 s), no commandWindows, and no field that is unset.
func hookHash(event string, matcher *string, h handler, command string) string {
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
	norm := map[string]any{"type": "command", "command": command, "timeout": timeout, "async": h.Async}
	if h.StatusMessage != nil {
		norm["statusMessage"] = *h.StatusMessage
	}
	if h.ContextLimit != nil && *h.ContextLimit != 2500 && slices.Contains(contextLimitEvents, event) {
		norm["additionalContextLimit"] = *h.ContextLimit
	}
	identity := map[string]any{"event_name": eventLabels()[event], "hooks": []any{norm}}
	if matcher != nil && slices.Contains(matcherEvents, event) {
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

// hookState is one [hooks.state."<key>"] entry.
type hookState struct {
	Enabled     *bool  `toml:"enabled"`
	TrustedHash string `toml:"trusted_hash"`
}

// hookStates reads the hook reviews of Codex's user config.toml.
func hookStates(userConfig string) map[string]hookState {
	data, err := os.ReadFile(userConfig)
	if err != nil {
		return nil
	}
	var doc struct {
		Hooks struct {
			State map[string]hookState `toml:"state"`
		} `toml:"hooks"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := map[string]hookState{}
	for k, v := range doc.Hooks.State {
		out[strings.TrimSpace(k)] = v
	}
	return out
}
