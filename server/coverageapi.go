package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// latencyWindow is how far back the team page's latency table reads the audit runs.
const latencyWindow = 7 * 24 * time.Hour

func (s *Server) postCoverage(w http.ResponseWriter, r *http.Request, tok *Token) {
	if tok.Kind != Member {
		writeError(w, http.StatusForbidden, "coverage is reported with a member token")
		return
	}
	c, ok := decodeBody[CoverageReport](w, r, MaxCoverageBody)
	if !ok {
		return
	}
	if err := c.Check(); err != nil {
		writeError(w, http.StatusBadRequest, "%s", err)
		return
	}
	if err := s.store.PutCoverage(r.Context(), tok, c); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"agents": len(c.Agents)})
}

// ProtectionReport is what the coverage endpoint and the team page show: each machine's agents
// and their unguarded calls, and each hook's latency against the team's threshold.
type ProtectionReport struct {
	Machines []MachineCoverage `json:"machines"`
	Latency  []HookLatency     `json:"latency"`
	// ThresholdMS is the team's p95 latency threshold in milliseconds (0: none).
	ThresholdMS int64     `json:"latency_threshold_ms"`
	Since       time.Time `json:"latency_since"`
}

func (s *Server) protection(ctx context.Context, team string) (*ProtectionReport, error) {
	if _, err := s.store.Team(ctx, team); err != nil {
		return nil, err
	}
	rep := &ProtectionReport{Since: s.store.Now().Add(-latencyWindow).UTC()}
	var err error
	if rep.Machines, err = s.store.Protection(ctx, team); err != nil {
		return nil, err
	}
	threshold, err := s.store.LatencyThreshold(ctx, team)
	if err != nil {
		return nil, err
	}
	rep.ThresholdMS = threshold.Milliseconds()
	if rep.Latency, err = s.store.HooksLatency(ctx, team, rep.Since, threshold); err != nil {
		return nil, err
	}
	rep.Machines, rep.Latency = nonNil(rep.Machines), nonNil(rep.Latency)
	return rep, nil
}

func (s *Server) getCoverage(w http.ResponseWriter, r *http.Request, _ *Token) {
	rep, err := s.protection(r.Context(), r.PathValue("team"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// ThresholdRequest sets a team's latency threshold: a duration such as 250ms ("" or 0: none).
type ThresholdRequest struct {
	Threshold string `json:"latency_threshold"`
}

func (req ThresholdRequest) duration() (time.Duration, error) {
	if req.Threshold == "" || req.Threshold == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(req.Threshold)
	if err != nil {
		return 0, fmt.Errorf("%w: latency_threshold %q is not a duration such as 250ms", errBadRequest, req.Threshold)
	}
	return d, nil
}

func (s *Server) putThreshold(w http.ResponseWriter, r *http.Request, tok *Token) {
	req, ok := decodeBody[ThresholdRequest](w, r, maxSmallBody)
	if !ok {
		return
	}
	d, err := req.duration()
	if err == nil {
		err = s.store.SetLatencyThreshold(r.Context(), r.PathValue("team"), d, tok.Actor())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"latency_threshold_ms": d.Milliseconds()})
}

// setThreshold is the team page's latency threshold form.
func (w *web) setThreshold(rw http.ResponseWriter, r *http.Request, sess *Session) {
	team := r.PathValue("team")
	d, err := ThresholdRequest{Threshold: strings.TrimSpace(r.PostFormValue("threshold"))}.duration()
	if err == nil {
		err = w.s.store.SetLatencyThreshold(r.Context(), team, d, sess.Token.Actor())
	}
	if err != nil {
		w.fail(rw, r, sess, err)
		return
	}
	http.Redirect(rw, r, "/teams/"+url.PathEscape(team)+"?flash="+url.QueryEscape("Latency threshold saved.")+"#protection", http.StatusSeeOther)
}
