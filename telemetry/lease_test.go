package telemetry_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/telemetry"
)

// heldSink is a destination whose first Send waits until it is let go, and that counts every
// record it is given.
type heldSink struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	got     []int64
}

func (h *heldSink) Name() string { return "webhook:https://siem.example/ingest" }

func (h *heldSink) Send(ctx context.Context, recs []audit.Record) error {
	h.once.Do(func() {
		close(h.entered)
		<-h.release
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range recs {
		h.got = append(h.got, r.ID)
	}
	return nil
}

// TestExportsToOneDestinationNeverOverlap: while one export is sending (its destination slow to
// answer), a second export to the same destination, from another process's store, sends nothing
// and says who holds the destination; once the first is done, the second finds nothing left, and
// every record reached the destination exactly once.
func TestExportsToOneDestinationNeverOverlap(t *testing.T) {
	t.Parallel()
	first, db := openStore(t)
	second, err := audit.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	sink := &heldSink{entered: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	var sent int
	go func() {
		n, err := telemetry.Export(context.Background(), first, sink, time.Time{}, io.Discard)
		sent = n
		done <- err
	}()
	<-sink.entered
	n, err := telemetry.Export(context.Background(), second, sink, time.Time{}, io.Discard)
	if !errors.Is(err, audit.ErrExportBusy) || n != 0 {
		t.Fatalf("an export beside a running one: sent %d, err %v; want 0 and ErrExportBusy", n, err)
	}
	close(sink.release)
	if err := <-done; err != nil || sent != 2 {
		t.Fatalf("the first export: sent %d, err %v; want 2 records", sent, err)
	}
	if n, err := telemetry.Export(context.Background(), second, sink, time.Time{}, io.Discard); err != nil || n != 0 {
		t.Fatalf("the second export after the first: sent %d, err %v; want nothing left", n, err)
	}
	if len(sink.got) != 2 || sink.got[0] == sink.got[1] {
		t.Fatalf("the destination got records %v; want each of the 2 once", sink.got)
	}
}

// TestExportTakesOverARunOutLease: an exporter that died holding the destination frees it when
// its lease runs out; a lease still running is refused, naming its holder.
func TestExportTakesOverARunOutLease(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	sink := &heldSink{entered: make(chan struct{}), release: make(chan struct{})}
	close(sink.release)
	ctx := context.Background()
	if _, err := s.ClaimExport(ctx, sink.Name(), "host pid 1 (dead)", time.Hour); err != nil {
		t.Fatal(err)
	}
	_, err := telemetry.Export(ctx, s, sink, time.Time{}, io.Discard)
	if !errors.Is(err, audit.ErrExportBusy) || !strings.Contains(err.Error(), "host pid 1 (dead)") {
		t.Fatalf("export while a live lease is held: %v", err)
	}
	if _, err := s.ClaimExport(ctx, sink.Name(), "host pid 1 (dead)", -time.Second); err != nil {
		t.Fatal(err)
	}
	if n, err := telemetry.Export(ctx, s, sink, time.Time{}, io.Discard); err != nil || n != 2 {
		t.Fatalf("export after the lease ran out: sent %d, err %v", n, err)
	}
}
