//go:build unix

package audit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// helperMain runs the test binary as a helper process: it holds the spool's lock, or ingests
// over and over. It reports whether it ran as one.
func helperMain() (int, bool) {
	switch {
	case os.Getenv("AUDIT_LOCK_HOLDER") != "":
		// Hold an exclusive lock on the file until stdin closes.
		f, err := os.OpenFile(os.Getenv("AUDIT_LOCK_HOLDER"), os.O_RDWR|os.O_CREATE, 0o600)
		if err == nil {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1, true
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		return 0, true
	case os.Getenv("AUDIT_INGESTER_DB") != "":
		// Ingest until the stop file exists, then print how many records this process stored.
		s, err := Open(os.Getenv("AUDIT_INGESTER_DB"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1, true
		}
		defer s.Close()
		total := 0
		for {
			_, statErr := os.Stat(os.Getenv("AUDIT_INGESTER_STOP"))
			n, bad, err := s.Ingest(context.Background())
			total += n
			if err != nil || bad != 0 {
				fmt.Fprintf(os.Stderr, "ingest: %d bad: %v\n", bad, err)
				return 1, true
			}
			if statErr == nil {
				fmt.Println(total)
				return 0, true
			}
			time.Sleep(time.Millisecond)
		}
	}
	return 0, false
}

// holdLock starts a process that holds the lock on path until the test ends.
func holdLock(t *testing.T, path string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AUDIT_LOCK_HOLDER="+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the lock holder said %q", line)
	}
}

// TestAppendGivesUpOnAHeldLock: a spool locked forever by another process costs an appender
// the record, after the caller's budget, never a hang.
func TestAppendGivesUpOnAHeldLock(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "audit.db")
	holdLock(t, SpoolPath(db))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Append(ctx, db, &Record{Origin: "test", Decision: "deny"})
	if !errors.Is(err, ErrSpoolLocked) || time.Since(start) > 10*time.Second { // a hang, not a slow machine
		t.Fatalf("Append on a held lock: %v after %v", err, time.Since(start))
	}
	if err := CheckSpool(db, 50*time.Millisecond); !errors.Is(err, ErrSpoolLocked) {
		t.Fatalf("CheckSpool: %v", err)
	}
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start = time.Now()
	if _, _, err := s.Ingest(context.Background()); !errors.Is(err, ErrSpoolLocked) || time.Since(start) > IngestLockWait+20*time.Second {
		t.Fatalf("Ingest on a held lock: %v after %v", err, time.Since(start))
	}
}

// TestHostileSpool: a spool that is not a regular file is refused at once, by Append, Ingest
// and CheckSpool, with an error that says what it is; a sparse spool past the limit is full.
func TestHostileSpool(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		make  func(t *testing.T, spool string)
		want  error
		words string
	}{
		{"fifo", func(t *testing.T, spool string) {
			if err := syscall.Mkfifo(spool, 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrSpoolUnsafe, "named pipe"},
		{"fifo with a reader", func(t *testing.T, spool string) {
			if err := syscall.Mkfifo(spool, 0o600); err != nil {
				t.Fatal(err)
			}
			fd, err := syscall.Open(spool, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { syscall.Close(fd) })
		}, ErrSpoolUnsafe, "named pipe"},
		{"link to /dev/zero", func(t *testing.T, spool string) {
			if err := os.Symlink("/dev/zero", spool); err != nil {
				t.Fatal(err)
			}
		}, ErrSpoolUnsafe, "symbolic link to /dev/zero"},
		{"link to /dev/tty", func(t *testing.T, spool string) {
			if err := os.Symlink("/dev/tty", spool); err != nil {
				t.Fatal(err)
			}
		}, ErrSpoolUnsafe, "symbolic link to /dev/tty"},
		{"link to a regular file", func(t *testing.T, spool string) {
			os.WriteFile(spool+"-target", nil, 0o600)
			if err := os.Symlink(spool+"-target", spool); err != nil {
				t.Fatal(err)
			}
		}, ErrSpoolUnsafe, "symbolic link"},
		{"folder", func(t *testing.T, spool string) {
			if err := os.Mkdir(spool, 0o700); err != nil {
				t.Fatal(err)
			}
		}, ErrSpoolUnsafe, "a folder"},
		{"sparse 100 MB", func(t *testing.T, spool string) {
			if err := os.WriteFile(spool, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(spool, 100<<20); err != nil {
				t.Fatal(err)
			}
		}, ErrSpoolFull, "full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := filepath.Join(t.TempDir(), "audit.db")
			c.make(t, SpoolPath(db))
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			start := time.Now()
			_, err := Append(ctx, db, &Record{Origin: "test", Decision: "deny"})
			if !errors.Is(err, c.want) || !containsWord(err, c.words) || time.Since(start) > 500*time.Millisecond {
				t.Fatalf("Append: %v after %v; want %v saying %q", err, time.Since(start), c.want, c.words)
			}
			if err := CheckSpool(db, 100*time.Millisecond); !errors.Is(err, c.want) {
				t.Fatalf("CheckSpool: %v", err)
			}
			if c.want != ErrSpoolUnsafe {
				return
			}
			s, err := Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			// A hostile file in the claimed names is left alone too, and does not stop the others.
			os.WriteFile(SpoolPath(db)+".1.1", []byte(`{"uid":"u1","record":{"origin":"t","decision":"allow"}}`+"\n"), 0o600)
			os.Symlink("/dev/zero", SpoolPath(db)+".2.2")
			n, _, err := s.Ingest(ctx)
			if !errors.Is(err, ErrSpoolUnsafe) || n != 1 || time.Since(start) > time.Second {
				t.Fatalf("Ingest: %d, %v after %v", n, err, time.Since(start))
			}
			if _, err := os.Lstat(SpoolPath(db)); err != nil {
				t.Fatalf("the hostile spool was removed: %v", err)
			}
		})
	}
}

func containsWord(err error, words string) bool {
	return err != nil && strings.Contains(err.Error(), words)
}

// TestIngestSkipsLongLines: a line past MaxSpoolLine (a sparse file of zeros, a torn write) is
// counted and skipped, and the lines after it are still ingested.
func TestIngestSkipsLongLines(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "audit.db")
	line := func(uid string) string {
		return `{"uid":"` + uid + `","record":{"origin":"t","decision":"allow"}}` + "\n"
	}
	body := line("a") + string(make([]byte, 3*MaxSpoolLine)) + "\n" + line("b") + "\n\n" + line("c")
	os.WriteFile(SpoolPath(db), []byte(body), 0o600)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, bad, err := s.Ingest(context.Background()); n != 3 || bad != 1 || err != nil {
		t.Fatalf("ingested %d, skipped %d: %v", n, bad, err)
	}
}

