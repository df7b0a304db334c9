package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

func coverageOf(machine string, agents ...CoverageAgent) CoverageReport {
	return CoverageReport{Machine: machine, GuardVersion: "v1.4.0", Since: time.Now().UTC().Add(-7 * 24 * time.Hour), Agents: agents}
}

// latencyBatch is n audit records whose one run of hook took 1, 2, ... n milliseconds.
func latencyBatch(prefix, hook string, n int) AuditBatch {
	b := AuditBatch{Machine: "m"}
	for i := range n {
		b.Records = append(b.Records, AuditUpload{UID: prefix + string(rune('a'+i/26)) + string(rune('a'+i%26)), Record: audit.Record{
			Time: time.Now().UTC().Add(-time.Hour), Agent: "claude", Event: "PreToolUse", Decision: "allow",
			Runs: []audit.Run{{Command: hook, Verdict: "allow", Duration: time.Duration(i+1) * time.Millisecond}}}})
	}
	return b
}

// TestCoverage: machines report their agents' unguarded calls; the team's protection report
// shows each machine's agents with their status (from the counts alone here: no machine sends
// a wiring report), last seen, guard version and audit chain, a machine that never reported,
// and each hook's latency percentiles against the team's threshold.
func TestCoverage(t *testing.T) {
	backends(t, func(t *testing.T, dbURL string) {
		ts := newTestServer(t, dbURL, Options{})
		alice, _ := setupTeam(t, ts)
		var bob TokenResponse
		ts.must(201, "POST", "/api/v1/teams/core/tokens", ts.admin, TokenRequest{Name: "bob-desktop"}).json(t, &bob)

		last := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
		ts.must(200, "POST", "/api/v1/teams/core/coverage", alice, coverageOf("alice",
			CoverageAgent{Agent: "claude", Version: "2.1.328", Sessions: 3, Calls: 40, Unguarded: 2, LastCall: &last},
			CoverageAgent{Agent: "codex", Version: "0.169.0", Sessions: 1, Calls: 5}))
		ts.must(200, "POST", "/api/v1/teams/core/audit", alice, chainBatch(1, 2, "h", 0, 0, ""))
		for i := range 3 {
			ts.must(200, "POST", "/api/v1/teams/core/audit", alice, latencyBatch("slow"+string(rune('a'+i)), "agenthooks guard bash", 100))
		}
		ts.must(200, "POST", "/api/v1/teams/core/audit", alice, latencyBatch("fast", "./fast.sh", 10))

		var rep ProtectionReport
		ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
		if len(rep.Machines) != 3 {
			t.Fatalf("machines: %+v", rep.Machines)
		}
		claude, codex, never := rep.Machines[0], rep.Machines[1], rep.Machines[2]
		if claude.Machine != "alice-laptop" || claude.Agent != "claude" || claude.Version != "2.1.328" || claude.Status != "gaps" ||
			claude.Unguarded != 2 || claude.Calls != 40 || claude.GuardVersion != "v1.4.0" || claude.LastCall == nil || !claude.LastCall.Equal(last) ||
			claude.LastSeen == nil || claude.Chain == nil || claude.Chain.String() != "ok" {
			t.Errorf("alice's claude: %+v", claude)
		}
		// Every call matched, but the machine sent no wiring report: not "enforcing" (wiring_test.go).
		if codex.Agent != "codex" || codex.Status != "no wiring report" || codex.Unguarded != 0 {
			t.Errorf("alice's codex: %+v", codex)
		}
		if never.Machine != "bob-desktop" || never.Status != "no report" || never.Reported != nil {
			t.Errorf("bob, who never reported: %+v", never)
		}

		// The latency table: p95 of 1..100 ms three times (and the chain batch's two runs of 0) is
		// 95 ms; no threshold yet.
		if len(rep.Latency) != 2 || rep.Latency[0].Hook != "agenthooks guard bash" || rep.Latency[0].Runs != 302 ||
			rep.Latency[0].P50 != 50*time.Millisecond || rep.Latency[0].P95 != 95*time.Millisecond || rep.Latency[0].P99 != 99*time.Millisecond ||
			rep.Latency[0].Max != 100*time.Millisecond || rep.Latency[0].Over || rep.Latency[1].Hook != "./fast.sh" {
			t.Errorf("latency: %+v", rep.Latency)
		}
		ts.must(200, "PUT", "/api/v1/teams/core/latency-threshold", ts.admin, ThresholdRequest{Threshold: "50ms"})
		ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
		if rep.ThresholdMS != 50 || !rep.Latency[0].Over || rep.Latency[1].Over {
			t.Errorf("with a 50ms threshold: %d, %+v", rep.ThresholdMS, rep.Latency)
		}
		ts.must(400, "PUT", "/api/v1/teams/core/latency-threshold", ts.admin, ThresholdRequest{Threshold: "soon"})
		ts.must(400, "PUT", "/api/v1/teams/core/latency-threshold", ts.admin, ThresholdRequest{Threshold: "-1s"})
		ts.must(403, "PUT", "/api/v1/teams/core/latency-threshold", alice, ThresholdRequest{Threshold: "1s"})

		// A new report replaces the machine's last one whole; one with no agents says it reported.
		ts.must(200, "POST", "/api/v1/teams/core/coverage", alice, coverageOf("alice",
			CoverageAgent{Agent: "claude", Version: "2.1.329", Calls: 3, Unguarded: 3}))
		ts.must(200, "POST", "/api/v1/teams/core/coverage", bob.Text, coverageOf("bob"))
		ts.must(200, "GET", "/api/v1/teams/core/coverage", ts.admin, nil).json(t, &rep)
		if len(rep.Machines) != 2 || rep.Machines[0].Version != "2.1.329" || rep.Machines[0].Status != "gaps" ||
			rep.Machines[1].Status != "no calls" || rep.Machines[1].Reported == nil {
			t.Errorf("after new reports: %+v", rep.Machines)
		}

		// Refused: counts that do not add up, duplicates, unknown fields, a member of another
		// team, an admin token (coverage comes from a machine).
		for _, bad := range []any{
			coverageOf("alice", CoverageAgent{Agent: "claude", Calls: 1, Unguarded: 2}),
			coverageOf("alice", CoverageAgent{Agent: "claude", Calls: -1}),
			coverageOf("alice", CoverageAgent{Agent: "claude"}, CoverageAgent{Agent: "claude"}),
			coverageOf("", CoverageAgent{Agent: "claude"}),
			coverageOf("alice", CoverageAgent{Agent: strings.Repeat("x", 201)}),
			`{"machine":"alice","since":"2026-01-01T00:00:00Z","agents":[],"extra":1}`,
			`{"machine":"alice","agents":[]}`,
		} {
			ts.must(400, "POST", "/api/v1/teams/core/coverage", alice, bad)
		}
		ts.must(201, "POST", "/api/v1/teams", ts.admin, TeamRequest{ID: "other"})
		ts.must(403, "POST", "/api/v1/teams/other/coverage", alice, coverageOf("alice"))
		ts.must(403, "POST", "/api/v1/teams/core/coverage", ts.admin, coverageOf("alice"))
		ts.must(404, "GET", "/api/v1/teams/nope/coverage", ts.admin, nil)
	})
}

