// Package httphook makes the requests of http hooks with net/http, for engine.Options.HTTP. It
// is apart from engine so that a program that runs only command hooks does not link net/http
// and TLS (agenthooks passes http hooks on to agenthooks-admin, which links this package).
package httphook

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/agenthooks/agenthooks/engine"
)

var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// Post sends r as a JSON POST, as Claude Code does, without following redirects, and reads at
// most engine.MaxHTTPResponse bytes of the answer.
func Post(ctx context.Context, r engine.HTTPRequest) (engine.HTTPResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return engine.HTTPResponse{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return engine.HTTPResponse{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, engine.MaxHTTPResponse+1))
	if err != nil {
		return engine.HTTPResponse{}, err
	}
	out := engine.HTTPResponse{Status: resp.StatusCode, Body: data}
	if len(data) > engine.MaxHTTPResponse {
		out.Body = data[:engine.MaxHTTPResponse]
		out.Cut = int64(len(data) - engine.MaxHTTPResponse) // more was sent; the rest is not read
	}
	return out, nil
}