// TestAppendWhileIngesting: goroutines append while others ingest, under -race; every record
// is stored exactly once, and the ingests' counts add up.
func TestAppendWhileIngesting(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "audit.db")
	const appenders, each, ingesters = 8, 150, 3
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stored atomic.Int64
	var done atomic.Bool
	var ingest sync.WaitGroup
	for range ingesters {
		ingest.Go(func() {
			s, err := Open(db)
			if err != nil {
				t.Error(err)
				return
			}
			defer s.Close()
			for !done.Load() {
				n, bad, err := s.Ingest(context.Background())
				stored.Add(int64(n))
				if err != nil || bad != 0 {
					t.Errorf("ingest: %d bad: %v", bad, err)
					return
				}
			}
		})
	}
	var appends sync.WaitGroup
	for w := range appenders {
		appends.Go(func() {
			for i := range each {
				rec := &Record{Origin: "test", Decision: "allow", Payload: fmt.Sprintf(`{"writer":%d,"n":%d}`, w, i)}
				if _, err := Append(context.Background(), db, rec); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	appends.Wait()
	done.Store(true)
	ingest.Wait()
	n, _, err := s.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stored.Add(int64(n))
	checkOnce(t, s, appenders, each, int(stored.Load()))
}

// checkOnce checks that the database holds each writer's records exactly once.
func checkOnce(t *testing.T, s *Store, writers, each, counted int) {
	t.Helper()
	rows, err := s.db.Query(`SELECT payload, count(*) FROM decisions GROUP BY payload`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	distinct, total := 0, 0
	for rows.Next() {
		var p string
		var k int
		rows.Scan(&p, &k)
		if k != 1 {
			t.Errorf("%s stored %d times", p, k)
		}
		distinct, total = distinct+1, total+k
	}
	if distinct != writers*each || total != writers*each || counted != total {
		t.Fatalf("%d distinct records, %d in all, ingests counted %d; want %d", distinct, total, counted, writers*each)
	}
	if left, _ := filepath.Glob(SpoolPath(s.Path) + "*"); len(left) != 0 {
		t.Fatalf("left %v", left)
	}
}

// TestProcessesAppendWhileProcessesIngest: the same across processes, as hook processes and
// agenthooks-admin log ingest run on a machine: 8 writer processes, 2 ingester processes.
func TestProcessesAppendWhileProcessesIngest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, stop := filepath.Join(dir, "audit.db"), filepath.Join(dir, "stop")
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const writers, each = 8, 500
	counts := make([]int, 2)
	var ingest sync.WaitGroup
	for i := range counts {
		ingest.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "AUDIT_INGESTER_DB="+db, "AUDIT_INGESTER_STOP="+stop)
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("ingester: %v", err)
			}
			counts[i], _ = strconv.Atoi(string(out[:max(0, len(out)-1)]))
		})
	}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "AUDIT_WRITER_DB="+db, "AUDIT_WRITER_N="+strconv.Itoa(each),
				"AUDIT_WRITER_ID="+strconv.Itoa(w), "AUDIT_WRITER_SPOOL=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("writer %d: %v: %s", w, err, out)
			}
		})
	}
	wg.Wait()
	os.WriteFile(stop, nil, 0o600)
	ingest.Wait()
	n, _, err := s.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkOnce(t, s, writers, each, counts[0]+counts[1]+n)
	t.Logf("ingested by the two processes while writers ran: %d and %d; after: %d", counts[0], counts[1], n)
}
