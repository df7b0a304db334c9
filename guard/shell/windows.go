package shell

import (
	"path"
	"strings"

	"github.com/agenthooks/agenthooks/guard/winshell"
)

// FindingWindows is what a PowerShell or cmd.exe command does that destroys: a recursive delete
// of a drive, the home folder, Windows or .git, a format, a shutdown, a system or autorun
// registry change, a broad kill.
const FindingWindows = "windows-destroys"

// windowsShells are the programs whose commands winshell reads.
var windowsShells = words{"cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe"}

// windows reads a PowerShell or cmd.exe command line handed over from bash (powershell -Command,
// pwsh -EncodedCommand, cmd /c) and judges what each of its commands does; the programs it runs
// that winshell does not know (git, npm, bash) are judged as bash would judge them.
func (a *analyzer) windows(args []Word, f *frame, ctx *callCtx) {
	argv := make([]string, len(args))
	for i, w := range args {
		argv[i] = w.Value
	}
	idx := a.record(args, path.Base(args[0].Value), f, ctx)
	n := 0
	for _, v := range argv {
		n += len(v)
	}
	if !a.afford(n) {
		return
	}
	sc, _ := winshell.Options{Home: a.opts.Home}.ParseArgs(argv)
	if sc == nil {
		return
	}
	inner := f.with(path.Base(args[0].Value))
	var homes []string
	for _, name := range windowsEnvSets(sc) {
		a.guardVariable(name, ctx.pos)
		if homeVariable(name) {
			homes = append(homes, name)
		}
	}
	inner = inner.withEnv(homes) // an agent the same command line starts reads none of the user's hooks
	for _, c := range sc.AllCommands() {
		effects := winshell.Effects(*c, a.opts.Home)
		for _, e := range effects {
			if msg := windowsHarm(e); msg != "" {
				a.find(FindingWindows, ctx.pos, idx, c.Name+" "+msg)
			}
			if e.Kind == winshell.KindDelete && !e.Filtered && (strings.HasPrefix(e.Target, "/") || strings.HasPrefix(e.Target, "~")) {
				// a delete of a POSIX path (pwsh on Linux and macOS): judged as rm would be, so
				// the project, .git and the protected files are seen
				a.record(windowsDelete(c.Name, e, a.opts.Home), "rm", inner, ctx)
			}
			if e.Kind == winshell.KindWrite && (strings.HasPrefix(e.Target, "/") || strings.HasPrefix(e.Target, "~")) {
				// a write onto a POSIX path: judged by the protections like a redirection
				t := e.Target
				if strings.HasPrefix(t, "~") && a.opts.Home != "" {
					t = a.opts.Home + t[1:]
				}
				target := Word{Value: t, Static: true, Raw: e.Target}
				a.record([]Word{{Value: c.Name, Static: true}}, c.Name, inner, &callCtx{stmt: ctx.stmt, pos: ctx.pos,
					redirs: []Redirect{{Op: ">", Target: target}}})
			}
		}
		// an agent's npm shim (claude.cmd) is a script file to cmd.exe: judged as the agent too
		if len(effects) == 0 || IsAgentCLI(c.Name) {
			words := make([]Word, 0, len(c.Argv()))
			for _, v := range c.Argv() {
				words = append(words, Word{Value: v, Static: !strings.Contains(v, "$"), Raw: v})
			}
			// the shell itself (c.Name is its canonical name: /CMD, C:\Windows\cmd.exe are cmd) is
			// what is being read: invoking it again would read it again, without end
			switch {
			case len(words) == 0 || windowsShells.has(strings.ToLower(c.Name)) || windowsShells.has(strings.ToLower(path.Base(words[0].Value))):
			case c.ReadsOnly():
				// looks at what it is handed (Test-Path ~/.claude/settings.json): recorded for
				// what it reads (a secret sent on), not judged as a program that may change it
				i := a.record(words, path.Base(words[0].Value), inner, ctx)
				a.script.Invocations[i].ReadsOnly = true
			default:
				a.invoke(words, inner, ctx)
			}
		}
	}
	for _, fd := range sc.AllFindings() {
		a.find(fd.Kind, ctx.pos, idx, path.Base(args[0].Value)+": "+fd.Message)
	}
}

