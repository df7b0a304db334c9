package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/translate"
)

// A built-in guard (agenthooks guard bash, ...) runs at most once per tool call. The same guard
// is often reachable twice: an agent's own config registers it (agenthooks install), and the
// runner registered beside it reads other files that register it too (the embedded default,
// another agent's hooks.json); the embedded default itself registers the shell guard on two
// Cursor events that both cover one Claude Code Bash call. Evaluating it again gives the same
// answer, costs a process, and prints the reason twice. So, for one Fire:
//   - a guard the calling agent runs itself for this call (registered in the agent's own files,
//     which the engine does not read because Options.Families leaves them out) is not run again;
//   - of the hooks that run the same guard, only the first that would run for this call runs.
// The guard is never lost: a hook is skipped only for an identical guard that runs for this
// very call, matcher included.

// guardKey names the built-in guard a hook runs, "" when the hook is not one plain call of it:
// the guard's name and its --policy, the flags that change its answer (--format, --audit,
// --fail-closed and --ask-as only change how it is written).
func (e *Engine) guardKey(h *config.Hook) string {
	args, ok := e.selfCall(h)
	if !ok || len(args) < 2 || args[0] != "guard" || strings.HasPrefix(args[1], "-") {
		return ""
	}
	key := args[1]
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--policy" && i+1 < len(rest):
			i++
			key += "\x00" + rest[i]
		case strings.HasPrefix(a, "--policy="):
			key += "\x00" + strings.TrimPrefix(a, "--policy=")
		}
	}
	return key
}

// isSelf reports whether prog, an absolute path, is the agenthooks this engine runs, or, for
// name agenthooks-guard (dialect.GuardProgram), the one beside it.
func (e *Engine) isSelf(prog, name string) bool {
	if !filepath.IsAbs(prog) {
		return false
	}
	if e.opts.Self == "" {
		return filepath.Base(prog) == name
	}
	self := e.opts.Self
	if name == dialect.GuardProgram {
		self = filepath.Join(filepath.Dir(self), name+filepath.Ext(self))
	}
	a, err := os.Stat(prog)
	if err != nil {
		return false
	}
	b, err := os.Stat(self)
	return err == nil && os.SameFile(a, b)
}

// ownConfig is the config of the files of the agent's family that the engine does not read:
// the agent runs them itself. Nil when the engine reads them.
func (e *Engine) ownConfig(agent dialect.Name) *config.Config {
	if len(e.opts.Families) == 0 || slices.Contains(e.opts.Families, agent) {
		return nil
	}
	e.ownMu.Lock()
	defer e.ownMu.Unlock()
	if c, ok := e.own[agent]; ok {
		return c
	}
	// The agent runs its project files under its own trust, not agenthooks'.
	c := config.Load(config.CandidatesOf(e.opts.Env, agent), config.TrustAll)
	if e.own == nil {
		e.own = map[dialect.Name]*config.Config{}
	}
	e.own[agent] = c
	return c
}

// guardSkips says, per hook, why it is not run as a repeat of a guard that already runs for this
// call ("" to run it).
func (e *Engine) guardSkips(agent dialect.Name, spec *dialect.Spec, kind dialect.Kind, hooks []*config.Hook, payload []byte) []string {
	skips := make([]string, len(hooks))
	keys := make([]string, len(hooks))
	found := false
	for i, h := range hooks {
		if !h.SelfRun {
			keys[i] = e.guardKey(h)
			found = found || keys[i] != ""
		}
	}
	if !found {
		return skips // no guard among the hooks: nothing to compare, no file to read
	}
	ran := map[string]string{} // guard key → who runs it
	runs := func(h *config.Hook) bool {
		_, _, _, why, err := e.prepare(spec, h, payload)
		return err == nil && why == ""
	}
	if own := e.ownConfig(agent); own != nil {
		for _, h := range own.HooksFor(spec.Dialect, spec.Name, kind) {
			if h.Source.Family != agent {
				continue
			}
			if k := e.guardKey(h); k != "" && ran[k] == "" && runs(h) {
				ran[k] = fmt.Sprintf("%s runs this guard itself for this call (%s)", agent, h.Pos)
			}
		}
		// Cursor fires two events for one shell call (preToolUse for the Shell tool, and
		// beforeShellExecution): a guard it runs on the other one runs for this call too.
		if sib, sibSpec, body := e.siblingEvent(spec, payload); sib != "" {
			for _, h := range own.HooksFor(spec.Dialect, sib, sibSpec.Kind) {
				if k := e.guardKey(h); k != "" && ran[k] == "" && h.Source.Family == agent && skipReason(sibSpec, h, body) == "" {
					ran[k] = fmt.Sprintf("%s runs this guard itself for this call, on %s (%s)", agent, sib, h.Pos)
				}
			}
		}
	}
	for i, h := range hooks {
		k := keys[i]
		if k == "" || !runs(h) {
			continue
		}
		if by := ran[k]; by != "" {
			skips[i] = "the same guard already runs: " + by
			continue
		}
		ran[k] = fmt.Sprintf("agenthooks runs it here (%s)", h.Pos)
	}
	return skips
}

// siblingEvent names the other event Cursor fires for the same call, with its spec and payload:
// beforeShellExecution (or beforeReadFile, beforeMCPExecution) for a preToolUse of the tool it
// is about. "" when there is none.
func (e *Engine) siblingEvent(spec *dialect.Spec, payload []byte) (string, *dialect.Spec, []byte) {
	if !agentFor(spec.Dialect).PreToolSiblings || spec.Kind != dialect.PreTool {
		return "", nil, nil
	}
	var p struct {
		ToolName string `json:"tool_name"`
	}
	if json.Unmarshal(payload, &p) != nil {
		return "", nil, nil
	}
	kind := claude.ToolKind("PreToolUse", translate.ClaudeTool(p.ToolName, "", nil))
	if kind == dialect.PreTool {
		return "", nil, nil
	}
	name := translate.EventFor(spec.Dialect, kind)
	sib, ok := dialectFor(spec.Dialect).Lookup(name)
	if !ok {
		return "", nil, nil
	}
	body, _, err := e.translatePayload(spec, payload, spec.Dialect, name)
	if err != nil {
		return "", nil, nil
	}
	return name, sib, body
}
