package bundle

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// Install puts b's files in dir, replacing what was there: the files are written to a new
// folder beside dir (through os.Root, so no name can reach outside it), then the old folder is
// swapped out and removed. Files the new version dropped are therefore gone, and a failure
// before the swap leaves dir as it was. dir's parent is created when missing.
func Install(dir string, b *Bundle) error {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("install bundle: %w", err)
	}
	recoverSwap(dir)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	stage := dir + ".new-" + hex.EncodeToString(rnd[:])
	if err := os.Mkdir(stage, 0o755); err != nil {
		return fmt.Errorf("install bundle: %w", err)
	}
	if err := writeAll(stage, b); err != nil {
		os.RemoveAll(stage)
		return fmt.Errorf("install bundle into %s: %w", dir, err)
	}
	old := dir + ".old"
	os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		os.RemoveAll(stage)
		return fmt.Errorf("install bundle: %w", err)
	}
	if err := os.Rename(stage, dir); err != nil {
		os.Rename(old, dir)
		os.RemoveAll(stage)
		return fmt.Errorf("install bundle: %w", err)
	}
	os.RemoveAll(old)
	return nil
}

// recoverSwap puts back the previous folder when a crash came between the two renames.
func recoverSwap(dir string) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if st, err := os.Lstat(dir + ".old"); err == nil && st.IsDir() {
			os.Rename(dir+".old", dir)
		}
	}
}

func writeAll(stage string, b *Bundle) error {
	root, err := os.OpenRoot(stage)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, e := range b.Manifest.Files {
		if err := CheckPath(e.Path); err != nil {
			return err
		}
		if d := path.Dir(e.Path); d != "." {
			if err := root.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
				return err
			}
		}
		mode := fs.FileMode(0o644)
		if e.Executable {
			mode = 0o755
		}
		f, err := root.OpenFile(filepath.FromSlash(e.Path), os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		_, werr := f.Write(b.Files[e.Path])
		serr := f.Sync()
		cerr := f.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			return err
		}
	}
	return nil
}
