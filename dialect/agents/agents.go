// Package agents is the register of agents: the one list of every agent agenthooks knows, each
// described by the dialect.Agent its own package under dialect/ exports. engine, config, the
// guards and the CLI look agents up here instead of naming them. Adding an agent is one package
// that exports its descriptor, plus one line in the list below (docs/adding-an-agent.md).
//
// The list is static data: looking an agent up costs no package initialisation, so the guard
// process stays lean. It imports dialect and the agents' packages only.
package agents

import (
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/antigravity"
	"github.com/agenthooks/agenthooks/dialect/auggie"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/cline"
	"github.com/agenthooks/agenthooks/dialect/codex"
	"github.com/agenthooks/agenthooks/dialect/copilot"
	"github.com/agenthooks/agenthooks/dialect/crush"
	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/dialect/droid"
	"github.com/agenthooks/agenthooks/dialect/gemini"
	"github.com/agenthooks/agenthooks/dialect/goose"
	"github.com/agenthooks/agenthooks/dialect/kimi"
	"github.com/agenthooks/agenthooks/dialect/kiro"
	"github.com/agenthooks/agenthooks/dialect/opencode"
	"github.com/agenthooks/agenthooks/dialect/qwen"
	"github.com/agenthooks/agenthooks/dialect/vscode"
	"github.com/agenthooks/agenthooks/dialect/windsurf"
)

// all is the register, in the order agents are listed to people (doctor, status).
var all = []*dialect.Agent{
	&claude.Agent,
	&cursor.Agent,
	&codex.Agent,
	&gemini.Agent,
	&qwen.Agent,
	&copilot.Agent,
	&crush.Agent,
	&droid.Agent,
	&auggie.Agent,
	&windsurf.Agent,
	&antigravity.Agent,
	&opencode.Agent,
	&cline.Agent,
	&kiro.Agent,
	&vscode.Agent,
	&kimi.Agent,
	&goose.Agent,
}

// detectOrder is the order payloads are told apart in: the first agent whose Detect accepts a
// payload sent it; an agent whose payload is another's plus a field comes before that other.
// Windsurf's and Antigravity's payloads are told by their own fields (agent_action_name,
// toolCall), Crush's, Droid's and Auggie's next (Auggie's carries workspace_roots as Cursor's
// does, with PascalCase events); then Cursor's by its own shape. OpenCode's plugin names its
// events as OpenCode does (tool.execute.before) and Cline's payload carries its own fields
// (hookName, with no hook_event_name), which no other agent's payload does: first. VS Code's
// (hookEventName) comes before Copilot CLI's, whose camelCase sessionId it shares.
var detectOrder = []*dialect.Agent{&kimi.Agent, &opencode.Agent, &cline.Agent, &vscode.Agent, &windsurf.Agent, &antigravity.Agent, &goose.Agent, &crush.Agent, &droid.Agent, &kiro.Agent, &auggie.Agent, &cursor.Agent, &qwen.Agent, &copilot.Agent, &gemini.Agent, &codex.Agent}

// Default is the agent a command assumes when it is given none and cannot tell (run --agent).
func Default() *dialect.Agent { return &cursor.Agent }

// Fallback is the agent a payload is read as when no agent's Detect accepts it: Claude Code,
// whose payload shape the others borrow.
func Fallback() *dialect.Agent { return &claude.Agent }

// All returns every registered agent, in listing order. The slice is the caller's.
func All() []*dialect.Agent { return slices.Clone(all) }

// ByFilePriority returns every registered agent in the order their files are read in within a
// layer: the default agent first (hooks.json is agenthooks' own format, so within a layer its
// hooks run first), then the others in listing order.
func ByFilePriority() []*dialect.Agent {
	out := []*dialect.Agent{Default()}
	for _, a := range all {
		if a != Default() {
			out = append(out, a)
		}
	}
	return out
}

// Names returns every registered agent's name, in listing order.
func Names() []dialect.Name {
	out := make([]dialect.Name, len(all))
	for i, a := range all {
		out[i] = a.Name
	}
	return out
}

// Lookup returns the agent named name.
func Lookup(name string) (*dialect.Agent, bool) {
	for _, a := range all {
		if string(a.Name) == name {
			return a, true
		}
	}
	return nil, false
}

// Get returns the agent named n, or nil.
func Get(n dialect.Name) *dialect.Agent {
	a, _ := Lookup(string(n))
	return a
}

// Detect returns the agent whose payload p is, among those whose Detect tells theirs apart, else
// Fallback.
func Detect(p dialect.Probe) *dialect.Agent {
	for _, a := range detectOrder {
		if a.Detect != nil && a.Detect(p) {
			return a
		}
	}
	return Fallback()
}

// ReadBy returns the agents that run agent n's hooks files as well as their own (Agent.Reads),
// in listing order.
func ReadBy(n dialect.Name) []*dialect.Agent {
	var out []*dialect.Agent
	for _, a := range all {
		for _, r := range a.Reads {
			if r.Agent == n {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// shellTools are the registered agents' shell tools, by their own names (Shell.Tool and the
// install's shell matcher's alternatives), built on first use.
var shellToolsValue dialect.Lazy[map[string]bool]

func shellTools() map[string]bool { return shellToolsValue.Get(buildShellTools) }

func buildShellTools() map[string]bool {
	out := map[string]bool{}
	for _, a := range all {
		if a.Shell.Tool != "" {
			out[a.Shell.Tool] = true
		}
		for _, alt := range strings.Split(a.Install.ShellMatcher, "|") {
			if alt = strings.Trim(alt, "^$()"); alt != "" && !strings.ContainsAny(alt, `.*+?[]{}\`) {
				out[alt] = true
			}
		}
	}
	return out
}

// IsShellTool reports whether tool is some registered agent's shell tool: a payload whose tool
// is one is a shell command, whichever agent's payload it was taken for.
func IsShellTool(tool string) bool { return shellTools()[tool] }

// List names the agents for a message: "a, b, c or d" (or "and", as conj says).
func List(conj string) string {
	names := Names()
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" " + conj + " ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(n))
	}
	return b.String()
}
