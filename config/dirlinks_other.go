//go:build !linux

package config

import (
	"io/fs"
	"os"
)

// dirLinks opens the folder dir and returns the names of its entries that are symlinks (real
// is "": the caller resolves dir); opened and ok as on Linux.
func dirLinks(dir string) (real string, links []string, opened, ok bool) {
	f, err := os.Open(dir)
	if err != nil {
		return "", nil, false, false
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 {
			links = append(links, e.Name())
		}
	}
	return "", links, true, err == nil
}
