package telemetry_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/telemetry"
)

// receiver is a webhook endpoint that checks each request's signature as a SIEM's would, and
// answers the statuses it is given, in turn, then 200.
type receiver struct {
	secret []byte
	mu     sync.Mutex
	status []int
	tries  int
	got    []audit.Record // from the requests it accepted
	hashes []string       // their "hash"
	bad    int            // requests whose signature did not verify
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.tries++
	if !telemetry.Verify(rc.secret, body, r.Header.Get(telemetry.SignatureHeader)) || r.Header.Get("Content-Type") != "application/x-ndjson" {
		rc.bad++
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	if len(rc.status) > 0 {
		code := rc.status[0]
		rc.status = rc.status[1:]
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "0")
		}
		w.WriteHeader(code)
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec audit.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var h struct {
			Hash string `json:"hash"`
		}
		_ = json.Unmarshal(sc.Bytes(), &h)
		rc.got, rc.hashes = append(rc.got, rec), append(rc.hashes, h.Hash)
	}
}

func (rc *receiver) records() []audit.Record {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]audit.Record(nil), rc.got...)
}

func openStore(t *testing.T) (*audit.Store, string) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "audit.db")
	spool(t, db)
	s, err := audit.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, db
}

// TestWebhookSignsRetriesAndRemembers: batches arrive signed, a 503 and a 429 are retried with
// backoff, and a second export sends nothing again.
func TestWebhookSignsRetriesAndRemembers(t *testing.T) {
	t.Parallel()
	rc := &receiver{secret: []byte("s3cret"), status: []int{http.StatusServiceUnavailable, http.StatusTooManyRequests}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s, _ := openStore(t)
	ctx := context.Background()
	hook := &telemetry.Webhook{URL: srv.URL, Secret: rc.secret, Backoff: time.Millisecond}
	if n, err := telemetry.Export(ctx, s, hook, time.Time{}, io.Discard); err != nil || n != 2 {
		t.Fatalf("exported %d: %v", n, err)
	}
	got := rc.records()
	if rc.tries != 3 || rc.bad != 0 || len(got) != 2 {
		t.Fatalf("%d tries, %d bad signatures, %d records", rc.tries, rc.bad, len(got))
	}
	if got[0].TraceID != agentTrace || got[0].Runs[0].SpanID != denySpan || strings.Contains(got[0].Reason, "hunter2") {
		t.Errorf("record as received: %+v", got[0])
	}
	if n, err := telemetry.Export(ctx, s, hook, time.Time{}, io.Discard); err != nil || n != 0 || rc.tries != 3 {
		t.Fatalf("a second export sent %d (%d tries): %v", n, rc.tries, err)
	}
}

// TestWebhookWrongSecretIsRefusedAndNotSkipped: a 4xx is final (no retry), and the records it
// refused are sent by the next export.
func TestWebhookWrongSecretIsRefusedAndNotSkipped(t *testing.T) {
	t.Parallel()
	rc := &receiver{secret: []byte("right")}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s, _ := openStore(t)
	ctx := context.Background()
	_, err := telemetry.Export(ctx, s, &telemetry.Webhook{URL: srv.URL, Secret: []byte("wrong"), Backoff: time.Millisecond}, time.Time{}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "401") || rc.tries != 1 {
		t.Fatalf("wrong secret: %v after %d tries", err, rc.tries)
	}
	if n, err := telemetry.Export(ctx, s, &telemetry.Webhook{URL: srv.URL, Secret: rc.secret}, time.Time{}, io.Discard); err != nil || n != 2 {
		t.Fatalf("after fixing the secret: %d, %v", n, err)
	}
}

// TestWebhookGivesUpAfterItsAttempts: a receiver that keeps failing costs a bounded number of
// tries, and the error says so.
func TestWebhookGivesUpAfterItsAttempts(t *testing.T) {
	t.Parallel()
	rc := &receiver{secret: []byte("k"), status: []int{500, 500, 500, 500}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s, _ := openStore(t)
	_, err := telemetry.Export(context.Background(), s, &telemetry.Webhook{URL: srv.URL, Secret: rc.secret, Attempts: 3, Backoff: time.Millisecond}, time.Time{}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "3 attempts failed") || rc.tries != 3 {
		t.Fatalf("%v after %d tries", err, rc.tries)
	}
}

// TestWatchFollowsAndResumes: a watch sends records as hook processes spool them; a watch
// started again after it stopped sends only what came meanwhile.
func TestWatchFollowsAndResumes(t *testing.T) {
	t.Parallel()
	rc := &receiver{secret: []byte("k")}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s, db := openStore(t)
	hook := &telemetry.Webhook{URL: srv.URL, Secret: rc.secret}
	watch := func(until int) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- telemetry.Watch(ctx, s, hook, 20*time.Millisecond, io.Discard) }()
		deadline := time.Now().Add(30 * time.Second)
		for len(rc.records()) < until && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	watch(2)
	if _, err := audit.Append(context.Background(), db, &audit.Record{Origin: "run", Agent: "gemini", Event: "BeforeTool", Decision: "allow"}); err != nil {
		t.Fatal(err)
	}
	watch(3)
	got := rc.records()
	if len(got) != 3 || got[2].Agent != "gemini" {
		t.Fatalf("received %d records: %+v", len(got), got)
	}
	ids := map[int64]bool{}
	for _, r := range got {
		if ids[r.ID] {
			t.Fatalf("record %d received twice", r.ID)
		}
		ids[r.ID] = true
	}
}

func TestSignVerify(t *testing.T) {
	body := []byte(`{"id":1}` + "\n")
	sig := telemetry.Sign([]byte("k"), body)
	if !strings.HasPrefix(sig, "sha256=") || len(sig) != 7+64 || !telemetry.Verify([]byte("k"), body, sig) {
		t.Fatalf("signature %q", sig)
	}
	if telemetry.Verify([]byte("other"), body, sig) || telemetry.Verify([]byte("k"), append(body, ' '), sig) {
		t.Fatal("a signature verified under another key or body")
	}
}

// crashingWebhook is a webhook exporter that dies after the receiver took a batch and before
// the cursor moved.
type crashingWebhook struct{ *telemetry.Webhook }

func (c crashingWebhook) Send(ctx context.Context, recs []audit.Record) error {
	if err := c.Webhook.Send(ctx, recs); err != nil {
		return err
	}
	return errors.New("killed after sending, before the cursor moved")
}

// TestWebhookResendAfterCrash: a batch the receiver took, whose exporter died before the
// cursor moved, is sent again by the next export, each line with the chain hash it had: a SIEM
// drops what it holds by "hash".
func TestWebhookResendAfterCrash(t *testing.T) {
	t.Parallel()
	rc := &receiver{secret: []byte("s3cret")}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s, _ := openStore(t)
	ctx := context.Background()
	hook := &telemetry.Webhook{URL: srv.URL, Secret: rc.secret}
	if _, err := telemetry.Export(ctx, s, crashingWebhook{hook}, time.Time{}, io.Discard); err == nil {
		t.Fatal("the crashing export did not fail")
	}
	if n, err := telemetry.Export(ctx, s, hook, time.Time{}, io.Discard); err != nil || n != 2 {
		t.Fatalf("the export after the crash sent %d, %v", n, err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.hashes) != 4 || rc.hashes[0] != rc.hashes[2] || rc.hashes[1] != rc.hashes[3] || rc.hashes[0] == rc.hashes[1] {
		t.Fatalf("hashes of the lines sent, then sent again: %q; want two distinct hashes, each twice", rc.hashes)
	}
	for i, h := range rc.hashes {
		if len(h) != 64 || rc.got[i].ID != rc.got[i%2].ID {
			t.Errorf("line %d: hash %q, id %d", i, h, rc.got[i].ID)
		}
	}
}