// TestCoveragePage: the team page shows the protection table (with each agent's wiring: a guard
// not registered or switched off marked, the setting escaped) and the latency table, and its
// form sets the threshold, after which the slow hook is marked.
func TestCoveragePage(t *testing.T) {
	ts := newTestServer(t, "sqlite:"+t.TempDir()+"/s.db", Options{})
	alice, _ := setupTeam(t, ts)
	ts.must(200, "POST", "/api/v1/teams/core/coverage", alice, coverageOf("alice",
		CoverageAgent{Agent: "claude", Version: "2.1.328", Calls: 40, Unguarded: 2}))
	ts.must(200, "POST", "/api/v1/teams/core/wiring", alice, wiringOf("alice", wired("claude", "2.1.328"), wired("gemini", "0.61.0"),
		WiringAgent{Agent: "qwen", State: "not registered", Resolves: true},
		WiringAgent{Agent: "codex", State: "fail", Registered: true, Resolves: true, DisabledBy: []string{"[features] hooks = false in <config.toml>"}}))
	ts.must(200, "POST", "/api/v1/teams/core/audit", alice, latencyBatch("slow", "agenthooks guard bash", 100))
	b := newBrowser(t, ts)
	b.login()
	code, page := b.get("/teams/core")
	if code != 200 {
		t.Fatalf("team page: %d", code)
	}
	for _, want := range []string{`<h2 id="protection">Protection</h2>`,
		`<tr class="deny"><td>alice-laptop</td><td>claude</td><td>2.1.328</td>`, `<td class="status">gaps</td>`,
		`<td>v1.4.0</td>`, `<td class="unguarded">2</td>`, `<code>agenthooks guard bash</code>`, `<td>95.0 ms</td>`, "No threshold set.",
		// the wiring: a guard not registered and one switched off are marked, the setting escaped
		`<tr class="deny"><td>alice-laptop</td><td>qwen</td><td>-</td>
      <td class="status">not wired</td><td class="wiring">not registered</td>`,
		`<tr class="deny"><td>alice-laptop</td><td>codex</td><td>-</td>
      <td class="status">disabled by [features] hooks = false in &lt;config.toml&gt;</td><td class="wiring">registered</td>`,
		`<tr><td>alice-laptop</td><td>gemini</td><td>0.61.0</td>
      <td class="status">enforcing</td><td class="wiring">registered, fail-closed</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("team page lacks %q", want)
		}
	}
	if strings.Contains(page, "over threshold") {
		t.Error("a hook is marked over a threshold that is not set")
	}
	code, _, h := b.post("/teams/core/latency", url.Values{"csrf": {b.csrf}, "threshold": {"90ms"}})
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "Latency+threshold+saved") {
		t.Fatalf("threshold form: %d %v", code, h)
	}
	_, page = b.get("/teams/core")
	if !strings.Contains(page, "<code>agenthooks guard bash</code> <strong>over threshold</strong>") || !strings.Contains(page, `value="90ms"`) {
		t.Error("after a 90ms threshold the slow hook is not marked")
	}
	if code, _, _ := b.post("/teams/core/latency", url.Values{"csrf": {b.csrf}, "threshold": {"fast"}}); code != http.StatusBadRequest {
		t.Errorf("a bad threshold: %d", code)
	}
	if code, _, _ := b.post("/teams/core/latency", url.Values{"threshold": {"1s"}}); code != http.StatusForbidden {
		t.Errorf("without the CSRF token: %d", code)
	}
}

// FuzzCoverageReport: a machine's coverage report is untrusted; decoding and checking it never
// panics, and a report that passes the check has counts that add up.
func FuzzCoverageReport(f *testing.F) {
	f.Add([]byte(`{"machine":"m","guard_version":"v1","since":"2026-01-01T00:00:00Z","agents":[{"agent":"claude","agent_version":"2.1","sessions":1,"calls":3,"unguarded":1,"last_call":"2026-01-02T00:00:00Z"}]}`))
	f.Add([]byte(`{"machine":"m","since":"2026-01-01T00:00:00Z","agents":[{"agent":"a","calls":-1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeJSON[CoverageReport](data)
		if err != nil {
			return
		}
		if c.Check() != nil {
			return
		}
		for _, a := range c.Agents {
			if a.Unguarded > a.Calls || a.Calls < 0 || a.Unguarded < 0 || a.Agent == "" {
				t.Fatalf("checked report with %+v", a)
			}
		}
	})
}
