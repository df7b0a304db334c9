package teamsync

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/bundle"
	"github.com/agenthooks/agenthooks/config"
)

// Options say what to sync and where.
type Options struct {
	Server string // base URL, such as https://hooks.example.com
	Team   string
	Token  string // the member token
	// Key is the team's public key (hex). It is pinned on the first sync and must match after.
	Key  string
	OS   string // default runtime.GOOS
	Home string
	// ClaudeDir, when set, is Claude Code's managed settings folder: a drop-in there registers
	// the team's hooks with Claude Code.
	ClaudeDir string
	// Agenthooks is the command Claude Code's drop-in runs (default "agenthooks").
	Agenthooks string
	// AuditDB is the audit database to upload from ("" for none).
	AuditDB string
	Machine string // default the host name
	Client  *http.Client
	// NoCoverage leaves out the coverage report (the agents' transcripts against the audit
	// trail, coverage.go) that a sync with an audit database otherwise sends.
	NoCoverage bool
	// NoWiring leaves out the wiring report (wiring.go): for each agent on this machine,
	// whether its config runs the agenthooks guard and whether its own settings switch it off.
	NoWiring bool
	// GuardVersion is the agenthooks version reported with coverage and wiring (default this
	// build's).
	GuardVersion string
	// Getenv reads the environment for the agents' folders: their transcripts, their config
	// files (default os.Getenv).
	// (Not in JSON: options travel as JSON to a helper process in the tests.)
	Getenv func(string) string `json:"-"`
}

// Result is what one sync did.
type Result struct {
	Version   int    // the version installed after the sync (0: none)
	Changed   bool   // a new version was installed
	Repaired  bool   // the installed files were damaged and restored from the last good bundle
	Kept      bool   // the server's answer was refused or unreachable and the last good bundle kept
	Problem   string // why, when Kept
	AuditSent int    // audit records the server acknowledged
	// AuditLeft is how many audit records are left on the machine for a later sync (counted
	// by ids not yet acknowledged), or -1 when the audit database could not be read; Problem
	// says why.
	AuditLeft int
	// Unguarded is how many shell and file tool calls of the last CoverageWindow the agents'
	// transcripts hold with no agenthooks decision (sent to the server), or -1 when the report
	// could not be made or sent; Problem says why.
	Unguarded int
	// Wiring is, for each agent on this machine, whether its config runs the agenthooks guard
	// (sent to the server; nil with NoWiring).
	Wiring []AgentWiring
}

// state is what a machine remembers of a team between syncs.
type state struct {
	Server     string `json:"server"`
	ETag       string `json:"etag"`
	Version    int    `json:"version"`
	AuditAfter int64  `json:"audit_after"`
	AuditEpoch string `json:"audit_epoch"`
	// Fetched is when the server last sent the whole bundle; a day later the next sync asks
	// for it whole again rather than trusting "not modified".
	Fetched time.Time `json:"fetched,omitzero"`
}

// refetchAfter is how long a sync trusts the server's "not modified" before it fetches the
// whole bundle again: a server or proxy that answers 304 to everything cannot keep machines
// on an old version for longer.
const refetchAfter = 24 * time.Hour

// HooksDir is where a team's hooks are installed: Cursor's managed team folder.
func HooksDir(home, team string) string {
	return filepath.Join(home, ".cursor", "managed", "team_"+team, "hooks")
}

// StateDir holds the pinned key, the last good bundle and the sync state of a team.
func StateDir(home, team string) string {
	return filepath.Join(home, ".agenthooks", "teams", team)
}

func (o *Options) defaults() error {
	if err := bundle.CheckTeam(o.Team); err != nil {
		return err
	}
	u, err := url.Parse(o.Server)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("--server %q: want a URL such as https://hooks.example.com", o.Server)
	}
	o.Server = strings.TrimRight(o.Server, "/")
	if o.Token == "" {
		return errors.New("no member token: set AGENTHOOKS_TOKEN or pass --token-file")
	}
	if o.OS == "" {
		o.OS = runtime.GOOS
	}
	if o.Home == "" {
		return errors.New("no home folder")
	}
	if o.Machine == "" {
		o.Machine, _ = os.Hostname()
		if o.Machine == "" {
			o.Machine = "unknown"
		}
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 60 * time.Second}
	}
	// The member token goes to the server's origin only: Go's client keeps the Authorization
	// header on a redirect to the same host name at another port or scheme (or a subdomain).
	client := *o.Client
	origin, _ := url.Parse(o.Server)
	next := client.CheckRedirect
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != origin.Scheme || req.URL.Host != origin.Host {
			return fmt.Errorf("redirect to %s://%s refused: the member token goes only to %s://%s", req.URL.Scheme, req.URL.Host, origin.Scheme, origin.Host)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	o.Client = &client
	if o.Agenthooks == "" {
		o.Agenthooks = "agenthooks"
	}
	return nil
}

