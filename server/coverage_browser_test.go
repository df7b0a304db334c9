package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBrowserProtection: in headless Chromium, the team page shows the protection table (a
// machine with unguarded calls marked, an agent whose guard is not registered "not wired") and the latency table, and its form sets the team's
// latency threshold, after which the slow hook is marked. Screenshots go to
// $AGENTHOOKS_ARTIFACTS/browser-protection.
func TestBrowserProtection(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no browser")
	}
	base := startChromeDriver(t)
	_, file, _, _ := runtime.Caller(0)
	shots := os.Getenv("AGENTHOOKS_ARTIFACTS")
	if shots == "" {
		shots = filepath.Join(filepath.Dir(file), "..", "artifacts")
	}
	shots = filepath.Join(shots, "browser-protection")
	os.RemoveAll(shots)
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	ts := newTestServer(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"), Options{})
	alice, _ := setupTeam(t, ts)
	last := time.Now().UTC().Add(-time.Hour)
	ts.must(200, "POST", "/api/v1/teams/core/coverage", alice, coverageOf("alice",
		CoverageAgent{Agent: "claude", Version: "2.1.328", Sessions: 3, Calls: 40, Unguarded: 2, LastCall: &last},
		CoverageAgent{Agent: "gemini", Version: "0.61.0", Sessions: 1, Calls: 7}))
	ts.must(200, "POST", "/api/v1/teams/core/wiring", alice, wiringOf("alice", wired("claude", "2.1.328"), wired("gemini", "0.61.0"),
		WiringAgent{Agent: "qwen", State: "not registered", Resolves: true}))
	ts.must(200, "POST", "/api/v1/teams/core/audit", alice, chainBatch(1, 2, "h", 0, 0, ""))
	ts.must(200, "POST", "/api/v1/teams/core/audit", alice, latencyBatch("slow", "agenthooks guard bash", 100))

	wd := &webdriver{t: t, base: base, shots: shots}
	var created struct {
		SessionID string `json:"sessionId"`
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{"binary": "/usr/bin/chromium", "args": []string{
			"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,1400",
			"--user-data-dir=" + t.TempDir()}},
	}}}
	json.Unmarshal(wd.call("POST", "/session", caps), &created)
	wd.session = created.SessionID
	t.Cleanup(func() { wd.call("DELETE", wd.s(""), nil) })

	wd.open(ts.http.URL + "/login?next=/teams/core%23protection")
	wd.typeInto("#token", ts.admin)
	wd.click("#login")
	if !wd.waitSource(`id="protection"`) {
		t.Fatal("did not reach the team page's protection section after logging in")
	}
	wd.shot("protection")
	table := wd.text("#coverage")
	for _, want := range []string{"alice-laptop claude 2.1.328 gaps registered, fail-closed", "v1.4.0 40 2 ok",
		"alice-laptop gemini 0.61.0 enforcing registered, fail-closed", "alice-laptop qwen - not wired not registered"} {
		if !strings.Contains(table, want) {
			t.Errorf("the protection table lacks %q:\n%s", want, table)
		}
	}
	if lat := wd.text("#latency"); !strings.Contains(lat, "agenthooks guard bash 102 49.0 ms 95.0 ms 99.0 ms 100.0 ms") || strings.Contains(lat, "over threshold") {
		t.Errorf("the latency table:\n%s", lat)
	}

	wd.typeInto("#threshold", "90ms")
	wd.click("#save-threshold")
	if !wd.waitSource("Latency threshold saved.") {
		t.Fatal("the threshold form did not save")
	}
	wd.shot("threshold-set")
	if lat := wd.text("#latency"); !strings.Contains(lat, "agenthooks guard bash over threshold") {
		t.Errorf("after a 90ms threshold the slow hook is not marked:\n%s", lat)
	}
}
