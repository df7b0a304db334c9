package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrCursorMoved is MoveCursor's error when the cursor is no longer where the caller read it:
// another exporter to the same destination moved it meanwhile.
var ErrCursorMoved = errors.New("the export cursor was moved by another exporter to the same destination")

// Cursor returns the id of the newest decision the exporter name delivered (0: none yet). A
// cursor past the newest decision stored belongs to a database made anew, and reads as 0.
func (s *Store) Cursor(ctx context.Context, name string) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT last_id FROM export_cursors WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if max, err := s.MaxID(ctx); err == nil && id > max {
		return 0, nil
	}
	return id, err
}

// CursorState returns the cursor, as Cursor does, and the state the exporter stored with it
// (MoveCursorState; nil when none).
func (s *Store) CursorState(ctx context.Context, name string) (int64, []byte, error) {
	id, err := s.Cursor(ctx, name)
	if err != nil {
		return 0, nil, err
	}
	var state []byte
	err = s.db.QueryRowContext(ctx, `SELECT state FROM export_cursors WHERE name = ?`, name).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return id, state, err
}

// MoveCursor records that the exporter name delivered every decision up to to, when its
// cursor is still at from (ErrCursorMoved otherwise). The state stored with it is kept.
func (s *Store) MoveCursor(ctx context.Context, name string, from, to int64) error {
	return s.moveCursor(ctx, name, from, to, nil, false)
}

// MoveCursorState moves the cursor as MoveCursor does and stores state with it, in the same
// transaction: both move, or neither does.
func (s *Store) MoveCursorState(ctx context.Context, name string, from, to int64, state []byte) error {
	return s.moveCursor(ctx, name, from, to, state, true)
}

func (s *Store) moveCursor(ctx context.Context, name string, from, to int64, state []byte, setState bool) error {
	return s.withTx(ctx, func(tx *sql.Tx) error {
		var cur int64
		err := tx.QueryRowContext(ctx, `SELECT last_id FROM export_cursors WHERE name = ?`, name).Scan(&cur)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if cur != from && !(from == 0 && cur > to) {
			return fmt.Errorf("%w (at %d, expected %d)", ErrCursorMoved, cur, from)
		}
		if !setState {
			_, err = tx.ExecContext(ctx, `INSERT INTO export_cursors (name, last_id, updated) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET last_id = excluded.last_id, updated = excluded.updated`, name, to, time.Now().UnixMicro())
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO export_cursors (name, last_id, updated, state) VALUES (?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET last_id = excluded.last_id, updated = excluded.updated, state = excluded.state`,
			name, to, time.Now().UnixMicro(), state)
		return err
	})
}
