package audit

import (
	"context"
	"sync/atomic"
)

// AfterIngest is called by Ingest once it has moved records into the database (ingested > 0),
// with Ingest's context; what it does (agenthooks-admin's export on ingest) must bound its own
// time and report its own errors: Ingest's result does not depend on it. It is not called for
// an Ingest made from inside it.
type AfterIngest func(ctx context.Context, s *Store, ingested int)

var afterIngest atomic.Pointer[AfterIngest]

// SetAfterIngest sets the function Ingest calls after ingesting (nil: none) and returns the one
// set before. A program sets it once, before it opens stores; a library leaves it alone.
func SetAfterIngest(fn AfterIngest) AfterIngest {
	var old *AfterIngest
	if fn == nil {
		old = afterIngest.Swap(nil)
	} else {
		old = afterIngest.Swap(&fn)
	}
	if old == nil {
		return nil
	}
	return *old
}

type inAfterIngest struct{}

// runAfterIngest calls the AfterIngest function, unless ctx is already inside one.
func (s *Store) runAfterIngest(ctx context.Context, ingested int) {
	fn := afterIngest.Load()
	if fn == nil || ingested <= 0 || ctx.Value(inAfterIngest{}) != nil {
		return
	}
	(*fn)(context.WithValue(ctx, inAfterIngest{}, true), s, ingested)
}
