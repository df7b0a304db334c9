package server

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// Protection coverage. A machine's team sync runs agenthooks status --coverage (package
// coverage) over its agents' own transcripts and uploads the counts per agent and agent
// version: tool calls, and those no agenthooks decision matched. The server keeps each member
// token's last report whole, and the team page shows it per machine beside the machine's audit
// chain status, with per-hook latency percentiles from the uploaded audit runs against a
// threshold the team sets.

// CoverageReport is what a machine uploads of its agents' tool calls.
type CoverageReport struct {
	// Machine is the name the machine gives itself (not stored: the token names the machine).
	Machine string `json:"machine"`
	// GuardVersion is the agenthooks version on the machine.
	GuardVersion string          `json:"guard_version"`
	Since        time.Time       `json:"since"` // the window read, to the upload
	Agents       []CoverageAgent `json:"agents"`
}

// CoverageAgent is one agent version's figures on a machine.
type CoverageAgent struct {
	Agent     string     `json:"agent"`
	Version   string     `json:"agent_version"`
	Sessions  int64      `json:"sessions"`
	Calls     int64      `json:"calls"`
	Unguarded int64      `json:"unguarded"`
	LastCall  *time.Time `json:"last_call,omitempty"`
}

// Limits on a coverage report.
const (
	maxCoverageAgents = 100
	maxCoverageText   = 200
	MaxCoverageBody   = 64 << 10
)

// Check says what is wrong with a report.
func (c *CoverageReport) Check() error {
	if c.Machine == "" || len(c.Machine) > maxMachineName {
		return errors.New("machine: a name of 1 to 200 characters is required")
	}
	if len(c.GuardVersion) > maxCoverageText {
		return fmt.Errorf("guard_version: at most %d characters", maxCoverageText)
	}
	if c.Since.IsZero() {
		return errors.New("since is required")
	}
	if len(c.Agents) > maxCoverageAgents {
		return fmt.Errorf("agents: at most %d, got %d", maxCoverageAgents, len(c.Agents))
	}
	seen := map[[2]string]bool{}
	for i, a := range c.Agents {
		switch {
		case a.Agent == "" || len(a.Agent) > maxCoverageText || len(a.Version) > maxCoverageText:
			return fmt.Errorf("agents[%d]: agent (1 to %d characters) and agent_version (at most %d) are required", i, maxCoverageText, maxCoverageText)
		case a.Calls < 0 || a.Unguarded < 0 || a.Sessions < 0 || a.Unguarded > a.Calls:
			return fmt.Errorf("agents[%d]: counts must be 0 or more, unguarded at most calls", i)
		case seen[[2]string{a.Agent, a.Version}]:
			return fmt.Errorf("agents[%d]: %s %s is listed twice", i, a.Agent, a.Version)
		}
		seen[[2]string{a.Agent, a.Version}] = true
	}
	return nil
}

