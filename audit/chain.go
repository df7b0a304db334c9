package audit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The audit chain: every decision stored gets hash = SHA-256(domain || previous hash || its
// content), its content being its stored columns (time, origin, agent, event, workspace,
// session, decision, reason, payload as stored, that is redacted, payload size, warnings) and
// those of its runs in id order, read back from the database as stored, each value tagged with
// its SQLite type. The id is not hashed: the place of a record is bound by the chain itself
// (its predecessor's hash), ids are checked to follow one another, and the chain table's base
// and head bind both ends; leaving the id out is what lets Verify tell a record moved from a
// record edited. The chain is computed when a record is stored (Record, Ingest), inside the
// same transaction, never by the hook process, which only appends to the spool.

// chainDomain separates this hash from any other SHA-256 use.
const chainDomain = "agenthooks audit chain v1\x00"

// genesis is the hash the first record of a new chain chains to.
var genesis = strings.Repeat("0", 2*sha256.Size)

const decisionCols = `ts, origin, agent, event, workspace, session, decision, reason, payload, payload_size, warnings`
const runCols = `ts, hook, layer, dialect, event, command, exit_code, duration_us, timed_out, verdict, error`

// The trace context columns (migration 5) are hashed after the others, behind a tag, only when
// one of them is set: records without trace context, those stored before it existed among
// them, hash exactly as they did.
const decisionTraceCols = `trace_id, span_id, parent_span_id`
const runTraceCols = `span_id`

// appendOptional appends the values behind tag when any of them is not NULL.
func appendOptional(b []byte, tag byte, vals []any) []byte {
	for _, v := range vals {
		if v != nil {
			b = append(b, tag)
			for _, v := range vals {
				b = appendValue(b, v)
			}
			return b
		}
	}
	return b
}

// querier is what chain reads go through: a transaction or a connection.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// chainRow is a stored decision as the chain sees it.
type chainRow struct {
	id      int64
	hash    sql.NullString
	content []byte
}

// appendValue appends a column's value, tagged with its type and, for text, its length, so
// that no two different rows encode the same.
func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 'n')
	case int64:
		return binary.BigEndian.AppendUint64(append(b, 'i'), uint64(v))
	case float64:
		return binary.BigEndian.AppendUint64(append(b, 'f'), math.Float64bits(v))
	case string:
		return append(binary.BigEndian.AppendUint64(append(b, 's'), uint64(len(v))), v...)
	case []byte:
		return append(binary.BigEndian.AppendUint64(append(b, 'b'), uint64(len(v))), v...)
	default: // the driver returns only the types above; anything else is still encoded
		s := fmt.Sprintf("%T:%v", v, v)
		return append(binary.BigEndian.AppendUint64(append(b, '?'), uint64(len(s))), s...)
	}
}

// scanValues scans a row of n columns as the driver returns them.
func scanValues(rows *sql.Rows, n int) ([]any, error) {
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, rows.Scan(ptrs...)
}

// loadChainRows reads up to limit decisions with ids in (after, upTo], in id order, with the
// content the chain hashes.
func loadChainRows(ctx context.Context, q querier, after, upTo int64, limit int) ([]chainRow, error) {
	return loadChainRowsOf(ctx, q, after, upTo, limit, decisionTraceCols, runTraceCols)
}

