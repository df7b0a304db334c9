package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/wiring"
)

// Wiring. A machine's team sync reads, for each agent on the machine, what agenthooks doctor
// reads of the agent's config files (package wiring, without its canary): whether an
// agenthooks guard is registered for the agent's shell tool (and fail-closed), whether the
// program it names resolves, and which of the agent's own settings switch its hooks off. The
// server keeps each member token's last report whole; the protection table's status says
// "enforcing" only for an agent whose guard is wired, not switched off, and matched every call.

// WiringReport is what a machine uploads of how its agents run the guard. It is untrusted
// input: Check bounds every field.
type WiringReport struct {
	// Machine is the name the machine gives itself (not stored: the token names the machine).
	Machine      string        `json:"machine"`
	GuardVersion string        `json:"guard_version"`
	Agents       []WiringAgent `json:"agents"`
}

// WiringAgent is one agent's wiring on a machine.
type WiringAgent struct {
	Agent   string `json:"agent"`
	Version string `json:"agent_version,omitempty"` // "" when the machine does not know it
	// State is agenthooks doctor's word for the agent without the canary: ok, warn, fail or not
	// registered.
	State      string   `json:"state"`
	Registered bool     `json:"registered"`
	FailClosed bool     `json:"fail_closed"`
	Resolves   bool     `json:"resolves"`
	DisabledBy []string `json:"disabled_by"`
}

// Limits on a wiring report.
const (
	maxWiringAgents   = 100
	maxWiringAgent    = 64
	maxWiringSettings = 10
	maxWiringSetting  = 500
	MaxWiringBody     = 64 << 10
)

// wiringStates are the states a machine may report of an agent.
var wiringStates = []string{"ok", "warn", "fail", "not registered"}

// Check says what is wrong with a report, naming the field.
func (c *WiringReport) Check() error {
	if c.Machine == "" || len(c.Machine) > maxMachineName {
		return errors.New("machine: a name of 1 to 200 characters is required")
	}
	if err := checkText("guard_version", c.GuardVersion, maxCoverageText); err != nil {
		return err
	}
	if len(c.Agents) > maxWiringAgents {
		return fmt.Errorf("agents: at most %d, got %d", maxWiringAgents, len(c.Agents))
	}
	seen := map[string]bool{}
	for i, a := range c.Agents {
		at := fmt.Sprintf("agents[%d]", i)
		switch {
		case a.Agent == "" || len(a.Agent) > maxWiringAgent || strings.TrimFunc(a.Agent, agentNameRune) != "":
			return fmt.Errorf("%s.agent: 1 to %d lower-case letters, digits, - or _ are required, got %q", at, maxWiringAgent, clipText(a.Agent))
		case seen[a.Agent]:
			return fmt.Errorf("%s.agent: %s is listed twice", at, a.Agent)
		case !slices.Contains(wiringStates, a.State):
			return fmt.Errorf("%s.state: want one of %s, got %q", at, strings.Join(wiringStates, ", "), clipText(a.State))
		case len(a.DisabledBy) > maxWiringSettings:
			return fmt.Errorf("%s.disabled_by: at most %d settings, got %d", at, maxWiringSettings, len(a.DisabledBy))
		}
		seen[a.Agent] = true
		if err := checkText(at+".agent_version", a.Version, maxCoverageText); err != nil {
			return err
		}
		for j, s := range a.DisabledBy {
			if s == "" {
				return fmt.Errorf("%s.disabled_by[%d]: empty", at, j)
			}
			if err := checkText(fmt.Sprintf("%s.disabled_by[%d]", at, j), s, maxWiringSetting); err != nil {
				return err
			}
		}
	}
	return nil
}

func agentNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}

// checkText refuses text longer than limit bytes, or that is not printable UTF-8 on one line.
func checkText(field, s string, limit int) error {
	switch {
	case len(s) > limit:
		return fmt.Errorf("%s: at most %d bytes, got %d", field, limit, len(s))
	case !utf8.ValidString(s):
		return fmt.Errorf("%s: not valid UTF-8", field)
	case strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0:
		return fmt.Errorf("%s: control or unprintable characters are not allowed", field)
	}
	return nil
}