// PutCoverage replaces a member token's coverage report.
func (s *Store) PutCoverage(ctx context.Context, tok *Token, c *CoverageReport) error {
	if err := c.Check(); err != nil {
		return err
	}
	now := micros(s.Now())
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.exec(ctx, tx, `DELETE FROM coverage WHERE token_id = ?`, tok.ID); err != nil {
			return err
		}
		for _, a := range c.Agents {
			var last any
			if a.LastCall != nil {
				last = micros(*a.LastCall)
			}
			if _, err := s.exec(ctx, tx, `INSERT INTO coverage (token_id, agent, agent_version, guard_version, sessions, calls, unguarded, last_call, since, reported)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tok.ID, a.Agent, a.Version, c.GuardVersion, a.Sessions, a.Calls, a.Unguarded,
				last, micros(c.Since), now); err != nil {
				return err
			}
		}
		if len(c.Agents) == 0 {
			// No agent made a call in the window: one row says the machine reported.
			if _, err := s.exec(ctx, tx, `INSERT INTO coverage (token_id, agent, agent_version, guard_version, since, reported)
				VALUES (?, '', '', ?, ?, ?)`, tok.ID, c.GuardVersion, micros(c.Since), now); err != nil {
				return err
			}
		}
		return nil
	})
}

// MachineCoverage is one row of the team page's protection table: a machine (member token)
// and one of its agents' versions.
type MachineCoverage struct {
	Machine      string     `json:"machine"`
	TokenID      string     `json:"token_id"`
	Agent        string     `json:"agent,omitempty"`
	Version      string     `json:"agent_version,omitempty"`
	GuardVersion string     `json:"guard_version,omitempty"`
	Sessions     int64      `json:"sessions"`
	Calls        int64      `json:"calls"`
	Unguarded    int64      `json:"unguarded"`
	LastCall     *time.Time `json:"last_call,omitempty"`
	Reported     *time.Time `json:"reported,omitempty"` // the coverage report; nil: none
	LastSeen     *time.Time `json:"last_seen,omitempty"`
	// Wiring is what the machine last reported of how the agent runs the guard; nil when it
	// sent no wiring report (an agenthooks older than the report).
	Wiring *MachineWiring `json:"wiring,omitempty"`
	// Status is, first to apply: not wired (no agenthooks guard on the agent's shell tool, a
	// program that does not resolve, or an agent the wiring report does not list), disabled by
	// and the agent's settings that switch the guard off, gaps (calls no decision matched),
	// enforcing (wired, not switched off, every call matched), no wiring report (the calls all
	// matched, but the machine did not say how the agent is wired), no calls (a machine that
	// reported no agent), or no report.
	Status string       `json:"status"`
	Chain  *ChainStatus `json:"audit_chain,omitempty"`
}

// protectionStatus names what a row says, in the order MachineCoverage.Status gives.
func protectionStatus(m *MachineCoverage, wiringReported bool) string {
	switch {
	case m.Reported == nil && !wiringReported:
		return "no report"
	case m.Agent == "":
		return "no calls"
	case m.Wiring != nil && m.Wiring.problem() != "":
		return m.Wiring.problem()
	case m.Unguarded > 0:
		return "gaps"
	case m.Wiring != nil:
		return "enforcing"
	}
	return "no wiring report"
}

// Protection returns the protection table of a team: each active member token's last
// coverage report, one row per agent version, with the agent's last reported wiring (an agent
// the wiring report lists with no call has a row of its own; a machine that never reported has
// one row) and the machine's audit chain status; machines with unguarded calls first, then
// those whose guard is not enforcing.
func (s *Store) Protection(ctx context.Context, team string) ([]MachineCoverage, error) {
	tokens, err := s.Tokens(ctx, team)
	if err != nil {
		return nil, err
	}
	rows, err := s.query(ctx, `SELECT c.token_id, c.agent, c.agent_version, c.guard_version, c.sessions, c.calls, c.unguarded, c.last_call, c.reported
		FROM coverage c JOIN tokens t ON t.id = c.token_id WHERE t.team_id = ?`, team)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byToken := map[string][]MachineCoverage{}
	for rows.Next() {
		var m MachineCoverage
		var last sql.NullInt64
		var reported int64
		if err := rows.Scan(&m.TokenID, &m.Agent, &m.Version, &m.GuardVersion, &m.Sessions, &m.Calls, &m.Unguarded, &last, &reported); err != nil {
			return nil, err
		}
		if last.Valid {
			t := fromMicros(last.Int64)
			m.LastCall = &t
		}
		r := fromMicros(reported)
		m.Reported = &r
		byToken[m.TokenID] = append(byToken[m.TokenID], m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	wired, err := s.teamWiring(ctx, team)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	var out []MachineCoverage
	for _, t := range tokens {
		if !t.Active(now) {
			continue
		}
		ms := withWiring(t.ID, byToken[t.ID], wired[t.ID])
		for _, m := range ms {
			m.Machine, m.Chain, m.LastSeen = t.Name, t.AuditChain, t.LastUsed
			m.Status = protectionStatus(&m, len(wired[t.ID]) > 0)
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b MachineCoverage) int {
		return cmp.Or(cmp.Compare(b.Unguarded, a.Unguarded), cmp.Compare(rank(a.Status), rank(b.Status)), cmp.Compare(a.Machine, b.Machine),
			cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Version, b.Version))
	})
	return out, nil
}

// Unprotected reports whether the row shows calls that went, or may go, unguarded: unguarded
// calls, a guard not wired or switched off.
func (m MachineCoverage) Unprotected() bool { return m.Unguarded > 0 || rank(m.Status) == 0 }

// rank orders statuses for the table: what lets calls through unguarded first.
func rank(status string) int {
	switch {
	case status == "not wired" || strings.HasPrefix(status, "disabled by "):
		return 0
	case status == "enforcing":
		return 2
	}
	return 1
}

// withWiring joins a machine's coverage rows (one per agent version that made calls; one with
// no agent when none did) with its wiring rows (one per agent present; one with no agent when
// none is): each agent's wiring goes on each of its rows, an agent with wiring and no calls
// gets a row, and an agent with calls that a wiring report leaves out is marked not installed.
func withWiring(token string, cov []MachineCoverage, wired []wiringRow) []MachineCoverage {
	byAgent := map[string]*wiringRow{}
	for i := range wired {
		if wired[i].agent != "" {
			byAgent[wired[i].agent] = &wired[i]
		}
	}
	var out []MachineCoverage
	hasCalls := map[string]bool{}
	for _, m := range cov {
		if m.Agent == "" {
			continue
		}
		hasCalls[m.Agent] = true
		if w := byAgent[m.Agent]; w != nil {
			wc := w.w
			m.Wiring = &wc
		} else if len(wired) > 0 {
			m.Wiring = &MachineWiring{State: "not installed", DisabledBy: []string{}, Reported: wired[0].w.Reported}
		}
		out = append(out, m)
	}
	for _, w := range wired {
		if w.agent == "" || hasCalls[w.agent] {
			continue
		}
		wc := w.w
		m := MachineCoverage{TokenID: token, Agent: w.agent, Version: w.version, GuardVersion: w.guard, Wiring: &wc}
		if len(cov) > 0 {
			m.Reported = cov[0].Reported // the coverage report counted no call of this agent
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		m := MachineCoverage{TokenID: token}
		if len(cov) > 0 {
			m = cov[0]
		} else if len(wired) > 0 {
			m.GuardVersion = wired[0].guard
		}
		out = append(out, m)
	}
	return out
}

// LatencyThreshold is the team's hook latency threshold (p95), 0 when none is set.
func (s *Store) LatencyThreshold(ctx context.Context, team string) (time.Duration, error) {
	var ms int64
	err := s.queryRow(ctx, nil, `SELECT latency_threshold_ms FROM team_settings WHERE team_id = ?`, team).Scan(&ms)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return time.Duration(ms) * time.Millisecond, err
}

// MaxLatencyThreshold bounds the threshold a team sets.
const MaxLatencyThreshold = 10 * time.Minute

// SetLatencyThreshold sets the team's hook latency threshold (0 removes it), and logs it.
func (s *Store) SetLatencyThreshold(ctx context.Context, team string, d time.Duration, actor string) error {
	if d < 0 || d > MaxLatencyThreshold {
		return fmt.Errorf("%w: the latency threshold must be from 0 to %v", errBadRequest, MaxLatencyThreshold)
	}
	if _, err := s.Team(ctx, team); err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.exec(ctx, tx, `INSERT INTO team_settings (team_id, latency_threshold_ms) VALUES (?, ?)
			ON CONFLICT (team_id) DO UPDATE SET latency_threshold_ms = excluded.latency_threshold_ms`, team, d.Milliseconds()); err != nil {
			return err
		}
		return s.logAction(ctx, tx, actor, "set latency threshold", team, d.String())
	})
}

// HookLatency is one hook's run times across a team's machines.
type HookLatency struct {
	Hook string        `json:"hook"`
	Runs int           `json:"runs"`
	P50  time.Duration `json:"p50"`
	P95  time.Duration `json:"p95"`
	P99  time.Duration `json:"p99"`
	Max  time.Duration `json:"max"`
	Over bool          `json:"over_threshold"` // p95 above the team's threshold
}

// maxLatencyEvents bounds the audit events one latency table reads (the newest).
const maxLatencyEvents = 20000

// HooksLatency computes each hook's latency percentiles from the runs of the team's audit
// events since since (the newest maxLatencyEvents of them), slowest p95 first, marking those
// whose p95 is above threshold (when it is set).
func (s *Store) HooksLatency(ctx context.Context, team string, since time.Time, threshold time.Duration) ([]HookLatency, error) {
	rows, err := s.query(ctx, `SELECT runs FROM audit_events WHERE team_id = ? AND ts >= ? ORDER BY ts DESC LIMIT ?`,
		team, micros(since), maxLatencyEvents)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	durations := map[string][]time.Duration{}
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return nil, err
		}
		var runs []audit.Run
		if json.Unmarshal([]byte(text), &runs) != nil {
			continue
		}
		for _, r := range runs {
			if r.Verdict == "skipped" || r.Duration < 0 {
				continue
			}
			h := cmdOrHook(r)
			durations[h] = append(durations[h], r.Duration)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]HookLatency, 0, len(durations))
	for h, ds := range durations {
		slices.Sort(ds)
		l := HookLatency{Hook: h, Runs: len(ds), P50: percentile(ds, 50), P95: percentile(ds, 95), P99: percentile(ds, 99), Max: ds[len(ds)-1]}
		l.Over = threshold > 0 && l.P95 > threshold
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b HookLatency) int { return cmp.Or(cmp.Compare(b.P95, a.P95), cmp.Compare(a.Hook, b.Hook)) })
	return out, nil
}

// percentile is the nearest-rank p-th percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := max(1, (len(sorted)*p+99)/100)
	return sorted[k-1]
}
