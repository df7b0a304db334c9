package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func wiringOf(machine string, agents ...WiringAgent) WiringReport {
	return WiringReport{Machine: machine, GuardVersion: "v1.5.0", Agents: agents}
}

// wired is an agent whose guard is registered fail-closed, resolves and is not switched off.
func wired(agent, version string) WiringAgent {
	return WiringAgent{Agent: agent, Version: version, State: "ok", Registered: true, FailClosed: true, Resolves: true}
}

// TestWiringStatus: with each machine's wiring report beside its coverage report, the
// protection table says enforcing only for an agent whose guard is wired, not switched off and
// matched every call; not wired, disabled by the agent's setting, gaps or no report otherwise;
// the JSON API carries each agent's wiring.
func TestWiringStatus(t *testing.T) {
	backends(t, func(t *testing.T, dbURL string) {
		ts := newTestServer(t, dbURL, Options{})
		alice, _ := setupTeam(t, ts)
		var bob, carol TokenResponse
		ts.must(201, "POST", "/api/v1/teams/core/tokens", ts.admin, TokenRequest{Name: "bob-desktop"}).json(t, &bob)
		ts.must(201, "POST", "/api/v1/teams/core/tokens", ts.admin, TokenRequest{Name: "carol-old"}).json(t, &carol)

		ts.must(200, "POST", "/api/v1/teams/core/coverage", alice, coverageOf("alice",
			CoverageAgent{Agent: "claude", Version: "2.1.328", Sessions: 3, Calls: 40, Unguarded: 2},
			CoverageAgent{Agent: "codex", Version: "0.169.0", Sessions: 1, Calls: 5},
			CoverageAgent{Agent: "gemini", Version: "0.61.0", Sessions: 1, Calls: 7},
			CoverageAgent{Agent: "cursor", Version: "3.1", Sessions: 1, Calls: 2}))
		codex := wired("codex", "0.169.0")
		codex.State, codex.DisabledBy = "fail", []string{"[features] hooks = false in /home/alice/.codex/config.toml"}
		ts.must(200, "POST", "/api/v1/teams/core/wiring", alice, wiringOf("alice",
			wired("claude", "2.1.328"), codex, wired("gemini", "0.61.0"),
			WiringAgent{Agent: "qwen", State: "not registered", Resolves: true, DisabledBy: []string{}}))
		// carol's agenthooks predates the wiring report: coverage only.
		ts.must(200, "POST", "/api/v1/teams/core/coverage", carol.Text, coverageOf("carol", CoverageAgent{Agent: "claude", Version: "2.1.300", Calls: 4}))

		var rep ProtectionReport
		ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
		var got []string
		for _, m := range rep.Machines {
			got = append(got, fmt.Sprintf("%s %s %s: %s", m.Machine, m.Agent, m.Version, m.Status))
		}
		want := []string{
			"alice-laptop claude 2.1.328: gaps",
			"alice-laptop codex 0.169.0: disabled by [features] hooks = false in /home/alice/.codex/config.toml",
			"alice-laptop cursor 3.1: not wired", // calls in its transcripts, absent from the wiring report
			"alice-laptop qwen : not wired",      // present, the guard not registered
			"bob-desktop  : no report",
			"carol-old claude 2.1.300: no wiring report",
			"alice-laptop gemini 0.61.0: enforcing",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("protection table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, m := range rep.Machines {
			switch {
			case m.Agent == "gemini" && (m.Wiring == nil || !m.Wiring.Registered || !m.Wiring.FailClosed || m.Wiring.State != "ok" || m.Wiring.Reported.IsZero()):
				t.Errorf("gemini's wiring: %+v", m.Wiring)
			case m.Agent == "cursor" && (m.Wiring == nil || m.Wiring.State != "not installed"):
				t.Errorf("cursor's wiring: %+v", m.Wiring)
			case m.Agent == "qwen" && (m.Calls != 0 || m.Wiring == nil || m.Wiring.Registered || m.GuardVersion != "v1.5.0"):
				t.Errorf("qwen's row: %+v %+v", m, m.Wiring)
			case m.Machine == "carol-old" && m.Wiring != nil:
				t.Errorf("carol sent no wiring: %+v", m.Wiring)
			}
		}
		// The JSON form names the fields.
		var compact bytes.Buffer
		json.Compact(&compact, ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).body)
		raw := compact.String()
		for _, want := range []string{`"wiring":{"state":"fail","registered":true,"fail_closed":true,"resolves":true,"disabled_by":["[features] hooks = false in /home/alice/.codex/config.toml"]`,
			`"status":"not wired"`} {
			if !strings.Contains(raw, want) {
				t.Errorf("the JSON lacks %s:\n%s", want, raw)
			}
		}

		// A new report replaces the last one whole: the guard removed from Claude Code's settings,
		// the codex switch turned back on.
		noClaude := WiringAgent{Agent: "claude", Version: "2.1.328", State: "not registered", Resolves: true}
		ts.must(200, "POST", "/api/v1/teams/core/wiring", alice, wiringOf("alice", noClaude, wired("codex", "0.169.0")))
		rep = ProtectionReport{}
		ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
		status := map[string]string{}
		for _, m := range rep.Machines {
			status[m.Machine+" "+m.Agent] = m.Status
		}
		if status["alice-laptop claude"] != "not wired" || status["alice-laptop codex"] != "enforcing" || status["alice-laptop gemini"] != "not wired" ||
			status["alice-laptop qwen"] != "" {
			t.Errorf("after a new wiring report: %v", status)
		}
		// A machine with no agent at all reported.
		ts.must(200, "POST", "/api/v1/teams/core/wiring", bob.Text, wiringOf("bob"))
		rep = ProtectionReport{}
		ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
		for _, m := range rep.Machines {
			if m.Machine == "bob-desktop" && (m.Status != "no calls" || m.GuardVersion != "v1.5.0") {
				t.Errorf("bob, who reported no agent: %+v", m)
			}
		}
	})
}