// loadChainRowsOf is loadChainRows reading traceCols and runTrace as the trace context
// columns: NULL before migration 5 added them (chainExisting runs at migration 4).
func loadChainRowsOf(ctx context.Context, q querier, after, upTo int64, limit int, traceCols, runTrace string) ([]chainRow, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, hash, `+decisionCols+`, `+traceCols+` FROM decisions WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`,
		after, upTo, limit)
	if err != nil {
		return nil, err
	}
	var out []chainRow
	index := map[int64]int{}
	for rows.Next() {
		vals, err := scanValues(rows, 16)
		if err != nil {
			rows.Close()
			return nil, err
		}
		var r chainRow
		id, ok := vals[0].(int64)
		if !ok {
			rows.Close()
			return nil, fmt.Errorf("a decision's id is %T, not an integer", vals[0])
		}
		r.id = id
		if h, ok := vals[1].(string); ok {
			r.hash = sql.NullString{String: h, Valid: true}
		}
		for _, v := range vals[2:13] {
			r.content = appendValue(r.content, v)
		}
		r.content = appendOptional(r.content, 'T', vals[13:])
		index[r.id] = len(out)
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	runs, err := q.QueryContext(ctx, `SELECT decision_id, `+runCols+`, `+runTrace+` FROM runs WHERE decision_id >= ? AND decision_id <= ? ORDER BY id`,
		out[0].id, out[len(out)-1].id)
	if err != nil {
		return nil, err
	}
	defer runs.Close()
	for runs.Next() {
		vals, err := scanValues(runs, 13)
		if err != nil {
			return nil, err
		}
		id, _ := vals[0].(int64)
		i, ok := index[id]
		if !ok {
			continue // a run of no decision: not part of the chain (foreign keys delete them)
		}
		out[i].content = append(out[i].content, 'R')
		for _, v := range vals[1:12] {
			out[i].content = appendValue(out[i].content, v)
		}
		out[i].content = appendOptional(out[i].content, 'S', vals[12:])
	}
	return out, runs.Err()
}

// chainHash is the hash of a record whose content is content and whose predecessor's hash is prev.
func chainHash(prev string, content []byte) string {
	h := sha256.New()
	h.Write([]byte(chainDomain))
	h.Write([]byte(prev))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

var errNoHead = errors.New("the audit chain's head is missing: the chain table was emptied")

type chainEnds struct {
	baseID, headID     int64
	baseHash, headHash string
}

func readChain(ctx context.Context, q querier) (chainEnds, error) {
	var c chainEnds
	rows, err := q.QueryContext(ctx, `SELECT base_id, base_hash, head_id, head_hash FROM chain WHERE one = 1`)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return c, err
		}
		return c, errNoHead
	}
	if err := rows.Scan(&c.baseID, &c.baseHash, &c.headID, &c.headHash); err != nil {
		return c, err
	}
	return c, rows.Err()
}

// chainer chains the records one transaction inserts: it reads the chain's head once, hashes
// each record as stored (read back, so that what is hashed is what Verify reads), and flush
// stores the new head. A transaction tried again starts with a new chainer.
type chainer struct {
	loaded, moved bool
	headID        int64
	headHash      string
}

// add hashes the decision just inserted with id and makes it the head.
func (ch *chainer) add(ctx context.Context, tx *sql.Tx, id int64) error {
	if !ch.loaded {
		c, err := readChain(ctx, tx)
		if err != nil {
			return fmt.Errorf("audit chain: %w", err)
		}
		ch.loaded, ch.headID, ch.headHash = true, c.headID, c.headHash
	}
	rows, err := loadChainRows(ctx, tx, id-1, id, 1)
	if err != nil {
		return err
	}
	if len(rows) != 1 {
		return fmt.Errorf("audit chain: decision %d not found after its insert", id)
	}
	h := chainHash(ch.headHash, rows[0].content)
	if _, err := tx.ExecContext(ctx, `UPDATE decisions SET hash = ? WHERE id = ?`, h, id); err != nil {
		return err
	}
	ch.moved, ch.headID, ch.headHash = true, id, h
	return nil
}

// flush stores the chain's head, when records were added.
func (ch *chainer) flush(ctx context.Context, tx *sql.Tx) error {
	if !ch.moved {
		return nil
	}
	_, err := tx.ExecContext(ctx, `UPDATE chain SET head_id = ?, head_hash = ? WHERE one = 1`, ch.headID, ch.headHash)
	return err
}

// chainExisting runs after migration 0004: it starts the chain and hashes the records already
// stored, in id order, so that they are part of it from the upgrade on (the chain vouches for
// them from then, not for what happened to them before).
func chainExisting(ctx context.Context, tx *sql.Tx) error {
	var minID, maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(id), 1), COALESCE(MAX(id), 0) FROM decisions`).Scan(&minID, &maxID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chain (one, base_id, base_hash, head_id, head_hash) VALUES (1, ?, ?, ?, ?)`,
		minID-1, genesis, minID-1, genesis); err != nil {
		return err
	}
	prev, after := genesis, minID-1
	for {
		rows, err := loadChainRowsOf(ctx, tx, after, maxID, 500, "NULL, NULL, NULL", "NULL")
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			prev = chainHash(prev, r.content)
			if _, err := tx.ExecContext(ctx, `UPDATE decisions SET hash = ? WHERE id = ?`, prev, r.id); err != nil {
				return err
			}
			after = r.id
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE chain SET head_id = ?, head_hash = ? WHERE one = 1`, after, prev)
	return err
}

// Break kinds: where and how a chain is broken.
const (
	BreakEdited    = "edited"    // a record's content (or hash) no longer matches its hash
	BreakRemoved   = "removed"   // records missing before this one
	BreakReordered = "reordered" // a record chained after another than the one before it
	BreakTruncated = "truncated" // the newest records are missing: the head is past the last record
	BreakAdded     = "added"     // records after the head, added outside agenthooks
)

// ChainBreak is the first place where the chain does not hold.
type ChainBreak struct {
	Kind string `json:"kind"`
	// ID is the record where the chain breaks (for truncated, the last record kept, 0 when none).
	ID int64 `json:"id"`
	// Position is ID's place among the stored records, from 1 (for truncated, the count).
	Position int    `json:"position"`
	Detail   string `json:"detail"`
}

