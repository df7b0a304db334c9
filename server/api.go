package server

import (
	"bytes"
	"cmp"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agenthooks/agenthooks/internal/docbound"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/bundle"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Options tune a Server.
type Options struct {
	Logger *slog.Logger
	// Rate and Burst bound the requests per second of one authenticated token, and, counted
	// apart, of one source address's requests without credentials and its failed
	// authentications (a wrong token never counts against the token it names, so nobody can
	// lock a token out by knowing its id). Zero means the defaults: 5 a second, bursts of 20.
	Rate  float64
	Burst int
	// InsecureCookies drops the Secure attribute from the session cookie, for a dashboard
	// reached over plain HTTP from another machine. Loopback and TLS never need it.
	InsecureCookies bool
}

// Server serves the API and the dashboard from a Store.
type Server struct {
	store  *Store
	log    *slog.Logger
	tokens *limiter // per authenticated token
	anon   *limiter // per source: API requests without credentials
	fails  *limiter // per source: failed authentications (API, login, dashboard session)
	known  *known
	opts   Options
	web    *web
}

// New makes a Server.
func New(store *Store, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Rate <= 0 {
		opts.Rate = 5
	}
	if opts.Burst <= 0 {
		opts.Burst = 20
	}
	s := &Server{store: store, log: opts.Logger, opts: opts,
		tokens: newLimiter(opts.Rate, opts.Burst), anon: newLimiter(opts.Rate, opts.Burst),
		fails: newLimiter(opts.Rate, opts.Burst), known: newKnown()}
	s.web = newWeb(s)
	return s
}

// Request body limits.
const (
	maxSmallBody = 64 << 10
	maxDraftBody = MaxDraftBytes*2 + 1<<20 // JSON escaping can double text
)

// Handler routes the API under /api/v1/ and the dashboard under /.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	admin := func(pattern string, h func(http.ResponseWriter, *http.Request, *Token)) {
		mux.Handle(pattern, s.api(Admin, h))
	}
	member := func(pattern string, h func(http.ResponseWriter, *http.Request, *Token)) {
		mux.Handle(pattern, s.api(Member, h))
	}
	mux.HandleFunc("GET /api/v1/health", s.health)
	admin("GET /api/v1/teams", s.listTeams)
	admin("POST /api/v1/teams", s.createTeam)
	admin("GET /api/v1/teams/{team}", s.getTeam)
	admin("GET /api/v1/teams/{team}/draft", s.getDraft)
	admin("PUT /api/v1/teams/{team}/draft", s.putDraft)
	admin("GET /api/v1/teams/{team}/versions", s.listVersions)
	admin("POST /api/v1/teams/{team}/versions", s.publish)
	admin("GET /api/v1/teams/{team}/versions/{version}", s.getVersion)
	admin("GET /api/v1/teams/{team}/diff", s.diff)
	admin("GET /api/v1/teams/{team}/tokens", s.listTokens)
	admin("POST /api/v1/teams/{team}/tokens", s.createMemberToken)
	admin("POST /api/v1/tokens", s.createAdminToken)
	admin("GET /api/v1/tokens", s.listAdminTokens)
	admin("DELETE /api/v1/tokens/{id}", s.revokeToken)
	admin("GET /api/v1/teams/{team}/audit", s.getAudit)
	admin("GET /api/v1/log", s.getLog)
	admin("GET /api/v1/teams/{team}/coverage", s.getCoverage)
	admin("PUT /api/v1/teams/{team}/latency-threshold", s.putThreshold)
	member("GET /api/v1/teams/{team}/key", s.getKey)
	member("GET /api/v1/teams/{team}/bundle", s.getBundle)
	member("POST /api/v1/teams/{team}/audit", s.postAudit)
	member("POST /api/v1/teams/{team}/coverage", s.postCoverage)
	member("POST /api/v1/teams/{team}/wiring", s.postWiring)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API endpoint: %s %s", r.Method, r.URL.Path)
	})
	s.web.routes(mux)
	return securityHeaders(mux)
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'")
		h.ServeHTTP(w, r)
	})
}

