package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// installOwnFile installs into, or uninstalls from, an agent whose install file is agenthooks'
// own (Install.Own: Copilot CLI reads every file of its hooks folder): install writes the file
// whole, and a second install with the same program changes nothing; uninstall deletes it. No
// other file of the agent's is touched.
func installOwnFile(e *env, p installParams, file string) error {
	a := agents.Get(dialect.Name(p.agent))
	old, err := os.ReadFile(file)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", file, err)
	}
	if p.remove {
		if !exists {
			fmt.Fprintf(e.stdout, "%s does not exist: nothing to take out\n", file)
			return nil
		}
		if err := os.Remove(file); err != nil {
			return fmt.Errorf("remove %s: %w", file, err)
		}
		fmt.Fprintf(e.stdout, "%s: removed (the file was agenthooks' own)\n", file)
		return nil
	}
	prog, progNote := installProgram(e.agenthooks(), exec.LookPath)
	path := prog
	if unquoted, _, ok := agenthooksCall(prog + " run"); ok {
		path = unquoted
	}
	var entries []dialect.InstallEntry
	for _, en := range installEntries(a) {
		entries = append(entries, dialect.InstallEntry{Event: en.event, Matcher: en.matcher, Args: en.args, FailClosed: en.failClosed})
	}
	data := a.Install.Own(prog, path, entries)
	if exists && bytes.Equal(old, data) {
		fmt.Fprintf(e.stdout, "%s: nothing to change\n%s\n", file, progNote)
		return nil
	}
	if exists {
		if err := config.WriteFileAtomic(file+".bak", old, 0o600); err != nil {
			return fmt.Errorf("back up %s: %w", file, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := config.WriteFileAtomic(file, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	verb := "written"
	if exists {
		verb = "rewritten (the previous file is " + file + ".bak)"
	}
	fmt.Fprintf(e.stdout, "%s: %s with %d entries: the shell guard on %s, the runner on %d events, the edit guard on %s\n",
		file, verb, len(entries), a.Shell.Event, len(a.Install.Events), a.Install.EditEvent)
	fmt.Fprintln(e.stdout, progNote)
	fmt.Fprintln(e.stdout, "the shell guard is fail-closed (--fail-closed): when it cannot work, the command is blocked, not let through")
	if a.Install.Note != "" {
		fmt.Fprintln(e.stdout, a.Install.Note)
	}
	if a.Install.ProjectNote != "" && p.scope == "project" {
		fmt.Fprintln(e.stdout, a.Install.ProjectNote)
	}
	return nil
}
