package audit

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// ErrSpoolLocked is Append's error when another process held the spool's lock for as long as the
// caller would wait: an appender holds it for microseconds, so one that holds it longer is stuck
// or hostile.
var ErrSpoolLocked = errors.New("the audit spool stayed locked by another process")

// ErrSpoolUnsafe is the error when the spool is not a regular file (a FIFO, a symbolic link, a
// device, a folder): it is not opened, written or read.
var ErrSpoolUnsafe = errors.New("the audit spool is not a regular file")

// unsafeSpool says what stands at path instead of a regular file; openErr is why opening it
// failed, if it did.
func unsafeSpool(path string, openErr error) error {
	fi, err := os.Lstat(path)
	if err != nil {
		if openErr == nil {
			openErr = err
		}
		return &os.PathError{Op: "open", Path: path, Err: openErr}
	}
	var what string
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		what = fmt.Sprintf("a symbolic link to %s, which is not followed", target)
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m.IsDir():
		what = "a folder"
	case m.IsRegular():
		if openErr == nil {
			return nil
		}
		return &os.PathError{Op: "open", Path: path, Err: openErr}
	default:
		what = "not a regular file (" + m.String() + ")"
	}
	return fmt.Errorf("%w: %s is %s; remove it, and agenthooks starts a new spool", ErrSpoolUnsafe, path, what)
}

// maxClaimRetries bounds how often an appender or an ingest finds the spool renamed under it
// while it waited for the lock and tries the new one.
const maxClaimRetries = 16

// Append spools a record for the database at dbPath. It redacts and truncates first, as Record
// does. It returns the spool's size after the write, for the caller to decide on an ingest.
// It waits for the spool's lock only until ctx is done (ErrSpoolLocked), and writes only to a
// regular file (ErrSpoolUnsafe), so a hostile spool costs a hook process its record, never its
// answer.
func Append(ctx context.Context, dbPath string, r *Record) (int64, error) {
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
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o700); err != nil {
		return 0, err
	}
	path := SpoolPath(dbPath)
	for range maxClaimRetries {
		size, retry, err := appendOnce(ctx, path, b)
		if !retry {
			return size, err
		}
	}
	return 0, fmt.Errorf("%s was renamed %d times while this record waited for it", path, maxClaimRetries)
}

