package server

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter is a token bucket per key (a token id or an address), forgotten after a while idle.
// Each server instance counts on its own: with several instances behind a balancer the limit
// a client sees is per instance.
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	rate    rate.Limit
	burst   int
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(perSecond float64, burst int) *limiter {
	return &limiter{buckets: map[string]*bucket{}, rate: rate.Limit(perSecond), burst: burst, swept: time.Now()}
}

// allow reports whether key may make a request now.
func (l *limiter) allow(key string) bool {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(l.rate, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	return b.lim.AllowN(now, 1)
}
