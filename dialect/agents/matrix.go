package agents

import (
	"encoding/json"
	"slices"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Capabilities lists the capabilities the matrix shows, in its order.
var Capabilities = []dialect.Capability{dialect.CapBlock, dialect.CapAsk, dialect.CapRewrite, dialect.CapContext}

// Support is one capability on one event: whether the agent honours it and how that is known.
type Support struct {
	Can bool `json:"can"`
	// Proof is "e2e" when a test of the e2e suite shows it inside the real agent (Test names it),
	// "fixtures" when the agent's dialect tests show it against fixtures from the agent's source
	// or documentation. Empty when the agent cannot.
	Proof string `json:"proof,omitempty"`
	Test  string `json:"test,omitempty"`
}

// EventRow is one of an agent's events and what a hook's answer can do on it.
type EventRow struct {
	Event   string       `json:"event"`
	Kind    dialect.Kind `json:"kind,omitempty"`
	Block   Support      `json:"block"`
	Ask     Support      `json:"ask"`
	Rewrite Support      `json:"rewrite"`
	Context Support      `json:"context"`
}

// Support returns the row's support of c.
func (r *EventRow) Support(c dialect.Capability) *Support {
	switch c {
	case dialect.CapBlock:
		return &r.Block
	case dialect.CapAsk:
		return &r.Ask
	case dialect.CapRewrite:
		return &r.Rewrite
	}
	return &r.Context
}

// AgentRow is one registered agent's part of the matrix.
type AgentRow struct {
	Name  dialect.Name `json:"name"`
	Title string       `json:"title"`
	// E2E: the e2e suite runs the real agent.
	E2E bool `json:"e2e"`
	// AlsoRuns are the other agents whose hooks files the agent runs as well as its own
	// (Agent.Reads).
	AlsoRuns []AlsoRuns `json:"also_runs,omitempty"`
	Events   []EventRow `json:"events"`
}

// AlsoRuns is another agent whose hooks files an agent runs too: at which scopes (none: all),
// and the setting that turns it on ("" when always).
type AlsoRuns struct {
	Agent   dialect.Name    `json:"agent"`
	Scopes  []dialect.Scope `json:"scopes,omitempty"`
	Setting string          `json:"setting,omitempty"`
	// SameFile: install writes the one file for both agents, so agenthooks runs once per call.
	SameFile bool `json:"same_file,omitempty"`
}

// Matrix is the capability matrix of every registered agent, in listing order, derived from
// the agents' descriptors and dialects (an answer written by the agent's own encoder and read
// back by its own Interpret) and from the e2e tests that prove a capability inside the agent
// (Agent.Proven).
func Matrix() []AgentRow {
	var out []AgentRow
	for _, a := range all {
		row := AgentRow{Name: a.Name, Title: a.Title}
		for _, r := range a.Reads {
			o := Get(r.Agent)
			row.AlsoRuns = append(row.AlsoRuns, AlsoRuns{Agent: r.Agent, Scopes: r.Scopes, Setting: r.Setting, SameFile: o != nil && a.SharesInstallFile(o)})
		}
		d := a.Dialect(dialect.AskAsDeny)
		names := slices.Clone(d.Names())
		for _, name := range names {
			ev, ok := d.Lookup(name)
			if !ok {
				continue
			}
			er := EventRow{Event: name, Kind: ev.Kind}
			for _, c := range Capabilities {
				if !can(a, d, ev, c) {
					continue
				}
				s := er.Support(c)
				s.Can, s.Proof = true, "fixtures"
				if t := proof(a, name, c); t != "" {
					s.Proof, s.Test = "e2e", t
					row.E2E = true
				}
			}
			row.Events = append(row.Events, er)
		}
		row.E2E = len(a.Proven) > 0
		out = append(out, row)
	}
	return out
}

// can reports whether the agent honours c on ev: its descriptor does not say the answer loses
// it, and the agent's own encoder writes it in a form its own Interpret reads back.
func can(a *dialect.Agent, d dialect.Dialect, ev *dialect.Spec, c dialect.Capability) bool {
	var dec decide.Decision
	switch c {
	case dialect.CapBlock:
		if !ev.Gates {
			return false
		}
		dec = decide.Decision{Permission: decide.Deny, UserMessage: "no", AgentMessage: "no"}
	case dialect.CapAsk:
		if !ev.Gates || !a.Answer.CanAsk {
			return false
		}
		dec = decide.Decision{Permission: decide.Ask, UserMessage: "sure?", AgentMessage: "sure?"}
	case dialect.CapRewrite:
		if a.Answer.Rewrite == nil {
			return false
		}
		dec = decide.Decision{Permission: decide.Allow, UpdatedInput: json.RawMessage(`{"command":"true"}`)}
	case dialect.CapContext:
		dec = decide.Decision{AdditionalContext: "context"}
	}
	if a.Answer.Loses != nil && len(a.Answer.Loses(ev, dec)) > 0 {
		return false
	}
	r := d.Encode(ev, dec)
	o := d.Interpret(ev, r.ExitCode, r.Stdout, r.Stderr, 0)
	if o.Failed {
		return false
	}
	got := o.Answer
	switch c {
	case dialect.CapBlock:
		return got.Permission == decide.Deny
	case dialect.CapAsk:
		return got.Permission == decide.Ask
	case dialect.CapRewrite:
		return len(got.UpdatedInput) > 0
	}
	return got.AdditionalContext != ""
}

// proof names the e2e test that proves c on the agent's event, "" for none.
func proof(a *dialect.Agent, event string, c dialect.Capability) string {
	for _, p := range a.Proven {
		if p.Event == event && p.Can == c {
			return p.Test
		}
	}
	return ""
}
