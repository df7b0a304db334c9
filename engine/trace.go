package engine

import (
	"strings"

	"github.com/agenthooks/agenthooks/internal/tracectx"
)

// Trace is the W3C trace context of one Fire. When the agent's environment carries a
// TRACEPARENT, the Fire is a span of that trace (ParentSpanID is the agent's span); otherwise
// a new trace starts. Each hook process gets TRACEPARENT naming its own span, a child of the
// Fire's (Run.SpanID), so that the spans a hook makes join the trace; agenthooks-admin exports
// the Fire and its runs as spans with these ids from the audit trail.
type Trace struct {
	TraceID      string `json:"trace_id"`
	SpanID       string `json:"span_id"`
	ParentSpanID string `json:"parent_span_id,omitempty"`
}

// startTrace reads the agent's TRACEPARENT from the hooks' base environment (an invalid one is
// ignored, as the specification says) and returns the Fire's trace context.
func (e *Engine) startTrace() (Trace, tracectx.Parent) {
	var t Trace
	var p tracectx.Parent
	ok := false
	if v := lookupEnv(e.opts.Environ, tracectx.Env); v != "" {
		var err error
		p, err = tracectx.Parse(v)
		ok = err == nil
	}
	if ok {
		t.ParentSpanID = p.SpanID.String()
		p = p.Child()
	} else {
		p = tracectx.New()
	}
	t.TraceID, t.SpanID = p.TraceID.String(), p.SpanID.String()
	return t, p
}

// withTraceparent returns a copy of env with TRACEPARENT set to p (env is shared by the hooks
// of a Fire, which run concurrently: it is never written to).
func withTraceparent(env []string, p tracectx.Parent) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, tracectx.Env+"=") {
			out = append(out, kv)
		}
	}
	return append(out, tracectx.Env+"="+p.String())
}

// hookTrace gives one hook run its span: a child of the Fire's span, whose traceparent env
// carries. It returns the span's id and the hook's environment.
func hookTrace(env []string) (string, []string) {
	p, err := tracectx.Parse(lookupEnv(env, tracectx.Env))
	if err != nil {
		return "", env // not set by Fire: an environment built elsewhere
	}
	c := p.Child()
	return c.SpanID.String(), withTraceparent(env, c)
}

// setTraceparent gives an http hook's request the run's span as its W3C traceparent header,
// unless the hook's own headers set one.
func setTraceparent(header map[string]string, traceparent string) {
	if traceparent == "" {
		return
	}
	for k := range header {
		if strings.EqualFold(k, "traceparent") {
			return
		}
	}
	header["traceparent"] = traceparent
}
