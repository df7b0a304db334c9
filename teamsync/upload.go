package teamsync

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/bundle"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/claude"
	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// AuditBatchSize is how many records one upload request carries at most.
const AuditBatchSize = 200

// maxAuditBatches bounds one sync's upload; the rest goes with the next sync.
const maxAuditBatches = 50

// maxUploadBody is the most one upload request carries: the server's limit (4 MiB) less room
// for the envelope. A server with a smaller limit answers 413 and the batch is halved.
const maxUploadBody = 4<<20 - 64<<10

// maxUploadField is what the server keeps of a record's text field; a record too large to go
// up in one request is cut to it (its runs dropped when they alone are too large, as the
// server would drop them).
const maxUploadField = 4096

type uploadRecord struct {
	UID  string `json:"uid"`
	Hash string `json:"hash,omitempty"` // the record's chain hash on this machine
	audit.Record
}

// chainClaim is what an upload says of this machine's audit chain (server.ChainClaim): its
// base and head, and the hash its database holds now at the last id the server accepted, so
// the server can tell when that history was rewritten.
type chainClaim struct {
	BaseID   int64  `json:"base_id"`
	HeadID   int64  `json:"head_id"`
	HeadHash string `json:"head_hash"`
	AtID     int64  `json:"at_id"`
	AtHash   string `json:"at_hash,omitempty"`
}

// claim reads the chain's ends and its hash at the last id the server acknowledged. A chain
// whose ends cannot be read (its table emptied) claims base and head 0: the server still
// compares the hash at that id.
func claim(ctx context.Context, store *audit.Store, at int64) (*chainClaim, error) {
	c := &chainClaim{AtID: at}
	if base, head, err := store.ChainEnds(ctx); err == nil {
		c.BaseID, c.HeadID, c.HeadHash = base.ID, head.ID, head.Hash
	}
	if at > 0 {
		h, _, err := store.HashAt(ctx, at)
		if err != nil {
			return nil, err
		}
		c.AtHash = h
	}
	return c, nil
}

// errLeft says that audit records are left on the machine for a later sync.
var errLeft = errors.New("audit records are left to upload")

// uploadAudit sends the audit records made since the last upload, oldest first (by id), in
// batches within the server's body limit. Each record's uid is the database's epoch and its
// id, and the epoch and the last id the server acknowledged are saved before and after each
// batch, so a sync killed mid-upload resends at most the batch in flight, which the server
// stores once. It returns how many records the server acknowledged and how many are left
// (an error says why they are).
func (o *Options) uploadAudit(ctx context.Context, st *state) (sent, left int, err error) {
	if !auditExists(o.AuditDB) {
		return 0, 0, nil // a spool alone is ingested below: hook processes never make the database
	}
	store, err := audit.Open(o.AuditDB)
	if err != nil {
		return 0, 0, err
	}
	defer store.Close()
	store.Ingest(ctx)
	newest, err := store.MaxID(ctx)
	if err != nil {
		return 0, 0, err
	}
	// A database made anew starts its ids again: start a new epoch so uids stay unique.
	if st.AuditEpoch == "" || newest < st.AuditAfter {
		st.AuditAfter, st.AuditEpoch = 0, randomEpoch()
		if err := o.saveState(*st); err != nil {
			return 0, 0, fmt.Errorf("save the sync state: %w", err)
		}
	}
	var pending []audit.Record
	var hashes map[int64]string
	limit := AuditBatchSize
	for batches := 0; ; batches++ {
		if len(pending) == 0 {
			if pending, err = store.Query(ctx, audit.Filter{AfterID: st.AuditAfter, Oldest: true, Limit: AuditBatchSize}); err != nil {
				return sent, int(newest - st.AuditAfter), err
			}
			if len(pending) > 0 {
				if hashes, err = store.Hashes(ctx, st.AuditAfter, pending[len(pending)-1].ID); err != nil {
					return sent, int(newest - st.AuditAfter), err
				}
			}
		}
		if len(pending) == 0 {
			return sent, 0, nil
		}
		if batches == maxAuditBatches {
			return sent, int(newest - st.AuditAfter), errLeft
		}
		chain, err := claim(ctx, store, st.AuditAfter)
		if err != nil {
			return sent, int(newest - st.AuditAfter), err
		}
		body, n := o.auditBody(st.AuditEpoch, pending[:min(limit, len(pending))], hashes, chain)
		code, err := o.post(ctx, "/api/v1/teams/"+url.PathEscape(o.Team)+"/audit", body)
		if code == http.StatusRequestEntityTooLarge && n > 1 {
			limit = max(n/2, 1)
			continue
		}
		if err != nil {
			return sent, int(newest - st.AuditAfter), err
		}
		sent += n
		st.AuditAfter = pending[n-1].ID
		pending = pending[n:]
		if err := o.saveState(*st); err != nil {
			return sent, int(newest - st.AuditAfter), fmt.Errorf("save the sync state: %w", err)
		}
	}
}

