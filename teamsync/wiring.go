package teamsync

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/buildinfo"
	"github.com/agenthooks/agenthooks/wiring"
)

// wiringReport is what a sync uploads of how this machine's agents run the guard
// (server.WiringReport): for each agent present, what agenthooks doctor reads of its config
// files, without its canary (package wiring).
type wiringReport struct {
	Machine      string        `json:"machine"`
	GuardVersion string        `json:"guard_version"`
	Agents       []AgentWiring `json:"agents"`
}

// AgentWiring is one agent's wiring on this machine as a sync reports it.
type AgentWiring struct {
	Agent string `json:"agent"`
	// Version is the agent's version when known: the one its newest transcripted call of the
	// coverage window carries.
	Version string `json:"agent_version,omitempty"`
	// State is agenthooks doctor's word for the agent without the canary: ok, warn, fail or not
	// registered.
	State      string   `json:"state"`
	Registered bool     `json:"registered"`
	FailClosed bool     `json:"fail_closed"`
	Resolves   bool     `json:"resolves"`
	DisabledBy []string `json:"disabled_by"`
}

// Problem is why the agent would run a call unguarded, "" when its guard is wired: "not
// wired" (no agenthooks guard on its shell tool, or a program that does not resolve) or
// "disabled by" and the agent's own settings that switch it off.
func (a AgentWiring) Problem() string {
	return wiring.Wiring{Registered: a.Registered, Resolves: a.Resolves, DisabledBy: a.DisabledBy}.Problem()
}

// checkWiring reads every agent's config files on this machine (the user's, the team's and the
// machine-wide ones; no project's) and returns the wiring of each agent present, with its
// version from versions when known. It starts no process.
func (o *Options) checkWiring(ctx context.Context, versions map[string]string) []AgentWiring {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env := config.Env{Home: o.Home, ClaudeManagedDir: o.ClaudeDir, Getenv: getenv}
	cfg := config.Load(config.CandidatesOf(env), config.NewTrustStore(o.Home).Check())
	rep := wiring.Check(ctx, cfg, wiring.Options{Home: o.Home, Getenv: getenv})
	out := []AgentWiring{}
	for _, ag := range rep.Agents {
		if ag.State == wiring.StateNotInstalled {
			continue
		}
		w := ag.Wiring
		out = append(out, AgentWiring{Agent: string(ag.Agent), Version: versions[string(ag.Agent)], State: ag.State,
			Registered: w.Registered, FailClosed: w.FailClosed, Resolves: w.Resolves, DisabledBy: append([]string{}, w.DisabledBy...)})
	}
	return out
}

// uploadWiring sends this machine's wiring to the server. A server that predates the report
// (404) is not an error.
func (o *Options) uploadWiring(ctx context.Context, agents []AgentWiring) error {
	up := wiringReport{Machine: o.Machine, GuardVersion: o.GuardVersion, Agents: agents}
	if up.GuardVersion == "" {
		up.GuardVersion = buildinfo.Version()
	}
	body, _ := json.Marshal(up)
	code, err := o.post(ctx, "/api/v1/teams/"+url.PathEscape(o.Team)+"/wiring", body)
	if code == http.StatusNotFound {
		return nil
	}
	return err
}