// api authenticates a bearer token of the given kind (an admin token is accepted where a
// member's is, for any team), applies the token's rate limit, and calls h.
func (s *Server) api(kind string, h func(http.ResponseWriter, *http.Request, *Token)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		text, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok {
			if !s.anon.allow(clientAddr(r)) {
				tooMany(w)
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="agenthooks"`)
			writeError(w, http.StatusUnauthorized, "an Authorization: Bearer token is required")
			return
		}
		tok, err := s.authenticate(r.Context(), clientAddr(r), text)
		switch {
		case errors.Is(err, errTooMany):
			tooMany(w)
			return
		case errors.Is(err, ErrBadToken):
			writeError(w, http.StatusUnauthorized, "%s", err)
			return
		case err != nil:
			s.internal(w, r, err)
			return
		}
		if !s.tokens.allow(tok.ID) {
			tooMany(w)
			return
		}
		if kind == Admin && tok.Kind != Admin {
			writeError(w, http.StatusForbidden, "this needs an admin token")
			return
		}
		if team := r.PathValue("team"); tok.Kind == Member && team != tok.Team {
			writeError(w, http.StatusForbidden, "this token is for team %q, not %q", tok.Team, team)
			return
		}
		h(w, r, tok)
	})
}

// errTooMany is authenticate's answer to a source over its allowance of failures.
var errTooMany = errors.New("too many failed attempts")

// authenticate checks a token's text sent from addr. A failure counts against the source,
// never against the token it names. A source over its allowance of failures is refused
// before the database is asked, except for a token id that authenticated on this instance
// with this very secret; a wrong secret for such an id is refused without asking it either.
func (s *Server) authenticate(ctx context.Context, addr, text string) (*Token, error) {
	id, secret, ok := ParseToken(text)
	if !ok {
		return nil, s.failed(addr)
	}
	hash := hashSecret(secret)
	remembered, isKnown := s.known.check(id)
	switch {
	case isKnown && subtle.ConstantTimeCompare([]byte(remembered), []byte(hash)) != 1:
		return nil, s.failed(addr)
	case !isKnown && !s.fails.ok(addr):
		return nil, errTooMany
	}
	tok, err := s.store.Authenticate(ctx, text)
	if errors.Is(err, ErrBadToken) {
		s.known.forget(id) // revoked or expired since
		return nil, s.failed(addr)
	}
	if err != nil {
		return nil, err
	}
	s.known.remember(id, hash)
	return tok, nil
}

// failed counts a failed authentication from addr: ErrBadToken, or errTooMany past the
// source's allowance.
func (s *Server) failed(addr string) error {
	if !s.fails.allow(addr) {
		return errTooMany
	}
	return ErrBadToken
}

func tooMany(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "1")
	writeError(w, http.StatusTooManyRequests, "too many requests: slow down")
}

type apiError struct {
	Error    string      `json:"error"`
	Problems srcpos.List `json:"problems,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...)})
}

// internal answers 500 without the error's text, which is logged.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "error", err)
	writeError(w, http.StatusInternalServerError, "internal error; see the server's log")
}

// fail maps a store error to a response.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ve *ValidationError
	switch {
	case errors.As(err, &ve):
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: "the hooks are not valid", Problems: ve.Problems})
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "%s", err)
	case errors.Is(err, ErrConflict), errors.Is(err, ErrLastAdmin):
		writeError(w, http.StatusConflict, "%s", err)
	case errors.Is(err, errBadRequest):
		writeError(w, http.StatusBadRequest, "%s", err)
	default:
		s.internal(w, r, err)
	}
}

var errBadRequest = errors.New("bad request")

// DecodeJSON decodes exactly one JSON object of type T from data, refusing JSON nested more
// than 32 deep (before decoding), unknown fields and trailing data. Every API request body goes through it.
func DecodeJSON[T any](data []byte) (*T, error) {
	if d := docbound.JSONDepth(data); d > maxJSONDepth {
		return nil, fmt.Errorf("%w: request body: JSON nested %d deep, more than %d", errBadRequest, d, maxJSONDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v T
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: request body: %v", errBadRequest, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: request body: more than one JSON value", errBadRequest)
	}
	return &v, nil
}

