package wiring_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/wiring"
)

// machine is a home folder with a fake agenthooks that leaves a mark when anything runs it.
type machine struct {
	t          *testing.T
	home, prog string
	mark       string
}

func newMachine(t *testing.T) *machine {
	if runtime.GOOS == "windows" {
		t.Skip("the fake agenthooks is a shell script")
	}
	dir := t.TempDir()
	m := &machine{t: t, home: filepath.Join(dir, "home"), prog: filepath.Join(dir, "bin", "agenthooks"), mark: filepath.Join(dir, "ran")}
	m.write(m.prog, "#!/bin/sh\ntouch "+m.mark+"\nexit 2\n")
	os.Chmod(m.prog, 0o755)
	return m
}

func (m *machine) write(file, body string) {
	m.t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// check runs wiring.Check as team sync does (no canary, no probe) and returns the agents found.
func (m *machine) check() map[dialect.Name]wiring.Agent {
	m.t.Helper()
	getenv := func(k string) string {
		if k == "HOME" {
			return m.home
		}
		return ""
	}
	env := config.Env{Home: m.home, Getenv: getenv, ClaudeManagedDir: filepath.Join(m.home, "no-managed"),
		EnterpriseDir: filepath.Join(m.home, "no-enterprise")}
	cfg := config.Load(config.CandidatesOf(env), config.NewTrustStore(m.home).Check())
	rep := wiring.Check(context.Background(), cfg, wiring.Options{Home: m.home, Getenv: getenv, Environ: []string{"PATH=/usr/bin:/bin"}})
	out := map[dialect.Name]wiring.Agent{}
	for _, a := range rep.Agents {
		out[a.Agent] = a
	}
	if _, err := os.Stat(m.mark); err == nil {
		m.t.Fatal("wiring.Check without Canary and Probe started agenthooks")
	}
	return out
}

func claudeSettings(command string, extra string) string {
	return `{` + extra + `"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"` + command + `"}]}]}}`
}

// TestWiring: each agent's wiring as team sync reads it, without starting a process: a guard
// registered fail-closed; one removed from the settings; switched off by Claude Code's
// disableAllHooks, Gemini CLI's hooksConfig.enabled, Codex's feature flag and its unreviewed
// hooks; a program that is gone.
func TestWiring(t *testing.T) {
	for _, c := range []struct {
		name  string
		agent dialect.Name
		files map[string]string // under home; PROG is the fake agenthooks
		want  wiring.Wiring
		state string
		// problem is what Wiring.Problem says; a prefix when it ends with "..."
		problem string
	}{
		{name: "claude wired", agent: dialect.Claude,
			files:   map[string]string{".claude/settings.json": claudeSettings("PROG guard bash --fail-closed", "")},
			want:    wiring.Wiring{Registered: true, FailClosed: true, Resolves: true},
			state:   "ok",
			problem: ""},
		{name: "claude guard removed", agent: dialect.Claude,
			files:   map[string]string{".claude/settings.json": `{"permissions":{}}`},
			want:    wiring.Wiring{Resolves: true},
			state:   "not registered",
			problem: "not wired"},
		{name: "claude guard on another tool only", agent: dialect.Claude,
			files: map[string]string{".claude/settings.json": strings.Replace(claudeSettings("PROG guard bash", ""), `"Bash"`, `"Write"`, 1)},
			want:  wiring.Wiring{Resolves: true}, state: "ok", problem: "not wired"},
		{name: "claude disableAllHooks", agent: dialect.Claude,
			files:   map[string]string{".claude/settings.json": claudeSettings("PROG guard bash --fail-closed", `"disableAllHooks":true,`)},
			want:    wiring.Wiring{Registered: true, FailClosed: true, Resolves: true, DisabledBy: []string{"disableAllHooks in HOME/.claude/settings.json:1"}},
			state:   "fail",
			problem: "disabled by disableAllHooks in HOME/.claude/settings.json:1"},
		{name: "claude program gone", agent: dialect.Claude,
			files:   map[string]string{".claude/settings.json": claudeSettings("/nonexistent/agenthooks guard bash --fail-closed", "")},
			want:    wiring.Wiring{Registered: true, FailClosed: true},
			state:   "fail",
			problem: "not wired"},
		{name: "gemini hooksConfig.enabled false", agent: dialect.Gemini,
			files: map[string]string{".gemini/settings.json": `{"hooksConfig":{"enabled":false},"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"PROG guard bash --format gemini"}]}]}}`},
			want:  wiring.Wiring{Registered: true, Resolves: true, DisabledBy: []string{"hooksConfig.enabled: false in HOME/.gemini/settings.json:1"}},
			state: "fail", problem: "disabled by hooksConfig.enabled: false in HOME/.gemini/settings.json:1"},
		{name: "codex feature off and unreviewed", agent: dialect.Codex,
			files: map[string]string{
				".codex/hooks.json":  `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"PROG guard bash --fail-closed"}]}]}}`,
				".codex/config.toml": "[features]\nhooks = false\n"},
			want: wiring.Wiring{Registered: true, FailClosed: true, Resolves: true,
				DisabledBy: []string{"hooks not reviewed (/hooks)", "[features] hooks = false in HOME/.codex/config.toml:2"}},
			state: "fail", problem: "disabled by hooks not reviewed (/hooks), [features] hooks = false in HOME/.codex/config.toml:2"},
		{name: "vscode chat.useHooks false", agent: "vscode",
			files: map[string]string{
				".copilot/hooks/agenthooks.json": `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"PROG guard bash --fail-closed --agent vscode","matcher":"bash"}]}}`,
				vscodeUserSettings():             "{\n  // hooks off\n  \"chat.useHooks\": false,\n}\n"},
			want:  wiring.Wiring{Registered: true, FailClosed: true, Resolves: true, DisabledBy: []string{"chat.useHooks: false in HOME/" + vscodeUserSettings() + ":3"}},
			state: "fail", problem: "disabled by chat.useHooks: false in HOME/" + vscodeUserSettings() + ":3"},
		{name: "vscode chat.useHooks true", agent: "vscode",
			files: map[string]string{
				".copilot/hooks/agenthooks.json": `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"PROG guard bash --fail-closed --agent vscode","matcher":"bash"}]}}`,
				vscodeUserSettings():             `{"chat": {"useHooks": true}}`},
			want:  wiring.Wiring{Registered: true, FailClosed: true, Resolves: true},
			state: "ok", problem: ""},
		{name: "vscode chat object useHooks false", agent: "vscode",
			files: map[string]string{
				".copilot/hooks/agenthooks.json": `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"PROG guard bash --fail-closed --agent vscode","matcher":"bash"}]}}`,
				vscodeUserSettings():             "{\"chat\": {\n \"useHooks\": false}}"},
			want:  wiring.Wiring{Registered: true, FailClosed: true, Resolves: true, DisabledBy: []string{"chat.useHooks: false in HOME/" + vscodeUserSettings() + ":2"}},
			state: "fail", problem: "disabled by chat.useHooks: false in HOME/" + vscodeUserSettings() + ":2"},
		{name: "droid hooksDisabled", agent: "droid",
			files: map[string]string{".factory/settings.json": "{\"hooks\": {\n\"hooksDisabled\": true, \"showHookOutput\": false,\n\"PreToolUse\":[{\"matcher\":\"Execute\",\"hooks\":[{\"type\":\"command\",\"command\":\"PROG guard bash --fail-closed\"}]}]}}"},
			want:  wiring.Wiring{Registered: true, FailClosed: true, Resolves: true, DisabledBy: []string{"hooks.hooksDisabled: true in HOME/.factory/settings.json:2"}},
			state: "fail", problem: "disabled by hooks.hooksDisabled: true in HOME/.factory/settings.json:2"},
		{name: "goose plugin disabled", agent: "goose",
			files: map[string]string{
				".agents/plugins/agenthooks/hooks/hooks.json": `{"hooks":{"PreToolUse":[{"matcher":"^(developer__shell|shell)$","hooks":[{"command":"PROG guard bash --fail-closed --format goose","on_failure":"block"}]}]}}`,
				".config/goose/settings.json":                 "{\n\"disabledPlugins\": [\"agenthooks\"]}"},
			want:  wiring.Wiring{Registered: true, FailClosed: true, Resolves: true, DisabledBy: []string{"disabledPlugins in HOME/.config/goose/settings.json:2"}},
			state: "fail", problem: "disabled by disabledPlugins in HOME/.config/goose/settings.json:2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newMachine(t)
			for f, body := range c.files {
				m.write(filepath.Join(m.home, f), strings.ReplaceAll(body, "PROG", m.prog))
			}
			got := m.check()[c.agent]
			for i, s := range got.Wiring.DisabledBy {
				got.Wiring.DisabledBy[i] = strings.ReplaceAll(s, m.home, "HOME")
			}
			if got.State != c.state || got.Wiring.Registered != c.want.Registered || got.Wiring.FailClosed != c.want.FailClosed ||
				got.Wiring.Resolves != c.want.Resolves || !slices.Equal(got.Wiring.DisabledBy, c.want.DisabledBy) {
				t.Errorf("state %q, wiring %+v\nwant %q, %+v\nfindings: %+v", got.State, got.Wiring, c.state, c.want, got.Findings)
			}
			if p := got.Wiring.Problem(); p != c.problem {
				t.Errorf("Problem() = %q, want %q", p, c.problem)
			}
			if got.Canary != nil {
				t.Errorf("a canary without Options.Canary: %+v", got.Canary)
			}
		})
	}
}

