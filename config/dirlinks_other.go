//go:build !linux

package config

import (
	"io/fs"
	"os"
)

// dirLinks opens the folder dir and returns the names of its entries that are symlinks and of
// its folders that want holds (real is "": the caller resolves dir); opened and ok as on Linux.
func dirLinks(dir string, want func([]byte) bool) (real string, links, dirs []string, opened, ok bool) {
	f, err := os.Open(dir)
	if err != nil {
		return "", nil, nil, false, false
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 {
			links = append(links, e.Name())
		} else if e.IsDir() && want != nil && want([]byte(e.Name())) {
			dirs = append(dirs, e.Name())
		}
	}
	return "", links, dirs, true, err == nil
}
