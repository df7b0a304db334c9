package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// ProjectPolicy is where a workspace keeps its guard policy, relative to its root.
const ProjectPolicy = ".agenthooks/policy.yaml"

// ProjectFiles lists the files of workspace ws that trust unlocks: every agent's project hook
// files, where the loaders look for them, and the workspace's guard policy.
func ProjectFiles(ws string) []string {
	var out []string
	for _, a := range agents.ByFilePriority() {
		for _, c := range projectCandidates(a, ws) {
			out = append(out, c.Path)
		}
	}
	return append(out, filepath.Join(ws, filepath.FromSlash(ProjectPolicy)))
}

// TrustStore records which workspaces the user trusts, and the content of each project file
// at the time: a file that is new or changed since is not trusted until a person trusts the
// workspace again. It lives in the user's state folder (~/.agenthooks/trust.json), mode 0600,
// and is rewritten atomically.
type TrustStore struct {
	// Path is the store's file. It must be absolute: a relative one would be resolved in the
	// working directory, which a repository controls.
	Path string
}

// StateDir is agenthooks' per-user state folder under home.
func StateDir(home string) string { return join(home, ".agenthooks") }

// NewTrustStore returns the store in home's state folder. An empty or relative home gives a
// store that trusts nothing and refuses to record (see TrustStore.Path).
func NewTrustStore(home string) *TrustStore {
	if home == "" {
		return &TrustStore{}
	}
	return &TrustStore{Path: filepath.Join(StateDir(home), "trust.json")}
}

// MaxTrustStoreSize bounds the trust store file.
const MaxTrustStoreSize = 4 << 20

// trustVersion is the store's format: 2 records each file's digest. Version 1 recorded folders
// only; its entries are kept but trust nothing until the workspace is trusted again.
const trustVersion = 2

type trustFile struct {
	Version int          `json:"version"`
	Trusted []trustEntry `json:"trusted"`
}

type trustEntry struct {
	Dir string    `json:"dir"`
	At  time.Time `json:"at"`
	// Files maps each project file present when the workspace was trusted, by its path
	// relative to Dir with slashes, to Digest of its content. Nil in a version 1 entry.
	Files map[string]string `json:"files"`
}

func (tf *trustFile) find(dir string) *trustEntry {
	for i := range tf.Trusted {
		if tf.Trusted[i].Dir == dir {
			return &tf.Trusted[i]
		}
	}
	return nil
}

// Digest is how the store records a file's content: "sha256:" and the hex SHA-256.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
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

// read reads the store. A missing store is empty; anything else that is wrong (unreadable,
// not a regular file, too large, not JSON, a newer format) is an error.
func (s *TrustStore) read() (*trustFile, error) {
	if s.Path == "" || !filepath.IsAbs(s.Path) {
		return nil, fmt.Errorf("trust store path %q is not absolute (no home folder?)", s.Path)
	}
	data, err := regfile.Read(s.Path, MaxTrustStoreSize)
	if errors.Is(err, fs.ErrNotExist) {
		return &trustFile{Version: trustVersion}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read trust store: %w", err)
	}
	var tf trustFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return nil, fmt.Errorf("trust store %s is corrupt: %w", s.Path, err)
	}
	switch {
	case tf.Version == 1:
		for i := range tf.Trusted {
			tf.Trusted[i].Files = nil // a folder record, whatever else it holds
		}
	case tf.Version != trustVersion:
		return nil, fmt.Errorf("trust store %s has version %d; this agenthooks reads versions 1 and %d", s.Path, tf.Version, trustVersion)
	}
	return &tf, nil
}

// Untrust says why a project file is not used.
type Untrust struct {
	// Code is stable: one of the Untrust* constants.
	Code string `json:"code"`
	// Message says why, for a person, and what to do.
	Message string `json:"message"`
}

// Why a project file is not used.
const (
	UntrustWorkspace  = "workspace_not_trusted" // the workspace was never trusted
	UntrustNew        = "file_new"              // the file appeared since the workspace was trusted
	UntrustChanged    = "file_changed"          // its content changed since
	UntrustLegacy     = "trust_per_folder"      // trusted by an agenthooks that recorded folders only
	UntrustStore      = "trust_store_unreadable"
	UntrustUnreadable = "file_unreadable"
)

// Quiet reports whether the reason is the ordinary one (a workspace nobody trusted), which is
// only shown when asked; every other reason means something changed, and is always shown.
func (u *Untrust) Quiet() bool { return u.Code == UntrustWorkspace }

func notTrusted(ws string) *Untrust {
	return &Untrust{Code: UntrustWorkspace, Message: fmt.Sprintf("workspace %s is not trusted (agenthooks trust %s)", ws, ws)}
}

// TrustFunc decides whether a project file may be used: the workspace it belongs to, its path
// and the content that was read (so that what is checked is what is used). It returns nil when
// the file may be used, and why not otherwise.
type TrustFunc func(workspace, path string, content []byte) *Untrust

// TrustAll is a TrustFunc that trusts every project file (the CLI's --trust, lint).
func TrustAll(string, string, []byte) *Untrust { return nil }

