package shell

import (
	"path"
	"strings"
)

// What xargs is handed when it is not text the guard can compute: the file -a names (read
// when the command line wrote it, as xargs -a <(echo ~) does), and the listing of a folder
// piped into it. A delete fed every name a listing of a folder prints (ls -A | xargs rm -rf,
// rg --files ~ | xargs rm -f, find ~ -type f | xargs rm) deletes what the folder holds: it is
// recorded as a recursive delete of the folder, so the folder's class decides. A listing that
// picks names (a pattern, grep in between) is left as a delete of what is not known.
// Names are taken as the folder's whatever the listing prints them relative to.

// xargsFile returns the text of the file xargs -a/--arg-file reads, when known.
func (a *analyzer) xargsFile(rest []Word) (string, bool, bool) {
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		if !strings.HasPrefix(v, "-") || !rest[i].Static {
			break
		}
		var file Word
		switch {
		case (v == "-a" || v == "--arg-file") && i+1 < len(rest):
			file = rest[i+1]
		case strings.HasPrefix(v, "--arg-file="):
			file = Word{Value: strings.TrimPrefix(v, "--arg-file="), Static: rest[i].Static}
		case strings.HasPrefix(v, "-a") && len(v) > 2:
			file = Word{Value: v[2:], Static: true}
		default:
			if xargsValueOpts.has(v) {
				i++
			}
			continue
		}
		text, ok := a.scriptText(file)
		return text, ok, true
	}
	return "", false, false
}

// sourceEvery marks the names a listing of every file below a folder feeds xargs.
const sourceEvery = "stdin (every file below)"

// deleters are the programs that delete the paths they are given.
var deleters = words{"gio", "rm", "rmdir", "shred", "srm", "trash", "trash-put", "unlink"}

// xargsListing returns what xargs runs (argv) with the names a folder's listing feeds it in
// place of stdin: a glob of everything in the folder, and, when the listing reaches every file
// below it (find, rg --files, fd, ls -R), a recursive delete.
func (a *analyzer) xargsListing(argv []Word, ctx *callCtx) []Word {
	if len(argv) == 0 || !argv[0].Static || !deleters.has(path.Base(argv[0].Value)) && path.Base(argv[0].Value) != "truncate" ||
		ctx.stdin == nil || ctx.stdin.prev != nil {
		return argv
	}
	fromStdin := false
	for _, w := range argv {
		fromStdin = fromStdin || w.Source == "stdin" && !w.Static
	}
	if !fromStdin {
		return argv
	}
	dir, recursive, ok := a.listedFolder(unwrapSimple(ctx.stdin.inv))
	if !ok {
		return argv
	}
	out := make([]Word, 0, len(argv)+1)
	out = append(out, argv[0])
	if path.Base(argv[0].Value) == "truncate" {
		// truncate -s 0 of every name: recorded as the truncate it is; truncation() adds the
		// delete, recursive when the listing reaches every file below the folder
		src := "stdin"
		if recursive {
			src = sourceEvery
		}
		for _, w := range argv[1:] {
			if w.Source == "stdin" && !w.Static {
				v := strings.ReplaceAll(w.Value, Dyn, "*")
				if v == "*" {
					v = path.Join(dir, "*")
				}
				w = Word{Value: v, Static: !strings.Contains(v, Dyn), Glob: true, Raw: w.Raw, Source: src}
			}
			out = append(out, w)
		}
		return out
	}
	if recursive && !hasAnyFlag(argv[1:], "-r", "-R", "--recursive", "-rf", "-fr", "-Rf", "-fR") {
		out = append(out, Word{Value: "-r", Static: true, Raw: "<every file below>", Source: "stdin"})
	}
	for _, w := range argv[1:] {
		if w.Source == "stdin" && !w.Static {
			v := strings.ReplaceAll(w.Value, Dyn, "*")
			if v == "*" {
				v = path.Join(dir, "*")
			}
			w = Word{Value: v, Static: !strings.Contains(v, Dyn), Glob: true, Raw: w.Raw, Source: "stdin"}
		}
		out = append(out, w)
	}
	return out
}

