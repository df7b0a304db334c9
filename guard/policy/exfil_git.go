package policy

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// A secret written to a file inside the repository leaves the machine with the next push when
// the line commits it: echo "$AWS_SECRET_ACCESS_KEY" > creds.txt; git add -A; git commit -m
// wip; git push. The line is followed in the order it runs: git add stages each written file
// its pathspecs cover (the file, a folder above it, ".", a glob) or, with -A, --all, -u or no
// pathspec limit, every written file in the repository; git commit commits what is staged and,
// with -a or pathspecs, the written files they cover; git push (not -n) then sends what was
// committed (or a secret its message expands), wherever the remote is: a repository is read by everyone who can clone it, so a
// GitHub token pushed to github.com is as exposed as one sent anywhere else. A commit with no
// push stays on the machine (git reset takes it back) and is allowed. gh's and glab's
// commands that publish a file (gist create and edit, release create and upload, snippet
// create) are judged with the other senders of a named file (sentFromFile, publishes).

// gitCarry follows written files through git's index and history on one command line.
type gitCarry struct {
	project   string                 // the project root, "" when not known
	staged    map[string]secretValue // absolute path -> the secret staged with it
	committed *secretValue           // a secret in a commit the line made
}

// step judges one invocation: a git add or commit that takes a written file in, or a push that
// sends a commit holding a secret (the secret, ok true).
func (g *gitCarry) step(s *shell.Script, inv *shell.Invocation, written map[string]secretValue) (secretValue, bool) {
	if inv.Name != "git" || len(inv.Args) < 2 {
		return secretValue{}, false
	}
	verb, base := gitSubcommand(inv)
	if verb < 0 {
		return secretValue{}, false
	}
	args := inv.Args[verb+1:]
	switch inv.Args[verb].Value {
	case "add", "stage":
		all, specs := gitAddSpecs(args)
		g.stage(written, base, all, specs)
	case "commit":
		all, specs := gitCommitSpecs(args)
		if all || len(specs) > 0 {
			g.stage(written, base, all, specs)
		}
		if keys := slices.Sorted(maps.Keys(g.staged)); len(keys) > 0 && g.committed == nil {
			v := g.staged[keys[0]] // the same message whichever order the map gives
			g.committed = &v
		}
		clear(g.staged)
		// a secret in the message (-m "token $GH_TOKEN") is in the commit as surely
		var raws []string
		for _, w := range args {
			if !w.Static {
				raws = append(append(raws, w.Raw), w.From...)
			}
		}
		if v, ok := secretIn(s, raws); ok && g.committed == nil {
			g.committed = &v
		}
	case "push":
		if g.committed == nil {
			return secretValue{}, false
		}
		for _, w := range args {
			if w.Value == "-n" || w.Value == "--dry-run" {
				return secretValue{}, false
			}
		}
		return *g.committed, true
	}
	return secretValue{}, false
}

// stage records each written file that all (the whole repository) or one of the pathspecs
// covers, relative to base.
func (g *gitCarry) stage(written map[string]secretValue, base string, all bool, specs []shell.Word) {
	for f, v := range written {
		covered := all && (within(f, base) || g.project != "" && within(f, g.project))
		for _, w := range specs {
			if covered {
				break
			}
			covered = pathspecCovers(w, base, f)
		}
		if covered {
			if g.staged == nil {
				g.staged = map[string]secretValue{}
			}
			g.staged[f] = v
		}
	}
}

// pathspecCovers reports whether a pathspec of git add or commit, given in base, names file f:
// the file, a folder above it, a glob matching it, ":/" (the whole tree) or a word not known
// until it runs.
func pathspecCovers(w shell.Word, base, f string) bool {
	v := w.Value
	if !w.Static && !w.Glob {
		return true // git add "$F": whatever it names
	}
	if v == ":/" || v == ":" {
		return true
	}
	v = strings.TrimPrefix(v, ":(top)")
	if strings.HasPrefix(v, ":") {
		return false // another magic pathspec (:!x excludes)
	}
	abs, ok := absolute(v, base)
	if !ok {
		return false
	}
	if w.Glob || strings.ContainsAny(v, "*?[") {
		m, err := path.Match(abs, f)
		return err == nil && m || within(f, path.Dir(abs)) && strings.HasSuffix(abs, "/*")
	}
	return f == abs || within(f, abs)
}