// ChainReport is what Verify found.
type ChainReport struct {
	Intact   bool        `json:"intact"`
	Records  int         `json:"records"`
	BaseID   int64       `json:"base_id"` // the chain starts after this id (records pruned up to it)
	HeadID   int64       `json:"head_id"`
	HeadHash string      `json:"head_hash"`
	Break    *ChainBreak `json:"break,omitempty"`
}

// Verify recomputes the chain over the stored records, in id order, within one read
// transaction, and reports the first place where it breaks. An error is returned only when the
// database cannot be read; a broken chain is a report.
func (s *Store) Verify(ctx context.Context) (*ChainReport, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// A deferred transaction: a snapshot that does not hold the write lock.
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		return nil, err
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	c, err := readChain(ctx, conn)
	if errors.Is(err, errNoHead) {
		return &ChainReport{Break: &ChainBreak{Kind: BreakEdited, Detail: err.Error()}}, nil
	}
	if err != nil {
		return nil, err
	}
	rep := &ChainReport{BaseID: c.baseID, HeadID: c.headID, HeadHash: c.headHash}
	prevID, prev := c.baseID, c.baseHash
	fail := func(kind string, id int64, detail string) (*ChainReport, error) {
		rep.Break = &ChainBreak{Kind: kind, ID: id, Position: rep.Records, Detail: detail}
		return rep, nil
	}
	for after := int64(math.MinInt64); ; {
		rows, err := loadChainRows(ctx, conn, after, math.MaxInt64, 500)
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			rep.Records++
			after = r.id
			if !r.hash.Valid {
				return fail(BreakEdited, r.id, fmt.Sprintf("record %d has no hash: it was added or changed outside agenthooks", r.id))
			}
			if chainHash(prev, r.content) == r.hash.String && r.id > prevID {
				prevID, prev = r.id, r.hash.String
				continue
			}
			if r.id > prevID+1 {
				return fail(BreakRemoved, r.id, fmt.Sprintf("%s missing before record %d", idRange(prevID+1, r.id-1), r.id))
			}
			if j, ok, err := chainedAfter(ctx, conn, c, r); err != nil {
				return nil, err
			} else if ok {
				return fail(BreakReordered, r.id, fmt.Sprintf("record %d is chained after record %d, not after record %d: records were moved", r.id, j, prevID))
			}
			return fail(BreakEdited, r.id, fmt.Sprintf("record %d does not match its hash: it was edited (or the record before it removed and the rest renumbered)", r.id))
		}
	}
	switch {
	case c.headID > prevID:
		return fail(BreakTruncated, lastOr(prevID, rep.Records), fmt.Sprintf("%s missing at the end: the chain's head is record %d", idRange(prevID+1, c.headID), c.headID))
	case c.headID < prevID:
		return fail(BreakAdded, c.headID+1, fmt.Sprintf("%s after the chain's head (record %d) added outside agenthooks", idRange(c.headID+1, prevID), c.headID))
	case c.headHash != prev:
		return fail(BreakEdited, prevID, fmt.Sprintf("record %d's hash differs from the chain's head: it was rewritten", prevID))
	}
	rep.Intact = true
	return rep, nil
}

func lastOr(id int64, records int) int64 {
	if records == 0 {
		return 0
	}
	return id
}

func idRange(from, to int64) string {
	if from == to {
		return "record " + strconv.FormatInt(from, 10)
	}
	return fmt.Sprintf("records %d to %d", from, to)
}

// chainedAfter looks for the record whose hash r's hash was computed from, when it is another
// than the record before r: a record moved. It returns that record's id (the base id when r
// chains to the chain's start).
func chainedAfter(ctx context.Context, q querier, c chainEnds, r chainRow) (int64, bool, error) {
	if chainHash(c.baseHash, r.content) == r.hash.String {
		return c.baseID, true, nil
	}
	for after := int64(math.MinInt64); ; {
		rows, err := q.QueryContext(ctx, `SELECT id, hash FROM decisions WHERE id > ? AND hash IS NOT NULL ORDER BY id LIMIT 1000`, after)
		if err != nil {
			return 0, false, err
		}
		n := 0
		for rows.Next() {
			var id int64
			var h string
			if err := rows.Scan(&id, &h); err != nil {
				rows.Close()
				return 0, false, err
			}
			n, after = n+1, id
			if id != r.id && chainHash(h, r.content) == r.hash.String {
				rows.Close()
				return id, true, nil
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, false, err
		}
		if n == 0 {
			return 0, false, nil
		}
	}
}