// pinnedKey returns the team key, pinning o.Key on the first sync.
func (o *Options) pinnedKey() (ed25519.PublicKey, error) {
	file := filepath.Join(StateDir(o.Home, o.Team), "key")
	data, err := os.ReadFile(file)
	pinned := strings.TrimSpace(string(data))
	switch {
	case err == nil && o.Key != "" && !strings.EqualFold(pinned, o.Key):
		return nil, fmt.Errorf("--key differs from the key pinned for team %s in %s: if the team's key really changed, remove that file and enrol again", o.Team, file)
	case errors.Is(err, fs.ErrNotExist):
		if o.Key == "" {
			return nil, fmt.Errorf("team %s is not enrolled on this machine: pass --key with the team's public key (shown on the team's page of the dashboard)", o.Team)
		}
		pinned = strings.ToLower(o.Key)
		if _, err := decodeKey(pinned); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			return nil, err
		}
		if err := config.WriteFileAtomic(file, []byte(pinned+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("pin the team key: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("read the pinned team key: %w", err)
	}
	return decodeKey(pinned)
}

func decodeKey(h string) (ed25519.PublicKey, error) {
	raw, err := hex.DecodeString(h)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("team key %q is not a hex Ed25519 public key (64 hex digits)", h)
	}
	return raw, nil
}

func (o *Options) loadState() state {
	var st state
	data, err := os.ReadFile(filepath.Join(StateDir(o.Home, o.Team), "state.json"))
	if err == nil {
		json.Unmarshal(data, &st)
	}
	return st
}

func (o *Options) saveState(st state) error {
	data, _ := json.MarshalIndent(st, "", "  ")
	return config.WriteFileAtomic(filepath.Join(StateDir(o.Home, o.Team), "state.json"), data, 0o600)
}

// lastGood opens the last good bundle kept on this machine, or nil.
func (o *Options) lastGood(pub ed25519.PublicKey) *bundle.Bundle {
	data, err := os.ReadFile(filepath.Join(StateDir(o.Home, o.Team), "bundle.tar.gz"))
	if err != nil {
		return nil
	}
	b, err := bundle.Open(data, pub, bundle.Expect{Team: o.Team, OS: o.OS})
	if err != nil {
		return nil
	}
	return b
}

// intact reports whether dir holds exactly b's files with their contents.
func intact(dir string, b *bundle.Bundle) bool {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		want, ok := b.Files[filepath.ToSlash(rel)]
		if !ok || !d.Type().IsRegular() {
			return errors.New("extra file")
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			return errors.New("changed file")
		}
		n++
		return nil
	})
	return err == nil && n == len(b.Files)
}

// MaxResponse bounds a bundle download.
const MaxResponse = bundle.MaxArchive + 1

