package telemetry

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// SignatureHeader carries the webhook body's HMAC-SHA256 under the shared secret, in hex after
// "sha256=" (as GitHub signs its webhooks).
const SignatureHeader = "X-Agenthooks-Signature"

// Sign is the value of SignatureHeader for body.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether signature is body's under secret, comparing in constant time: what a
// receiver does.
func Verify(secret, body []byte, signature string) bool {
	return hmac.Equal([]byte(signature), []byte(Sign(secret, body)))
}

// Webhook posts batches of records as JSON lines (application/x-ndjson), signed.
type Webhook struct {
	URL    string
	Secret []byte
	// Client makes the requests; nil is a client with a 30-second timeout.
	Client *http.Client
	// Attempts bounds the tries of one batch (default 5); Backoff is the first pause between
	// them (default 1 s), doubled after each, at most a minute.
	Attempts int
	Backoff  time.Duration
}

// Name is the destination, for the export cursor.
func (w *Webhook) Name() string { return "webhook " + w.URL }

// Send posts recs. A network error, a 429 or a 5xx answer is tried again after a pause (the
// server's Retry-After when it gives one in seconds); any other answer than 2xx is final.
func (w *Webhook) Send(ctx context.Context, recs []audit.Record) error {
	if len(w.Secret) == 0 {
		return errors.New("webhook: no secret to sign with")
	}
	var body bytes.Buffer
	if err := WriteJSONL(&body, recs); err != nil {
		return err
	}
	client := w.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	attempts, pause := w.Attempts, w.Backoff
	if attempts <= 0 {
		attempts = 5
	}
	if pause <= 0 {
		pause = time.Second
	}
	sig := Sign(w.Secret, body.Bytes())
	var last error
	for try := 1; ; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body.Bytes()))
		if err != nil {
			return fmt.Errorf("webhook: %w", err)
		}
		req.Header.Set("Content-Type", "application/x-ndjson")
		req.Header.Set(SignatureHeader, sig)
		req.Header.Set("X-Agenthooks-Records", strconv.Itoa(len(recs)))
		resp, err := client.Do(req)
		wait := pause
		switch {
		case err != nil:
			last = err
		default:
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return nil
			}
			last = fmt.Errorf("webhook answered %s", resp.Status)
			if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
				return last
			}
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
				wait = min(time.Duration(s)*time.Second, time.Minute)
			}
		}
		if try >= attempts {
			return fmt.Errorf("webhook: %d attempts failed, the last: %w", try, last)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		pause = min(2*pause, time.Minute)
	}
}