// appendOnce writes b to the spool at path in one write under an exclusive lock, so that
// concurrent appenders never interleave. retry is set when the file was renamed away (by
// Ingest) while this process waited for its lock.
func appendOnce(ctx context.Context, path string, b []byte) (size int64, retry bool, err error) {
	f, err := openSpool(path, true)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	unlock, err := lockFile(ctx, f)
	if err != nil {
		return 0, false, err
	}
	defer unlock()
	if same, err := sameFile(f, path); err != nil || !same {
		return 0, err == nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	if st.Size()+int64(len(b)) > MaxSpool {
		return st.Size(), false, ErrSpoolFull
	}
	n, err := f.Write(b)
	return st.Size() + int64(n), false, err
}

// CheckSpool says what is wrong with the spool of the database at dbPath, or nil: not a regular
// file, full, or locked by another process for longer than wait. A missing spool is fine.
func CheckSpool(dbPath string, wait time.Duration) error {
	path := SpoolPath(dbPath)
	f, err := openSpool(path, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() >= MaxSpool-MaxSpoolLine {
		return fmt.Errorf("%w: %s holds %d MiB", ErrSpoolFull, path, st.Size()>>20)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	unlock, err := lockFile(ctx, f)
	if err != nil {
		return fmt.Errorf("%w for more than %v", err, wait)
	}
	unlock()
	return nil
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
	c.TraceID, c.SpanID, c.ParentSpanID = validID(r.TraceID, 32), validID(r.SpanID, 16), validID(r.ParentSpanID, 16)
	c.Warnings = nil
	for _, w := range r.Warnings {
		c.Warnings = append(c.Warnings, truncate(Redact(w), 4096))
	}
	c.Runs = make([]Run, len(r.Runs))
	for i, run := range r.Runs {
		run.Command, run.Error = truncate(Redact(run.Command), 4096), truncate(Redact(run.Error), 4096)
		run.Time, run.SpanID = run.Time.UTC(), validID(run.SpanID, 16)
		c.Runs[i] = run
	}
	return &c
}

// validID is id when it is n lower-case hex digits and not all zeros (a W3C trace or span id),
// else "": a trace context that does not parse is dropped, as the specification says.
func validID(id string, n int) string {
	if len(id) != n || strings.Trim(id, "0") == "" {
		return ""
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return id
}

// IngestLockWait bounds how long Ingest waits for the spool's lock before it leaves the spool
// for the next ingest (and says so).
const IngestLockWait = 2 * time.Second

// Ingest moves the spool into the database: the spool file is renamed away first, under its
// lock (appenders that waited for the lock see the rename and start a new spool, so no record
// lands in a file already read), its records are inserted in one transaction, and the file is
// removed. A line that does not decode is skipped and counted. Files left by an interrupted
// ingest are taken up too; every record carries a unique id, so none is stored twice, even by
// concurrent ingests. A file that is not a regular one is left in place and reported in err,
// after the others are ingested. Once records are in, the program's AfterIngest runs.
func (s *Store) Ingest(ctx context.Context) (ingested, skipped int, err error) {
	defer func() { s.runAfterIngest(ctx, ingested) }()
	spool := SpoolPath(s.Path)
	var problems []error
	if err := claimSpool(ctx, spool); err != nil {
		problems = append(problems, err)
	}
	files, _ := filepath.Glob(spool + ".*")
	sort.Strings(files)
	for _, file := range files {
		n, bad, err := s.ingestFile(ctx, file)
		ingested, skipped = ingested+n, skipped+bad
		if errors.Is(err, ErrSpoolUnsafe) {
			problems = append(problems, err)
			continue
		}
		if err != nil {
			return ingested, skipped, err
		}
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ingested, skipped, err
		}
	}
	return ingested, skipped, errors.Join(problems...)
}

// claimSpool renames the spool to a name of its own under the spool's lock.
func claimSpool(ctx context.Context, spool string) error {
	ctx, cancel := context.WithTimeout(ctx, IngestLockWait)
	defer cancel()
	for range maxClaimRetries {
		f, err := openSpool(spool, false)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		unlock, err := lockFile(ctx, f)
		if err != nil {
			f.Close()
			return err
		}
		same, err := sameFile(f, spool)
		if err == nil && same {
			claimed := fmt.Sprintf("%s.%d.%d", spool, os.Getpid(), time.Now().UnixNano())
			err = os.Rename(spool, claimed)
		}
		unlock()
		f.Close()
		if err != nil || same {
			return err
		}
	}
	return fmt.Errorf("%s was renamed %d times while this ingest waited for it", spool, maxClaimRetries)
}

func (s *Store) ingestFile(ctx context.Context, file string) (n, bad int, err error) {
	f, err := openSpool(file, false)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, 0, nil // another ingest took it
		}
		return 0, 0, err
	}
	defer f.Close()
	var lines []spoolLine
	long, err := eachLine(f, MaxSpoolLine, func(b []byte) {
		var line spoolLine
		if err := json.Unmarshal(b, &line); err != nil || line.Record == nil || line.UID == "" {
			bad++
			return
		}
		lines = append(lines, line)
	})
	bad += long
	if err != nil {
		return 0, bad, err
	}
	err = s.withTx(ctx, func(tx *sql.Tx) error {
		n = 0
		var ch chainer
		for _, line := range lines {
			inserted, err := insert(ctx, tx, &ch, line.UID, line.Record)
			if err != nil {
				return err
			}
			if inserted {
				n++
			}
		}
		return ch.flush(ctx, tx)
	})
	return n, bad, err
}

// eachLine calls fn with each non-empty line of r, without its newline. A line longer than max
// is skipped and counted in tooLong, without being held in memory, and the next ones are read.
func eachLine(r io.Reader, max int, fn func([]byte)) (tooLong int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && len(line)+len(chunk) > max+1 {
			long, line = true, line[:0]
		}
		if !long {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long {
			tooLong++
		} else if l := bytes.TrimRight(line, "\n"); len(l) > 0 {
			fn(l)
		}
		line, long = line[:0], false
		if err == io.EOF {
			return tooLong, nil
		}
		if err != nil {
			return tooLong, err
		}
	}
}
