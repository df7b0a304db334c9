package telemetry

import (
	"encoding/json"
	"io"

	"github.com/agenthooks/agenthooks/audit"
)

// jsonRecord is a record as a JSON line: as `log --json` prints it, and its chain hash.
type jsonRecord struct {
	*audit.Record
	// Hash is the record's hash in the audit chain: its identity, the same in a batch sent
	// again after a crash, and what `log verify` checks.
	Hash string `json:"hash,omitempty"`
}

// WriteJSONL writes records as JSON lines, one record a line with its runs, as `log --json`
// prints them, with their chain hash ("hash"): payloads, reasons, commands and errors
// redacted (audit.Redact, again, whatever the database holds).
func WriteJSONL(w io.Writer, recs []audit.Record) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(jsonRecord{Redacted(&recs[i]), recs[i].Hash}); err != nil {
			return err
		}
	}
	return nil
}

// Redacted is a copy of r with its free text redacted.
func Redacted(r *audit.Record) *audit.Record {
	c := *r
	c.Reason, c.Payload = audit.Redact(r.Reason), audit.Redact(r.Payload)
	c.Warnings = nil
	for _, w := range r.Warnings {
		c.Warnings = append(c.Warnings, audit.Redact(w))
	}
	c.Runs = make([]audit.Run, len(r.Runs))
	for i, run := range r.Runs {
		run.Command, run.Error = audit.Redact(run.Command), audit.Redact(run.Error)
		c.Runs[i] = run
	}
	return &c
}
