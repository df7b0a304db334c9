package policy

import (
	"path/filepath"
	"runtime"
	"strings"
)

// On Windows, agents run shell commands with bash (Git for Windows' bash, MSYS2), where the
// folder C:\Users\x is /c/Users/x and ~ is that. The guard reads commands as that bash does, so
// it compares paths in that form: BashPaths rewrites a context's paths into it, so that
// "rm ~/.claude/settings.json" and a protected C:\Users\x\.claude\settings.json meet. Elsewhere
// every path is already in the form the shell uses, and nothing changes.

// BashPaths returns ctx with its home, working folder, project and protected paths in bash's
// form on Windows, LookPath's answers mapped into it and ReadFile's arguments mapped back. On
// other systems it returns ctx unchanged. Applying it twice changes nothing more.
func BashPaths(ctx Context) Context {
	if runtime.GOOS != "windows" {
		return ctx
	}
	ctx.Home, ctx.Cwd, ctx.Project = toBash(ctx.Home), toBash(ctx.Cwd), toBash(ctx.Project)
	if len(ctx.Protected) > 0 {
		prot := make([]Protected, len(ctx.Protected))
		for i, p := range ctx.Protected {
			p.Path = toBash(p.Path)
			prot[i] = p
		}
		ctx.Protected = prot
	}
	if lp := ctx.LookPath; lp != nil {
		ctx.LookPath = func(name string) string { return toBash(lp(name)) }
	}
	if rf := ctx.ReadFile; rf != nil {
		ctx.ReadFile = func(p string) (string, bool) { return rf(fromBash(p)) }
	}
	return ctx
}

// toBash writes a Windows path (C:\Users\x, C:/Users/x) as bash on Windows does (/c/Users/x);
// other paths only get forward slashes.
func toBash(p string) string {
	if runtime.GOOS != "windows" || p == "" {
		return p
	}
	p = filepath.ToSlash(p)
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) && (len(p) == 2 || p[2] == '/') {
		return "/" + strings.ToLower(p[:1]) + p[2:]
	}
	return p
}

// fromBash is the path Windows opens for a path in bash's form: /c/Users/x is C:/Users/x.
func fromBash(p string) string {
	if runtime.GOOS != "windows" {
		return p
	}
	if len(p) >= 2 && p[0] == '/' && isLetter(p[1]) && (len(p) == 2 || p[2] == '/') {
		return strings.ToUpper(p[1:2]) + ":" + p[2:]
	}
	return p
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
