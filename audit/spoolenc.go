package audit

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// appendSpoolLine encodes a spool line exactly as encoding/json would (a test holds the two
// byte for byte), by hand: encoding/json's first use of a struct type costs a hook process
// about 0.1 ms of reflection, a third of what recording a decision costs it. Ingest decodes
// with encoding/json.
func appendSpoolLine(b []byte, uid string, r *Record) []byte {
	b = append(b, `{"uid":`...)
	b = appendJSONString(b, uid)
	b = append(b, `,"record":{"id":`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, `,"time":`...)
	b = appendJSONTime(b, r.Time)
	b = appendField(b, "origin", r.Origin, false)
	b = appendField(b, "agent", r.Agent, false)
	b = appendField(b, "event", r.Event, false)
	b = appendField(b, "workspace", r.Workspace, true)
	b = appendField(b, "session", r.Session, true)
	b = appendField(b, "decision", r.Decision, false)
	b = appendField(b, "reason", r.Reason, true)
	b = appendField(b, "payload", r.Payload, true)
	b = append(b, `,"payload_size":`...)
	b = strconv.AppendInt(b, int64(r.PayloadSize), 10)
	if len(r.Warnings) > 0 {
		b = append(b, `,"warnings":[`...)
		for i, w := range r.Warnings {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, w)
		}
		b = append(b, ']')
	}
	if len(r.Runs) > 0 {
		b = append(b, `,"runs":[`...)
		for i := range r.Runs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRun(b, &r.Runs[i])
		}
		b = append(b, ']')
	}
	b = appendField(b, "trace_id", r.TraceID, true)
	b = appendField(b, "span_id", r.SpanID, true)
	b = appendField(b, "parent_span_id", r.ParentSpanID, true)
	return append(b, "}}"...)
}

func appendRun(b []byte, run *Run) []byte {
	b = append(b, `{"hook":`...)
	b = appendJSONString(b, run.Hook)
	b = appendField(b, "layer", run.Layer, true)
	b = appendField(b, "dialect", run.Dialect, true)
	b = appendField(b, "event", run.Event, true)
	b = appendField(b, "command", run.Command, true)
	if run.ExitCode != nil {
		b = append(b, `,"exit_code":`...)
		b = strconv.AppendInt(b, int64(*run.ExitCode), 10)
	}
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(run.Duration), 10)
	if run.TimedOut {
		b = append(b, `,"timed_out":true`...)
	}
	b = appendField(b, "verdict", run.Verdict, false)
	b = appendField(b, "error", run.Error, true)
	b = append(b, `,"time":`...)
	b = appendJSONTime(b, run.Time)
	b = appendField(b, "span_id", run.SpanID, true)
	return append(b, '}')
}

// appendField appends ,"name":"value", or nothing when omitEmpty and value is empty.
func appendField(b []byte, name, value string, omitEmpty bool) []byte {
	if omitEmpty && value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendJSONString(b, value)
}

// appendJSONTime is time.Time's MarshalJSON. A year outside [0,9999], which encoding/json
// refuses, cannot come from time.Now.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does: HTML characters, U+2028 and U+2029
// escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
