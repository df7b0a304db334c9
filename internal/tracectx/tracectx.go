// Package tracectx reads and writes W3C Trace Context traceparent values
// (version-traceid-parentid-flags), as agents pass them to hooks in the TRACEPARENT environment
// variable, and makes new trace and span ids. It is hand-written and has no dependencies beyond
// the standard library, so that the hook path (engine, the guards) can carry trace context
// without linking an OpenTelemetry SDK; agenthooks-admin's exporter (package telemetry) is where
// spans are made.
package tracectx

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
)

// Env is the environment variable that carries a traceparent into a process (the OpenTelemetry
// convention for environment carriers).
const Env = "TRACEPARENT"

// StateEnv carries the W3C tracestate that goes with Env; agenthooks passes it on unchanged.
const StateEnv = "TRACESTATE"

// TraceID is a trace's 16-byte id.
type TraceID [16]byte

// SpanID is a span's 8-byte id.
type SpanID [8]byte

// IsValid reports whether id is not all zeros, which the specification forbids.
func (id TraceID) IsValid() bool { return id != TraceID{} }

// IsValid reports whether id is not all zeros, which the specification forbids.
func (id SpanID) IsValid() bool { return id != SpanID{} }

// String is id in lower-case hex.
func (id TraceID) String() string { return hex.EncodeToString(id[:]) }

// String is id in lower-case hex.
func (id SpanID) String() string { return hex.EncodeToString(id[:]) }

// Sampled is the trace-flags bit that says the caller may record the trace.
const Sampled byte = 0x01

// Parent is a decoded traceparent: the trace, the span that is the parent of whatever the
// receiver does, and the trace flags.
type Parent struct {
	TraceID TraceID
	SpanID  SpanID
	Flags   byte
}

// String formats p as a version 00 traceparent.
func (p Parent) String() string {
	b := make([]byte, 0, 55)
	b = append(b, "00-"...)
	b = hex.AppendEncode(b, p.TraceID[:])
	b = append(b, '-')
	b = hex.AppendEncode(b, p.SpanID[:])
	b = append(b, '-')
	b = hex.AppendEncode(b, []byte{p.Flags})
	return string(b)
}

// Child is p with a new span id: the traceparent to hand to work done on behalf of a new span
// in the same trace.
func (p Parent) Child() Parent {
	p.SpanID = NewSpanID()
	return p
}

// Error is why a traceparent was refused, with the byte offset where the problem is.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("traceparent: at byte %d: %s", e.Offset, e.Msg)
}

// Parse decodes a traceparent. It follows the specification's rules for a receiver: lower-case
// hex only; version ff is invalid; version 00 is exactly 55 bytes; a later version may be
// longer, with a '-' after the flags, and is read as version 00 (its first four fields); an
// all-zero trace id or span id is invalid. A value that is refused must be ignored, as if no
// trace context had been given.
func Parse(s string) (Parent, error) {
	var p Parent
	if len(s) < 55 {
		return p, &Error{len(s), fmt.Sprintf("%d bytes, a traceparent has 55 (00-<32 hex>-<16 hex>-<2 hex>)", len(s))}
	}
	var version [1]byte
	if err := decodeHex(version[:], s, 0); err != nil {
		return p, err
	}
	switch {
	case version[0] == 0xff:
		return p, &Error{0, "version ff is invalid"}
	case version[0] == 0 && len(s) != 55:
		return p, &Error{55, fmt.Sprintf("version 00 is 55 bytes, this is %d", len(s))}
	case len(s) > 55 && s[55] != '-':
		return p, &Error{55, fmt.Sprintf("%q after the flags, a later version continues with '-'", s[55])}
	}
	for _, at := range []int{2, 35, 52} {
		if s[at] != '-' {
			return p, &Error{at, fmt.Sprintf("%q where '-' separates the fields", s[at])}
		}
	}
	if err := decodeHex(p.TraceID[:], s, 3); err != nil {
		return p, err
	}
	if err := decodeHex(p.SpanID[:], s, 36); err != nil {
		return p, err
	}
	var flags [1]byte
	if err := decodeHex(flags[:], s, 53); err != nil {
		return p, err
	}
	p.Flags = flags[0]
	if !p.TraceID.IsValid() {
		return p, &Error{3, "the trace id is all zeros"}
	}
	if !p.SpanID.IsValid() {
		return p, &Error{36, "the parent id is all zeros"}
	}
	return p, nil
}

// decodeHex fills dst from the lower-case hex at s[at:].
func decodeHex(dst []byte, s string, at int) error {
	for i := range dst {
		hi, ok1 := nibble(s[at+2*i])
		lo, ok2 := nibble(s[at+2*i+1])
		if !ok1 || !ok2 {
			bad := at + 2*i
			if ok1 {
				bad++
			}
			return &Error{bad, fmt.Sprintf("%q is not a lower-case hex digit", s[bad])}
		}
		dst[i] = hi<<4 | lo
	}
	return nil
}

func nibble(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// NewTraceID returns a random trace id. It uses math/rand/v2's generator (seeded from the
// system's entropy at start), not crypto/rand, whose first use would cost a hook process tens
// of microseconds: trace ids must be unique, not secret.
func NewTraceID() TraceID {
	var id TraceID
	for !id.IsValid() {
		binary.LittleEndian.PutUint64(id[:8], rand.Uint64())
		binary.LittleEndian.PutUint64(id[8:], rand.Uint64())
	}
	return id
}

// NewSpanID returns a random span id, never all zeros.
func NewSpanID() SpanID {
	var id SpanID
	for !id.IsValid() {
		binary.LittleEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}

// New starts a trace: a new trace id and span id, sampled.
func New() Parent {
	return Parent{TraceID: NewTraceID(), SpanID: NewSpanID(), Flags: Sampled}
}

// ParseTraceID decodes 32 lower-case hex digits.
func ParseTraceID(s string) (TraceID, error) {
	var id TraceID
	if len(s) != 32 {
		return id, &Error{len(s), fmt.Sprintf("a trace id is 32 hex digits, this is %d bytes", len(s))}
	}
	return id, decodeHex(id[:], s, 0)
}

// ParseSpanID decodes 16 lower-case hex digits.
func ParseSpanID(s string) (SpanID, error) {
	var id SpanID
	if len(s) != 16 {
		return id, &Error{len(s), fmt.Sprintf("a span id is 16 hex digits, this is %d bytes", len(s))}
	}
	return id, decodeHex(id[:], s, 0)
}
