package dialect

import "sync"

// Lazy is a value built on first use. Its zero value needs no package initialisation, which
// the guard process, linking every agent's package, would pay on every hook call: an agent
// package declares `var x Lazy[T]` and reads it with x.Get(build).
type Lazy[T any] struct {
	once sync.Once
	v    T
}

// Get returns the value, building it with build the first time.
func (l *Lazy[T]) Get(build func() T) T {
	l.once.Do(func() { l.v = build() })
	return l.v
}