// clipText shortens a refused value for an error message.
func clipText(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}

// PutWiring replaces a member token's wiring report.
func (s *Store) PutWiring(ctx context.Context, tok *Token, c *WiringReport) error {
	if err := c.Check(); err != nil {
		return err
	}
	now := micros(s.Now())
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.exec(ctx, tx, `DELETE FROM wiring WHERE token_id = ?`, tok.ID); err != nil {
			return err
		}
		for _, a := range c.Agents {
			disabled, _ := json.Marshal(nonNil(a.DisabledBy))
			if _, err := s.exec(ctx, tx, `INSERT INTO wiring (token_id, agent, agent_version, guard_version, state, registered, fail_closed, resolves, disabled_by, reported)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tok.ID, a.Agent, a.Version, c.GuardVersion, a.State, bit(a.Registered), bit(a.FailClosed),
				bit(a.Resolves), string(disabled), now); err != nil {
				return err
			}
		}
		if len(c.Agents) == 0 {
			// No agent on the machine: one row says the machine reported.
			if _, err := s.exec(ctx, tx, `INSERT INTO wiring (token_id, agent, guard_version, reported) VALUES (?, '', ?, ?)`,
				tok.ID, c.GuardVersion, now); err != nil {
				return err
			}
		}
		return nil
	})
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MachineWiring is what a machine last reported of one agent's wiring.
type MachineWiring struct {
	// State is agenthooks doctor's word for the agent (without the canary); "not installed"
	// when the machine's report did not list the agent, whose calls its transcripts hold.
	State      string    `json:"state"`
	Registered bool      `json:"registered"`
	FailClosed bool      `json:"fail_closed"`
	Resolves   bool      `json:"resolves"`
	DisabledBy []string  `json:"disabled_by"`
	Reported   time.Time `json:"reported"`
}

// problem is why the wiring lets a call through unguarded, "" when the guard is wired
// (wiring.Wiring.Problem).
func (w *MachineWiring) problem() string {
	return wiring.Wiring{Registered: w.Registered, Resolves: w.Resolves, DisabledBy: w.DisabledBy}.Problem()
}

// wiringRow is one stored agent's wiring with its version and the guard's.
type wiringRow struct {
	agent, version, guard string
	w                     MachineWiring
}

// teamWiring reads the wiring reports of a team's member tokens, by token.
func (s *Store) teamWiring(ctx context.Context, team string) (map[string][]wiringRow, error) {
	rows, err := s.query(ctx, `SELECT w.token_id, w.agent, w.agent_version, w.guard_version, w.state, w.registered, w.fail_closed, w.resolves, w.disabled_by, w.reported
		FROM wiring w JOIN tokens t ON t.id = w.token_id WHERE t.team_id = ?`, team)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]wiringRow{}
	for rows.Next() {
		var r wiringRow
		var token, disabled string
		var registered, failClosed, resolves int
		var reported int64
		if err := rows.Scan(&token, &r.agent, &r.version, &r.guard, &r.w.State, &registered, &failClosed, &resolves, &disabled, &reported); err != nil {
			return nil, err
		}
		r.w.Registered, r.w.FailClosed, r.w.Resolves = registered == 1, failClosed == 1, resolves == 1
		if json.Unmarshal([]byte(disabled), &r.w.DisabledBy) != nil || r.w.DisabledBy == nil {
			r.w.DisabledBy = []string{}
		}
		r.w.Reported = fromMicros(reported)
		out[token] = append(out[token], r)
	}
	return out, rows.Err()
}

func (s *Server) postWiring(w http.ResponseWriter, r *http.Request, tok *Token) {
	if tok.Kind != Member {
		writeError(w, http.StatusForbidden, "wiring is reported with a member token")
		return
	}
	c, ok := decodeBody[WiringReport](w, r, MaxWiringBody)
	if !ok {
		return
	}
	if err := c.Check(); err != nil {
		writeError(w, http.StatusBadRequest, "%s", err)
		return
	}
	if err := s.store.PutWiring(r.Context(), tok, c); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"agents": len(c.Agents)})
}
