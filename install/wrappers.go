package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/agenthooks/agenthooks/dialect"
)

// planWrappers plans the hooks folder of an agent that runs one executable per event
// (Install.Wrappers, Cline's): install writes each wrapper, executable, and leaves a wrapper
// already as it would write it; uninstall deletes the folder's files that are install's own
// (Install.Ours), whatever their name. A file of the same name that is not install's is the
// user's own hook for that event: install refuses, and writes nothing, rather than overwrite
// it. Nothing else in the folder is touched. c.File is the folder; each file is one of c.Parts.
func planWrappers(c *Change, o Options, remove bool) error {
	a := c.Agent
	dir := c.File
	_, err := os.Stat(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	if remove {
		if err != nil {
			c.Missing = true
			return nil
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("read %s: %w", dir, err)
		}
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue
			}
			file := filepath.Join(dir, e.Name())
			data, err := os.ReadFile(file)
			if err != nil || !a.Install.Ours(data) {
				continue
			}
			c.Parts = append(c.Parts, &Change{Agent: a, File: file, Exists: true, Old: data, Delete: true,
				Changes: []string{"removed (agenthooks' wrapper)"}})
			c.Changes = append(c.Changes, "removed "+e.Name())
		}
		return nil
	}
	prog := o.program()
	var list []dialect.InstallEntry
	for _, en := range entries(a) {
		list = append(list, prog.dialectEntry(en))
	}
	var theirs []string
	for _, w := range a.Install.Wrappers(prog.cmd, prog.path, runtime.GOOS, list) {
		file := filepath.Join(dir, w.Name)
		part := &Change{Agent: a, File: file, New: w.Data, Mode: 0o755}
		data, err := os.ReadFile(file)
		switch {
		case err == nil && !a.Install.Ours(data):
			theirs = append(theirs, file)
			continue
		case err == nil:
			part.Exists, part.Old = true, data
			if st, err := os.Stat(file); err == nil && bytes.Equal(data, w.Data) && st.Mode().Perm()&0o111 != 0 {
				continue
			}
			part.Changes = []string{"rewritten"}
			c.Changes = append(c.Changes, "rewrote "+w.Name)
		case errors.Is(err, fs.ErrNotExist):
			part.Changes = []string{"written"}
			if w.FailClosed {
				c.Changes = append(c.Changes, "wrote "+w.Name+" (runs agenthooks; blocks when it is missing)")
			} else {
				c.Changes = append(c.Changes, "wrote "+w.Name+" (runs agenthooks)")
			}
		default:
			return fmt.Errorf("read %s: %w", file, err)
		}
		c.Parts = append(c.Parts, part)
	}
	if len(theirs) > 0 {
		sort.Strings(theirs)
		c.Parts, c.Changes = nil, nil
		return fmt.Errorf("%s: %q is a hook of your own, not agenthooks' wrapper: install leaves it and writes nothing; "+
			"move it to another of %s's hooks folders (%s runs every folder's hook of an event) or call agenthooks from it yourself",
			dir, theirs, a.Title, a.ShortTitle())
	}
	return nil
}
