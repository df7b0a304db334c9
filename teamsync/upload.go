package teamsync

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// AuditBatchSize is how many records one upload request carries.
const AuditBatchSize = 200

// maxAuditBatches bounds one sync's upload; the rest goes with the next sync.
const maxAuditBatches = 50

type uploadRecord struct {
	UID string `json:"uid"`
	audit.Record
}

// uploadAudit sends the audit records made since the last upload, oldest first, in batches.
// Each record's uid is the database's epoch and its id, so a batch sent twice (an answer
// lost on the way back) is stored once.
func (o *Options) uploadAudit(ctx context.Context, st *state) (int, error) {
	if _, err := os.Stat(o.AuditDB); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	store, err := audit.Open(o.AuditDB)
	if err != nil {
		return 0, err
	}
	defer store.Close()
	store.Ingest(ctx)
	if st.AuditEpoch == "" {
		st.AuditEpoch = randomEpoch()
	}
	// A database made anew starts its ids again: start a new epoch so uids stay unique.
	if newest, err := store.MaxID(ctx); err == nil && newest < st.AuditAfter {
		st.AuditAfter, st.AuditEpoch = 0, randomEpoch()
	}
	sent := 0
	for range maxAuditBatches {
		recs, err := store.Query(ctx, audit.Filter{AfterID: st.AuditAfter, Limit: AuditBatchSize})
		if err != nil {
			return sent, err
		}
		if len(recs) == 0 {
			return sent, nil
		}
		batch := struct {
			Machine string         `json:"machine"`
			Records []uploadRecord `json:"records"`
		}{Machine: o.Machine}
		for _, r := range recs {
			r.Payload = "" // decisions and reasons go up; payloads stay on the machine
			batch.Records = append(batch.Records, uploadRecord{UID: st.AuditEpoch + "-" + strconv.FormatInt(r.ID, 10), Record: r})
		}
		body, _ := json.Marshal(batch)
		if err := o.post(ctx, "/api/v1/teams/"+url.PathEscape(o.Team)+"/audit", body); err != nil {
			return sent, err
		}
		sent += len(recs)
		st.AuditAfter = recs[len(recs)-1].ID
	}
	return sent, nil
}

func (o *Options) post(ctx context.Context, path string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Server+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+o.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("server answered %s: %s", resp.Status, apiMessage(data))
	}
	return nil
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
	family, flag := dialect.Cursor, "--config"
	if b.Manifest.Config == "settings.json" {
		family, flag = dialect.Claude, "--settings"
	}
	var file *config.File
	src := config.Source{Layer: config.Team, Family: family, File: cfg, Trusted: true}
	if family == dialect.Claude {
		file = config.DecodeSettings(src, b.Files[b.Manifest.Config])
	} else {
		file = config.Decode(src, b.Files[b.Manifest.Config])
	}
	events := map[string]bool{}
	for _, h := range file.Hooks {
		ev := h.Event
		if family == dialect.Cursor {
			ev = translate.EventFor(dialect.Claude, config.KindOf(family, h.Event))
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
		cmd := fmt.Sprintf("%s run --agent claude --from %s %s team=%s %s", o.Agenthooks, family, flag, shell.Quote(cfg), ev)
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
