package cli

import (
	"context"
	"encoding/json"

	"github.com/agenthooks/agenthooks/coverage"
)

// runCoverage is status --coverage: the agents' transcripts against the audit trail.
func runCoverage(ctx context.Context, e *env, p statusParams) error {
	s, err := p.logParams.open(e)
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := coverage.Run(ctx, s, coverage.Options{Home: e.home(), Getenv: e.getenv, Since: p.logParams.filter.Since})
	if err != nil {
		return err
	}
	if p.logParams.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(rep)
	} else {
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		return err
	}
	if rep.Unguarded > 0 && p.strict {
		return silentExit{code: 1}
	}
	return nil
}
