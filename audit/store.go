package audit

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is an open audit database.
type Store struct {
	db   *sql.DB
	Path string
}

// DefaultPath is the audit database under home.
func DefaultPath(home string) string { return filepath.Join(home, ".agenthooks", "audit.db") }

// BusyTimeout is how long a writer waits for another to finish.
const BusyTimeout = 5 * time.Second

// Open opens (creating it when needed) the database at path and brings its schema up to date.
// The program must link the database/sql driver "sqlite" (import _ "modernc.org/sqlite"):
// this package does not, so that recording through the spool does not pay SQLite's start-up.
func Open(path string) (*Store, error) {
	if !slices.Contains(sql.Drivers(), "sqlite") {
		return nil, fmt.Errorf("audit: this program does not link the SQLite driver (modernc.org/sqlite); agenthooks-admin does")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(" + strconv.Itoa(int(BusyTimeout/time.Millisecond)) + ")" +
		"&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=wal_autocheckpoint(8192)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("audit: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one connection per process; other processes share the file
	s := &Store{db: db, Path: path}
	if err := s.useWAL(); err != nil {
		db.Close()
		return nil, fmt.Errorf("audit: %s: %w", path, err)
	}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("audit: %s: %w", path, err)
	}
	_ = os.Chmod(path, 0o600)
	return s, nil
}

