package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

// checkSpoolLine fails when the hand encoding of r differs by one byte from encoding/json's,
// or does not decode back to r.
func checkSpoolLine(t *testing.T, r *Record) {
	t.Helper()
	want, err := json.Marshal(spoolLine{UID: "0123abcd", Record: r})
	if err != nil {
		t.Skip() // encoding/json refuses it (a year past 9999): time.Now never gives one
	}
	got := appendSpoolLine(nil, "0123abcd", r)
	if !bytes.Equal(got, want) {
		t.Fatalf("hand encoding differs from encoding/json:\n got %s\nwant %s", got, want)
	}
	var back spoolLine
	if err := json.Unmarshal(got, &back); err != nil || back.UID != "0123abcd" {
		t.Fatalf("does not decode: %v", err)
	}
}

func TestSpoolLineMatchesJSON(t *testing.T) {
	code, zero := 2, 0
	at := time.Date(2026, 11, 21, 17, 4, 5, 123456789, time.FixedZone("x", 3600))
	for _, r := range []*Record{
		{},
		{Time: at, Origin: "run", Agent: "cursor", Event: "beforeShellExecution", Decision: "deny", PayloadSize: 12},
		{ID: 7, Time: at.UTC(), Origin: "guard bash", Agent: "claude", Event: "PreToolUse", Workspace: "/w", Session: "s",
			Decision: "allow", Reason: "a \"quoted\" <b>&</b> \\ reason\n\t\r\b\f\x00\x1f\x7f", Payload: `{"command":"rm -rf ~"}`,
			Warnings: []string{"one", "two\u2028three\u2029", "bad \xff\xfe utf-8", "ümlaut 日本 🙂"},
			Runs: []Run{
				{Hook: "h.json:1:2", Layer: "user", Dialect: "cursor", Event: "e", Command: "agenthooks guard bash", ExitCode: &code,
					Duration: 1500 * time.Microsecond, TimedOut: true, Verdict: "deny", Error: "x", Time: at},
				{Hook: "", ExitCode: &zero, Verdict: ""},
			}},
		{Time: at, Origin: "run", Agent: "claude", Event: "PreToolUse", Decision: "allow", TraceID: "4bf92f3577b34da6a3ce929d0e0e4736",
			SpanID: "b7ad6b7169203331", ParentSpanID: "00f067aa0ba902b7", Runs: []Run{{Hook: "h", Verdict: "allow", SpanID: "53995c3f42cd8ad8"}}},
	} {
		checkSpoolLine(t, r)
	}
}

// FuzzSpoolLine: any text in any field is encoded exactly as encoding/json encodes it.
func FuzzSpoolLine(f *testing.F) {
	f.Add("reason <&>", "payload \u2028", "\xff warning", "cmd\x00", int64(1), 3, true)
	f.Add("", "", "", "", int64(0), 0, false)
	f.Fuzz(func(t *testing.T, reason, payload, warning, command string, nanos int64, exit int, timedOut bool) {
		r := &Record{Time: time.Unix(0, nanos).UTC(), Origin: "run", Agent: command, Event: reason, Decision: warning,
			Reason: reason, Payload: payload, Warnings: []string{warning},
			Runs: []Run{{Hook: command, Command: command, Error: reason, ExitCode: &exit, Duration: time.Duration(nanos), TimedOut: timedOut,
				Time: time.Unix(0, nanos), SpanID: payload}},
			TraceID: command, SpanID: warning, ParentSpanID: reason}
		checkSpoolLine(t, r)
	})
}

// TestSpoolFull: Append says the spool's size; a spool that nothing ingests stops at MaxSpool; the record is refused with
// ErrSpoolFull and the file is not grown.
func TestSpoolFull(t *testing.T) {
	db := t.TempDir() + "/audit.db"
	size, err := Append(context.Background(), db, &Record{Origin: "run", Decision: "allow"})
	if st, serr := os.Stat(SpoolPath(db)); err != nil || serr != nil || size != st.Size() || size == 0 {
		t.Fatalf("Append returned size %d, error %v; the spool: %v %v", size, err, st, serr)
	}
	if err := os.Truncate(SpoolPath(db), MaxSpool-10); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if _, err := Append(context.Background(), db, &Record{Origin: "run", Decision: "deny"}); !errors.Is(err, ErrSpoolFull) {
		t.Fatalf("append to a full spool: %v", err)
	}
	if st, err := os.Stat(SpoolPath(db)); err != nil || st.Size() != MaxSpool-10 {
		t.Fatalf("the full spool changed: %v %v", st.Size(), err)
	}
}
