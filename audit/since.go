package audit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxDays bounds "Nd" so that N days never overflow a time.Duration.
const maxDays = 36500

// ParseSince reads a point in time for a filter, as `log --since`, `log prune --older-than` and
// the team server's audit queries take it: an RFC 3339 time, a duration back from now (30m,
// 24h), or a number of days back from now (7d). "" is the zero time (no bound).
func ParseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 || n > maxDays {
			return time.Time{}, fmt.Errorf("%q is not a number of days from 0 to %d", s, maxDays)
		}
		return now.Add(-time.Duration(n) * 24 * time.Hour), nil
	}
	dur, err := time.ParseDuration(s)
	if err != nil || dur < 0 {
		return time.Time{}, fmt.Errorf("%q is neither a duration (30m, 24h, 7d) nor an RFC 3339 time", s)
	}
	return now.Add(-dur), nil
}
