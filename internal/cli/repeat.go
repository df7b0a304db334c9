package cli

import (
	"fmt"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
)

// stepAside is the outcome of an agenthooks entry in another agent's hooks file that the calling
// agent's own entry repeats (engine.Repeat): it exits 0 with no answer, saying why on stderr.
type stepAside struct{ why string }

func (s stepAside) Error() string { return s.why }

// repeated says, when the call r reached agenthooks through an entry in another agent's file and
// the calling agent's own files run the same entry for it, why this call steps aside; nil to run.
func repeated(e *env, r engine.Repeat, workspaces []string) error {
	caller := r.Caller()
	if caller == nil {
		return nil
	}
	env := config.Env{Home: e.home(), EnterpriseDir: e.getenv("AGENTHOOKS_ENTERPRISE_DIR"),
		ClaudeManagedDir: e.getenv("AGENTHOOKS_CLAUDE_MANAGED_DIR"), CodexHome: e.getenv("CODEX_HOME"),
		Getenv: e.getenv, Workspaces: workspaces}
	where := engine.New(&config.Config{}, engine.Options{Env: env, Self: e.agenthooks()}).OwnEntry(r)
	if where == "" {
		return nil
	}
	what := "agenthooks run"
	if r.Guard != "" {
		what = "agenthooks guard " + r.Guard
	}
	return stepAside{fmt.Sprintf("%s calls this %s entry of %s's hooks file, and runs the same entry of its own for this call (%s): this one steps aside",
		caller.Title, what, agentTitle(r.In), where)}
}