// useWAL puts the database in WAL mode, which is persistent in the file: only the first opener
// changes it. Changing the journal mode answers SQLITE_BUSY at once, without the busy timeout,
// while another process writes; so it is retried for as long as the busy timeout.
func (s *Store) useWAL() error {
	deadline := time.Now().Add(BusyTimeout)
	for {
		var mode string
		err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
		if err == nil && strings.EqualFold(mode, "wal") {
			return nil
		}
		if err == nil {
			err = s.db.QueryRow("PRAGMA journal_mode=WAL").Scan(&mode)
			if err == nil && strings.EqualFold(mode, "wal") {
				return nil
			}
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("journal mode is %s, not wal", mode)
			}
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// migrate applies the embedded migrations above the database's user_version, each in its own
// transaction, numbered by their file name (0001_init.sql is version 1).
func (s *Store) migrate(ctx context.Context) error {
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version > len(files) {
		return fmt.Errorf("schema version %d is newer than this agenthooks knows (%d)", version, len(files))
	}
	for i := version; i < len(files); i++ {
		body, err := migrations.ReadFile(files[i])
		if err != nil {
			return err
		}
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		// Another process may have migrated while this one waited for the write lock.
		var now int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&now); err != nil {
			tx.Rollback()
			return err
		}
		if now > i {
			tx.Rollback()
			continue
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", files[i], err)
		}
		if step := migrationSteps[i+1]; step != nil {
			if err := step(ctx, tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %s: %w", files[i], err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// migrationSteps are Go steps run after a migration's SQL, in its transaction, by version.
var migrationSteps = map[int]func(context.Context, *sql.Tx) error{
	4: chainExisting,
}

// Record is one decision with its hook runs.
type Record struct {
	ID          int64     `json:"id"`
	Time        time.Time `json:"time"`
	Origin      string    `json:"origin"`
	Agent       string    `json:"agent"`
	Event       string    `json:"event"`
	Workspace   string    `json:"workspace,omitempty"`
	Session     string    `json:"session,omitempty"`
	Decision    string    `json:"decision"`
	Reason      string    `json:"reason,omitempty"`
	Payload     string    `json:"payload,omitempty"`
	PayloadSize int       `json:"payload_size"`
	Warnings    []string  `json:"warnings,omitempty"`
	Runs        []Run     `json:"runs,omitempty"`
	// TraceID, SpanID and ParentSpanID are the decision's W3C trace context (hex): the trace it
	// belongs to, its own span and the agent's span it continues (from TRACEPARENT). Empty when
	// none was known; the exporter then derives ids from the record.
	TraceID      string `json:"trace_id,omitempty"`
	SpanID       string `json:"span_id,omitempty"`
	ParentSpanID string `json:"parent_span_id,omitempty"`
	// Hash is the record's link in the audit chain (hex SHA-256, chain.go), as Query read it:
	// the record's identity, which no other record shares and which never changes once it is
	// stored (the OTLP export derives its ids from it). Empty when the record is not chained.
	// Not in the record's JSON, which the spool and team sync carry.
	Hash string `json:"-"`
}

// Run is one hook run of a decision.
type Run struct {
	Hook     string        `json:"hook"`
	Layer    string        `json:"layer,omitempty"`
	Dialect  string        `json:"dialect,omitempty"`
	Event    string        `json:"event,omitempty"`
	Command  string        `json:"command,omitempty"`
	ExitCode *int          `json:"exit_code,omitempty"`
	Duration time.Duration `json:"duration"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Verdict  string        `json:"verdict"`
	Error    string        `json:"error,omitempty"`
	Time     time.Time     `json:"time"`
	// SpanID is the run's span (hex): the parent id its hook process got in TRACEPARENT.
	SpanID string `json:"span_id,omitempty"`
}

// MaxField bounds what is kept of a stored text field.
const MaxField = 16 << 10

// Record stores a decision and its runs in one transaction. The payload is redacted and
// truncated first.
func (s *Store) Record(ctx context.Context, r *Record) error {
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	c := r.clean()
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		var ch chainer
		if _, err := insert(ctx, tx, &ch, "", c); err != nil {
			return err
		}
		return ch.flush(ctx, tx)
	})
	r.ID = c.ID
	return err
}

// withTx runs fn in a write transaction. In WAL mode SQLite answers SQLITE_BUSY without waiting
// in a few cases its busy timeout does not cover (another connection restarting the WAL, for
// one), so a busy transaction is rolled back and tried again, with growing pauses, until ctx ends.
func (s *Store) withTx(ctx context.Context, fn func(*sql.Tx) error) error {
	pause := 2 * time.Millisecond
	for {
		err := func() error {
			tx, err := s.db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if err := fn(tx); err != nil {
				return err
			}
			return tx.Commit()
		}()
		if err == nil || !isBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (%v)", err, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func isBusy(err error) bool {
	s := err.Error()
	return strings.Contains(s, "SQLITE_BUSY") || strings.Contains(s, "database is locked")
}

// insert writes a cleaned record and chains it (ch.flush stores the chain's new head); a record
// whose uid is already stored is left out.
func insert(ctx context.Context, tx *sql.Tx, ch *chainer, uid string, r *Record) (bool, error) {
	var uidArg any
	if uid != "" {
		uidArg = uid
	}
	// The id is given, not left to SQLite: after a prune that emptied the table SQLite would start
	// again at 1, below the chain's base, and the chain (and team sync's position) would break.
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO decisions (id, uid, ts, origin, agent, event, workspace, session, decision, reason, payload, payload_size, warnings,
		trace_id, span_id, parent_span_id)
		VALUES (max(COALESCE((SELECT MAX(id) FROM decisions), 0), COALESCE((SELECT MAX(base_id, head_id) FROM chain WHERE one = 1), 0)) + 1,
		?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, uidArg, r.Time.UnixMicro(), r.Origin, r.Agent, r.Event, r.Workspace, r.Session,
		r.Decision, r.Reason, r.Payload, r.PayloadSize, strings.Join(r.Warnings, "\n"), nullIfEmpty(validID(r.TraceID, 32)),
		nullIfEmpty(validID(r.SpanID, 16)), nullIfEmpty(validID(r.ParentSpanID, 16)))
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	id, err := res.LastInsertId()
	if err != nil {
		return false, err
	}
	r.ID = id
	for _, run := range r.Runs {
		t := run.Time
		if t.IsZero() {
			t = r.Time
		}
		var exit any
		if run.ExitCode != nil {
			exit = *run.ExitCode
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO runs (decision_id, ts, hook, layer, dialect, event, command, exit_code, duration_us, timed_out, verdict, error, span_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, t.UnixMicro(), run.Hook, run.Layer, run.Dialect, run.Event,
			run.Command, exit, run.Duration.Microseconds(), boolInt(run.TimedOut), run.Verdict, run.Error, nullIfEmpty(validID(run.SpanID, 16))); err != nil {
			return false, err
		}
	}
	return true, ch.add(ctx, tx, id)
}

// nullIfEmpty stores "" as NULL: a record without trace context is stored, and chained, as
// records were before trace context existed.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return s[:max] + fmt.Sprintf("…[%d bytes truncated]", len(s)-max)
}

// Filter selects decisions.
type Filter struct {
	Since     time.Time
	Event     string
	Decision  string
	Hook      string // a hook's source, or a part of it
	Agent     string
	Workspace string
	AfterID   int64 // for --follow
	// Oldest reads oldest first by id (after AfterID, from the first record when it is 0), as
	// an upload that must send every record once, in order, does.
	Oldest bool
	Limit  int
}

func (f Filter) where() (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, v any) { conds = append(conds, cond); args = append(args, v) }
	if !f.Since.IsZero() {
		add("d.ts >= ?", f.Since.UnixMicro())
	}
	if f.Event != "" {
		add("d.event = ?", f.Event)
	}
	if f.Decision != "" {
		add("d.decision = ?", f.Decision)
	}
	if f.Agent != "" {
		add("d.agent = ?", f.Agent)
	}
	if f.Workspace != "" {
		add("d.workspace = ?", f.Workspace)
	}
	if f.AfterID > 0 {
		add("d.id > ?", f.AfterID)
	}
	if f.Hook != "" {
		add("EXISTS (SELECT 1 FROM runs r WHERE r.decision_id = d.id AND instr(r.hook, ?) > 0)", f.Hook)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Query returns the decisions that match, newest first (oldest first when following), with
// their runs.
func (s *Store) Query(ctx context.Context, f Filter) ([]Record, error) {
	where, args := f.where()
	// Newest first by time, which the (column, ts) indexes serve; following goes by id.
	order := "d.ts DESC, d.id DESC"
	if f.AfterID > 0 || f.Oldest {
		order = "d.id ASC"
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT d.id, d.ts, d.origin, d.agent, d.event, d.workspace, d.session, d.decision, d.reason,
		d.payload, d.payload_size, d.warnings, COALESCE(d.trace_id, ''), COALESCE(d.span_id, ''), COALESCE(d.parent_span_id, ''),
		COALESCE(d.hash, '') FROM decisions d`+where+` ORDER BY `+order+` LIMIT `+strconv.Itoa(limit), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Record
	index := map[int64]int{}
	for rows.Next() {
		var r Record
		var ts int64
		var warnings string
		if err := rows.Scan(&r.ID, &ts, &r.Origin, &r.Agent, &r.Event, &r.Workspace, &r.Session, &r.Decision, &r.Reason,
			&r.Payload, &r.PayloadSize, &warnings, &r.TraceID, &r.SpanID, &r.ParentSpanID, &r.Hash); err != nil {
			return nil, err
		}
		r.Time = time.UnixMicro(ts)
		if warnings != "" {
			r.Warnings = strings.Split(warnings, "\n")
		}
		index[r.ID] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(out))
	for _, r := range out {
		ids = append(ids, strconv.FormatInt(r.ID, 10))
	}
	runs, err := s.db.QueryContext(ctx, `SELECT decision_id, ts, hook, layer, dialect, event, command, exit_code, duration_us, timed_out, verdict, error,
		COALESCE(span_id, '') FROM runs WHERE decision_id IN (`+strings.Join(ids, ",")+`) ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer runs.Close()
	for runs.Next() {
		var id, ts, dur int64
		var exit sql.NullInt64
		var timedOut int
		var run Run
		if err := runs.Scan(&id, &ts, &run.Hook, &run.Layer, &run.Dialect, &run.Event, &run.Command, &exit, &dur, &timedOut, &run.Verdict, &run.Error, &run.SpanID); err != nil {
			return nil, err
		}
		run.Time, run.Duration, run.TimedOut = time.UnixMicro(ts), time.Duration(dur)*time.Microsecond, timedOut == 1
		if exit.Valid {
			c := int(exit.Int64)
			run.ExitCode = &c
		}
		out[index[id]].Runs = append(out[index[id]].Runs, run)
	}
	return out, runs.Err()
}

// HookStats is what the audit trail knows of one hook.
type HookStats struct {
	Hook     string        `json:"hook"`
	Runs     int           `json:"runs"`
	Denies   int           `json:"denies"`
	Errors   int           `json:"errors"`
	Timeouts int           `json:"timeouts"`
	P50      time.Duration `json:"p50"`
	P95      time.Duration `json:"p95"`
	P99      time.Duration `json:"p99"`
	LastRun  time.Time     `json:"last_run"`
	LastEnd  string        `json:"last_verdict"`
	LastErr  string        `json:"last_error,omitempty"`
	LastExit *int          `json:"last_exit_code,omitempty"`
}

// Stats returns per-hook figures for the runs since f.Since, in hook order: counts and latency
// percentiles computed by SQLite (window functions), the last run read through the
// (hook, ts) index.
func (s *Store) Stats(ctx context.Context, f Filter) ([]HookStats, error) {
	since := int64(0)
	if !f.Since.IsZero() {
		since = f.Since.UnixMicro()
	}
	rows, err := s.db.QueryContext(ctx, `SELECT hook,
		sum(verdict != 'skipped'), sum(verdict IN ('deny', 'failed-closed')),
		sum(verdict IN ('error', 'failed-closed', 'refused')), sum(timed_out)
		FROM runs INDEXED BY runs_ts WHERE ts >= ?1 AND (?2 = '' OR instr(hook, ?2) > 0) GROUP BY hook ORDER BY hook`, since, f.Hook)
	if err != nil {
		return nil, err
	}
	var out []HookStats
	for rows.Next() {
		var h HookStats
		if err := rows.Scan(&h.Hook, &h.Runs, &h.Denies, &h.Errors, &h.Timeouts); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Percentiles: the k-th shortest run of each hook in the window, read through (hook, ts).
	for i := range out {
		h := &out[i]
		for _, p := range []struct {
			pct int
			dst *time.Duration
		}{{50, &h.P50}, {95, &h.P95}, {99, &h.P99}} {
			if h.Runs == 0 {
				break
			}
			k := max(1, (h.Runs*p.pct+99)/100)
			var us int64
			if err := s.db.QueryRowContext(ctx, `SELECT duration_us FROM runs WHERE hook = ? AND ts >= ? AND verdict != 'skipped'
				ORDER BY duration_us LIMIT 1 OFFSET ?`, h.Hook, since, k-1).Scan(&us); err != nil {
				return nil, err
			}
			*p.dst = time.Duration(us) * time.Microsecond
		}
	}
	for i := range out {
		var ts int64
		var exit sql.NullInt64
		err := s.db.QueryRowContext(ctx, `SELECT ts, verdict, error, exit_code FROM runs
			WHERE hook = ? AND ts >= ? AND verdict != 'skipped' ORDER BY ts DESC, id DESC LIMIT 1`, out[i].Hook, since).
			Scan(&ts, &out[i].LastEnd, &out[i].LastErr, &exit)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[i].LastRun = time.UnixMicro(ts)
		if exit.Valid {
			c := int(exit.Int64)
			out[i].LastExit = &c
		}
	}
	return out, nil
}

// Prune deletes the oldest decisions, with their runs: those before the first decision recorded
// at or after before (so a decision of that age stored after a newer one stays until the newer
// one goes), and, when maxRows > 0, the oldest beyond maxRows. Only the oldest records go, so
// the audit chain keeps holding: its base becomes the last record deleted. It returns how many
// decisions it deleted.
func (s *Store) Prune(ctx context.Context, before time.Time, maxRows int) (int64, error) {
	var n int64
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		n = 0
		var cut int64 // delete the ids up to cut
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM decisions").Scan(&cut); err != nil {
			return err
		}
		last := cut
		if !before.IsZero() {
			var first sql.NullInt64
			if err := tx.QueryRowContext(ctx, "SELECT MIN(id) FROM decisions WHERE ts >= ?", before.UnixMicro()).Scan(&first); err != nil {
				return err
			}
			if first.Valid {
				cut = first.Int64 - 1
			}
		} else {
			cut = math.MinInt64
		}
		if maxRows > 0 {
			var keepFrom sql.NullInt64
			err := tx.QueryRowContext(ctx, "SELECT id FROM decisions ORDER BY id DESC LIMIT 1 OFFSET ?", maxRows).Scan(&keepFrom)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if keepFrom.Valid {
				cut = max(cut, keepFrom.Int64)
			}
		}
		cut = min(cut, last)
		var baseID int64
		var baseHash sql.NullString
		err := tx.QueryRowContext(ctx, "SELECT id, hash FROM decisions WHERE id <= ? ORDER BY id DESC LIMIT 1", cut).Scan(&baseID, &baseHash)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM decisions WHERE id <= ?", cut)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.ExecContext(ctx, "UPDATE chain SET base_id = ?, base_hash = ? WHERE one = 1", baseID, baseHash.String)
		return err
	})
	if err != nil {
		return 0, err
	}
	_, _ = s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return n, nil
}

// Count returns the number of decisions and runs stored.
func (s *Store) Count(ctx context.Context) (decisions, runs int64, err error) {
	if err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM decisions").Scan(&decisions); err != nil {
		return
	}
	err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM runs").Scan(&runs)
	return
}

// Check runs SQLite's integrity check.
func (s *Store) Check(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return errors.New("integrity check: " + res)
	}
	return nil
}

// MaxID is the id of the newest decision stored (0 when none): an uploader that remembers a
// larger one knows the database was made anew.
func (s *Store) MaxID(ctx context.Context) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM decisions").Scan(&id)
	return id, err
}