// readBody reads a request body up to limit bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return nil, fmt.Errorf("%w: request body is larger than %d bytes", errBadRequest, limit)
	}
	return data, err
}

func decodeBody[T any](w http.ResponseWriter, r *http.Request, limit int64) (*T, bool) {
	data, err := readBody(w, r, limit)
	if err != nil {
		if errors.Is(err, errBadRequest) {
			writeError(w, http.StatusRequestEntityTooLarge, "%s", strings.TrimPrefix(err.Error(), "bad request: "))
		} else {
			writeError(w, http.StatusBadRequest, "read request body: %s", err)
		}
		return nil, false
	}
	v, err := DecodeJSON[T](data)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%s", strings.TrimPrefix(err.Error(), "bad request: "))
		return nil, false
	}
	return v, true
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	v, err := s.store.SchemaVersion(r.Context())
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "database unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "schema": v})
}

func (s *Server) listTeams(w http.ResponseWriter, r *http.Request, _ *Token) {
	teams, err := s.store.Teams(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"teams": nonNil(teams)})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// TeamRequest creates a team.
type TeamRequest struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (s *Server) createTeam(w http.ResponseWriter, r *http.Request, tok *Token) {
	req, ok := decodeBody[TeamRequest](w, r, maxSmallBody)
	if !ok {
		return
	}
	if err := CheckTeamID(req.ID); err != nil {
		writeError(w, http.StatusBadRequest, "%s", err)
		return
	}
	t, err := s.store.CreateTeam(r.Context(), req.ID, req.Name, tok.Actor())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, t)
}

func (s *Server) getTeam(w http.ResponseWriter, r *http.Request, _ *Token) {
	t, err := s.store.Team(r.Context(), r.PathValue("team"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (s *Server) getKey(w http.ResponseWriter, r *http.Request, _ *Token) {
	t, err := s.store.Team(r.Context(), r.PathValue("team"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"team": t.ID, "public_key": t.PublicKey})
}

// DraftResponse is a draft with its hooks listed for targeting and its warnings.
type DraftResponse struct {
	*Draft
	Hooks    []HookRef   `json:"hooks"`
	Problems srcpos.List `json:"problems,omitempty"`
}

func (s *Server) getDraft(w http.ResponseWriter, r *http.Request, _ *Token) {
	team := r.PathValue("team")
	if _, err := s.store.Team(r.Context(), team); err != nil {
		s.fail(w, r, err)
		return
	}
	d, err := s.store.Draft(r.Context(), team)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, DraftResponse{Draft: d, Hooks: nonNil(d.Hooks()), Problems: d.Validate()})
}

func (s *Server) putDraft(w http.ResponseWriter, r *http.Request, tok *Token) {
	d, ok := decodeBody[Draft](w, r, maxDraftBody)
	if !ok {
		return
	}
	if err := s.store.SaveDraft(r.Context(), r.PathValue("team"), d, tok.Actor()); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, DraftResponse{Draft: d, Hooks: nonNil(d.Hooks()), Problems: d.Validate()})
}

// PublishRequest publishes the draft, or with RollbackOf an older version's content.
type PublishRequest struct {
	Note       string `json:"note"`
	RollbackOf int    `json:"rollback_of"`
}

func (s *Server) publish(w http.ResponseWriter, r *http.Request, tok *Token) {
	req, ok := decodeBody[PublishRequest](w, r, maxSmallBody)
	if !ok {
		return
	}
	if req.RollbackOf < 0 {
		writeError(w, http.StatusBadRequest, "rollback_of must be a version number")
		return
	}
	v, err := s.store.Publish(r.Context(), r.PathValue("team"), req.Note, req.RollbackOf, tok.Actor())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Draft = nil
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) listVersions(w http.ResponseWriter, r *http.Request, _ *Token) {
	team := r.PathValue("team")
	if _, err := s.store.Team(r.Context(), team); err != nil {
		s.fail(w, r, err)
		return
	}
	vs, err := s.store.Versions(r.Context(), team)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"versions": nonNil(vs)})
}

