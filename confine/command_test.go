package confine

import "testing"

func TestParseShellCommand(t *testing.T) {
	cases := []struct{ self, project, command string }{
		{"/usr/local/bin/agenthooks", "/home/dev/project", "rm -rf build"},
		{"/opt/it's here/agenthooks", "/home/dev/o'neil", `echo 'a' "$HOME" && printf '%s\n' "it's"`},
		{"/a", "/b", ""},
		{"/a", "/b", "'"},
		{"/a", "/b", "cat <<'EOF'\nx\nEOF"},
	}
	for _, c := range cases {
		line := ShellCommand(c.self, c.project, c.command)
		self, project, command, ok := ParseShellCommand(line)
		if !ok || self != c.self || project != c.project || command != c.command {
			t.Errorf("ParseShellCommand(%q) = %q, %q, %q, %v; want %q, %q, %q", line, self, project, command, ok, c.self, c.project, c.command)
		}
	}
	for _, line := range []string{
		"rm -rf ~",
		"'/a' confine --project '/b' -- bash -c 'x'; rm -rf ~",
		"'/a' confine --project '/b' -- bash -c 'x' 'y'",
		"'/a' confine --project '/b' -- sh -c 'x'",
		"/a confine --project '/b' -- bash -c 'x'",
		"'/a' confine --project '/b' -- bash -c 'x",
		"'/a' confine --project '/b' -- bash -c 'x'\\'",
	} {
		if _, _, _, ok := ParseShellCommand(line); ok {
			t.Errorf("ParseShellCommand(%q) took it for a confined command", line)
		}
	}
}

func FuzzParseShellCommand(f *testing.F) {
	f.Add("/usr/bin/agenthooks", "/home/dev/project", "rm -rf ~")
	f.Add("/a'b", "/c'", "'''")
	f.Fuzz(func(t *testing.T, self, project, command string) {
		s, p, c, ok := ParseShellCommand(ShellCommand(self, project, command))
		if !ok || s != self || p != project || c != command {
			t.Fatalf("round trip of %q, %q, %q gave %q, %q, %q, %v", self, project, command, s, p, c, ok)
		}
		// Whatever it accepts, written again, is the same line.
		line := self + project + command
		if s, p, c, ok := ParseShellCommand(line); ok && ShellCommand(s, p, c) != line {
			t.Fatalf("ParseShellCommand(%q) accepted a line ShellCommand would not write", line)
		}
	})
}
