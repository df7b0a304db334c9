package server

import (
	"cmp"
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/bundle"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

//go:embed web
var webFS embed.FS

// sessionCookie is the dashboard's cookie. The __Host- prefix makes browsers refuse it unless
// it is Secure, host-only and for path /.
const sessionCookie = "__Host-agenthooks"

// insecureCookie is the name used when Options.InsecureCookies drops Secure.
const insecureCookie = "agenthooks"

type web struct {
	s     *Server
	pages map[string]*template.Template
}

func newWeb(s *Server) *web {
	funcs := template.FuncMap{
		"time": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"join": strings.Join,
		"has": func(list []string, v string) bool {
			for _, x := range list {
				if x == v {
					return true
				}
			}
			return false
		},
		"oses": func() []string { return bundle.OSes },
		"add":  func(a, b int) int { return a + b },
		"ms": func(d time.Duration) string {
			return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
		},
	}
	w := &web{s: s, pages: map[string]*template.Template{}}
	names, _ := fs.Glob(webFS, "web/*.html")
	for _, n := range names {
		if path.Base(n) == "layout.html" {
			continue
		}
		t := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(webFS, "web/layout.html", n))
		w.pages[path.Base(n)] = t
	}
	return w
}

func (w *web) routes(mux *http.ServeMux) {
	static, _ := fs.Sub(webFS, "web/static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.FS(static))))
	mux.HandleFunc("GET /login", w.loginPage)
	mux.HandleFunc("POST /login", w.login)
	mux.Handle("POST /logout", w.auth(w.logout))
	mux.Handle("GET /{$}", w.auth(w.teams))
	mux.Handle("POST /teams", w.auth(w.createTeam))
	mux.Handle("GET /teams/{team}", w.auth(w.team))
	mux.Handle("POST /teams/{team}/draft", w.auth(w.saveDraft))
	mux.Handle("POST /teams/{team}/publish", w.auth(w.publish))
	mux.Handle("GET /teams/{team}/versions/{version}", w.auth(w.version))
	mux.Handle("POST /teams/{team}/versions/{version}/rollback", w.auth(w.rollback))
	mux.Handle("GET /teams/{team}/diff", w.auth(w.diff))
	mux.Handle("POST /teams/{team}/tokens", w.auth(w.createToken))
	mux.Handle("POST /tokens/{id}/revoke", w.auth(w.revoke))
	mux.Handle("GET /teams/{team}/audit", w.auth(w.audit))
	mux.Handle("GET /log", w.auth(w.log))
	mux.Handle("POST /teams/{team}/latency", w.auth(w.setThreshold))
}

// page is what every template gets.
type page struct {
	Title   string
	Session *Session
	Flash   string
	Error   string
	Data    any
}

func (w *web) render(rw http.ResponseWriter, status int, name string, p page) {
	t := w.pages[name]
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	var b strings.Builder
	if err := t.Execute(&b, p); err != nil {
		w.s.log.Error("render page", "page", name, "error", err)
		http.Error(rw, "internal error", http.StatusInternalServerError)
		return
	}
	rw.WriteHeader(status)
	io.WriteString(rw, b.String())
}

type sessionKey struct{}

// session returns the live session of a cookie sent from addr. An unknown cookie counts as
// a failed authentication of the source, and a source over its allowance is refused before
// the database is asked, except for a cookie that was live on this instance.
func (s *Server) session(ctx context.Context, addr, cookie string) (*Session, error) {
	key := "session:" + hashSecret(cookie)
	_, isKnown := s.known.check(key)
	if !isKnown && !s.fails.ok(addr) {
		return nil, errTooMany
	}
	sess, err := s.store.Session(ctx, cookie)
	if errors.Is(err, ErrBadToken) {
		s.known.forget(key)
		if !s.fails.allow(addr) {
			return nil, errTooMany
		}
		return nil, err
	}
	if err == nil {
		s.known.remember(key, "")
	}
	return sess, err
}

func (w *web) cookieName() string {
	if w.s.opts.InsecureCookies {
		return insecureCookie
	}
	return sessionCookie
}

// auth requires a dashboard session; a POST also needs the session's CSRF token in its form
// and, when the browser sends one, an Origin of this host.
func (w *web) auth(h func(http.ResponseWriter, *http.Request, *Session)) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(w.cookieName())
		var sess *Session
		if err == nil {
			sess, err = w.s.session(r.Context(), clientAddr(r), c.Value)
		}
		if errors.Is(err, errTooMany) {
			tooMany(rw)
			return
		}
		if err != nil {
			if r.Method == http.MethodGet {
				http.Redirect(rw, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			http.Error(rw, "your session has ended: log in again", http.StatusUnauthorized)
			return
		}
		if !w.s.tokens.allow(sess.Token.ID) {
			tooMany(rw)
			return
		}
		if r.Method == http.MethodPost {
			if !sameOrigin(r) {
				http.Error(rw, "cross-site request refused", http.StatusForbidden)
				return
			}
			r.Body = http.MaxBytesReader(rw, r.Body, maxDraftBody)
			if err := parseForm(r); err != nil {
				http.Error(rw, "bad form: "+err.Error(), http.StatusBadRequest)
				return
			}
			if subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(sess.CSRF)) != 1 {
				http.Error(rw, "the form's CSRF token is missing or wrong: reload the page", http.StatusForbidden)
				return
			}
		}
		h(rw, r, sess)
	})
}

