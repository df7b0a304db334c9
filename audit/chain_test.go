package audit

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chainStore opens a store with n records (each with a run) written directly and through the
// spool, alternately, and closes it; it returns the database's path.
func chainStore(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		code := i % 3
		r := &Record{Time: base.Add(time.Duration(i) * time.Minute), Origin: "run", Agent: "claude", Event: "PreToolUse",
			Decision: "allow", Reason: fmt.Sprintf("reason %d", i), Payload: fmt.Sprintf(`{"n":%d}`, i),
			Runs: []Run{{Hook: fmt.Sprintf("h%d", i), Verdict: "allow", ExitCode: &code, Duration: time.Millisecond}}}
		if i%2 == 0 {
			err = s.Record(ctx, r)
		} else {
			_, err = Append(ctx, path, r)
			if err == nil {
				_, _, err = s.Ingest(ctx)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// tamper runs SQL on the database file as anyone with write access to it could.
func tamper(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func verify(t *testing.T, path string) *ChainReport {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyFindsTampering(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		sql    []string
		kind   string
		id     int64
		pos    int
		detail string
	}{
		{name: "clean"},
		{name: "edit a field", sql: []string{`UPDATE decisions SET decision = 'deny' WHERE id = 4`},
			kind: BreakEdited, id: 4, pos: 4, detail: "record 4 does not match its hash"},
		{name: "edit a run", sql: []string{`UPDATE runs SET exit_code = 0 WHERE decision_id = 6`},
			kind: BreakEdited, id: 6, pos: 6},
		{name: "change a type", sql: []string{`UPDATE decisions SET reason = CAST(reason AS BLOB) WHERE id = 2`},
			kind: BreakEdited, id: 2, pos: 2},
		{name: "edit a hash", sql: []string{`UPDATE decisions SET hash = NULL WHERE id = 3`},
			kind: BreakEdited, id: 3, pos: 3, detail: "no hash"},
		{name: "delete a row", sql: []string{`DELETE FROM decisions WHERE id = 5`},
			kind: BreakRemoved, id: 6, pos: 5, detail: "record 5 missing before record 6"},
		{name: "delete the first rows", sql: []string{`DELETE FROM decisions WHERE id <= 2`},
			kind: BreakRemoved, id: 3, pos: 1, detail: "records 1 to 2 missing"},
		{name: "swap two rows' ids", sql: []string{
			`UPDATE decisions SET id = -7 WHERE id = 7`, `UPDATE runs SET decision_id = -7 WHERE decision_id = 7`,
			`UPDATE decisions SET id = 7 WHERE id = 3`, `UPDATE runs SET decision_id = 7 WHERE decision_id = 3`,
			`UPDATE decisions SET id = 3 WHERE id = -7`, `UPDATE runs SET decision_id = 3 WHERE decision_id = -7`},
			kind: BreakReordered, id: 3, pos: 3, detail: "record 3 is chained after record 6, not after record 2"},
		{name: "delete the last rows", sql: []string{`DELETE FROM decisions WHERE id >= 9`},
			kind: BreakTruncated, id: 8, pos: 8, detail: "records 9 to 10 missing at the end"},
		{name: "delete every row", sql: []string{`DELETE FROM decisions`},
			kind: BreakTruncated, id: 0, pos: 0, detail: "records 1 to 10 missing at the end"},
		{name: "add a row", sql: []string{`INSERT INTO decisions (id, ts, origin, agent, event, decision) VALUES (11, 1, 'run', 'claude', 'Stop', 'none')`},
			kind: BreakEdited, id: 11, pos: 11, detail: "no hash"},
		{name: "empty the chain table", sql: []string{`DELETE FROM chain`},
			kind: BreakEdited, id: 0, pos: 0, detail: "head is missing"},
		{name: "rewrite the last row and its hash", sql: []string{`UPDATE decisions SET hash = (SELECT hash FROM decisions WHERE id = 9) WHERE id = 10`},
			kind: BreakEdited, id: 10, pos: 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := chainStore(t, 10)
			tamper(t, path, tc.sql...)
			rep := verify(t, path)
			if tc.kind == "" {
				if !rep.Intact || rep.Break != nil || rep.Records != 10 || rep.HeadID != 10 {
					t.Fatalf("a clean chain: %+v %+v", rep, rep.Break)
				}
				return
			}
			if rep.Intact || rep.Break == nil {
				t.Fatalf("not found: %+v", rep)
			}
			b := rep.Break
			if b.Kind != tc.kind || b.ID != tc.id || b.Position != tc.pos || !strings.Contains(b.Detail, tc.detail) {
				t.Fatalf("got %+v, want %s at id %d position %d (%q)", b, tc.kind, tc.id, tc.pos, tc.detail)
			}
		})
	}
}

// TestChainSurvivesPrune: pruning the oldest moves the chain's base, and the chain still holds;
// the records it keeps are found edited or removed as before.
func TestChainSurvivesPrune(t *testing.T) {
	t.Parallel()
	path := chainStore(t, 10)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if n, err := s.Prune(ctx, time.Time{}, 6); err != nil || n != 4 {
		t.Fatalf("prune: %d %v", n, err)
	}
	if n, err := s.Prune(ctx, time.Date(2026, 1, 1, 0, 5, 30, 0, time.UTC), 0); err != nil || n != 2 {
		t.Fatalf("prune by age: %d %v", n, err)
	}
	if err := s.Record(ctx, &Record{Origin: "run", Agent: "claude", Event: "Stop", Decision: "none"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	rep := verify(t, path)
	if !rep.Intact || rep.Records != 5 || rep.BaseID != 6 || rep.HeadID != 11 {
		t.Fatalf("after prune: %+v %+v", rep, rep.Break)
	}
	tamper(t, path, `DELETE FROM decisions WHERE id = 7`)
	rep = verify(t, path)
	if rep.Break == nil || rep.Break.Kind != BreakRemoved || rep.Break.ID != 8 || rep.Break.Position != 1 {
		t.Fatalf("a pruned chain's first record removed: %+v", rep.Break)
	}
}

// TestPruneByAgeKeepsAPrefix: a record older than the cut stored after a newer one stays, so
// only a prefix of the chain goes.
func TestPruneByAgeKeepsAPrefix(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, ts := range []int{1, 10, 2} {
		if err := s.Record(ctx, &Record{Time: time.Unix(int64(ts), 0), Origin: "run", Agent: "claude", Event: "Stop", Decision: "none"}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Prune(ctx, time.Unix(5, 0), 0); err != nil || n != 1 {
		t.Fatalf("prune: %d %v", n, err)
	}
	rep, err := s.Verify(ctx)
	if err != nil || !rep.Intact || rep.Records != 2 {
		t.Fatalf("%+v %v", rep, err)
	}
}

// TestMigrationChainsExistingRecords: a database written before the chain (schema 3) gets its
// records hashed, in id order, when it is opened, and new records continue the chain.
func TestMigrationChainsExistingRecords(t *testing.T) {
	t.Parallel()
	path := chainStore(t, 4)
	// Back to schema 3, as an older agenthooks left it, with a gap a time-based prune left.
	tamper(t, path, `DROP TABLE chain`, `ALTER TABLE decisions DROP COLUMN hash`, `DELETE FROM decisions WHERE id IN (1, 3)`,
		`DROP TABLE export_leases`, `DROP TABLE export_cursors`, `ALTER TABLE decisions DROP COLUMN trace_id`, `ALTER TABLE decisions DROP COLUMN span_id`,
		`ALTER TABLE decisions DROP COLUMN parent_span_id`, `ALTER TABLE runs DROP COLUMN span_id`, `PRAGMA user_version = 3`)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Record(context.Background(), &Record{Origin: "run", Agent: "claude", Event: "Stop", Decision: "none"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	rep := verify(t, path)
	if !rep.Intact || rep.Records != 3 || rep.BaseID != 1 || rep.HeadID != 5 {
		t.Fatalf("%+v %+v", rep, rep.Break)
	}
	tamper(t, path, `UPDATE decisions SET reason = 'x' WHERE id = 2`)
	if rep := verify(t, path); rep.Break == nil || rep.Break.Kind != BreakEdited || rep.Break.ID != 2 {
		t.Fatalf("%+v", rep.Break)
	}
}

// BenchmarkVerify is what log verify pays per record stored (one run each).
func BenchmarkVerify(b *testing.B) {
	path := filepath.Join(b.TempDir(), "a.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const n = 2000
	for i := range n {
		if _, err := Append(ctx, path, &Record{Origin: "guard bash", Agent: "claude", Event: "PreToolUse", Decision: "allow",
			Payload: fmt.Sprintf(`{"session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"npm test %d"}}`, i),
			Runs:    []Run{{Hook: "/w/.claude/settings.json:3:5", Verdict: "allow", Duration: time.Millisecond}}}); err != nil {
			b.Fatal(err)
		}
	}
	if _, _, err := s.Ingest(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rep, err := s.Verify(ctx)
		if err != nil || !rep.Intact || rep.Records != n {
			b.Fatalf("%+v %v", rep, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "µs/record")
}

// TestPruneEverythingKeepsIDsGoing: a prune that empties the table does not let SQLite number the
// next record 1 again, below the chain's base: the chain still verifies and ids keep rising (team
// sync's position depends on it).
func TestPruneEverythingKeepsIDsGoing(t *testing.T) {
	t.Parallel()
	path := chainStore(t, 5)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if n, err := s.Prune(ctx, time.Now().Add(time.Hour), 0); err != nil || n != 5 {
		t.Fatalf("prune everything: %d %v", n, err)
	}
	r := &Record{Origin: "run", Agent: "claude", Event: "Stop", Decision: "none"}
	if err := s.Record(ctx, r); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if r.ID != 6 {
		t.Fatalf("the record after emptying the table got id %d, want 6", r.ID)
	}
	rep := verify(t, path)
	if !rep.Intact || rep.Records != 1 || rep.BaseID != 5 || rep.HeadID != 6 {
		t.Fatalf("after pruning everything: %+v %+v", rep, rep.Break)
	}
}
