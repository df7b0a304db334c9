package cli

import (
	"strings"
	"testing"
)

// TestUnconfinedNote: where nothing can be confined (macOS, Windows, a Linux kernel without
// Landlock), confine --check says plainly that commands run unconfined and that the guard
// keeps judging them.
func TestUnconfinedNote(t *testing.T) {
	for _, c := range []struct {
		goos      string
		supported bool
		want      string
	}{
		{"darwin", false, "on darwin it does not confine at all (macOS's sandbox profiles are not used)"},
		{"windows", false, "on windows it does not confine at all"},
		{"linux", true, "this Linux kernel has no Landlock"},
	} {
		note := unconfinedNote(c.goos, c.supported)
		for _, want := range []string{c.want, "commands run unconfined", "the shell guard keeps judging them"} {
			if !strings.Contains(note, want) {
				t.Errorf("%s: %q lacks %q", c.goos, note, want)
			}
		}
	}
}
