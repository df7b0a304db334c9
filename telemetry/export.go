package telemetry

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// Sink is a destination for audit records.
type Sink interface {
	// Name names the destination; the export cursor is kept under it.
	Name() string
	// Send delivers records, in id order; it returns nil only once the destination has them.
	Send(ctx context.Context, recs []audit.Record) error
}

// A StatefulSink keeps state that must move with its cursor: the OTLP sink's cumulative
// metrics. Export gives it the state stored beside the cursor before its first batch, and
// stores State with the cursor in the transaction that moves it, after each batch the
// destination acknowledged. A batch that fails leaves the stored state as it was: sent again,
// it counts once.
type StatefulSink interface {
	Sink
	// Resume sets the sink's state to what is stored with the cursor (nil: none yet). An
	// error says the state could not be read and the sink started it anew; Export reports it
	// and goes on.
	Resume(state []byte) error
	// State is the state with every batch Send delivered counted.
	State() ([]byte, error)
}

// BatchSize is how many records one Send carries at most.
const BatchSize = 256

// LeaseTTL is how long an export holds its destination without finishing a batch: while it
// holds it, another export to the same destination (a second --watch, an export on ingest)
// waits for its next turn instead of sending the same records. A holder that dies frees the
// destination when its lease runs out.
const LeaseTTL = 5 * time.Minute

// Export sends the records stored after the sink's cursor, oldest first, in batches, moving the
// cursor after each batch the destination acknowledged; since, when set, leaves older records
// out (they still count as sent). It ingests the spool first. It returns how many records it
// sent. A batch that fails stops the export and is sent again by the next one: the cursor
// only moves past what was delivered, so a record is never skipped, and one is sent twice only
// when the destination took it but its answer was lost. Exports to one destination never run
// side by side: an export holds the destination's lease (audit.ClaimExport) from reading the
// cursor to moving it, and another one fails with audit.ErrExportBusy meanwhile. The cursor
// is a row of the audit database, moved in a transaction (with a StatefulSink's state): a
// crash leaves it, and the state, either where they were or where they go, never half-way.
func Export(ctx context.Context, s *audit.Store, sink Sink, since time.Time, log io.Writer) (int, error) {
	if _, bad, err := s.Ingest(ctx); err != nil {
		fmt.Fprintln(log, "agenthooks: audit: ingesting the spool:", err)
	} else if bad > 0 {
		fmt.Fprintf(log, "agenthooks: audit: %d spooled record(s) could not be read and were skipped\n", bad)
	}
	lease, err := s.ClaimExport(ctx, sink.Name(), audit.ExportOwner(), LeaseTTL)
	if err != nil {
		return 0, err
	}
	defer func() { _ = lease.Release(context.WithoutCancel(ctx)) }()
	cur, state, err := s.CursorState(ctx, sink.Name())
	if err != nil {
		return 0, err
	}
	stateful, _ := sink.(StatefulSink)
	if stateful != nil {
		if err := stateful.Resume(state); err != nil {
			// Not a reason to send nothing: the sink starts its state anew.
			fmt.Fprintf(log, "agenthooks: export: %s: %v\n", sink.Name(), err)
		}
	}
	sent := 0
	for {
		recs, err := s.Query(ctx, audit.Filter{AfterID: cur, Oldest: true, Limit: BatchSize})
		if err != nil {
			return sent, err
		}
		if len(recs) == 0 {
			return sent, nil
		}
		last := recs[len(recs)-1].ID
		batch := recs[:0:0]
		for _, r := range recs {
			if since.IsZero() || !r.Time.Before(since) {
				batch = append(batch, r)
			}
		}
		if len(batch) > 0 {
			if err := sink.Send(ctx, batch); err != nil {
				return sent, fmt.Errorf("%s: %w", sink.Name(), err)
			}
		}
		if stateful == nil {
			err = s.MoveCursor(ctx, sink.Name(), cur, last)
		} else if state, err = stateful.State(); err == nil {
			err = s.MoveCursorState(ctx, sink.Name(), cur, last, state)
		}
		if err != nil {
			return sent, err
		}
		sent, cur = sent+len(batch), last
		if err := lease.Renew(ctx, LeaseTTL); err != nil {
			return sent, err
		}
	}
}

// Watch exports what is new every interval until ctx ends: the records hook processes spool
// are ingested and sent within an interval of being made. A failed export is reported on log
// and tried again at the next tick; the cursor keeps its place.
func Watch(ctx context.Context, s *audit.Store, sink Sink, interval time.Duration, log io.Writer) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		n, err := Export(ctx, s, sink, time.Time{}, log)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			fmt.Fprintln(log, "agenthooks: export:", err)
		} else if n > 0 {
			fmt.Fprintf(log, "agenthooks: exported %d record(s) to %s\n", n, sink.Name())
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
