package teamsync

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/coverage"
	"github.com/agenthooks/agenthooks/internal/buildinfo"
)

// CoverageWindow is how far back a sync's coverage report reads the agents' transcripts.
const CoverageWindow = 7 * 24 * time.Hour

// coverageReport is what a sync uploads of this machine's protection (server.CoverageReport):
// per agent and agent version, the shell and file tool calls its transcripts hold and those no
// agenthooks decision in the audit trail matched (package coverage).
type coverageReport struct {
	Machine      string          `json:"machine"`
	GuardVersion string          `json:"guard_version"`
	Since        time.Time       `json:"since"`
	Agents       []coverageAgent `json:"agents"`
}

type coverageAgent struct {
	Agent     string     `json:"agent"`
	Version   string     `json:"agent_version"`
	Sessions  int        `json:"sessions"`
	Calls     int        `json:"calls"`
	Unguarded int        `json:"unguarded"`
	LastCall  *time.Time `json:"last_call,omitempty"`
}

// uploadCoverage reads this machine's agents' transcripts of the last CoverageWindow against
// the audit trail and sends the counts to the server. It returns the unguarded calls counted,
// and each agent's version in its newest call. A server that predates coverage (404) is not an
// error: the report is for servers that keep it.
func (o *Options) uploadCoverage(ctx context.Context) (int, map[string]string, error) {
	versions := map[string]string{}
	if !auditExists(o.AuditDB) {
		return 0, versions, nil
	}
	store, err := audit.Open(o.AuditDB)
	if err != nil {
		return 0, versions, err
	}
	defer store.Close()
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	since := time.Now().Add(-CoverageWindow).UTC()
	rep, err := coverage.Run(ctx, store, coverage.Options{Home: o.Home, Getenv: getenv, Since: since})
	if err != nil {
		return 0, versions, err
	}
	newest := map[string]time.Time{}
	for _, a := range rep.Agents {
		if t, seen := newest[a.Agent]; a.Version != "" && (!seen || a.Last.After(t)) {
			versions[a.Agent], newest[a.Agent] = a.Version, a.Last
		}
	}
	up := coverageReport{Machine: o.Machine, GuardVersion: o.GuardVersion, Since: since, Agents: []coverageAgent{}}
	if up.GuardVersion == "" {
		up.GuardVersion = buildinfo.Version()
	}
	for _, a := range rep.Agents {
		c := coverageAgent{Agent: a.Agent, Version: a.Version, Sessions: a.Sessions, Calls: a.Calls, Unguarded: a.Unguarded}
		if !a.Last.IsZero() {
			last := a.Last
			c.LastCall = &last
		}
		up.Agents = append(up.Agents, c)
	}
	body, _ := json.Marshal(up)
	code, err := o.post(ctx, "/api/v1/teams/"+url.PathEscape(o.Team)+"/coverage", body)
	if code == http.StatusNotFound {
		return rep.Unguarded, versions, nil
	}
	return rep.Unguarded, versions, err
}

// auditExists reports whether the audit trail at db has anything: the database, or only the
// spool hook processes append to (the database is made at the first ingest).
func auditExists(db string) bool {
	for _, p := range []string{db, audit.SpoolPath(db)} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}
