package engine

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

func TestHTTPHooks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var gotBody, gotAuth, gotLeak string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/deny":
			mu.Lock() // the two hooks run at once: only this one's request is checked
			gotBody, gotAuth, gotLeak = string(b), r.Header.Get("Authorization"), r.Header.Get("X-Leak")
			mu.Unlock()
			fmt.Fprint(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}`)
		case "/down":
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	settings := fmt.Sprintf(`{"hooks":{"PreToolUse":[{"hooks":[
		{"type":"http","url":%q,"headers":{"Authorization":"Bearer $TOKEN","X-Leak":"$SECRET"},"allowedEnvVars":["TOKEN"]},
		{"type":"http","url":%q,"failClosed":true}
	]}]}}`, srv.URL+"/deny", srv.URL+"/down")
	dir := t.TempDir()
	file := dir + "/settings.json"
	if err := writeFile(file, settings); err != nil {
		t.Fatal(err)
	}
	eng, err := Load(Options{Env: config.Env{Home: dir, EnterpriseDir: dir, ClaudeManagedDir: dir},
		Files: []ConfigFile{{Path: file, Family: dialect.Claude}}, Environ: []string{"TOKEN=t0k", "SECRET=s3cret"}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := eng.Fire(context.Background(), Event{Agent: dialect.Claude, Name: "PreToolUse",
		Payload: []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/"}`)})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(gotBody, `"tool_name":"Bash"`) || gotAuth != "Bearer t0k" || gotLeak != "" {
		t.Fatalf("request: body %s, auth %q, leak %q", gotBody, gotAuth, gotLeak)
	}
	if d.Permission != decide.Deny || d.Runs[0].Verdict != VerdictDeny || d.Runs[1].Verdict != VerdictFailedClosed {
		t.Fatalf("decision %s, runs %s %s (%v)", d.Permission, d.Runs[0].Verdict, d.Runs[1].Verdict, d.Runs[1].Errors)
	}
	if !strings.Contains(strings.Join(d.Runs[1].Errors, " "), "HTTP status 502") {
		t.Fatalf("errors %v", d.Runs[1].Errors)
	}
}