// Sync fetches, verifies and installs the team's bundle, then uploads audit records. An
// error means nothing could be done (bad options, no pinned key); a refused or unreachable
// server is reported in Result.Kept with the last good bundle left in place.
func Sync(ctx context.Context, o Options) (*Result, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	pub, err := o.pinnedKey()
	if err != nil {
		return nil, err
	}
	st := o.loadState()
	if st.Server != o.Server {
		st.ETag = "" // another server: fetch in full
	}
	res := &Result{Version: st.Version}
	dir := HooksDir(o.Home, o.Team)
	good := o.lastGood(pub)
	if good != nil && !intact(dir, good) {
		if err := bundle.Install(dir, good); err != nil {
			return nil, err
		}
		res.Repaired = true
	}
	if good == nil {
		st.ETag = ""
	}
	conditional := st.ETag != "" && time.Since(st.Fetched) < refetchAfter
	b, etag, problem := o.fetch(ctx, pub, st, conditional)
	switch {
	case problem != "":
		res.Kept, res.Problem = true, problem
	case b != nil && good != nil && b.Digest == st.ETag && b.Manifest.Version == st.Version:
		st.Fetched = time.Now().UTC() // fetched whole, and the same as installed
	case b != nil:
		if err := bundle.Install(dir, b); err != nil {
			res.Kept, res.Problem = true, err.Error()
			break
		}
		if err := config.WriteFileAtomic(filepath.Join(StateDir(o.Home, o.Team), "bundle.tar.gz"), b.Raw, 0o600); err != nil {
			return nil, fmt.Errorf("keep the bundle: %w", err)
		}
		st.ETag, st.Version, st.Server, st.Fetched = etag, b.Manifest.Version, o.Server, time.Now().UTC()
		res.Version, res.Changed = b.Manifest.Version, true
		good = b
	}
	if good != nil && o.ClaudeDir != "" {
		if err := o.registerClaude(dir, good); err != nil {
			res.Kept, res.Problem = true, "claude code managed settings: "+err.Error()
		}
	}
	if o.AuditDB != "" {
		sent, left, err := o.uploadAudit(ctx, &st)
		res.AuditSent, res.AuditLeft = sent, left
		switch {
		case err == nil:
		case errors.Is(err, errLeft):
			res.Problem = cmp.Or(res.Problem, fmt.Sprintf("audit upload: %d records left for the next sync", left))
		case left <= 0:
			res.AuditLeft = -1
			res.Problem = cmp.Or(res.Problem, fmt.Sprintf("audit upload: %s", err))
		default:
			res.Problem = cmp.Or(res.Problem, fmt.Sprintf("audit upload: %s; %d records left for the next sync", err, left))
		}
	}
	versions := map[string]string{}
	if o.AuditDB != "" && !o.NoCoverage {
		n, v, err := o.uploadCoverage(ctx)
		res.Unguarded, versions = n, v
		if err != nil {
			res.Unguarded = -1
			res.Problem = cmp.Or(res.Problem, fmt.Sprintf("coverage report: %s", err))
		}
	}
	if !o.NoWiring {
		res.Wiring = o.checkWiring(ctx, versions)
		if err := o.uploadWiring(ctx, res.Wiring); err != nil {
			res.Problem = cmp.Or(res.Problem, fmt.Sprintf("wiring report: %s", err))
		}
	}
	if err := o.saveState(st); err != nil {
		return nil, fmt.Errorf("save the sync state: %w", err)
	}
	return res, nil
}

// fetch asks the server for the bundle (with If-None-Match when conditional). It returns the
// verified new bundle, nothing when the server says the bundle is unchanged, or a problem
// that keeps the last good one. "Not modified" is believed only as the answer to the ETag
// asked about, for the version installed.
func (o *Options) fetch(ctx context.Context, pub ed25519.PublicKey, st state, conditional bool) (*bundle.Bundle, string, string) {
	u := o.Server + "/api/v1/teams/" + url.PathEscape(o.Team) + "/bundle?os=" + url.QueryEscape(o.OS)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", err.Error()
	}
	req.Header.Set("Authorization", "Bearer "+o.Token)
	if conditional {
		req.Header.Set("If-None-Match", `"`+st.ETag+`"`)
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return nil, "", "server unreachable: " + err.Error()
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponse))
	if err != nil {
		return nil, "", "reading the bundle: " + err.Error()
	}
	switch resp.StatusCode {
	case http.StatusNotModified:
		switch v := resp.Header.Get("Agenthooks-Version"); {
		case !conditional:
			return nil, "", "server answered 304 Not Modified to a request for the whole bundle"
		case resp.Header.Get("ETag") != `"`+st.ETag+`"`:
			return nil, "", fmt.Sprintf("server answered 304 Not Modified for ETag %s, not for the installed bundle's", resp.Header.Get("ETag"))
		case v != "" && v != strconv.Itoa(st.Version):
			return nil, "", fmt.Sprintf("server answered 304 Not Modified, yet says version %s is current, not the installed %d", v, st.Version)
		}
		return nil, "", ""
	case http.StatusOK:
	default:
		return nil, "", fmt.Sprintf("server answered %s: %s", resp.Status, apiMessage(body))
	}
	if len(body) >= MaxResponse {
		return nil, "", fmt.Sprintf("bundle refused: larger than %d bytes", bundle.MaxArchive)
	}
	b, err := bundle.Open(body, pub, bundle.Expect{Team: o.Team, OS: o.OS, MinVersion: st.Version})
	if err != nil {
		return nil, "", "bundle refused: " + err.Error()
	}
	return b, b.Digest, ""
}

// apiMessage is the error a server's answer carries: its JSON "error" when the body is a
// small JSON object (a larger one is not parsed), else the body's start.
func apiMessage(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if len(body) <= 64<<10 && json.Unmarshal(body, &e) == nil && e.Error != "" {
		if len(e.Error) > 500 {
			e.Error = e.Error[:500]
		}
		return plain(e.Error)
	}
	if len(body) > 200 {
		body = body[:200]
	}
	return plain(strings.TrimSpace(string(body)))
}

// plain keeps a server's text printable: invalid UTF-8 and control characters (which could
// move a terminal's cursor or recolour what follows) become "?".
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfffd {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

func randomEpoch() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
