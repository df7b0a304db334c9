// Package client runs the agenthooks-scan helper, which scans text for secrets with gitleaks, so
// that agenthooks itself does not link gitleaks (milliseconds of initialisation at every start).
// It imports only the standard library and internal/helperbin.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/helperbin"
)

// ExitBudget is the helper's exit status when the scan ran out of its time budget.
const ExitBudget = 3

// ErrBudget is returned when the scan did not finish within its budget.
var ErrBudget = errors.New("the secret scan did not finish within its time budget")

// Finding is one secret found: rule and place, never the value.
type Finding struct {
	Rule        string `json:"rule"`
	Description string `json:"description"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
}

// Result is what the helper prints.
type Result struct {
	Findings  []Finding `json:"findings"`
	Truncated bool      `json:"truncated"`
}

// Path finds the helper: $AGENTHOOKS_SCAN, else agenthooks-scan beside this executable, else in PATH.
func Path(getenv func(string) string) (string, error) {
	return helperbin.Find(getenv, "AGENTHOOKS_SCAN", "agenthooks-scan", "the secret scanner")
}

// Scan runs the helper on text. The helper's own start and gitleaks' rules count against budget
// plus a fixed allowance for starting a process.
func Scan(getenv func(string) string, text string, maxBytes int, budget time.Duration) (Result, error) {
	var res Result
	bin, err := Path(getenv)
	if err != nil {
		return res, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget+2*time.Second)
	defer cancel()
	if len(text) > maxBytes {
		text, res.Truncated = text[:maxBytes], true
	}
	cmd := exec.CommandContext(ctx, bin, "-max-bytes", strconv.Itoa(maxBytes), "-budget", budget.String())
	cmd.Stdin = strings.NewReader(text)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == ExitBudget, ctx.Err() != nil:
		return res, ErrBudget
	case err != nil:
		return res, fmt.Errorf("agenthooks-scan: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	truncated := res.Truncated
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return res, fmt.Errorf("agenthooks-scan printed something that is not its result: %w", err)
	}
	res.Truncated = res.Truncated || truncated
	return res, nil
}

// Describe writes findings for a message: rules and lines, never values.
func Describe(found []Finding) string {
	parts := make([]string, 0, len(found))
	for i, f := range found {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(found)-5))
			break
		}
		parts = append(parts, fmt.Sprintf("%s at line %d", f.Rule, f.Line))
	}
	return strings.Join(parts, ", ")
}