func parseForm(r *http.Request) error {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return r.ParseMultipartForm(maxDraftBody)
	}
	return r.ParseForm()
}

// sameOrigin accepts a request whose Origin (or, lacking it, Referer) is this host, and one
// with neither (not a browser's cross-site form).
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		o = r.Header.Get("Referer")
	}
	if o == "" || o == "null" && r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

func (w *web) loginPage(rw http.ResponseWriter, r *http.Request) {
	w.render(rw, http.StatusOK, "login.html", page{Title: "Log in", Data: map[string]string{"Next": safeNext(r.URL.Query().Get("next"))}})
}

// safeNext keeps a post-login redirect on this site: it accepts only a same-origin relative
// path ("/teams/x?tab=y"). Browsers drop tabs and newlines from a Location and read "\" as
// "/", so "/\t/evil.example" or "/\\evil.example" would leave the site: a path holding a
// control character, a space or a backslash is refused, as is one with a scheme or a host.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || len(next) > 2048 {
		return "/"
	}
	for _, c := range next {
		if c <= ' ' || c == 0x7f || c == '\\' || c > 0x7e {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	return u.RequestURI()
}

func (w *web) login(rw http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(rw, "cross-site request refused", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(rw, r.Body, maxSmallBody)
	if err := r.ParseForm(); err != nil {
		http.Error(rw, "bad form", http.StatusBadRequest)
		return
	}
	next := safeNext(r.PostFormValue("next"))
	tok, err := w.s.authenticate(r.Context(), clientAddr(r), r.PostFormValue("token"))
	if errors.Is(err, errTooMany) {
		tooMany(rw)
		return
	}
	if err != nil && !errors.Is(err, ErrBadToken) {
		w.s.internal(rw, r, err)
		return
	}
	if err == nil && tok.Kind != Admin {
		err = errors.New("the dashboard needs an admin token")
	}
	if err != nil {
		w.render(rw, http.StatusUnauthorized, "login.html", page{Title: "Log in", Error: "That token is not a valid admin token.", Data: map[string]string{"Next": next}})
		return
	}
	cookie, sess, err := w.s.store.CreateSession(r.Context(), tok)
	if err != nil {
		w.s.internal(rw, r, err)
		return
	}
	http.SetCookie(rw, &http.Cookie{Name: w.cookieName(), Value: cookie, Path: "/", HttpOnly: true,
		Secure: !w.s.opts.InsecureCookies, SameSite: http.SameSiteStrictMode, Expires: sess.Expires})
	http.Redirect(rw, r, next, http.StatusSeeOther)
}

func (w *web) logout(rw http.ResponseWriter, r *http.Request, _ *Session) {
	if c, err := r.Cookie(w.cookieName()); err == nil {
		w.s.store.DeleteSession(r.Context(), c.Value)
	}
	http.SetCookie(rw, &http.Cookie{Name: w.cookieName(), Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: !w.s.opts.InsecureCookies, SameSite: http.SameSiteStrictMode})
	http.Redirect(rw, r, "/login", http.StatusSeeOther)
}

func (w *web) fail(rw http.ResponseWriter, r *http.Request, sess *Session, err error) {
	status := http.StatusInternalServerError
	msg := "internal error; see the server's log"
	switch {
	case errors.Is(err, ErrNotFound):
		status, msg = http.StatusNotFound, err.Error()
	case errors.Is(err, ErrConflict), errors.Is(err, errBadRequest), errors.Is(err, ErrLastAdmin):
		status, msg = http.StatusBadRequest, err.Error()
	default:
		w.s.log.Error("page failed", "path", r.URL.Path, "error", err)
	}
	w.render(rw, status, "error.html", page{Title: "Error", Session: sess, Error: msg})
}

func (w *web) teams(rw http.ResponseWriter, r *http.Request, sess *Session) {
	teams, err := w.s.store.Teams(r.Context())
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	w.render(rw, http.StatusOK, "teams.html", page{Title: "Teams", Session: sess, Flash: r.URL.Query().Get("flash"), Data: teams})
}

func (w *web) createTeam(rw http.ResponseWriter, r *http.Request, sess *Session) {
	id := strings.TrimSpace(r.PostFormValue("id"))
	if _, err := w.s.store.CreateTeam(r.Context(), id, r.PostFormValue("name"), sess.Token.Actor()); err != nil {
		teams, _ := w.s.store.Teams(r.Context())
		w.render(rw, http.StatusBadRequest, "teams.html", page{Title: "Teams", Session: sess, Error: err.Error(), Data: teams})
		return
	}
	http.Redirect(rw, r, "/teams/"+url.PathEscape(id)+"?flash="+url.QueryEscape("Team created."), http.StatusSeeOther)
}

// teamPage is the data of the team page.
type teamPage struct {
	Team     *Team
	Draft    *Draft
	Hooks    []HookRef
	Problems srcpos.List
	Listings []listing // files with problems, line by line
	Versions []*Version
	Tokens   []*Token
	NewToken string
	Changed  bool // the draft differs from the current version
	// Protection is each machine's coverage and each hook's latency (coverage.go).
	Protection *ProtectionReport
}

type listing struct {
	Path  string
	Lines []listingLine
}

type listingLine struct {
	N        int
	Text     string
	Problems []string
}

// listings shows each file that has problems with its lines numbered and the problems under
// the lines they are at.
func listings(d *Draft, probs srcpos.List) []listing {
	byFile := map[string]map[int][]string{}
	for _, p := range probs {
		if byFile[p.File] == nil {
			byFile[p.File] = map[int][]string{}
		}
		msg := p.String()
		byFile[p.File][p.Line] = append(byFile[p.File][p.Line], msg)
	}
	var out []listing
	for _, f := range d.Files {
		at, ok := byFile[f.Path]
		if !ok {
			continue
		}
		l := listing{Path: f.Path}
		if general := at[0]; len(general) > 0 {
			l.Lines = append(l.Lines, listingLine{Problems: general})
		}
		for i, text := range strings.Split(f.Content, "\n") {
			l.Lines = append(l.Lines, listingLine{N: i + 1, Text: text, Problems: at[i+1]})
		}
		out = append(out, l)
	}
	return out
}

func (w *web) teamData(r *http.Request, team string, d *Draft) (*teamPage, error) {
	t, err := w.s.store.Team(r.Context(), team)
	if err != nil {
		return nil, err
	}
	if d == nil {
		if d, err = w.s.store.Draft(r.Context(), team); err != nil {
			return nil, err
		}
	}
	p := &teamPage{Team: t, Draft: d, Hooks: d.Hooks(), Problems: d.Validate()}
	if p.Versions, err = w.s.store.Versions(r.Context(), team); err != nil {
		return nil, err
	}
	if p.Tokens, err = w.s.store.Tokens(r.Context(), team); err != nil {
		return nil, err
	}
	if p.Protection, err = w.s.protection(r.Context(), team); err != nil {
		return nil, err
	}
	if t.CurrentVersion > 0 {
		if cur, err := w.s.store.Version(r.Context(), team, t.CurrentVersion); err == nil {
			p.Changed = DiffDrafts(cur.Draft, d, "a", "b") != ""
		}
	} else {
		p.Changed = len(d.Files) > 0
	}
	return p, nil
}

func (w *web) team(rw http.ResponseWriter, r *http.Request, sess *Session) {
	p, err := w.teamData(r, r.PathValue("team"), nil)
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	w.render(rw, http.StatusOK, "team.html", page{Title: p.Team.Name, Session: sess, Flash: r.URL.Query().Get("flash"), Data: p})
}

// draftFromForm rebuilds a draft from the team page's form: the edited files (content:N with
// path:N, dropped with delete:N), a new file typed in or uploaded, and the OS boxes of each
// hook (hook:N with os:N).
func draftFromForm(r *http.Request) (*Draft, error) {
	d := &Draft{Targets: map[string][]string{}}
	f := r.PostForm
	for i := 0; ; i++ {
		n := strconv.Itoa(i)
		p, ok := f["path:"+n]
		if !ok {
			break
		}
		if f.Get("delete:"+n) != "" {
			continue
		}
		d.Files = append(d.Files, DraftFile{Path: p[0], Content: normalizeNewlines(f.Get("content:" + n)), Executable: f.Get("exec:"+n) != ""})
	}
	if p := strings.TrimSpace(f.Get("new_path")); p != "" {
		d.Files = append(d.Files, DraftFile{Path: p, Content: normalizeNewlines(f.Get("new_content")), Executable: f.Get("new_exec") != ""})
	}
	if r.MultipartForm != nil {
		for _, fh := range r.MultipartForm.File["upload"] {
			if fh.Size > MaxDraftBytes {
				return nil, fmt.Errorf("%w: %s is larger than %d bytes", errBadRequest, fh.Filename, MaxDraftBytes)
			}
			file, err := fh.Open()
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(io.LimitReader(file, MaxDraftBytes+1))
			file.Close()
			if err != nil {
				return nil, err
			}
			name := path.Base(strings.ReplaceAll(fh.Filename, "\\", "/"))
			if dir := strings.Trim(f.Get("upload_dir"), "/ "); dir != "" && name != CursorConfig && name != ClaudeConfig && name != PolicyFile {
				name = dir + "/" + name
			}
			replaced := false
			for i := range d.Files {
				if d.Files[i].Path == name {
					d.Files[i].Content, replaced = string(data), true
				}
			}
			if !replaced {
				d.Files = append(d.Files, DraftFile{Path: name, Content: string(data)})
			}
		}
	}
	for i := 0; ; i++ {
		n := strconv.Itoa(i)
		key, ok := f["hook:"+n]
		if !ok {
			break
		}
		oses := f["os:"+n]
		if len(oses) != len(bundle.OSes) {
			sort.Strings(oses)
			d.Targets[key[0]] = append([]string{}, oses...)
		}
	}
	return d, nil
}

func normalizeNewlines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func (w *web) saveDraft(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	d, err := draftFromForm(r)
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	// Targets of hooks the edit removed are dropped, not reported.
	live := map[string]bool{}
	for _, h := range d.Hooks() {
		live[h.Key] = true
	}
	for k := range d.Targets {
		if !live[k] {
			delete(d.Targets, k)
		}
	}
	err = w.s.store.SaveDraft(r.Context(), team, d, sess.Token.Actor())
	var ve *ValidationError
	if errors.As(err, &ve) {
		p, perr := w.teamData(r, team, d)
		if perr != nil {
			w.fail(rw, r, sess, perr)
			return
		}
		p.Problems, p.Listings = ve.Problems, listings(d, ve.Problems)
		w.render(rw, http.StatusUnprocessableEntity, "team.html", page{Title: p.Team.Name, Session: sess,
			Error: "Not saved: the hooks have errors (shown below at their lines).", Data: p})
		return
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	http.Redirect(rw, r, "/teams/"+url.PathEscape(team)+"?flash="+url.QueryEscape("Draft saved."), http.StatusSeeOther)
}

func (w *web) publish(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	v, err := w.s.store.Publish(r.Context(), team, r.PostFormValue("note"), 0, sess.Token.Actor())
	var ve *ValidationError
	if errors.As(err, &ve) {
		p, perr := w.teamData(r, team, nil)
		if perr != nil {
			w.fail(rw, r, sess, perr)
			return
		}
		p.Problems, p.Listings = ve.Problems, listings(p.Draft, ve.Problems)
		w.render(rw, http.StatusUnprocessableEntity, "team.html", page{Title: p.Team.Name, Session: sess, Error: "Not published: " + ve.Error(), Data: p})
		return
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	http.Redirect(rw, r, "/teams/"+url.PathEscape(team)+"?flash="+url.QueryEscape(fmt.Sprintf("Published version %d.", v.Version)), http.StatusSeeOther)
}

func (w *web) version(rw http.ResponseWriter, r *http.Request, sess *Session) {
	n, err := pathInt(r, "version")
	if err == nil {
		var v *Version
		if v, err = w.s.store.Version(r.Context(), r.PathValue("team"), n); err == nil {
			w.render(rw, http.StatusOK, "version.html", page{Title: fmt.Sprintf("%s version %d", v.Team, v.Version), Session: sess, Data: v})
			return
		}
	}
	w.fail(rw, r, sess, err)
}

func (w *web) rollback(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	n, err := pathInt(r, "version")
	var v *Version
	if err == nil {
		v, err = w.s.store.Publish(r.Context(), team, r.PostFormValue("note"), n, sess.Token.Actor())
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	http.Redirect(rw, r, "/teams/"+url.PathEscape(team)+"?flash="+url.QueryEscape(fmt.Sprintf("Version %d restores version %d.", v.Version, n)), http.StatusSeeOther)
}

// diffPage is a diff split into lines with their kind, for colouring.
type diffPage struct {
	Team     string
	From, To string
	Lines    []diffLine
}

type diffLine struct {
	Kind string // add, del, hunk, file, or ""
	Text string
}

func (w *web) diff(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	q := r.URL.Query()
	from, err := parseVersionRef(q.Get("from"))
	to := -1
	if err == nil {
		to, err = parseVersionRef(cmp.Or(q.Get("to"), "draft"))
	}
	var text string
	if err == nil {
		text, err = w.s.store.Diff(r.Context(), team, from, to)
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	p := diffPage{Team: team, From: label(from), To: label(to)}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		kind := ""
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			kind = "file"
		case strings.HasPrefix(l, "+"):
			kind = "add"
		case strings.HasPrefix(l, "-"):
			kind = "del"
		case strings.HasPrefix(l, "@@"):
			kind = "hunk"
		}
		if l != "" || kind != "" {
			p.Lines = append(p.Lines, diffLine{Kind: kind, Text: l})
		}
	}
	w.render(rw, http.StatusOK, "diff.html", page{Title: "Diff " + p.From + " → " + p.To, Session: sess, Data: p})
}

func (w *web) createToken(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	req := TokenRequest{Name: r.PostFormValue("name"), ExpiresIn: r.PostFormValue("expires_in")}
	ttl, err := req.ttl()
	var text string
	if err == nil {
		text, _, err = w.s.store.CreateToken(r.Context(), Member, team, req.Name, ttl, sess.Token.Actor())
		if err != nil && !errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("%w: %v", errBadRequest, err)
		}
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	t, err := w.s.store.Team(r.Context(), team)
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	w.render(rw, http.StatusOK, "token.html", page{Title: "New member token", Session: sess,
		Data: map[string]string{"Token": text, "Team": team, "Key": t.PublicKey, "Name": req.Name}})
}

func (w *web) revoke(rw http.ResponseWriter, r *http.Request, sess *Session) {
	if err := w.s.store.RevokeToken(r.Context(), r.PathValue("id"), sess.Token.Actor()); err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	back := safeNext(r.PostFormValue("back"))
	http.Redirect(rw, r, back, http.StatusSeeOther)
}

// auditPage is the data of the audit page.
type auditPage struct {
	Team   string
	Query  url.Values
	Report *AuditReport
	Chart  chart
}

// chart is a bar chart of denies and errors per day, drawn as SVG by the template.
type chart struct {
	Width, Height int
	Bars          []chartBar
	Max           int
}

type chartBar struct {
	Day            string
	X, Width       int
	DenyY, DenyH   int
	ErrorY, ErrorH int
	Denies, Errors int
	LabelX         int
	Label          bool
}

func makeChart(days []Count) chart {
	c := chart{Width: 720, Height: 180}
	for _, d := range days {
		if d.Denies+d.Errors > c.Max {
			c.Max = d.Denies + d.Errors
		}
	}
	if len(days) == 0 || c.Max == 0 {
		return c
	}
	plot := c.Height - 20
	slot := c.Width / len(days)
	if slot > 60 {
		slot = 60
	}
	step := max(len(days)/8, 1) // label about eight days
	for i, d := range days {
		dh := d.Denies * plot / c.Max
		eh := d.Errors * plot / c.Max
		b := chartBar{Day: d.Key, X: i*slot + 2, Width: max(slot-4, 1), Denies: d.Denies, Errors: d.Errors,
			DenyH: dh, DenyY: plot - dh, ErrorH: eh, ErrorY: plot - dh - eh, LabelX: i*slot + 2, Label: i%step == 0}
		c.Bars = append(c.Bars, b)
	}
	return c
}

func (w *web) audit(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	q := r.URL.Query()
	if q.Get("since") == "" {
		q.Set("since", "30d")
	}
	f, err := ParseAuditFilter(q, w.s.store.Now())
	var rep *AuditReport
	if err == nil {
		rep, err = w.s.auditReport(r.Context(), team, f)
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	w.render(rw, http.StatusOK, "audit.html", page{Title: "Audit: " + team, Session: sess,
		Data: auditPage{Team: team, Query: q, Report: rep, Chart: makeChart(rep.ByDay)}})
}

func (w *web) log(rw http.ResponseWriter, r *http.Request, sess *Session) {
	entries, err := w.s.store.Log(r.Context(), 500)
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	admins, err := w.s.store.Tokens(r.Context(), "")
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	w.render(rw, http.StatusOK, "log.html", page{Title: "Admin log", Session: sess, Data: map[string]any{"Log": entries, "Admins": admins}})
}