// windowsEnvSets lists, upper case, the environment variables a PowerShell or cmd.exe script
// sets: $env:NAME = …, Set-Item and New-Item on Env:NAME,
// [Environment]::SetEnvironmentVariable('NAME', …), and cmd's set NAME=… (set /a, set /p).
func windowsEnvSets(sc *winshell.Script) []string {
	out := sc.AllEnvSets()
	for _, c := range sc.AllCommands() {
		switch c.Name {
		case "set":
			for _, a := range c.Args {
				if v := a.Value; !strings.HasPrefix(v, "/") {
					if name, _, ok := strings.Cut(v, "="); ok && name != "" {
						out = append(out, strings.ToUpper(strings.TrimSpace(name)))
					}
					break
				}
			}
		case "Set-Item", "New-Item", "Set-Content", "Add-Content", "Rename-Item", "Copy-Item":
			for _, a := range c.Args {
				if len(a.Value) > 4 && strings.EqualFold(a.Value[:4], "env:") {
					out = append(out, strings.ToUpper(strings.TrimLeft(a.Value[4:], `\/`)))
				}
			}
		case "[System.Environment]::SetEnvironmentVariable":
			if len(c.Args) > 0 {
				out = append(out, strings.ToUpper(c.Args[0].Value))
			}
		}
	}
	return out
}

// winProgram judges a Windows program bash runs directly (reg from Git Bash or WSL) as cmd.exe
// would run it: by its effects.
func (a *analyzer) winProgram(args []Word, f *frame, ctx *callCtx) {
	idx := a.record(args, path.Base(args[0].Value), f, ctx)
	c := winshell.Command{Name: strings.TrimSuffix(strings.ToLower(path.Base(args[0].Value)), ".exe"), Raw: args[0].Value, Shell: winshell.Cmd}
	for _, w := range args[1:] {
		c.Args = append(c.Args, winshell.Arg{Value: w.Value, Static: w.Static})
	}
	for _, e := range winshell.Effects(c, a.opts.Home) {
		if msg := windowsHarm(e); msg != "" {
			a.find(FindingWindows, ctx.pos, idx, c.Name+" "+msg)
		}
	}
}

// windowsDelete is a PowerShell or cmd.exe delete of a POSIX path as the rm that does the same.
func windowsDelete(name string, e winshell.Effect, home string) []Word {
	t := e.Target
	if (t == "~" || strings.HasPrefix(t, "~/")) && home != "" {
		t = home + t[1:]
	}
	args := []Word{{Value: "rm", Static: true, Raw: name, Source: "windows"}}
	if e.Recursive {
		args = append(args, Word{Value: "-r", Static: true, Source: "windows"})
	}
	static := !strings.ContainsAny(t, "$`")
	return append(args, Word{Value: t, Static: static, Glob: strings.ContainsAny(t, "*?["), Raw: e.Target})
}

// gitLock reports whether target names one lock file git keeps inside .git (index.lock,
// HEAD.lock, refs/heads/main.lock): git makes it for the length of one command and tells the
// user to remove it when a command that died left it behind.
func gitLock(target string) bool {
	base := target[strings.LastIndexAny(target, `/\`)+1:]
	return strings.HasSuffix(strings.ToLower(base), ".lock") && len(base) > len(".lock") && !strings.ContainsAny(target, "*?[$`")
}

// windowsHarm says why an effect destroys, or "".
func windowsHarm(e winshell.Effect) string {
	protected := e.TargetClass == winshell.ClassRoot || e.TargetClass == winshell.ClassHome ||
		e.TargetClass == winshell.ClassSystem || e.TargetClass == winshell.ClassParent ||
		e.TargetClass == winshell.ClassProjectRoot || e.TargetClass == winshell.ClassGit
	switch e.Kind {
	case winshell.KindDelete:
		if e.TargetClass == winshell.ClassGit && !e.Recursive && gitLock(e.Target) {
			return "" // a lock git left behind: removing it loses nothing, as rm .git/index.lock
		}
		if protected && (e.Recursive || e.TargetClass == winshell.ClassGit || e.TargetClass == winshell.ClassRoot) && !e.Filtered {
			return "deletes " + e.Target + " (" + e.TargetClass + ")"
		}
		if e.Detail != "" && (strings.Contains(e.Detail, "shadow") || strings.Contains(e.Detail, "backup")) {
			return "deletes " + e.Detail
		}
	case winshell.KindFormat:
		return "formats or wipes " + e.Target
	case winshell.KindShutdown:
		return "shuts down or restarts the machine"
	case winshell.KindRegistry:
		if e.Recursive && e.Force && winshell.WideRegistryKey(e.Target) {
			return "deletes the registry key " + e.Target + " with everything below it"
		}
		if e.Persist || e.TargetClass == winshell.ClassSystem {
			return "changes the registry (" + e.Target + ")"
		}
	case winshell.KindKill:
		// one named process is pkill -f's kin; a pattern or a system process is not
		if e.TargetClass == winshell.ClassSystem || e.Broad && strings.ContainsAny(e.Target, "*?") {
			return "kills processes by name (" + e.Target + ")"
		}
	case winshell.KindPerms:
		if protected && e.Recursive {
			return "changes permissions of " + e.Target + " (" + e.TargetClass + ")"
		}
	case winshell.KindExec:
		if e.Persist {
			return "installs what runs later on its own (" + e.Target + ")"
		}
	}
	return ""
}