// auditBody encodes the first records of recs that fit in one request (at most one when it
// alone is larger, cut to fit), and says how many it took.
func (o *Options) auditBody(epoch string, recs []audit.Record, hashes map[int64]string, chain *chainClaim) ([]byte, int) {
	var b bytes.Buffer
	b.WriteString(`{"machine":`)
	name, _ := json.Marshal(o.Machine)
	b.Write(name)
	if chain != nil {
		c, _ := json.Marshal(chain)
		b.WriteString(`,"chain":`)
		b.Write(c)
	}
	b.WriteString(`,"records":[`)
	n := 0
	for _, r := range recs {
		r.Payload = "" // decisions and reasons go up; payloads stay on the machine
		r = withoutTrace(r)
		hash := hashes[r.ID]
		one, _ := json.Marshal(uploadRecord{UID: epoch + "-" + strconv.FormatInt(r.ID, 10), Hash: hash, Record: r})
		if len(one) > maxUploadBody-b.Len() && n == 0 {
			one = shrink(epoch, hash, r)
		}
		if n > 0 && b.Len()+len(one)+2 > maxUploadBody {
			break
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(one)
		n++
	}
	b.WriteString("]}")
	return b.Bytes(), n
}

// withoutTrace leaves out the record's trace context: the server keeps none, and a server from
// before it existed refuses fields it does not know.
func withoutTrace(r audit.Record) audit.Record {
	r.TraceID, r.SpanID, r.ParentSpanID = "", "", ""
	runs := make([]audit.Run, len(r.Runs))
	for i, run := range r.Runs {
		run.SpanID = ""
		runs[i] = run
	}
	if r.Runs != nil {
		r.Runs = runs
	}
	return r
}

// shrink encodes a record cut to what the server keeps of it.
func shrink(epoch, hash string, r audit.Record) []byte {
	cut := func(s string) string {
		if len(s) > maxUploadField {
			return s[:maxUploadField]
		}
		return s
	}
	r.Reason, r.Origin, r.Agent, r.Event, r.Decision = cut(r.Reason), cut(r.Origin), cut(r.Agent), cut(r.Event), cut(r.Decision)
	r.Workspace, r.Session, r.Warnings = cut(r.Workspace), cut(r.Session), nil
	if runs, _ := json.Marshal(r.Runs); len(runs) > audit.MaxField {
		r.Runs = nil
	}
	for i := range r.Runs {
		r.Runs[i].Hook, r.Runs[i].Command, r.Runs[i].Error = cut(r.Runs[i].Hook), cut(r.Runs[i].Command), cut(r.Runs[i].Error)
	}
	one, _ := json.Marshal(uploadRecord{UID: epoch + "-" + strconv.FormatInt(r.ID, 10), Hash: hash, Record: r})
	return one
}

func (o *Options) post(ctx context.Context, path string, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Server+path, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+o.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("server answered %s: %s", resp.Status, apiMessage(data))
	}
	return resp.StatusCode, nil
}

// ClaudeDropIn is the managed-settings drop-in that registers a team with Claude Code.
func ClaudeDropIn(claudeDir, team string) string {
	return filepath.Join(claudeDir, "managed-settings.d", "50-agenthooks-team-"+team+".json")
}

// registerClaude writes Claude Code's managed-settings drop-in for the team: for each Claude
// Code event the bundle's config has hooks for, one handler that runs agenthooks with that
// config as the team layer. The drop-in is the only file written outside the hooks folder,
// and its name is fixed by the team id.
func (o *Options) registerClaude(dir string, b *bundle.Bundle) error {
	if b.Manifest.Config == "" {
		return nil
	}
	cfg := filepath.Join(dir, filepath.FromSlash(b.Manifest.Config))
	// The bundle's config is Cursor's hooks.json (--config) or Claude Code's settings.json
	// (--settings); the drop-in is Claude Code's.
	target, from, flag := &claude.Agent, &cursor.Agent, "--config"
	if b.Manifest.Config == "settings.json" {
		from, flag = target, "--settings"
	}
	family := from.Name
	var file *config.File
	src := config.Source{Layer: config.Team, Family: family, File: cfg, Trusted: true}
	if from.InstallFormat() == dialect.FormatSettings {
		file = config.DecodeSettings(src, b.Files[b.Manifest.Config])
	} else {
		file = config.Decode(src, b.Files[b.Manifest.Config])
	}
	events := map[string]bool{}
	for _, h := range file.Hooks {
		ev := h.Event
		if from != target {
			ev = translate.EventFor(target.Name, config.KindOf(family, h.Event))
		}
		if ev != "" {
			events[ev] = true
		}
	}
	var names []string
	for ev := range events {
		names = append(names, ev)
	}
	sort.Strings(names)
	hooks := jsonpos.Obj()
	for _, ev := range names {
		cmd := fmt.Sprintf("%s run --agent %s --from %s %s team=%s %s", o.Agenthooks, target.Name, family, flag, shell.Quote(cfg), ev)
		hooks.Set(ev, jsonpos.Arr(jsonpos.Obj("hooks", jsonpos.Arr(jsonpos.Obj("type", jsonpos.Str("command"), "command", jsonpos.Str(cmd))))))
	}
	doc := jsonpos.Obj("hooks", hooks)
	out := ClaudeDropIn(o.ClaudeDir, o.Team)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, doc.Encode(), "", "  ")
	pretty.WriteByte('\n')
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, pretty.Bytes()) {
		return nil
	}
	return config.WriteFileAtomic(out, pretty.Bytes(), 0o644)
}
