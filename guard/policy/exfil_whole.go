package policy

import (
	"path"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// RuleDownloadRuns denies code fetched from the network run with every permission, or an
// archive fetched from the network unpacked over the home folder, ~/.config, ~/.ssh, the root or
// a .git folder: dotfiles, autostart entries, keys and hooks replaced by whatever the server
// sends. A tool unpacked into ~/.local, /usr/local or /opt is an install, and allowed.
const RuleDownloadRuns = "download-runs"

// repositorySent finds a push of every branch (--all, --mirror, a wildcard refspec) to a
// remote the same command line adds or gives as a URL: the repository taken to a place nobody
// configured before. One branch pushed to a new remote (git remote add origin URL && git push
// -u origin main, as hosts tell you to do) is ordinary.
func (pr *protector) repositorySent(s *shell.Script) (Match, bool) {
	var added []string
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		if inv.Name != "git" || len(inv.Args) < 2 {
			continue
		}
		pos := positional(inv.Args[1:])
		switch gitVerb(inv.Args[1:]) {
		case "remote":
			// git remote add [-f] [-t B] NAME URL, git remote set-url NAME URL
			var rest []string
			for _, w := range pos {
				rest = append(rest, w.Value)
			}
			if len(rest) >= 3 && (rest[1] == "add" || rest[1] == "set-url") && rest[0] == "remote" {
				added = append(added, rest[len(rest)-2])
			}
		case "push":
			everything := false
			for _, w := range inv.Args[2:] {
				v := strings.Trim(w.Value, "+")
				if v == "--all" || v == "--mirror" || v == "--branches" || strings.Contains(v, "*") {
					everything = true
				}
			}
			if !everything {
				continue
			}
			for _, w := range pos {
				v := w.Value
				fresh := strings.Contains(v, "://") || strings.Contains(v, "@") && strings.Contains(v, ":")
				for _, a := range added {
					fresh = fresh || v == a
				}
				if fresh && v != "push" {
					return Match{Rule: RuleExfiltration, Decision: Deny, Pos: inv.Pos, Subject: strings.Join(argv(inv, pr.ctx.Home), " "),
						Message: "pushes every branch of the repository to " + v + ", a remote the same command line names"}, true
				}
			}
		}
	}
	return Match{}, false
}

// downloadUnpacked finds code from the network run with every permission (deno run -A URL) and
// an archive from the network unpacked over home, ~/.config, ~/.ssh, the root or .git.
func (pr *protector) downloadUnpacked(s *shell.Script) (Match, bool) {
	var downloads []string // files the line downloads to; "-" for stdout
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		if inv.Name == "deno" {
			if url, ok := denoRemoteAll(inv.Args[1:]); ok {
				return Match{Rule: RuleDownloadRuns, Decision: Deny, Pos: inv.Pos, Subject: strings.Join(argv(inv, pr.ctx.Home), " "),
					Message: "runs code from " + url + " with every permission"}, true
			}
		}
		if inv.Name == "curl" || inv.Name == "wget" {
			downloads = append(downloads, downloadTarget(inv))
		}
	}
	if len(downloads) == 0 {
		return Match{}, false
	}
	c := classifier{ctx: pr.ctx}
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		archive, dir, ok := tarExtract(inv)
		if !ok {
			continue
		}
		fetched := false
		for _, d := range downloads {
			fetched = fetched || d == archive || d != "-" && archive != "-" && path.Base(d) == path.Base(archive)
		}
		if !fetched {
			continue
		}
		if dir == "" {
			dir = inv.Cwd
		}
		abs, ok := absolute(dir, inv.Cwd)
		if !ok {
			continue
		}
		abs = path.Clean(abs)
		class := c.place(abs)
		switch {
		case class == TargetRoot, class == TargetHome, class == TargetGit,
			pr.ctx.Home != "" && (abs == path.Join(pr.ctx.Home, ".config") || abs == path.Join(pr.ctx.Home, ".ssh")):
			return Match{Rule: RuleDownloadRuns, Decision: Deny, Pos: inv.Pos, Subject: strings.Join(argv(inv, pr.ctx.Home), " "),
				Message: "unpacks a download over " + tildeHome(abs, pr.ctx.Home) + " (" + class + ")"}, true
		}
	}
	return Match{}, false
}

// downloadTarget is where curl or wget writes what it fetches: a file, or "-" for stdout.
func downloadTarget(inv *shell.Invocation) string {
	args := inv.Args[1:]
	for i, w := range args {
		v := w.Value
		next := ""
		if i+1 < len(args) {
			next = args[i+1].Value
		}
		switch {
		case v == "-o" || v == "--output" || inv.Name == "wget" && (v == "-O" || v == "--output-document"):
			return next
		case strings.HasPrefix(v, "--output=") || strings.HasPrefix(v, "--output-document="):
			_, f, _ := strings.Cut(v, "=")
			return f
		case inv.Name == "wget" && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.HasSuffix(v, "O") && len(v) > 2:
			return next // -qO FILE
		case inv.Name == "wget" && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "O-"):
			return "-" // -qO-
		case inv.Name == "curl" && (v == "-O" || v == "--remote-name"):
			return "" // named after the URL
		}
	}
	if inv.Name == "wget" {
		return "" // a file named after the URL
	}
	return "-"
}

// tarExtract reports a tar that extracts: the archive it reads ("-" for stdin) and the folder
// it extracts into ("" for the working directory).
func tarExtract(inv *shell.Invocation) (archive, dir string, ok bool) {
	if inv.Name != "tar" && inv.Name != "bsdtar" && inv.Name != "gtar" || len(inv.Args) < 2 {
		return "", "", false
	}
	archive = "-"
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		next := ""
		if i+1 < len(args) {
			next = args[i+1].Value
		}
		switch {
		case v == "--extract" || v == "--get":
			ok = true
		case v == "-C" || v == "--directory":
			dir = next
			i++
		case strings.HasPrefix(v, "--directory="):
			dir = strings.TrimPrefix(v, "--directory=")
		case v == "-f" || v == "--file":
			archive = next
			i++
		case strings.HasPrefix(v, "--file="):
			archive = strings.TrimPrefix(v, "--file=")
		case strings.HasPrefix(v, "-C") && !strings.HasPrefix(v, "--"):
			dir = v[2:]
		case strings.HasPrefix(v, "--"):
		case i == 0 && !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "-"):
			// bundled letters: xzf FILE, -xzf FILE, -xz
			letters := strings.TrimPrefix(v, "-")
			if strings.Trim(letters, "xtcruzjJavpfOkmPhSwWBZ") != "" {
				continue
			}
			if strings.Contains(letters, "x") {
				ok = true
			}
			if strings.HasSuffix(letters, "f") {
				archive = next
				i++
			} else if strings.Contains(letters, "f") {
				archive = next
			}
		}
	}
	return archive, dir, ok
}

// denoRemoteAll reports deno run of a remote module with every permission (-A, --allow-all) or
// the ones that reach outside its sandbox (run, write, ffi), and the URL.
func denoRemoteAll(args []shell.Word) (string, bool) {
	all := false
	for _, w := range args {
		v := w.Value
		switch {
		case v == "-A" || v == "--allow-all" || strings.HasPrefix(v, "--allow-run") || strings.HasPrefix(v, "--allow-write") ||
			strings.HasPrefix(v, "--allow-ffi"):
			all = true
		case v == "run" || strings.HasPrefix(v, "-"):
		case strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://"):
			return v, all
		default:
			return "", false // a local file, or another subcommand
		}
	}
	return "", false
}
