package droid

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/regfile"
)

// DefaultDenylist is Droid 0.215.0's commandDenylist when no settings file sets one: commands
// it always asks about, whatever its autonomy level. A PreToolUse allow (the confined rewrite)
// skips that question, so these are applied before rewriting like a person's own entries.
var DefaultDenylist = []string{
	"rm -rf /", "rm -rf /*", "rm -rf .", "rm -rf ~", "rm -rf ~/*", "rm -rf $HOME", "rm -r /", "rm -r /*", "rm -r ~", "rm -r ~/*",
	"mkfs", "mkfs.ext4", "mkfs.ext3", "mkfs.vfat", "mkfs.ntfs", "dd if=/dev/zero of=/dev", "dd of=/dev", "shutdown", "reboot",
	"halt", "poweroff", "init 0", "init 6", ":(){ :|: & };:", ":() { :|:& };:", "chmod -R 777 /", "chmod -R 000 /", "chown -R",
	"Format-Volume", "format.com", "powershell Remove-Item -Recurse -Force",
}

// Settings is what the confined rewrite reads of one of Droid's settings files (JSONC): its
// legacy command lists and whether it has rules for Droid's newer rules engine.
type Settings struct {
	// Denylist (commandDenylist) is asked about always; Blocklist (commandBlocklist) never runs.
	Denylist, Blocklist []string
	// PermissionRules: the file sets permissionRules, which agenthooks does not read.
	PermissionRules bool
}

// DecodeSettings reads a Droid settings file named name: JSON with comments, the command lists
// at its top level (Droid reads every key but hooks as its general settings). An entry that is
// not a string is an error (with its line and column), as Droid's schema rejects the file then
// and agenthooks cannot say what it keeps.
func DecodeSettings(name string, data []byte) (Settings, error) {
	if err := dialect.CheckDepth(data, dialect.MaxResponseDepth); err != nil {
		return Settings{}, fmt.Errorf("%s: %w", name, err)
	}
	var raw struct {
		Denylist  []string        `json:"commandDenylist"`
		Blocklist []string        `json:"commandBlocklist"`
		Rules     json.RawMessage `json:"permissionRules"`
	}
	data = dialect.StripJSONComments(data)
	if err := json.Unmarshal(data, &raw); err != nil {
		return Settings{}, dialect.JSONError(name, data, err)
	}
	return Settings{Denylist: raw.Denylist, Blocklist: raw.Blocklist,
		PermissionRules: len(raw.Rules) > 0 && string(raw.Rules) != "null"}, nil
}

// settingsFiles are the settings files of q's that Droid reads command lists from: each
// settings.json of its descriptor and the settings.local.json beside it (not hooks.json), and
// the org-managed settings Droid keeps in its user folder's cache (~/.factory/cache).
func settingsFiles(q dialect.RulesQuery) []string {
	var files []string
	for _, f := range q.Files {
		if filepath.Base(f) != "settings.json" {
			continue
		}
		files = append(files, f, filepath.Join(filepath.Dir(f), "settings.local.json"))
	}
	if q.UserDir != "" { // ~/.factory, or where FACTORY_HOME_OVERRIDE moves it
		files = append(files, filepath.Join(q.UserDir, "cache", "org-managed-settings.json"))
	}
	return files
}

// ownRules returns why Droid's own command lists keep q's command from being rewritten: the
// first commandBlocklist or commandDenylist entry, in any of its settings files or Droid's
// default denylist, that names the command as Droid 0.215.0 matches it; a settings file it
// cannot read as Droid does; or a file with permissionRules. It errs toward a match: the lists
// of every layer count (Droid takes one layer's), and the default denylist counts even where a
// file replaces it.
func ownRules(q dialect.RulesQuery) string {
	texts, _ := q.Subjects()
	for _, file := range settingsFiles(q) {
		data, err := regfile.Read(file, dialect.MaxRulesFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return dialect.Unreadable("Droid", "settings "+file, err)
		}
		s, err := DecodeSettings(file, data)
		if err != nil {
			return dialect.Unreadable("Droid", "settings "+file, err)
		}
		if s.PermissionRules {
			return "Droid's permissionRules in " + file + " are not read by agenthooks, and not confined rather than guessed"
		}
		for _, l := range []struct {
			key     string
			entries []string
		}{{"commandBlocklist", s.Blocklist}, {"commandDenylist", s.Denylist}} {
			if e := firstMatch(l.entries, texts); e != "" {
				return fmt.Sprintf("Droid's own %s entry %q in %s names it", l.key, e, file)
			}
		}
	}
	if e := firstMatch(DefaultDenylist, texts); e != "" {
		return fmt.Sprintf("Droid's default commandDenylist entry %q names it", e)
	}
	return ""
}

// firstMatch is the first entry that names one of texts, or "".
func firstMatch(entries, texts []string) string {
	for _, e := range entries {
		re := entryPattern(e)
		if re == nil {
			continue
		}
		for _, t := range texts {
			if re.MatchString(t) {
				return e
			}
		}
	}
	return ""
}

// Separators Droid's list patterns put around words.
const (
	before   = "(^|[\\s;&|(`]+)"
	after    = "([\\s;&|)`]+|$)"
	afterDir = "([\\s;&|)`/]+|$)"
)

// entryPattern is Droid 0.215.0's regular expression for a commandDenylist or commandBlocklist
// entry (case-insensitive): its first word where a command starts, each further word within
// 100 characters of the one before in the same command (not across ; & |), the last one
// followed by a separator, except a last "/" or "~", which is a prefix ("rm -rf /" names "rm
// -rf /tmp/x"). Droid anchors some entries at the start of the command; this never does, which
// errs toward a match. nil for an empty entry.
func entryPattern(entry string) *regexp.Regexp {
	words := strings.Fields(entry)
	if len(words) == 0 {
		return nil
	}
	end := func(w string) string {
		if strings.Contains(w, "/") {
			return afterDir
		}
		return after
	}
	var b strings.Builder
	b.WriteString("(?i)" + before + regexp.QuoteMeta(words[0]))
	if isWordByte(words[0][len(words[0])-1]) {
		b.WriteString(`\b`)
	}
	if len(words) == 1 {
		b.WriteString(end(words[0]))
		return compileEntry(b.String())
	}
	for i := 1; i < len(words)-1; i++ {
		gap := "[^;&|]{0,100}"
		if next := words[i+1]; strings.HasPrefix(next, "/") {
			gap = "[^;&|.]{0,100}"
		}
		b.WriteString(gap + regexp.QuoteMeta(words[i]))
	}
	last := words[len(words)-1]
	q := regexp.QuoteMeta(last)
	switch {
	case last == "/":
		b.WriteString("[^;&|.]{0,100}" + q)
	case last == "~":
		b.WriteString("[^;&|]{0,100}" + q)
	case last == ".":
		b.WriteString("[^;&|]{0,100}" + q + after)
	case strings.HasPrefix(last, "/"):
		b.WriteString("[^;&|.]{0,100}" + q + end(last))
	default:
		b.WriteString("[^;&|]{0,100}" + q + end(last))
	}
	return compileEntry(b.String())
}

// compileEntry compiles an entry's expression; one too long for Go's limits matches everything,
// a match rather than a guess.
func compileEntry(expr string) *regexp.Regexp {
	re, err := regexp.Compile(expr)
	if err != nil {
		re, _ = regexp.Compile("")
	}
	return re
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