func pathInt(r *http.Request, name string) (int, error) {
	n, err := strconv.Atoi(r.PathValue(name))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%w: %s must be a positive number", errBadRequest, name)
	}
	return n, nil
}

func (s *Server) getVersion(w http.ResponseWriter, r *http.Request, _ *Token) {
	n, err := pathInt(r, "version")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := s.store.Version(r.Context(), r.PathValue("team"), n)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// parseVersionRef reads a diff end: a version number, "draft" or "empty".
func parseVersionRef(v string) (int, error) {
	switch v {
	case "draft":
		return -1, nil
	case "empty", "0":
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: %q is not a version number, draft or empty", errBadRequest, v)
	}
	return n, nil
}

func (s *Server) diff(w http.ResponseWriter, r *http.Request, _ *Token) {
	from, err := parseVersionRef(r.URL.Query().Get("from"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	to, err := parseVersionRef(cmp.Or(r.URL.Query().Get("to"), "draft"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, err := s.store.Diff(r.Context(), r.PathValue("team"), from, to)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, d)
}

// TokenRequest creates a token. ExpiresIn is a Go duration ("720h"); empty never expires.
type TokenRequest struct {
	Name      string `json:"name"`
	ExpiresIn string `json:"expires_in"`
}

func (t *TokenRequest) ttl() (time.Duration, error) {
	if t.ExpiresIn == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(t.ExpiresIn)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%w: expires_in %q: want a positive duration such as 720h", errBadRequest, t.ExpiresIn)
	}
	return d, nil
}

// TokenResponse is a new token: Token is its text, shown this once.
type TokenResponse struct {
	Text string `json:"token"`
	*Token
}

func (s *Server) createToken(w http.ResponseWriter, r *http.Request, tok *Token, kind, team string) {
	req, ok := decodeBody[TokenRequest](w, r, maxSmallBody)
	if !ok {
		return
	}
	ttl, err := req.ttl()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	text, t, err := s.store.CreateToken(r.Context(), kind, team, req.Name, ttl, tok.Actor())
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("%w: %v", errBadRequest, err)
		}
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, TokenResponse{Text: text, Token: t})
}

func (s *Server) createMemberToken(w http.ResponseWriter, r *http.Request, tok *Token) {
	s.createToken(w, r, tok, Member, r.PathValue("team"))
}

func (s *Server) createAdminToken(w http.ResponseWriter, r *http.Request, tok *Token) {
	s.createToken(w, r, tok, Admin, "")
}

func (s *Server) listTokens(w http.ResponseWriter, r *http.Request, _ *Token) {
	team := r.PathValue("team")
	if _, err := s.store.Team(r.Context(), team); err != nil {
		s.fail(w, r, err)
		return
	}
	ts, err := s.store.Tokens(r.Context(), team)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tokens": nonNil(ts)})
}

func (s *Server) listAdminTokens(w http.ResponseWriter, r *http.Request, _ *Token) {
	ts, err := s.store.Tokens(r.Context(), "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tokens": nonNil(ts)})
}

func (s *Server) revokeToken(w http.ResponseWriter, r *http.Request, tok *Token) {
	if err := s.store.RevokeToken(r.Context(), r.PathValue("id"), tok.Actor()); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// getBundle serves the current bundle for ?os= (this machine's OS). An If-None-Match equal
// to the bundle's ETag gets 304 without reading the archive.
func (s *Server) getBundle(w http.ResponseWriter, r *http.Request, _ *Token) {
	team := r.PathValue("team")
	goos := r.URL.Query().Get("os")
	if !bundle.ValidOS(goos) {
		writeError(w, http.StatusBadRequest, "os=%q: want linux, darwin or windows", goos)
		return
	}
	version, etag, err := s.store.BundleETag(r.Context(), team, goos)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	quoted := `"` + etag + `"`
	w.Header().Set("ETag", quoted)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Agenthooks-Version", strconv.Itoa(version))
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, quoted) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	archive, err := s.store.Bundle(r.Context(), team, version, goos)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(archive)))
	w.Write(archive)
}

