package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The browser test drives Debian's headless Chromium through ChromeDriver's W3C WebDriver
// protocol (plain JSON over HTTP): log in, create a team, upload a hooks.json, publish, and
// see the version. Screenshots of every step go to $AGENTHOOKS_ARTIFACTS/browser (default
// artifacts/browser at the repository's root).

type webdriver struct {
	t       *testing.T
	base    string
	session string
	shots   string
	n       int
}

const elementKey = "element-6066-11e4-a52e-4f735466cecf"

func (wd *webdriver) call(method, path string, body any) json.RawMessage {
	wd.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, wd.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		wd.t.Fatalf("webdriver %s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	var out struct {
		Value json.RawMessage `json:"value"`
	}
	data, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(data, &out); err != nil || res.StatusCode != 200 {
		wd.shot("failure")
		wd.t.Fatalf("webdriver %s %s: %d %s", method, path, res.StatusCode, data)
	}
	return out.Value
}

func (wd *webdriver) s(path string) string { return "/session/" + wd.session + path }

func (wd *webdriver) open(url string) { wd.call("POST", wd.s("/url"), map[string]string{"url": url}) }

func (wd *webdriver) find(css string) string {
	wd.t.Helper()
	var el map[string]string
	json.Unmarshal(wd.call("POST", wd.s("/element"), map[string]string{"using": "css selector", "value": css}), &el)
	return el[elementKey]
}

func (wd *webdriver) typeInto(css, text string) {
	wd.call("POST", wd.s("/element/"+wd.find(css)+"/value"), map[string]string{"text": text})
}

func (wd *webdriver) click(css string) {
	wd.call("POST", wd.s("/element/"+wd.find(css)+"/click"), map[string]any{})
}

func (wd *webdriver) text(css string) string {
	var s string
	json.Unmarshal(wd.call("GET", wd.s("/element/"+wd.find(css)+"/text"), nil), &s)
	return s
}

func (wd *webdriver) source() string {
	var s string
	json.Unmarshal(wd.call("GET", wd.s("/source"), nil), &s)
	return s
}

// waitSource waits up to 10 s for the page to contain want: a click that submits a form returns
// before the next page has always loaded.
func (wd *webdriver) waitSource(want string) bool {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if strings.Contains(wd.source(), want) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// shot saves a screenshot named after the step.
func (wd *webdriver) shot(step string) {
	if wd.session == "" {
		return
	}
	req, _ := http.NewRequest("GET", wd.base+wd.s("/screenshot"), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	defer res.Body.Close()
	var out struct {
		Value string `json:"value"`
	}
	if json.NewDecoder(res.Body).Decode(&out) != nil {
		return
	}
	png, err := base64.StdEncoding.DecodeString(out.Value)
	if err != nil {
		return
	}
	wd.n++
	os.WriteFile(filepath.Join(wd.shots, fmt.Sprintf("%02d-%s.png", wd.n, step)), png, 0o644)
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startChromeDriver installs (scripts/chromium.sh) and starts ChromeDriver on loopback.
func startChromeDriver(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	out, err := exec.Command(filepath.Join(filepath.Dir(file), "..", "scripts", "chromium.sh")).Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("Chromium is required in CI: %s", msg)
		}
		t.Skipf("no Chromium for the browser test: %s", msg)
	}
	port := freePort(t)
	cmd := exec.Command(strings.TrimSpace(string(out)), fmt.Sprintf("--port=%d", port), "--allowed-ips=127.0.0.1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(base + "/status"); err == nil {
			res.Body.Close()
			return base
		}
	}
	t.Fatal("chromedriver did not start")
	return ""
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no browser")
	}
	base := startChromeDriver(t)
	_, file, _, _ := runtime.Caller(0)
	shots := os.Getenv("AGENTHOOKS_ARTIFACTS")
	if shots == "" {
		shots = filepath.Join(filepath.Dir(file), "..", "artifacts")
	}
	shots = filepath.Join(shots, "browser")
	os.RemoveAll(shots)
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	ts := newTestServer(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"), Options{})
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

	wd.open(ts.http.URL + "/")
	wd.shot("login")
	wd.typeInto("#token", ts.admin)
	wd.click("#login")
	if !wd.waitSource("Create a team") {
		t.Fatal("did not reach the teams page after logging in (was the session cookie refused?)")
	}
	wd.shot("teams")

	wd.typeInto("#team-id", "web")
	wd.typeInto("#team-name", "Web team")
	wd.click("#create-team")
	wd.waitSource(`id="current-version"`)
	wd.shot("team-created")
	if got := wd.text("#current-version"); got != "none yet" {
		t.Fatalf("new team's version: %q", got)
	}

	hooks := filepath.Join(t.TempDir(), "hooks.json")
	os.WriteFile(hooks, []byte(`{"version": 1, "hooks": {"beforeShellExecution": [{"command": "agenthooks guard bash"}]}}`+"\n"), 0o644)
	wd.typeInto("#upload", hooks)
	wd.click("#save-draft")
	wd.shot("draft-saved")
	if !wd.waitSource("Draft saved.") {
		t.Fatal("the uploaded hooks.json was not saved")
	}

	wd.typeInto("#note", "first rollout")
	wd.click("#publish")
	wd.waitSource("first rollout")
	wd.shot("published")
	if got := wd.text("#current-version"); got != "v1" {
		t.Fatalf("after publishing the page shows version %q, want v1", got)
	}
	if !strings.Contains(wd.text("#versions"), "first rollout") {
		t.Fatal("the version list does not show the new version")
	}
	d, err := ts.store.Version(t.Context(), "web", 1)
	if err != nil || !strings.Contains(d.Draft.File("hooks.json").Content, "agenthooks guard bash") {
		t.Fatalf("the published version does not hold the uploaded file: %v", err)
	}
}
