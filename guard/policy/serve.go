package policy

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// RuleServesHome denies a file server whose folder is the home folder, a data folder in it, the
// root or a system folder: everything below it (keys, tokens, the shell history, other projects)
// is then one request away for whoever reaches the port, and a server bound to loopback is
// reached by every local process and by web pages through DNS rebinding.
const RuleServesHome = "serves-home"

// servedFolder returns the folder an invocation serves over HTTP, as a word to classify, when it
// is a file server: Python's http.server (-d, else the working directory), PHP's built-in server
// (-t, else the working directory), ruby -run -e httpd, busybox httpd -h, and the npm and
// standalone static servers (their folder argument, else the working directory). ok is false for
// any other program, and for a server whose folder is the working directory when that is not
// known.
func servedFolder(inv *shell.Invocation) (shell.Word, bool) {
	args := inv.Args
	if len(args) == 0 {
		return shell.Word{}, false
	}
	cwd := shell.Word{Value: inv.Cwd, Static: inv.Cwd != ""}
	valueOf := func(flags ...string) (shell.Word, bool) {
		for i := 1; i < len(args); i++ {
			for _, f := range flags {
				if args[i].Value == f && i+1 < len(args) {
					return args[i+1], true
				}
				if v, ok := strings.CutPrefix(args[i].Value, f+"="); ok && strings.HasPrefix(f, "--") {
					return shell.Word{Value: v, Static: args[i].Static, Glob: args[i].Glob}, true
				}
			}
		}
		return shell.Word{}, false
	}
	// positional is the first argument after from that is neither a flag nor a port number.
	positional := func(from int) (shell.Word, bool) {
		for i := from; i < len(args); i++ {
			v := args[i].Value
			if strings.HasPrefix(v, "-") || isPort(v) {
				continue
			}
			return args[i], true
		}
		return shell.Word{}, false
	}
	name := inv.Name
	switch {
	case strings.HasPrefix(name, "python") || name == "py":
		for i := 1; i+1 < len(args); i++ {
			if args[i].Value == "-m" {
				switch args[i+1].Value {
				case "http.server", "SimpleHTTPServer", "uploadserver", "RangeHTTPServer":
					if w, ok := valueOf("-d", "--directory"); ok {
						return w, true
					}
					return cwd, cwd.Static
				}
				return shell.Word{}, false
			}
		}
	case name == "php":
		for _, a := range args[1:] {
			if a.Value == "-S" || strings.HasPrefix(a.Value, "-S") {
				if w, ok := valueOf("-t"); ok {
					return w, true
				}
				return cwd, cwd.Static
			}
		}
	case name == "ruby":
		for i, a := range args {
			if a.Value == "httpd" && i > 1 {
				if w, ok := positional(i + 1); ok {
					return w, true
				}
				return cwd, cwd.Static
			}
		}
	case name == "busybox" && len(args) > 1 && args[1].Value == "httpd", name == "httpd" && len(args) > 1 && !strings.HasPrefix(args[1].Value, "-k"):
		if w, ok := valueOf("-h"); ok {
			return w, true
		}
	case name == "http-server", name == "serve", name == "live-server", name == "miniserve", name == "static-web-server",
		name == "simple-http-server", name == "dufs", name == "servez":
		if w, ok := valueOf("--root", "-d", "--dir"); ok && name != "http-server" {
			return w, true
		}
		if w, ok := positional(1); ok {
			return w, true
		}
		return cwd, cwd.Static
	case name == "caddy" && len(args) > 1 && args[1].Value == "file-server":
		if w, ok := valueOf("--root", "-r"); ok {
			return w, true
		}
		return cwd, cwd.Static
	}
	return shell.Word{}, false
}

// isPort reports whether s is a port number or an address with one (8000, 0.0.0.0:8000, :8080).
func isPort(s string) bool {
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" || len(s) > 5 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// servesHome judges an invocation that serves a folder over HTTP by the folder's class.
func servesHome(inv *shell.Invocation, c *classifier) (Match, bool) {
	w, ok := servedFolder(inv)
	if !ok {
		return Match{}, false
	}
	what := map[string]string{TargetRoot: "the root folder", TargetHome: "the home folder",
		TargetHomeData: "a folder of the user's own files", TargetSystem: "a system folder"}
	switch class := c.classify(w, inv); class {
	case TargetRoot, TargetHome, TargetHomeData, TargetSystem:
		return Match{Rule: RuleServesHome, Pack: "secrets-exfiltration", Decision: Deny, Pos: inv.Pos,
			Message: "serves " + what[class] + " over the network: every file below it is one request away"}, true
	case TargetDynamic:
		return Match{Rule: RuleServesHome, Pack: "secrets-exfiltration", Decision: Ask, Pos: inv.Pos,
			Message: "serves a folder not known until it runs over the network"}, true
	}
	return Match{}, false
}
