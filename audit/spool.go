package audit

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The spool is how one-shot hook processes record: each decision is one locked append of a JSON
// line to a file beside the database (microseconds), where opening SQLite, writing and closing
// it would cost a hook process milliseconds. Ingest moves the spool into the database in one
// transaction; every record carries a unique id, so an ingest that is interrupted and run again
// never stores one twice.

// SpoolPath is the spool beside the database at dbPath.
func SpoolPath(dbPath string) string { return dbPath + ".spool" }

// MaxSpoolLine bounds one spooled record.
const MaxSpoolLine = 256 << 10

// MaxSpool bounds the spool: about 100,000 decisions. It only fills when nothing ingests it (no
// agenthooks-admin on the machine); past it records are refused rather than filling the disk.
const MaxSpool = 64 << 20

// ErrSpoolFull is Append's error when the spool is at MaxSpool.
var ErrSpoolFull = fmt.Errorf("the audit spool is full (%d MiB); agenthooks-admin log ingest moves it into the database", MaxSpool>>20)

// Append spools a record for the database at dbPath. It redacts and truncates first, as Record
// does. It returns the spool's size after the write, for the caller to decide on an ingest.
func Append(dbPath string, r *Record) (int64, error) {
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	// The id only has to be unique: math/rand/v2's generator, seeded from the system's entropy at
	// start, gives 96 bits without crypto/rand's first-use cost (about 80 µs in a hook process).
	var id [12]byte
	binary.LittleEndian.PutUint64(id[:8], rand.Uint64())
	binary.LittleEndian.PutUint32(id[8:], rand.Uint32())
	b := appendSpoolLine(make([]byte, 0, 1024), hex.EncodeToString(id[:]), r.clean())
	if len(b) > MaxSpoolLine {
		return 0, fmt.Errorf("audit record is %d bytes, more than %d", len(b), MaxSpoolLine)
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o700); err != nil {
		return 0, err
	}
	f, err := openAppend(SpoolPath(dbPath))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	// One write of one line under an exclusive lock: concurrent appenders never interleave.
	unlock, err := lockFile(f)
	if err != nil {
		return 0, err
	}
	defer unlock()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if st.Size()+int64(len(b)) >= MaxSpool {
		return st.Size(), ErrSpoolFull
	}
	n, err := f.Write(append(b, '\n'))
	return st.Size() + int64(n), err
}

type spoolLine struct {
	UID    string  `json:"uid"`
	Record *Record `json:"record"`
}

// clean returns the record as it is stored: secrets redacted, long fields truncated.
func (r *Record) clean() *Record {
	c := *r
	// Times are kept in UTC: formatting a local time would load the time zone database, a
	// tenth of a millisecond in a hook process, and the database keeps instants anyway.
	c.Time = c.Time.UTC()
	c.PayloadSize = len(r.Payload)
	c.Payload = truncate(Redact(r.Payload), MaxField)
	c.Reason = truncate(Redact(r.Reason), MaxField)
	c.Warnings = nil
	for _, w := range r.Warnings {
		c.Warnings = append(c.Warnings, truncate(Redact(w), 4096))
	}
	c.Runs = make([]Run, len(r.Runs))
	for i, run := range r.Runs {
		run.Command, run.Error = truncate(Redact(run.Command), 4096), truncate(Redact(run.Error), 4096)
		run.Time = run.Time.UTC()
		c.Runs[i] = run
	}
	return &c
}

// Ingest moves the spool into the database: the spool file is renamed away first (appenders
// start a new one), its records are inserted in one transaction, and the file is removed. A
// line that does not decode is skipped and counted. Files left by an interrupted ingest are
// taken up too.
func (s *Store) Ingest(ctx context.Context) (ingested, skipped int, err error) {
	spool := SpoolPath(s.Path)
	claimed := fmt.Sprintf("%s.%d.%d", spool, os.Getpid(), time.Now().UnixNano())
	if err := os.Rename(spool, claimed); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, 0, err
	}
	files, _ := filepath.Glob(spool + ".*")
	sort.Strings(files)
	for _, file := range files {
		n, bad, err := s.ingestFile(ctx, file)
		ingested, skipped = ingested+n, skipped+bad
		if err != nil {
			return ingested, skipped, err
		}
		if err := os.Remove(file); err != nil {
			return ingested, skipped, err
		}
	}
	return ingested, skipped, nil
}

func (s *Store) ingestFile(ctx context.Context, file string) (n, bad int, err error) {
	f, err := os.Open(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, 0, nil // another ingest took it
		}
		return 0, 0, err
	}
	defer f.Close()
	var lines []spoolLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxSpoolLine+1)
	for sc.Scan() {
		var line spoolLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Record == nil || line.UID == "" {
			bad++
			continue
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil && !strings.Contains(err.Error(), "too long") {
		return 0, bad, err
	}
	err = s.withTx(ctx, func(tx *sql.Tx) error {
		n = 0
		for _, line := range lines {
			inserted, err := insert(ctx, tx, line.UID, line.Record)
			if err != nil {
				return err
			}
			if inserted {
				n++
			}
		}
		return nil
	})
	return n, bad, err
}