// gitSubcommand finds git's subcommand (its index in inv.Args, -1 when none) and the folder it
// works in: the working directory, or the one -C names.
func gitSubcommand(inv *shell.Invocation) (int, string) {
	base := inv.Cwd
	for i := 1; i < len(inv.Args); i++ {
		v := inv.Args[i].Value
		if globalValueOpts("git").has(v) {
			if v == "-C" && i+1 < len(inv.Args) {
				if abs, ok := absolute(inv.Args[i+1].Value, base); ok {
					base = abs
				}
			}
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			return i, base
		}
	}
	return -1, base
}

// gitAddSpecs reads git add's arguments: whether it stages the whole tree (-A, --all, -u,
// --update) and its pathspecs.
func gitAddSpecs(args []shell.Word) (all bool, specs []shell.Word) {
	end := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case end || !strings.HasPrefix(v, "-") || v == "-":
			specs = append(specs, w)
		case v == "--":
			end = true
		case v == "-A" || v == "--all" || v == "-u" || v == "--update" || v == "--no-ignore-removal":
			all = true
		case v == "-n" || v == "--dry-run":
			return false, nil // lists what it would stage
		case v == "--chmod" || v == "--pathspec-from-file":
			i++
		case !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "Au"):
			all = true // -Af, -fA
		}
	}
	if all && len(specs) > 0 {
		all = false // -A limited to its pathspecs
	}
	return all, specs
}

// gitCommitSpecs reads git commit's arguments: whether it commits every tracked change (-a,
// --all, -am) and its pathspecs (git commit -m msg FILE commits FILE as it is).
func gitCommitSpecs(args []shell.Word) (all bool, specs []shell.Word) {
	end := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case end || !strings.HasPrefix(v, "-") || v == "-":
			specs = append(specs, w)
		case v == "--":
			end = true
		case v == "--all":
			all = true
		case strings.HasPrefix(v, "--"):
			switch v {
			case "--message", "--file", "--author", "--date", "--template", "--reuse-message", "--reedit-message",
				"--fixup", "--squash", "--trailer", "--cleanup", "--pathspec-from-file":
				i++
			}
		default:
			// bundled short options: -a, -q, -v, ... until one that takes a value (-m MSG,
			// -amMSG, -F FILE, -C REV, -c REV, -t FILE); -S takes only an attached key
			for k, c := range v[1:] {
				if c == 'a' {
					all = true
				}
				if strings.ContainsRune("mFCct", c) {
					if k == len(v)-2 {
						i++ // the value is the next word
					}
					break
				}
				if c == 'S' {
					break
				}
			}
		}
	}
	return all, specs
}

// publishes reports a command that publishes what it is given where others read it: a gist or
// a snippet, a release's assets and notes, an issue's, a pull or merge request's or a review's
// text, or the fields and body of an API request (gh api -f, --input). A token of the service
// it is published on is as exposed there as anywhere.
func publishes(inv *shell.Invocation) bool {
	if inv.Name != "gh" && inv.Name != "glab" || len(inv.Args) < 2 {
		return false
	}
	if inv.Args[1].Value == "api" {
		return apiSendsData(inv)
	}
	if variableStore(inv) {
		return true // shown in the clear to whoever reads the repository's settings
	}
	if forgeCommand(inv, "secret", "set") && !secretStore(inv) {
		return true // another repository's or an organisation's store: its workflows read it
	}
	if len(inv.Args) < 3 {
		return false
	}
	switch inv.Args[1].Value + " " + inv.Args[2].Value {
	case "gist create", "gist new", "gist edit", "release create", "release new", "release upload", "release edit",
		"snippet create", "snippet new",
		"issue create", "issue comment", "issue edit", "issue note", "pr create", "pr comment", "pr edit", "pr review",
		"mr create", "mr note", "mr update":
		return true
	}
	return false
}

// apiSendsData reports gh api or glab api given fields or a body to send (-f, -F, --field,
// --raw-field, --input): a plain request only reads.
func apiSendsData(inv *shell.Invocation) bool {
	for _, w := range inv.Args[2:] {
		v := w.Value
		switch {
		case v == "--":
			return false
		case v == "--field" || v == "--raw-field" || v == "--input" || v == "--form",
			strings.HasPrefix(v, "--field=") || strings.HasPrefix(v, "--raw-field=") || strings.HasPrefix(v, "--input=") || strings.HasPrefix(v, "--form="),
			len(v) >= 2 && v[0] == '-' && (v[1] == 'f' || v[1] == 'F'):
			return true
		}
	}
	return false
}
