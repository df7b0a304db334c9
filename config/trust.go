package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// TrustStore records which workspaces the user trusts to run their project hooks. It lives in
// the user's state folder (~/.agenthooks/trust.json) and is rewritten atomically.
type TrustStore struct {
	Path string
}

// StateDir is agenthooks' per-user state folder under home.
func StateDir(home string) string { return filepath.Join(home, ".agenthooks") }

// NewTrustStore returns the store in home's state folder.
func NewTrustStore(home string) *TrustStore {
	return &TrustStore{Path: filepath.Join(StateDir(home), "trust.json")}
}

type trustFile struct {
	Version int          `json:"version"`
	Trusted []trustEntry `json:"trusted"`
}

type trustEntry struct {
	Dir string    `json:"dir"`
	At  time.Time `json:"at"`
}

// Canonical returns the absolute path of dir with symbolic links resolved where it exists, so
// that one folder is one entry however it is named.
func Canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

func (s *TrustStore) read() (trustFile, error) {
	var tf trustFile
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return trustFile{Version: 1}, nil
	}
	if err != nil {
		return tf, fmt.Errorf("read trust store: %w", err)
	}
	if err := json.Unmarshal(data, &tf); err != nil {
		return tf, fmt.Errorf("read trust store %s: %w", s.Path, err)
	}
	return tf, nil
}

// Trusted reports whether dir is trusted. An unreadable store trusts nothing.
func (s *TrustStore) Trusted(dir string) bool {
	c, err := Canonical(dir)
	if err != nil {
		return false
	}
	tf, err := s.read()
	if err != nil {
		return false
	}
	return slices.ContainsFunc(tf.Trusted, func(e trustEntry) bool { return e.Dir == c })
}

// Trust records dir as trusted. It reports whether the store changed.
func (s *TrustStore) Trust(dir string) (bool, error) {
	return s.update(dir, func(tf *trustFile, c string) bool {
		if slices.ContainsFunc(tf.Trusted, func(e trustEntry) bool { return e.Dir == c }) {
			return false
		}
		tf.Trusted = append(tf.Trusted, trustEntry{Dir: c, At: time.Now().UTC()})
		return true
	})
}

// Untrust removes dir. It reports whether the store changed.
func (s *TrustStore) Untrust(dir string) (bool, error) {
	return s.update(dir, func(tf *trustFile, c string) bool {
		n := len(tf.Trusted)
		tf.Trusted = slices.DeleteFunc(tf.Trusted, func(e trustEntry) bool { return e.Dir == c })
		return len(tf.Trusted) != n
	})
}

func (s *TrustStore) update(dir string, change func(*trustFile, string) bool) (bool, error) {
	c, err := Canonical(dir)
	if err != nil {
		return false, err
	}
	tf, err := s.read()
	if err != nil {
		return false, err
	}
	if !change(&tf, c) {
		return false, nil
	}
	tf.Version = 1
	data, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return false, err
	}
	return true, WriteFileAtomic(s.Path, append(data, '\n'), 0o600)
}

// WriteFileAtomic writes data to a temporary file beside path and renames it into place, so that
// a reader never sees half a file.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