// TestWiringRefused: the wiring report is untrusted input: oversized, malformed, unknown fields,
// bad names, states and settings, duplicates, an admin token and another team's member are all
// refused with an error that names the field.
func TestWiringRefused(t *testing.T) {
	ts := newTestServer(t, "sqlite:"+t.TempDir()+"/s.db", Options{})
	alice, _ := setupTeam(t, ts)
	ok := wired("claude", "2.1")
	for _, c := range []struct {
		name string
		code int
		body any
		want string
	}{
		{"no machine", 400, wiringOf("", ok), "machine: a name"},
		{"unknown field", 400, `{"machine":"m","agents":[],"extra":true}`, `unknown field "extra"`},
		{"unknown agent field", 400, `{"machine":"m","agents":[{"agent":"claude","state":"ok","enforcing":true}]}`, `unknown field "enforcing"`},
		{"two values", 400, `{"machine":"m","agents":[]} {}`, "more than one JSON value"},
		{"wrong type", 400, `{"machine":"m","agents":[{"agent":"claude","state":"ok","registered":"yes"}]}`, "registered"},
		{"deep", 400, `{"machine":"m","agents":[{"agent":"claude","state":"ok","disabled_by":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]}`, "nested"},
		{"too large", 413, `{"machine":"` + strings.Repeat("m", MaxWiringBody) + `"}`, "larger than"},
		{"agent name", 400, wiringOf("m", WiringAgent{Agent: "Claude Code", State: "ok"}), "agents[0].agent: 1 to 64 lower-case"},
		{"duplicate", 400, wiringOf("m", ok, ok), "agents[1].agent: claude is listed twice"},
		{"state", 400, wiringOf("m", WiringAgent{Agent: "claude", State: "enforcing"}), "agents[0].state: want one of"},
		{"control characters", 400, wiringOf("m", WiringAgent{Agent: "claude", State: "fail", DisabledBy: []string{"x\x1b[2J"}}), "agents[0].disabled_by[0]: control"},
		{"empty setting", 400, wiringOf("m", WiringAgent{Agent: "claude", State: "fail", DisabledBy: []string{""}}), "agents[0].disabled_by[0]: empty"},
		{"long setting", 400, wiringOf("m", WiringAgent{Agent: "claude", State: "fail", DisabledBy: []string{strings.Repeat("s", 501)}}), "agents[0].disabled_by[0]: at most 500"},
		{"many settings", 400, wiringOf("m", WiringAgent{Agent: "claude", State: "fail", DisabledBy: strings.Split(strings.Repeat("s,", 11), ",")}), "agents[0].disabled_by: at most 10"},
		{"bad version", 400, `{"machine":"m","agents":[{"agent":"claude","agent_version":"2.1\u0007","state":"ok"}]}`, "agents[0].agent_version: control"},
		{"admin token", 403, wiringOf("m", ok), "member token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tok := alice
			if c.name == "admin token" {
				tok = ts.admin
			}
			r := ts.do("POST", "/api/v1/teams/core/wiring", tok, c.body)
			var e struct {
				Error string `json:"error"`
			}
			json.Unmarshal(r.body, &e)
			if r.code != c.code || !strings.Contains(e.Error, c.want) {
				t.Errorf("status %d, error %q; want %d with %q", r.code, e.Error, c.code, c.want)
			}
		})
	}
	ts.must(201, "POST", "/api/v1/teams", ts.admin, TeamRequest{ID: "other"})
	ts.must(403, "POST", "/api/v1/teams/other/wiring", alice, wiringOf("m", ok))
	// Nothing refused was stored.
	var rep ProtectionReport
	ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
	if len(rep.Machines) != 1 || rep.Machines[0].Status != "no report" {
		t.Errorf("after refused reports: %+v", rep.Machines)
	}
}

// FuzzWiringReport: a machine's wiring report is untrusted; decoding and checking it never
// panics, and a report that passes the check names each agent once with printable settings.
func FuzzWiringReport(f *testing.F) {
	f.Add([]byte(`{"machine":"m","guard_version":"v1","agents":[{"agent":"claude","agent_version":"2.1","state":"ok","registered":true,"fail_closed":true,"resolves":true,"disabled_by":[]}]}`))
	f.Add([]byte(`{"machine":"m","agents":[{"agent":"codex","state":"fail","registered":true,"resolves":true,"disabled_by":["[features] hooks = false"]}]}`))
	f.Add([]byte(`{"machine":"m","agents":[{"agent":"a","state":"not registered","disabled_by":null}]}`))
	f.Add([]byte(`{"machine":"m","agents":[{"agent":"a","state":"ok"},{"agent":"a","state":"ok"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeJSON[WiringReport](data)
		if err != nil {
			return
		}
		if c.Check() != nil {
			return
		}
		seen := map[string]bool{}
		for _, a := range c.Agents {
			if a.Agent == "" || seen[a.Agent] || len(a.DisabledBy) > maxWiringSettings {
				t.Fatalf("checked report with %+v", a)
			}
			seen[a.Agent] = true
			for _, s := range a.DisabledBy {
				if checkText("", s, maxWiringSetting) != nil || s == "" {
					t.Fatalf("checked report with setting %q", s)
				}
			}
		}
	})
}
