// Package secrets finds secrets in text with gitleaks' detection library and its default rules,
// within a size and time budget, and reports each by rule and line, never by value. The detector
// is built once per process, on first use: building it costs tens of milliseconds, so only the
// read and prompt guards pay for it. It must not import engine, cli or config.
package secrets

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// Finding is one secret found: which rule, where; never the secret itself.
type Finding struct {
	Rule        string `json:"rule"`
	Description string `json:"description"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s at line %d", f.Rule, f.Line)
}

// ErrBudget is returned when the scan did not finish within its time budget.
var ErrBudget = errors.New("the secret scan did not finish within its time budget")

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

// Describe writes findings for a message: rules and lines, never values.
func Describe(found []Finding) string {
	parts := make([]string, 0, len(found))
	for i, f := range found {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(found)-5))
			break
		}
		parts = append(parts, f.String())
	}
	return strings.Join(parts, ", ")
}
