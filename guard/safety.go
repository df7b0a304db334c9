package guard

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxNesting bounds how deep `bash -c` strings and eval are parsed again.
const maxNesting = 8

// maxCommandLen bounds the length of a command the safety check will parse.
const maxCommandLen = 256 << 10

// IsCommandSafe reports whether a shell command is free of the well-known destructive patterns:
// a recursive rm of the root, the home directory or their contents, rm under sudo or doas,
// writes to disk devices (dd of=, redirections, mkfs, wipefs, shred of a device) and fork
// bombs. An empty command is safe. A command that cannot be parsed, is too long or nests too
// deep is not.
func IsCommandSafe(command string) bool {
	return UnsafeReason(command) == ""
}

// UnsafeReason returns why IsCommandSafe rejects command, or "" when it is safe.
func UnsafeReason(command string) string {
	if strings.TrimSpace(command) == "" {
		return ""
	}
	if len(command) > maxCommandLen {
		return "command is too long to check"
	}
	return check(command, 0)
}

func check(src string, depth int) string {
	if depth > maxNesting {
		return "command nests shells too deeply to check"
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "command does not parse as bash: " + err.Error()
	}
	var reason string
	syntax.Walk(file, func(n syntax.Node) bool {
		if reason != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if callsItself(n) {
				reason = "fork bomb: function " + n.Name.Value + " calls itself"
			}
		case *syntax.Redirect:
			if n.Word != nil && isDiskDevice(wordText(n.Word)) && isWriteRedirect(n.Op) {
				reason = "writes to disk device " + wordText(n.Word)
			}
		case *syntax.CallExpr:
			reason = checkCall(callArgs(n), depth)
		}
		return true
	})
	return reason
}

// callArgs resolves a call's words statically: quotes removed, escapes undone, expansions kept as
// their source text.
func callArgs(c *syntax.CallExpr) []string {
	args := make([]string, len(c.Args))
	for i, w := range c.Args {
		args[i] = wordText(w)
	}
	return args
}

func wordText(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		partText(&b, part)
	}
	return b.String()
}

func partText(b *strings.Builder, part syntax.WordPart) {
	switch p := part.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value))
	case *syntax.SglQuoted:
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			partText(b, q)
		}
	case *syntax.ParamExp:
		if p.Short || p.Exp == nil && p.Index == nil && p.Slice == nil && p.Repl == nil && !p.Length && !p.Excl {
			b.WriteString("$" + p.Param.Value)
			return
		}
		b.WriteString("${" + p.Param.Value + "…}")
	default:
		b.WriteString("\x00") // a dynamic part: never equal to any literal we compare with
	}
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// wrappers run the command that follows their own options.
var wrappers = map[string]bool{"nohup": true, "command": true, "builtin": true, "exec": true,
	"time": true, "nice": true, "ionice": true, "setsid": true, "stdbuf": true, "timeout": true}

func checkCall(args []string, depth int) string {
	elevated := false
	for len(args) > 0 {
		name := path.Base(args[0])
		switch {
		case name == "sudo" || name == "doas":
			elevated = true
			args = args[1:]
			for len(args) > 0 && strings.HasPrefix(args[0], "-") {
				if sudoArgOptions[args[0]] && len(args) > 1 {
					args = args[1:]
				}
				args = args[1:]
			}
			continue
		case name == "env":
			args = args[1:]
			for len(args) > 0 && (strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=")) {
				args = args[1:]
			}
			continue
		case name == "timeout":
			args = skipOptions(args[1:])
			if len(args) > 0 {
				args = args[1:] // the duration
			}
			continue
		case wrappers[name]:
			args = skipOptions(args[1:])
			continue
		}
		return checkInvocation(name, args[1:], elevated, depth)
	}
	return ""
}

// sudoArgOptions are sudo's and doas's options that take a separate argument.
var sudoArgOptions = map[string]bool{"-u": true, "-g": true, "-p": true, "-C": true, "-h": true,
	"-r": true, "-t": true, "-U": true, "-D": true, "-R": true, "-T": true}

func skipOptions(args []string) []string {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:]
	}
	return args
}

func checkInvocation(name string, args []string, elevated bool, depth int) string {
	switch name {
	case "rm":
		if elevated {
			return "rm run with elevated privileges"
		}
		if recursive(args) {
			for _, a := range args {
				if isRootOrHome(a) {
					return "recursive delete of " + a
				}
			}
		}
	case "dd":
		for _, a := range args {
			if t, ok := strings.CutPrefix(a, "of="); ok && isDiskDevice(t) {
				return "dd writes to disk device " + t
			}
		}
	case "wipefs", "shred":
		for _, a := range args {
			if isDiskDevice(a) {
				return name + " of disk device " + a
			}
		}
	case "bash", "sh", "zsh", "dash", "ksh":
		for i, a := range args {
			if a == "-c" && i+1 < len(args) {
				return check(args[i+1], depth+1)
			}
		}
	case "eval":
		return check(strings.Join(args, " "), depth+1)
	}
	if strings.HasPrefix(name, "mkfs") {
		return name + " formats a file system"
	}
	return ""
}

func recursive(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--recursive" {
			return true
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR") {
			return true
		}
	}
	return false
}

func isRootOrHome(a string) bool {
	a = strings.TrimRight(a, "/")
	for _, home := range []string{"~", "$HOME", "${HOME…}"} {
		a = strings.Replace(a, home, "~", 1)
	}
	a = strings.TrimSuffix(strings.TrimSuffix(a, "/*"), "*")
	a = strings.TrimRight(a, "/")
	switch a {
	case "", "~", "/home", "/root", "/usr", "/etc", "/var", "/bin", "/lib", "/boot":
		return true
	}
	return false
}

func isDiskDevice(p string) bool {
	for _, prefix := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/disk", "/dev/mapper/", "/dev/dm-", "/dev/md"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

func isWriteRedirect(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
		return true
	}
	return false
}

func callsItself(fn *syntax.FuncDecl) bool {
	if fn.Name == nil || fn.Body == nil { // anonymous or zsh multi-name functions
		return false
	}
	found := false
	syntax.Walk(fn.Body, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && wordText(c.Args[0]) == fn.Name.Value {
			found = true
		}
		return !found
	})
	return found
}