// listedFolder returns the folder a listing command prints every name of: ls [-A|-a|-R] [DIR],
// find DIR with no test that picks names, rg --files [DIR], fd with no pattern; recursive when
// it reaches every file below. ok is false for anything else, or a listing that picks names.
func (a *analyzer) listedFolder(argv []Word) (dir string, recursive, ok bool) {
	if len(argv) == 0 || !argv[0].Static {
		return "", false, false
	}
	var dirs []Word
	name := path.Base(argv[0].Value)
	if name == "git" {
		return a.gitListed(argv)
	}
	switch name {
	case "ls":
		recursive = hasAnyFlag(argv[1:], "-R", "--recursive", "-AR", "-RA", "-aR", "-Ra", "-laR", "-lR")
	case "find", "rg", "fd", "fdfind":
		recursive = true
	default:
		return "", false, false
	}
	files := false
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		v := w.Value
		switch {
		case name == "find" && i+1 < len(argv) && findEveryName(v, argv[i+1]):
			i++ // -name '*' picks no names
		case !w.Static || w.Glob:
			return "", false, false
		case name == "find" && pruned(argv, i):
			i += 3 // -path ./node_modules -prune -o: every name but a folder's
		case name == "find" && (findFilters.has(v) || findActions.has(v) || v == "-maxdepth" || v == "-prune" || v == "-not" || v == "!"):
			return "", false, false
		case name == "find" && strings.HasPrefix(v, "-"):
			if v == "-type" {
				i++
			}
		case name == "rg" && v == "--files":
			files = true
		case name == "rg" && (v == "-g" || v == "--glob" || v == "-t" || v == "--type" || v == "-T" || v == "--type-not" ||
			strings.HasPrefix(v, "--glob=") || strings.HasPrefix(v, "--type=") || v == "--max-depth" || v == "-d"):
			return "", false, false
		case (name == "fd" || name == "fdfind") && (v == "-e" || v == "--extension" || v == "-g" || v == "--glob" || v == "-d" || v == "--max-depth"):
			return "", false, false
		case strings.HasPrefix(v, "-"):
		case (name == "fd" || name == "fdfind") && len(dirs) == 0 && v != "." && i == firstOperand(argv):
			return "", false, false // fd PATTERN: some names
		default:
			dirs = append(dirs, w)
		}
	}
	if name == "rg" && !files {
		return "", false, false // rg PATTERN prints lines, not names
	}
	if (name == "fd" || name == "fdfind") && len(dirs) > 0 && dirs[0].Value == "." {
		dirs = dirs[1:] // fd . DIR: the pattern that matches every name
	}
	if len(dirs) > 1 {
		return "", false, false
	}
	dir = "."
	if len(dirs) == 1 {
		dir = dirs[0].Value
	}
	if !path.IsAbs(dir) {
		if a.cwd == "" {
			return "", false, false
		}
		dir = path.Join(a.cwd, dir)
	}
	return path.Clean(dir), recursive, true
}

// gitListed reads git ls-files as a listing: with no pathspec (or one folder) and no option
// that picks files (-m, -d, -i, ...), it prints every tracked file below the folder.
func (a *analyzer) gitListed(argv []Word) (dir string, recursive, ok bool) {
	i := 1
	for i < len(argv) && (argv[i].Value == "-C" || argv[i].Value == "--no-pager") {
		if argv[i].Value == "-C" {
			return "", false, false // another work tree
		}
		i++
	}
	if i >= len(argv) || argv[i].Value != "ls-files" {
		return "", false, false
	}
	dir = "."
	operands := 0
	for _, w := range argv[i+1:] {
		switch v := w.Value; {
		case !w.Static || w.Glob:
			return "", false, false
		case v == "-z" || v == "-c" || v == "--cached" || v == "--full-name" || v == "--" || v == "-o" || v == "--others" ||
			v == "--exclude-standard" || v == "-t" || v == "-co" || v == "-oc":
		case strings.HasPrefix(v, "-"):
			return "", false, false // -m, -d, --deleted, -i, -x PATTERN: some files
		default:
			operands++
			dir = v
		}
	}
	if operands > 1 {
		return "", false, false
	}
	if !path.IsAbs(dir) {
		if a.cwd == "" {
			return "", false, false
		}
		dir = path.Join(a.cwd, dir)
	}
	return path.Clean(dir), true, true
}

// firstOperand returns the index of the first argument that is not an option.
func firstOperand(argv []Word) int {
	for i := 1; i < len(argv); i++ {
		if !strings.HasPrefix(argv[i].Value, "-") {
			return i
		}
	}
	return len(argv)
}