// vscodeUserSettings is VS Code's user settings file under the home, on this platform.
func vscodeUserSettings() string {
	if runtime.GOOS == "darwin" {
		return "Library/Application Support/Code/User/settings.json"
	}
	return ".config/Code/User/settings.json"
}

// TestNotInstalled: an agent with no folder and no file is not installed, and team sync leaves
// it out; one whose folder exists is there, not registered.
func TestNotInstalled(t *testing.T) {
	m := newMachine(t)
	os.MkdirAll(filepath.Join(m.home, ".gemini"), 0o755)
	got := m.check()
	if got[dialect.Claude].State != wiring.StateNotInstalled || got[dialect.Gemini].State != wiring.StateNotRegistered ||
		got[dialect.Gemini].Wiring.Problem() != "not wired" {
		t.Errorf("claude %q, gemini %q %+v", got[dialect.Claude].State, got[dialect.Gemini].State, got[dialect.Gemini].Wiring)
	}
}

// TestOffVar: a variable of the environment that switches an agent's hooks off for a run
// (Claude Code's CLAUDE_CODE_SIMPLE, which --bare sets) marks the agent disabled by it.
func TestOffVar(t *testing.T) {
	m := newMachine(t)
	m.write(filepath.Join(m.home, ".claude/settings.json"), claudeSettings(m.prog+" guard bash --fail-closed", ""))
	for _, c := range []struct{ value, problem string }{
		{"1", "disabled by CLAUDE_CODE_SIMPLE=1 in the environment"},
		{"0", ""},
	} {
		getenv := func(k string) string {
			switch k {
			case "HOME":
				return m.home
			case "CLAUDE_CODE_SIMPLE":
				return c.value
			}
			return ""
		}
		env := config.Env{Home: m.home, Getenv: getenv, ClaudeManagedDir: filepath.Join(m.home, "no-managed")}
		cfg := config.Load(config.CandidatesOf(env), config.NewTrustStore(m.home).Check())
		rep := wiring.Check(context.Background(), cfg, wiring.Options{Home: m.home, Getenv: getenv, Environ: []string{"PATH=/usr/bin:/bin"}})
		for _, a := range rep.Agents {
			if a.Agent == dialect.Claude && a.Wiring.Problem() != c.problem {
				t.Errorf("CLAUDE_CODE_SIMPLE=%s: %q, want %q", c.value, a.Wiring.Problem(), c.problem)
			}
		}
	}
}
