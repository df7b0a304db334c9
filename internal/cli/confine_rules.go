package cli

import (
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/shell"
)

// agentRuleFor says why the agent whose shell tool the rewrite would run in keeps call's
// command from being rewritten: the first of its own deny or ask rules that names the command
// ("... names it"), or a file of its rules that agenthooks cannot read as the agent does; ""
// when nothing does. Each agent's reader is its descriptor's OwnRules. An agent whose rules
// agenthooks does not read gets no rewrite: the rewritten command would no longer match a rule
// of the agent's that stops the original.
func agentRuleFor(e *env, agent string, call shellCall) string {
	a, ok := agents.Lookup(agent)
	if !ok {
		return ""
	}
	if a.OwnRules == nil {
		return "agenthooks does not read " + a.Title + "'s own permission rules, and a rewritten command would slip past them"
	}
	q := dialect.RulesQuery{Command: call.command, Cwd: call.cwd, Project: call.project, Home: e.home(), Getenv: e.getenv}
	q.UserDir, _ = a.UserDir(e.home(), e.getenv)
	for _, inv := range shell.Analyze(call.command, shell.Options{Home: e.home(), Cwd: call.cwd}).Invocations {
		words := make([]string, len(inv.Args))
		for i, w := range inv.Args {
			words[i] = w.Display()
		}
		q.Calls = append(q.Calls, dialect.RulesCall{Words: words, Wrappers: inv.Wrappers})
	}
	for _, c := range config.AgentCandidates(config.Env{Home: e.home(), Workspaces: []string{call.project}, Getenv: e.getenv}, a) {
		q.Files = append(q.Files, c.Path)
	}
	return a.OwnRules(q)
}
