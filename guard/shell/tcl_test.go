package shell

import (
	"strings"
	"testing"
)

// TestTcl: a Tcl program is judged by the commands it runs: exec as a command line, file
// delete as rm (recursive with -force), bodies and [command]s in turn, set followed.
func TestTcl(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, command string
		want          string // an invocation's argv, joined, that must be found; "" for none but the interpreter
	}{
		{"exec", `tclsh <<< 'exec rm -rf /home/dev'`, "rm -rf /home/dev"},
		{"file delete force", `echo 'file delete -force ~/x' | tclsh`, "rm -rf /home/dev/x"},
		{"file delete", `tclsh <<< 'file delete a.txt b.txt'`, "rm a.txt b.txt"},
		{"set followed", `tclsh <<< 'set d $env(HOME); file delete -force $d'`, "rm -rf /home/dev"},
		{"body", `tclsh <<< 'if {$x} { exec git status }'`, "git status"},
		{"command substitution", `tclsh <<< 'puts [exec ls -la]'`, "ls -la"},
		{"open pipe", `tclsh <<< 'set f [open "|make test" r]'`, "make test"},
		{"expect -c", `expect -c 'exec rm -rf /tmp/x'`, "rm -rf /tmp/x"},
		{"comment", "tclsh <<< $'# exec rm -rf /\\nputs hi'", ""},
		{"string", `tclsh <<< 'puts "exec rm -rf /"'`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := Analyze(c.command, Options{Home: "/home/dev", Cwd: "/home/dev/project"})
			var got []string
			for _, inv := range s.Invocations {
				var words []string
				for _, w := range inv.Args {
					words = append(words, w.Value)
				}
				got = append(got, strings.Join(words, " "))
			}
			switch {
			case c.want == "":
				for _, g := range got {
					if !isTcl(strings.Fields(g)[0]) && !strings.HasPrefix(g, "echo") {
						t.Errorf("%s: found %q; want only the interpreter", c.command, g)
					}
				}
			case !containsString(got, c.want):
				t.Errorf("%s: invocations %q, want %q among them", c.command, got, c.want)
			}
		})
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzTcl: any Tcl text fed to tclsh is read without a panic and within its bounds.
func FuzzTcl(f *testing.F) {
	for _, s := range []string{"exec rm -rf /", "file delete -force ~", "set a [exec ls]; puts $a", "{*}$x", "\"[[[[", "{{{{",
		"if {1} {if {1} {if {1} {exec ls}}}", "$env(HOME", "${x", "# c\\\nexec ls", "open \"|ls\"", "eval {exec ls}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		s := Analyze("tclsh <<< "+Quote(text), Options{Home: "/home/dev", Cwd: "/home/dev/project"})
		if len(s.Invocations) > DefaultMaxInvocations+1 {
			t.Fatalf("%d invocations", len(s.Invocations))
		}
	})
}
