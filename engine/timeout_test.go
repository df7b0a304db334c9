package engine

import (
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
)

// TestHookTimeout: a hook whose entry sets no timeout runs as long as the agent whose file
// holds it would let it (Claude Code 600 s, Gemini CLI 60 s, Codex 600 s), agenthooks' own
// hooks.json 10 s; its own timeout, or a caller's HookTimeout, wins; the runner's time limit
// bounds them all.
func TestHookTimeout(t *testing.T) {
	hook := func(family dialect.Name, timeout time.Duration) *config.Hook {
		return &config.Hook{Timeout: timeout, Source: &config.Source{Family: family}}
	}
	for _, tc := range []struct {
		name string
		hook *config.Hook
		opts Options
		want time.Duration
	}{
		{"claude default", hook(dialect.Claude, 0), Options{}, 600 * time.Second},
		{"gemini default", hook(dialect.Gemini, 0), Options{}, 60 * time.Second},
		{"codex default", hook(dialect.Codex, 0), Options{}, 600 * time.Second},
		{"hooks.json default", hook(dialect.Cursor, 0), Options{}, 10 * time.Second},
		{"no source", &config.Hook{}, Options{}, 10 * time.Second},
		{"claude UserPromptSubmit", &config.Hook{Event: "UserPromptSubmit", Source: &config.Source{Family: dialect.Claude}}, Options{}, 30 * time.Second},
		{"claude SessionEnd", &config.Hook{Event: "SessionEnd", Source: &config.Source{Family: dialect.Claude}}, Options{}, 1500 * time.Millisecond},
		{"own timeout", hook(dialect.Claude, 30*time.Second), Options{}, 30 * time.Second},
		{"own timeout over the caller's", hook(dialect.Claude, 30*time.Second), Options{HookTimeout: 5 * time.Second}, 30 * time.Second},
		{"caller's HookTimeout", hook(dialect.Claude, 0), Options{HookTimeout: 5 * time.Second}, 5 * time.Second},
		{"limit bounds a default", hook(dialect.Claude, 0), Options{TimeLimit: 480 * time.Second}, 480 * time.Second},
		{"limit bounds an own timeout", hook(dialect.Gemini, 900*time.Second), Options{TimeLimit: 48 * time.Second}, 48 * time.Second},
		{"limit above the default", hook(dialect.Gemini, 0), Options{TimeLimit: 480 * time.Second}, 60 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(&config.Config{}, tc.opts).hookTimeout(tc.hook); got != tc.want {
				t.Errorf("hookTimeout = %s, want %s", got, tc.want)
			}
		})
	}
}