func etagMatch(header, etag string) bool {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if part == etag || part == "*" {
			return true
		}
	}
	return false
}

func (s *Server) postAudit(w http.ResponseWriter, r *http.Request, tok *Token) {
	if tok.Kind != Member {
		writeError(w, http.StatusForbidden, "audit records are uploaded with a member token")
		return
	}
	b, ok := decodeBody[AuditBatch](w, r, MaxAuditBody)
	if !ok {
		return
	}
	if err := b.Check(); err != nil {
		writeError(w, http.StatusBadRequest, "%s", err)
		return
	}
	n, err := s.store.AddAudit(r.Context(), tok, b)
	if errors.Is(err, ErrQuota) {
		w.Header().Set("Retry-After", strconv.FormatInt(86400-s.store.Now().Unix()%86400, 10))
		writeError(w, http.StatusTooManyRequests, "%s", err)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"received": len(b.Records), "added": n})
}

// ParseAuditFilter reads the audit filters of a query string: since and until (RFC 3339 or
// a duration back from now such as 7d or 24h), decision (allow, ask, deny, error), event,
// hook, machine, limit.
func ParseAuditFilter(q url.Values, now time.Time) (AuditFilter, error) {
	var f AuditFilter
	var err error
	if f.Since, err = audit.ParseSince(q.Get("since"), now); err != nil {
		return f, fmt.Errorf("%w: since: %v", errBadRequest, err)
	}
	if f.Until, err = audit.ParseSince(q.Get("until"), now); err != nil {
		return f, fmt.Errorf("%w: until: %v", errBadRequest, err)
	}
	f.Decision, f.Event, f.Hook, f.Machine = q.Get("decision"), q.Get("event"), q.Get("hook"), q.Get("machine")
	for _, v := range []string{f.Decision, f.Event, f.Hook, f.Machine} {
		if len(v) > 500 {
			return f, fmt.Errorf("%w: a filter is longer than 500 characters", errBadRequest)
		}
	}
	if l := q.Get("limit"); l != "" {
		if f.Limit, err = strconv.Atoi(l); err != nil || f.Limit < 1 || f.Limit > 1000 {
			return f, fmt.Errorf("%w: limit must be 1 to 1000", errBadRequest)
		}
	}
	return f, nil
}

// AuditReport is what the audit endpoint and page show.
type AuditReport struct {
	Events []AuditEvent `json:"events"`
	ByDay  []Count      `json:"by_day"`
	ByHook []Count      `json:"by_hook"`
}

func (s *Server) auditReport(ctx context.Context, team string, f AuditFilter) (*AuditReport, error) {
	if _, err := s.store.Team(ctx, team); err != nil {
		return nil, err
	}
	rep := &AuditReport{}
	var err error
	if rep.Events, err = s.store.Audit(ctx, team, f); err != nil {
		return nil, err
	}
	if rep.ByDay, err = s.store.AuditByDay(ctx, team, f); err != nil {
		return nil, err
	}
	if rep.ByHook, err = s.store.AuditByHook(ctx, team, f); err != nil {
		return nil, err
	}
	rep.Events, rep.ByDay, rep.ByHook = nonNil(rep.Events), nonNil(rep.ByDay), nonNil(rep.ByHook)
	return rep, nil
}

func (s *Server) getAudit(w http.ResponseWriter, r *http.Request, _ *Token) {
	f, err := ParseAuditFilter(r.URL.Query(), s.store.Now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rep, err := s.auditReport(r.Context(), r.PathValue("team"), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

func (s *Server) getLog(w http.ResponseWriter, r *http.Request, _ *Token) {
	entries, err := s.store.Log(r.Context(), 500)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"log": nonNil(entries)})
}