// Check returns a TrustFunc that consults the store, read once, at the first project file. An
// unreadable store trusts nothing and says why.
func (s *TrustStore) Check() TrustFunc {
	var tf *trustFile
	var err error
	read := false
	return func(ws, path string, content []byte) *Untrust {
		if !read {
			tf, err = s.read()
			read = true
		}
		if err != nil {
			return &Untrust{Code: UntrustStore, Message: fmt.Sprintf("the trust store cannot be read, so no project file is trusted: %v", err)}
		}
		dir, cerr := Canonical(ws)
		e := tf.find(dir)
		if cerr != nil || e == nil {
			return notTrusted(ws)
		}
		if e.Files == nil {
			return &Untrust{Code: UntrustLegacy, Message: fmt.Sprintf("workspace %s was trusted as a folder by an older agenthooks; trust now covers the content of each file: review them and run agenthooks trust %s", ws, ws)}
		}
		old, ok := e.Files[relKey(ws, path)]
		if !ok {
			return &Untrust{Code: UntrustNew, Message: fmt.Sprintf("it is new since workspace %s was trusted (agenthooks trust %s shows the change and trusts it)", ws, ws)}
		}
		if now := Digest(content); now != old {
			return &Untrust{Code: UntrustChanged, Message: fmt.Sprintf("it changed since workspace %s was trusted (%s, now %s; agenthooks trust %s shows the change and trusts it)", ws, short(old), short(now), ws)}
		}
		return nil
	}
}

// relKey is path's key in a workspace entry: relative to ws, with slashes.
func relKey(ws, path string) string {
	rel, err := filepath.Rel(ws, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// short shortens a digest for a message.
func short(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12]
	}
	return d
}

// Review compares a workspace's project files with what the store holds for it.
type Review struct {
	// Dir is the workspace, canonical.
	Dir string
	// Trusted is true when the store has an entry for Dir; Legacy when that entry is a folder
	// record of the old format.
	Trusted, Legacy bool
	// Files are the digests of the project files present now, by path relative to Dir.
	Files map[string]string
	// Changes are the files that differ from the record, in ProjectFiles order, then removed ones.
	Changes []Change
}

// Change is one project file that differs from the record: Old is empty for a new file, New
// is empty for a removed one.
type Change struct {
	File     string
	Old, New string
}

// Review reads dir's project files and compares them with the store. A project file that
// exists but cannot be read (a FIFO, a device, too large) is an error: it cannot be trusted.
func (s *TrustStore) Review(dir string) (*Review, error) {
	c, err := Canonical(dir)
	if err != nil {
		return nil, err
	}
	tf, err := s.read()
	if err != nil {
		return nil, err
	}
	r := &Review{Dir: c, Files: map[string]string{}}
	var recorded map[string]string
	if e := tf.find(c); e != nil {
		r.Trusted, r.Legacy, recorded = true, e.Files == nil, e.Files
	}
	for _, path := range ProjectFiles(c) {
		data, err := regfile.Read(path, MaxFileSize)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s cannot be trusted: %w", path, err)
		}
		key := relKey(c, path)
		r.Files[key] = Digest(data)
		if old := recorded[key]; old != r.Files[key] {
			r.Changes = append(r.Changes, Change{File: key, Old: old, New: r.Files[key]})
		}
	}
	var removed []string
	for key := range recorded {
		if _, ok := r.Files[key]; !ok {
			removed = append(removed, key)
		}
	}
	slices.Sort(removed)
	for _, key := range removed {
		r.Changes = append(r.Changes, Change{File: key, Old: recorded[key]})
	}
	return r, nil
}

// Record trusts the workspace of r with the files as r read them. It reports whether the
// store changed.
func (s *TrustStore) Record(r *Review) (bool, error) {
	if r.Trusted && !r.Legacy && len(r.Changes) == 0 {
		return false, nil
	}
	return true, s.update(func(tf *trustFile) {
		tf.Trusted = slices.DeleteFunc(tf.Trusted, func(e trustEntry) bool { return e.Dir == r.Dir })
		tf.Trusted = append(tf.Trusted, trustEntry{Dir: r.Dir, At: time.Now().UTC(), Files: r.Files})
	})
}

// Trust records dir as trusted with its project files as they are now. It reports whether
// the store changed.
func (s *TrustStore) Trust(dir string) (bool, error) {
	r, err := s.Review(dir)
	if err != nil {
		return false, err
	}
	return s.Record(r)
}

// Untrust removes dir. It reports whether the store changed.
func (s *TrustStore) Untrust(dir string) (bool, error) {
	c, err := Canonical(dir)
	if err != nil {
		return false, err
	}
	tf, err := s.read()
	if err != nil {
		return false, err
	}
	if tf.find(c) == nil {
		return false, nil
	}
	return true, s.update(func(tf *trustFile) {
		tf.Trusted = slices.DeleteFunc(tf.Trusted, func(e trustEntry) bool { return e.Dir == c })
	})
}

// update reads the store again, changes it and writes it, atomically, mode 0600.
func (s *TrustStore) update(change func(*trustFile)) error {
	tf, err := s.read()
	if err != nil {
		return err
	}
	change(tf)
	tf.Version = trustVersion
	data, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(s.Path, append(data, '\n'), 0o600)
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
