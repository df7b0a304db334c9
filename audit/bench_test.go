package audit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// fill writes n decisions, each with one run, in large transactions.
func fill(b *testing.B, s *Store, n int) {
	b.Helper()
	ctx := context.Background()
	events := []string{"PreToolUse", "beforeShellExecution", "stop", "UserPromptSubmit"}
	decisions := []string{"allow", "allow", "allow", "ask", "deny"}
	base := time.Now().Add(-time.Duration(n) * time.Second).UnixMicro()
	for done := 0; done < n; {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		dec, _ := tx.Prepare(`INSERT INTO decisions (ts, origin, agent, event, workspace, decision, payload, payload_size) VALUES (?, 'run', 'claude', ?, ?, ?, '{}', 2)`)
		run, _ := tx.Prepare(`INSERT INTO runs (decision_id, ts, hook, verdict, duration_us) VALUES (?, ?, ?, ?, ?)`)
		for i := 0; i < 50000 && done < n; i, done = i+1, done+1 {
			ts := base + int64(done)*1_000_000
			res, err := dec.Exec(ts, events[done%4], fmt.Sprintf("/w/%d", done%10), decisions[done%5])
			if err != nil {
				b.Fatal(err)
			}
			id, _ := res.LastInsertId()
			run.Exec(id, ts, fmt.Sprintf("/w/.claude/settings.json:%d:5", done%20), decisions[done%5], 1000+done%5000)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLogMillion is `agenthooks log` with its filters over 1,000,000 decisions.
func BenchmarkLogMillion(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "big.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fill(b, s, 1_000_000)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		f    Filter
	}{
		{"latest", Filter{}},
		{"event+decision", Filter{Event: "stop", Decision: "deny"}},
		{"since-1h", Filter{Since: time.Now().Add(-time.Hour)}},
		{"workspace", Filter{Workspace: "/w/3"}},
		{"hook", Filter{Hook: "settings.json:7:5"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if recs, err := s.Query(ctx, c.f); err != nil || len(recs) == 0 {
					b.Fatal(err, len(recs))
				}
			}
		})
	}
	b.Run("stats-24h", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Stats(ctx, Filter{Since: time.Now().Add(-24 * time.Hour)}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
