// Package secrets finds secrets in text with gitleaks' detection library and its default rules,
// within a size and time budget, and reports each by rule and line, never by value. The detector
// is built once per process, on first use: building it costs tens of milliseconds, so only the
// read and prompt guards pay for it. It must not import engine, cli or config.
package secrets

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/guard/secrets/client"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// Finding is one secret found: the helper's wire type, so the scanner prints what it finds as is.
type Finding = client.Finding

// ErrBudget is returned when the scan did not finish within its time budget.
var ErrBudget = client.ErrBudget

var detector = sync.OnceValues(func() (*detect.Detector, error) {
	logging.Logger = logging.Logger.Level(zerolog.Disabled) // gitleaks logs to stderr by default
	return detect.NewDetectorDefaultConfig()
})

// Scan looks for secrets in text. Text longer than maxBytes is scanned up to maxBytes, and the
// result says so (truncated). A scan that does not finish within budget returns ErrBudget with
// what was found so far, so that a guard can choose its fail mode.
func Scan(text string, maxBytes int, budget time.Duration) (found []Finding, truncated bool, err error) {
	d, err := detector()
	if err != nil {
		return nil, false, fmt.Errorf("load gitleaks' rules: %w", err)
	}
	if maxBytes > 0 && len(text) > maxBytes {
		text, truncated = text[:maxBytes], true
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	done := make(chan []Finding, 1)
	go func() {
		var out []Finding
		for _, f := range d.DetectContext(ctx, detect.Fragment{Raw: text}) {
			out = append(out, Finding{Rule: f.RuleID, Description: f.Description, Line: f.StartLine + 1, Column: f.StartColumn})
		}
		done <- out
	}()
	select {
	case out := <-done:
		sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
		return out, truncated, nil
	case <-ctx.Done():
		return nil, truncated, ErrBudget
	}
}
