package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrExportBusy is ClaimExport's error when another exporter holds the destination's lease.
var ErrExportBusy = errors.New("another exporter is sending to this destination")

// ExportLease is an exporter's hold on one destination: while it lasts no other exporter to
// the same destination starts, so no two send the same records side by side.
type ExportLease struct {
	s     *Store
	name  string
	owner string
}

// ExportOwner names this process as a lease holder: host, process id and when it asked (two
// exports of one process are two holders).
func ExportOwner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s pid %d (%s)", host, os.Getpid(), time.Now().UTC().Format(time.RFC3339Nano))
}

// ClaimExport takes the lease on the destination name for owner, for ttl. It fails with
// ErrExportBusy, naming the holder and when its lease runs out, when another owner holds a
// lease that has not run out. A holder that died leaves its lease to run out on its own.
func (s *Store) ClaimExport(ctx context.Context, name, owner string, ttl time.Duration) (*ExportLease, error) {
	l := &ExportLease{s: s, name: name, owner: owner}
	return l, l.renew(ctx, ttl)
}

// Renew extends the lease by ttl from now; it fails with ErrExportBusy when the lease ran out
// and another exporter took the destination meanwhile.
func (l *ExportLease) Renew(ctx context.Context, ttl time.Duration) error { return l.renew(ctx, ttl) }

func (l *ExportLease) renew(ctx context.Context, ttl time.Duration) error {
	return l.s.withTx(ctx, func(tx *sql.Tx) error {
		now := time.Now()
		var owner string
		var until int64
		err := tx.QueryRowContext(ctx, `SELECT owner, until FROM export_leases WHERE name = ?`, l.name).Scan(&owner, &until)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && owner != l.owner && until > now.UnixMicro() {
			return fmt.Errorf("%w: %s holds %s until %s", ErrExportBusy, owner, l.name, time.UnixMicro(until).UTC().Format(time.RFC3339))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO export_leases (name, owner, until) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until`, l.name, l.owner, now.Add(ttl).UnixMicro())
		return err
	})
}

// Release gives the lease up, if this owner still holds it.
func (l *ExportLease) Release(ctx context.Context) error {
	_, err := l.s.db.ExecContext(ctx, `DELETE FROM export_leases WHERE name = ? AND owner = ?`, l.name, l.owner)
	return err
}
