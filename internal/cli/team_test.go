package cli_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenthooks/agenthooks/server"
)

func freePort() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "18080"
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// teamCmds are the scripts' team server commands:
//
//	teamserver FILE...   start a team server with team "core" publishing FILEs (paths
//	                     relative to $WORK, kept as bundle paths); set SERVER, TOKEN and KEY
//	publish FILE...      publish FILEs as the team's next version
//	waithttp URL         wait up to 20 s for URL to answer 200
//	waitsmaller FILE N   wait up to 20 s for FILE to be missing or smaller than N bytes
//	hookserver           start an http hook endpoint and set HOOKS: /deny answers a Claude
//	                     deny and appends the request's Authorization header and body to
//	                     $WORK/hookserver.log; /slow answers after 5 s
func teamCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	stores := map[*testscript.TestScript]*server.Store{}
	publish := func(ts *testscript.TestScript, files []string) {
		d := &server.Draft{}
		for _, f := range files {
			d.Files = append(d.Files, server.DraftFile{Path: f, Content: ts.ReadFile(f)})
		}
		store := stores[ts]
		ctx := context.Background()
		ts.Check(store.SaveDraft(ctx, "core", d, "script"))
		_, err := store.Publish(ctx, "core", "", 0, "script")
		ts.Check(err)
	}
	return map[string]func(*testscript.TestScript, bool, []string){
		"teamserver": func(ts *testscript.TestScript, neg bool, args []string) {
			store, err := server.OpenStore(context.Background(), "sqlite:"+filepath.Join(ts.Getenv("WORK"), "teamserver.db"))
			ts.Check(err)
			srv := httptest.NewServer(server.New(store, server.Options{Rate: 1000, Burst: 1000}).Handler())
			ts.Defer(func() { srv.Close(); store.Close() })
			stores[ts] = store
			team, err := store.CreateTeam(context.Background(), "core", "Core", "script")
			ts.Check(err)
			publish(ts, args)
			tok, _, err := store.CreateToken(context.Background(), server.Member, "core", "script", 0, "script")
			ts.Check(err)
			ts.Setenv("SERVER", srv.URL)
			ts.Setenv("TOKEN", tok)
			ts.Setenv("KEY", team.PublicKey)
		},
		"publish": func(ts *testscript.TestScript, neg bool, args []string) { publish(ts, args) },
		"waitsmaller": func(ts *testscript.TestScript, neg bool, args []string) {
			limit, err := strconv.ParseInt(args[1], 10, 64)
			ts.Check(err)
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if st, err := os.Stat(ts.MkAbs(args[0])); err != nil || st.Size() < limit {
					return
				}
			}
			ts.Fatalf("%s stayed at %s bytes or more", args[0], args[1])
		},
		"hookserver": func(ts *testscript.TestScript, neg bool, args []string) {
			logFile := filepath.Join(ts.Getenv("WORK"), "hookserver.log")
			var mu sync.Mutex
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				switch r.URL.Path {
				case "/deny":
					mu.Lock()
					f, err := os.OpenFile(logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
					if err == nil {
						fmt.Fprintf(f, "auth=%s body=%s\n", r.Header.Get("Authorization"), body)
						f.Close()
					}
					mu.Unlock()
					fmt.Fprint(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied over http"}}`)
				case "/slow":
					select {
					case <-r.Context().Done():
					case <-time.After(5 * time.Second):
					}
				}
			}))
			ts.Defer(srv.Close)
			ts.Setenv("HOOKS", srv.URL)
		},
		"waithttp": func(ts *testscript.TestScript, neg bool, args []string) {
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if res, err := http.Get(args[0]); err == nil {
					res.Body.Close()
					if res.StatusCode == 200 {
						return
					}
				}
			}
			ts.Fatalf("%s did not answer", args[0])
		},
	}
}
