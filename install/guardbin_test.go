package install_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/install"
)

// written is what a plan would leave in its file or, for a folder of wrappers, its files.
func written(c *install.Change) string {
	if len(c.Parts) == 0 {
		return string(c.New)
	}
	var b strings.Builder
	for _, p := range c.Parts {
		b.Write(p.New)
	}
	return b.String()
}

// TestGuardBinaryEveryAgent: with agenthooks-guard beside agenthooks, install writes it for every
// agent's shell guard entries and agenthooks for the runner's; a second install changes
// nothing; when agenthooks-guard goes away, install brings the entries back to agenthooks guard
// bash, and uninstall takes out either form. Cline's wrappers, a shell script in between, keep
// running agenthooks.
func TestGuardBinaryEveryAgent(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "bin dir")
	prog, guardBin := filepath.Join(bin, "agenthooks"), filepath.Join(bin, dialect.GuardProgram)
	for _, f := range []string{prog, guardBin} {
		write(t, f, "#!/bin/sh\n")
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := install.GuardBeside(prog); got != guardBin {
		t.Fatalf("GuardBeside(%s) = %q", prog, got)
	}
	for _, a := range agents.All() {
		if a.Install.File == "" && a.Install.Own == nil && a.Install.Wrappers == nil && a.Install.Edit == nil && a.Install.FileOf == "" {
			continue
		}
		t.Run(string(a.Name), func(t *testing.T) {
			home := t.TempDir()
			o := install.Options{Home: home, Program: "'" + prog + "'"}
			c, err := install.Plan(a, o, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Apply(); err != nil {
				t.Fatal(err)
			}
			text := written(c)
			if a.Install.Wrappers != nil {
				if strings.Contains(text, dialect.GuardProgram) || !strings.Contains(text, "'guard' 'bash'") {
					t.Errorf("Cline's wrappers should run agenthooks guard bash:\n%s", text)
				}
				return
			}
			if !strings.Contains(text, dialect.GuardProgram) {
				t.Fatalf("no entry runs %s:\n%s", dialect.GuardProgram, text)
			}
			if strings.Contains(text, "agenthooks' guard bash") || strings.Contains(text, `agenthooks\" guard bash`) || strings.Contains(text, `"guard","bash"`) {
				t.Errorf("a guard entry still runs agenthooks guard bash:\n%s", text)
			}
			if len(a.Install.Events) > 0 && !strings.Contains(text, "run") {
				t.Errorf("no runner entry:\n%s", text)
			}
			if again, err := install.Plan(a, o, false); err != nil || again.Changed() {
				t.Errorf("a second install: %v %v", again.Changes, err)
			}

			// agenthooks-guard removed: the entries go back to agenthooks guard bash
			noGuard := filepath.Join(t.TempDir(), "agenthooks")
			write(t, noGuard, "#!/bin/sh\n")
			if err := os.Chmod(noGuard, 0o755); err != nil {
				t.Fatal(err)
			}
			back := install.Options{Home: home, Program: noGuard}
			c2, err := install.Plan(a, back, false)
			if err != nil || !c2.Changed() {
				t.Fatalf("install without agenthooks-guard beside: %v %v", c2.Changes, err)
			}
			if err := c2.Apply(); err != nil {
				t.Fatal(err)
			}
			if text := written(c2); strings.Contains(text, dialect.GuardProgram) {
				t.Errorf("agenthooks-guard is still named:\n%s", text)
			}
			if again, err := install.Plan(a, back, false); err != nil || again.Changed() {
				t.Errorf("a second install without agenthooks-guard: %v %v", again.Changes, err)
			}

			// and uninstall takes out what the install with agenthooks-guard wrote
			if err := must(install.Plan(a, o, false)).Apply(); err != nil {
				t.Fatal(err)
			}
			rm, err := install.Plan(a, o, true)
			if err != nil {
				t.Fatal(err)
			}
			if err := rm.Apply(); err != nil {
				t.Fatal(err)
			}
			if data, err := os.ReadFile(rm.File); err == nil && strings.Contains(string(data), "agenthooks") {
				t.Errorf("uninstall left agenthooks in %s:\n%s", rm.File, data)
			}
		})
	}
}

func must(c *install.Change, err error) *install.Change {
	if err != nil {
		panic(err)
	}
	return c
}

// TestGuardBesideNeedsAnExecutable: agenthooks-guard is written only where it is an executable
// file beside an agenthooks named by its absolute path.
func TestGuardBesideNeedsAnExecutable(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	prog := filepath.Join(bin, "agenthooks")
	if got := install.GuardBeside(prog); got != "" {
		t.Errorf("no agenthooks-guard: %q", got)
	}
	g := filepath.Join(bin, dialect.GuardProgram)
	write(t, g, "not executable")
	if got := install.GuardBeside(prog); got != "" {
		t.Errorf("a file that is not executable: %q", got)
	}
	if err := os.Chmod(g, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := install.GuardBeside(prog); got != g {
		t.Errorf("an executable: %q", got)
	}
	if got := install.GuardBeside("agenthooks"); got != "" {
		t.Errorf("a bare name: %q", got)
	}
	if err := os.Remove(g); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(g, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := install.GuardBeside(prog); got != "" {
		t.Errorf("a folder: %q", got)
	}
}

// TestCallWindowsPaths: the entries install writes on Windows ('C:\…\agenthooks.exe …') are
// its own: a second install finds them, uninstall takes them out, doctor sees them.
func TestCallWindowsPaths(t *testing.T) {
	for _, c := range []struct{ command, prog, args string }{
		{`'C:\Users\me\bin\agenthooks.exe' guard bash --fail-closed`, `C:\Users\me\bin\agenthooks.exe`, "guard bash --fail-closed"},
		{`'C:\Program Files\agenthooks\agenthooks-guard.exe' bash --fail-closed --agent claude`, `C:\Program Files\agenthooks\agenthooks-guard.exe`, "guard bash --fail-closed --agent claude"},
		{`C:/tools/Agenthooks.EXE run --agent claude Stop`, `C:/tools/Agenthooks.EXE`, "run --agent claude Stop"},
	} {
		prog, args, ok := install.Call(c.command)
		if !ok || prog != c.prog || strings.Join(args, " ") != c.args {
			t.Errorf("Call(%s) = %q %q %v, want %q %q", c.command, prog, args, ok, c.prog, c.args)
		}
	}
	if _, _, ok := install.Call(`'C:\x\agenthooks-admin.exe' log`); ok {
		t.Error("agenthooks-admin is taken for a hook of agenthooks'")
	}
}
