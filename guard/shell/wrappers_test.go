package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestWrapperOptionTables: the option tables of the wrappers skip each wrapper's options and the
// values they take, so the command inside is what is judged.
func TestWrapperOptionTables(t *testing.T) {
	for _, c := range []struct{ cmd, want, wrapper string }{
		{"sudo -u root -g wheel rm -rf /srv", "rm -rf /srv", "sudo"},
		{"nice -n 5 rm -rf /srv", "rm -rf /srv", "nice"},
		{"ionice -c 3 -n 7 rm -rf /srv", "rm -rf /srv", "ionice"},
		{"stdbuf -o L rm -rf /srv", "rm -rf /srv", "stdbuf"},
		{"timeout -s KILL 5 rm -rf /srv", "rm -rf /srv", "timeout"},
		{"exec -a name rm -rf /srv", "rm -rf /srv", "exec"},
		{"/usr/bin/time -f %e rm -rf /srv", "rm -rf /srv", "time"}, // not the time keyword of bash
		{"nohup rm -rf /srv", "rm -rf /srv", "nohup"},              // a wrapper with no option table
		{"flock -w 5 /tmp/lock rm -rf /srv", "rm -rf /srv", "flock"},
		{"chroot --userspec u:g /jail rm -rf /srv", "rm -rf /srv", "chroot"},
		{"xargs -n 1 -P 4 rm -rf < list", "rm -rf", "xargs"},
		{"find /srv -name '*.log' -exec rm -f {} +", "rm -f", "find -exec"},
	} {
		s := Analyze(c.cmd, Options{})
		i := slices.IndexFunc(s.Invocations, func(inv Invocation) bool { return inv.Name == "rm" })
		if i < 0 {
			t.Errorf("%s: no rm among %+v", c.cmd, s.Invocations)
			continue
		}
		inv := s.Invocations[i]
		var args []string
		for _, w := range inv.Args {
			args = append(args, w.Value)
		}
		if got := strings.Join(args, " "); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: rm's arguments are %q, want %q", c.cmd, got, c.want)
		}
		if !slices.Contains(inv.Wrappers, c.wrapper) {
			t.Errorf("%s: wrappers %q, want %q among them", c.cmd, inv.Wrappers, c.wrapper)
		}
	}
}
