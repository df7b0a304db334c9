package shell

import (
	"path"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/guard/code"
)

// Programs whose job is to run a command given in their arguments: package runners (npx, uv
// run, bundle exec), tracers (strace), job tools (parallel, tmux, screen, at), remote and
// container shells (ssh HOST CMD, docker exec, kubectl exec), and programs with a command
// escape (vim -c '!cmd', sed's e command, trap; expect is Tcl, read in tcl.go). What they run is read like
// any other command, inside a frame that names them.

var (
	// runnerOpts are the options of runners that take a separate value.
	runnerOpts = words{"--call", "--cwd", "--directory", "--env", "--env-file", "--extra", "--from", "--group", "--name", "--package", "--prefix", "--project", "--python", "--with", "--workspace", "-c", "-e", "-n", "-p", "-w"}
	// straceOpts are strace's and ltrace's options with a value.
	straceOpts = words{"-A", "-E", "-I", "-L", "-O", "-P", "-S", "-X", "-a", "-b", "-e", "-l", "-n", "-o", "-p", "-s", "-u", "-x"}
	// sshOpts are ssh's options with a value.
	sshOpts = words{"-B", "-D", "-E", "-F", "-I", "-J", "-L", "-O", "-Q", "-R", "-S", "-W", "-b", "-c", "-e", "-i", "-l", "-m", "-o", "-p", "-w"}
	// dockerRunOpts are docker run's and exec's options with a value.
	dockerRunOpts = words{"--add-host", "--cap-add", "--cap-drop", "--cidfile", "--cpus", "--cpuset-cpus", "--detach-keys", "--device", "--dns", "--entrypoint", "--env", "--env-file", "--expose", "--gpus", "--group-add", "--hostname", "--index", "--ipc", "--isolation", "--label", "--label-file", "--link", "--log-driver", "--log-opt", "--memory", "--memory-swap", "--mount", "--name", "--net", "--network", "--pid", "--platform", "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout", "--tmpfs", "--ulimit", "--user", "--userns", "--uts", "--volume", "--volumes-from", "--workdir", "-e", "-h", "-l", "-m", "-p", "-u", "-v", "-w"}
	// kubectlExecOpts are kubectl exec's options with a value.
	kubectlExecOpts = words{"--container", "--context", "--filename", "--kubeconfig", "--namespace", "--pod-running-timeout", "-c", "-f", "-n"}
	// watchexecOpts and hyperfineOpts are the options with a value of watchexec and hyperfine
	// (hyperfine's --prepare, --setup, --cleanup and --conclude are commands and read as such).
	watchexecOpts     = words{"--debounce", "--delay-run", "--emit-events-to", "--env", "--exts", "--filter", "--filter-file", "--ignore", "--ignore-file", "--on-busy-update", "--poll", "--project-origin", "--shell", "--signal", "--stop-signal", "--stop-timeout", "--watch", "--watch-non-recursive", "--workdir", "-E", "-W", "-d", "-e", "-f", "-i", "-s", "-w"}
	hyperfineOpts     = words{"--command-name", "--export-asciidoc", "--export-csv", "--export-json", "--export-markdown", "--export-orgmode", "--input", "--max-runs", "--min-runs", "--output", "--parameter-list", "--parameter-scan", "--parameter-step-size", "--reference", "--runs", "--shell", "--sort", "--style", "--time-unit", "--warmup", "-D", "-L", "-M", "-P", "-S", "-m", "-n", "-r", "-u", "-w"}
	hyperfineCommands = words{"--cleanup", "--conclude", "--prepare", "--setup", "-c", "-p", "-s"}
	// packageDeleters delete what they are given, like rm -rf.
	packageDeleters = words{"del", "del-cli", "fs-extra", "premove", "rimraf", "rmrf", "trash", "trash-put"}
)

// runnerSubcommands are the subcommands of a package manager that run what follows them, in
// the order they are tried; nil for any other program. A switch, not a map built on first use:
// every command reaches it.
func runnerSubcommands(name string) []string {
	switch name {
	case "npm", "mise":
		return []string{"exec", "x"}
	case "pnpm", "yarn":
		return []string{"dlx", "exec"}
	case "bun":
		return []string{"x"}
	case "uv":
		return []string{"run", "tool run"}
	case "poetry", "pipenv", "pipx", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "devbox":
		return []string{"run"}
	case "bundle", "asdf", "rtx", "direnv":
		return []string{"exec"}
	case "deno":
		return []string{"run -A"}
	case "nix":
		return []string{"shell -c", "develop -c"}
	}
	return nil
}

// argvRunner reports whether a program runs the command line that follows its options (and an
// optional --), with the options of its own that take a value: retry loops, output and
// terminal wrappers, daemonizers, multi-call binaries, programs that run as another user. A
// switch, as runnerSubcommands.
func argvRunner(name string) (opts words, ok bool) {
	switch name {
	case "retry":
		return words{"--delay", "--max-time", "--sleep", "--times", "--tries", "--until", "--while", "-d", "-m", "-t", "-u", "-w"}, true
	case "chronic", "toybox", "ifne", "catchsegv", "doppler":
		return nil, true
	case "daemonize":
		return words{"-E", "-a", "-c", "-e", "-l", "-o", "-p", "-u"}, true
	case "runuser":
		return words{"--group", "--shell", "--supp-group", "--user", "--whitelist-environment", "-G", "-g", "-s", "-u", "-w"}, true
	case "pkexec":
		return words{"--user"}, true
	case "setpriv":
		return words{"--ambient-caps", "--apparmor-profile", "--bounding-set", "--groups", "--inh-caps", "--regid", "--reuid", "--securebits", "--selinux-label"}, true
	}
	return nil, false
}

// isArgvRunner is argvRunner's answer alone.
func isArgvRunner(name string) bool {
	_, ok := argvRunner(name)
	return ok
}

// npmExecArgs is what npm exec runs of body, the words from its package on, given before the
// words that came before them: npm reads options up to the first "--", wherever they are, and
// drops that "--" (npm exec PKG -- --flag runs PKG --flag), unless before already held it.
func npmExecArgs(before, body []Word) []Word {
	for _, w := range before {
		if w.Value == "--" {
			return body
		}
	}
	for i := 1; i < len(body); i++ {
		if body[i].Value == "--" && body[i].Static {
			return append(body[:1:1], body[i+1:]...)
		}
	}
	return body
}

// runner peels a program that runs the command in its arguments, and reports whether it did.
func (a *analyzer) runner(name string, args []Word, f *frame, ctx *callCtx) bool {
	if a.effects(name, args, f, ctx) {
		return true
	}
	rest := args[1:]
	switch {
	case name == "npx" || name == "bunx" || name == "pnpx" || name == "uvx":
		rest = skipOpts(rest, runnerOpts)
		if len(rest) > 0 {
			a.invoke(rest, f.with(name), ctx)
		}
		return true
	case runnerSubcommands(name) != nil:
		for _, sub := range runnerSubcommands(name) {
			words := strings.Fields(sub)
			body := skipOpts(rest, runnerOpts)
			if !hasWords(body, words) {
				continue
			}
			body = skipOpts(body[len(words):], runnerOpts)
			if name == "npm" {
				body = npmExecArgs(args[:len(args)-len(body)], body)
			}
			if len(body) > 0 {
				a.record(args[:len(args)-len(body)], name, f, ctx)
				a.invoke(body, f.with(name+" "+sub), ctx)
			}
			return true
		}
		return false
	case isArgvRunner(name):
		if name == "doppler" {
			if len(rest) == 0 || rest[0].Value != "run" {
				return false
			}
			rest = rest[1:]
		}
		opts, _ := argvRunner(name)
		body := skipOpts(rest, opts)
		if len(body) == 0 {
			return false
		}
		a.record(args[:len(args)-len(body)], name, f, ctx)
		a.invoke(body, f.with(name), ctx)
		return true
	case name == "watchexec":
		a.record(args, name, f, ctx)
		for j, w := range rest {
			if w.Value == "--" {
				a.invoke(rest[j+1:], f.with(name), ctx)
				return true
			}
		}
		a.nestedArgs(skipOpts(rest, watchexecOpts), f.with(name), ctx) // run through a shell
		return true
	case name == "hyperfine":
		a.record(args, name, f, ctx)
		for j := 0; j < len(rest); j++ {
			v, _, hasVal := strings.Cut(rest[j].Value, "=")
			switch {
			case hyperfineCommands.has(v) && hasVal:
				w := rest[j]
				w.Value = w.Value[len(v)+1:]
				a.nestedArgs([]Word{w}, f.with(name), ctx)
			case hyperfineCommands.has(v) && j+1 < len(rest):
				j++
				a.nestedArgs(rest[j:j+1], f.with(name), ctx)
			case hyperfineOpts.has(v) && !hasVal:
				j++
			case strings.HasPrefix(rest[j].Value, "-") && rest[j].Static:
			default:
				a.nestedArgs(rest[j:j+1], f.with(name), ctx) // each benchmarked command, run by a shell
			}
		}
		return true
	case name == "entr":
		j := 0
		shell := false
		for ; j < len(rest) && strings.HasPrefix(rest[j].Value, "-") && rest[j].Static; j++ {
			if rest[j].Value == "--" {
				j++
				break
			}
			shell = shell || strings.Contains(rest[j].Value, "s")
		}
		if j >= len(rest) {
			return false
		}
		a.record(args[:len(args)-len(rest)+j], name, f, ctx)
		if shell {
			a.nestedArgs(rest[j:j+1], f.with(name+" -s"), ctx)
		} else {
			a.invoke(rest[j:], f.with(name), ctx)
		}
		return true
	case name == "shx":
		if len(rest) > 0 {
			a.invoke(rest, f.with("shx"), ctx)
		}
		return true
	case name == "unshare" || name == "bwrap" || name == "nsenter":
		rest = skipOpts(rest, words{"--bind", "--chdir", "--ro-bind", "--setgid", "--setuid", "--target", "--wd", "-G", "-S", "-t"})
		if len(rest) > 0 {
			a.invoke(rest, f.with(name), ctx)
			return true
		}
	case name == "wsl" || name == "wsl.exe":
		rest = skipOpts(rest, words{"--cd", "--distribution", "--user", "-d", "-u"})
		if len(rest) > 0 && (rest[0].Value == "-e" || rest[0].Value == "--exec" || rest[0].Value == "--") {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			a.record(args, name, f, ctx)
			a.invoke(rest, f.with(name), ctx)
			return true
		}
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		vals := make([]string, len(rest))
		for i, w := range rest {
			vals[i] = w.Value
		}
		prog, files := code.AwkProgram(vals)
		i := a.record(args, name, f, ctx)
		text := prog
		for _, file := range files {
			if t, ok := a.scriptText(Word{Value: file, Static: true}); ok {
				text += "\n" + t
			}
		}
		if strings.TrimSpace(text) != "" && !strings.Contains(text, Dyn) {
			a.script.Invocations[i].Code = append(a.script.Invocations[i].Code, text)
			a.scanCode("awk", text, f.with("awk code"), ctx)
		}
		return true
	case name == "strace" || name == "ltrace":
		rest = skipOpts(rest, straceOpts)
		if len(rest) > 0 {
			a.invoke(rest, f.with(name), ctx)
			return true
		}
	case name == "parallel":
		return a.parallel(args, f, ctx)
	case name == "at" || name == "batch":
		i := a.record(args, name, f, ctx)
		if text, known, _ := a.stdinText(ctx); known {
			a.nested(text, f.with(name), ctx)
		} else if ctx.stdin != nil || hasStdinString(ctx.stmt) {
			a.find(FindingShellStdin, ctx.pos, i, name+" schedules a script that cannot be seen")
		}
		return true
	case name == "tmux":
		return a.tmux(args, f, ctx)
	case name == "screen":
		i := 0
		for i = 0; i < len(rest); i++ {
			v := rest[i].Value
			if v == "-S" || v == "-c" || v == "-t" || v == "-p" || v == "-X" ||
				len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[len(v)-1:], "Sctp") { // -dmS NAME
				i++
				continue
			}
			if !strings.HasPrefix(v, "-") {
				break
			}
		}
		if i < len(rest) {
			a.record(args[:i+1], name, f, ctx)
			a.invoke(rest[i:], f.with("screen"), ctx)
			return true
		}
	case name == "trap":
		if len(rest) > 1 && rest[0].Value != "-" && rest[0].Value != "-p" && rest[0].Value != "-l" {
			a.record(args, name, f, ctx)
			a.nestedArgs(rest[:1], f.with("trap"), ctx)
			return true
		}
	case name == "ssh":
		return a.ssh(args, f, ctx)
	case name == "docker" || name == "podman" || name == "nerdctl":
		return a.container(args, f, ctx)
	case name == "kubectl" || name == "oc":
		if len(rest) > 0 && rest[0].Value == "exec" {
			for i, w := range rest {
				if w.Value == "--" && i+1 < len(rest) {
					a.record(args, name, f, ctx)
					a.invoke(rest[i+1:], f.with(name+" exec"), ctx)
					return true
				}
			}
		}
	case name == "vim" || name == "vi" || name == "nvim" || name == "ex" || name == "view":
		found := false
		for i := 1; i+1 < len(args); i++ {
			if v := args[i].Value; v == "-c" || v == "--cmd" || strings.HasPrefix(v, "+") && len(v) > 1 {
				cmd := args[i+1].Value
				if strings.HasPrefix(v, "+") {
					cmd = v[1:]
				}
				if bang, ok := strings.CutPrefix(strings.TrimLeft(cmd, ": "), "!"); ok {
					if !found {
						a.record(args, name, f, ctx)
						found = true
					}
					w := args[i+1]
					w.Value = bang
					a.nestedArgs([]Word{w}, f.with(name+" !"), ctx)
				}
			}
		}
		return found
	case name == "less":
		// less +!CMD (and +CMD with a !CMD in it) runs CMD through the shell when it starts
		found := false
		for _, w := range rest {
			if w.Value == "--" {
				break
			}
			cmd, ok := strings.CutPrefix(w.Value, "+")
			if !ok {
				continue
			}
			if _, bang, has := strings.Cut(cmd, "!"); has && bang != "" {
				if !found {
					a.record(args, name, f, ctx)
					found = true
				}
				w.Value = bang
				a.nestedArgs([]Word{w}, f.with("less !"), ctx)
			}
		}
		return found
	case name == "man":
		// man -P PAGER, --pager=PAGER, -H BROWSER: a command line man runs through the shell
		found := false
		for i := 0; i < len(rest); i++ {
			v := rest[i].Value
			var w Word
			switch {
			case (v == "-P" || v == "--pager" || v == "-H" || v == "--html") && i+1 < len(rest):
				w = rest[i+1]
				i++
			case strings.HasPrefix(v, "--pager=") || strings.HasPrefix(v, "--html="):
				w = rest[i]
				_, w.Value, _ = strings.Cut(v, "=")
			case strings.HasPrefix(v, "-P") && len(v) > 2:
				w = rest[i]
				w.Value = v[2:]
			default:
				continue
			}
			if !found {
				a.record(args, name, f, ctx)
				found = true
			}
			a.commandSetting("man's pager", w, f, ctx)
		}
		return found
	case name == "sed" || name == "gsed":
		return a.sedExec(args, f, ctx)
	case name == "kill":
		// kill $(ps -e -o pid=): every process the user can reach
		for _, w := range rest {
			if everyPid(w.Raw) {
				i := a.record(args, name, f, ctx)
				a.find(FindingKillAll, ctx.pos, i, "kill of every process "+w.Raw+" lists")
				return true
			}
		}
	case name == "terraform" || name == "tofu":
		a.terraformPlan(args, ctx)
		return false // recorded and judged as usual
	case name == "fd" || name == "fdfind":
		return a.fdExec(args, f, ctx)
	case name == "pkill" || name == "killall":
		// by user alone, with no name or pattern: every process of that user
		if hasAnyFlag(rest, "-u", "-U", "--euid", "--uid", "--user") {
			pattern := false
			for i := 0; i < len(rest); i++ {
				v := rest[i].Value
				switch {
				case v == "-u" || v == "-U" || v == "-g" || v == "-G" || v == "-P" || v == "-s" || v == "-t" || v == "--signal" ||
					v == "--euid" || v == "--uid" || v == "--user" || v == "-F" || v == "--pidfile":
					i++
				case strings.HasPrefix(v, "-"):
				default:
					pattern = true
				}
			}
			if !pattern {
				i := a.record(args, name, f, ctx)
				a.find(FindingKillAll, ctx.pos, i, name+" by user kills every process of that user")
				return true
			}
		}
	case name == "git":
		return a.gitCmd(args, f, ctx)
	}
	return false
}

func hasWords(args []Word, words []string) bool {
	if len(args) < len(words) {
		return false
	}
	for i, w := range words {
		if args[i].Value != w {
			return false
		}
	}
	return true
}

// parallel: GNU parallel runs its command (or, with none, each argument after ::: as a
// command line) for each input.
func (a *analyzer) parallel(args []Word, f *frame, ctx *callCtx) bool {
	rest := skipOpts(args[1:], words{"--arg-file", "--colsep", "--delay", "--joblog", "--jobs", "--max-args", "--results", "--sshlogin", "--timeout", "-I", "-S", "-a", "-j", "-n"})
	sep := len(rest)
	for i, w := range rest {
		if w.Value == ":::" || w.Value == "::::" || w.Value == ":::+" {
			sep = i
			break
		}
	}
	a.record(args, "parallel", f, ctx)
	cmd, inputs := rest[:sep], []Word{}
	if sep < len(rest) {
		inputs = rest[sep+1:]
	}
	if len(cmd) == 0 {
		for _, in := range inputs {
			a.nestedArgs([]Word{in}, f.with("parallel"), ctx)
		}
		return true
	}
	line := append([]Word{}, cmd...)
	if len(inputs) > 0 {
		line = append(line, inputs[0]) // one input stands for each: {} or appended
	} else {
		line = append(line, Word{Value: Dyn, Raw: "{}", Source: "stdin"})
	}
	if len(cmd) == 1 && strings.ContainsAny(cmd[0].Value, " ;|&") {
		a.nestedArgs(cmd, f.with("parallel"), ctx)
		return true
	}
	a.invoke(line, f.with("parallel"), ctx)
	return true
}

// tmux: new-session, new-window, split-window and respawn-pane run their last argument as a
// shell command; send-keys types its arguments into a shell.
func (a *analyzer) tmux(args []Word, f *frame, ctx *callCtx) bool {
	rest := args[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].Value, "-") {
		if v := rest[0].Value; v == "-L" || v == "-S" || v == "-f" {
			rest = rest[1:]
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return false
	}
	sub := rest[0].Value
	body := rest[1:]
	switch sub {
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run":
		opts := words{"-F", "-c", "-e", "-f", "-l", "-n", "-p", "-s", "-t", "-w", "-x", "-y"}
		body = skipOpts(body, opts)
		a.record(args, "tmux", f, ctx)
		if len(body) > 0 {
			a.nestedArgs(body, f.with("tmux "+sub), ctx)
		}
		return true
	case "send-keys", "send":
		body = skipOpts(body, words{"-N", "-t"})
		var keys []Word
		for _, w := range body {
			if w.Value == "Enter" || w.Value == "C-m" || w.Value == "KPEnter" {
				continue
			}
			keys = append(keys, w)
		}
		a.record(args, "tmux", f, ctx)
		if len(keys) > 0 {
			a.nestedArgs(keys, f.with("tmux send-keys"), ctx)
		}
		return true
	}
	return false
}

// ssh HOST COMMAND...: the remote command, joined as ssh joins it, is read as shell on the
// other machine (its home is another home: ~ and $HOME are still the home folder).
func (a *analyzer) ssh(args []Word, f *frame, ctx *callCtx) bool {
	rest := skipOpts(args[1:], sshOpts)
	if len(rest) == 0 {
		return false // no host
	}
	host := rest[0]
	cmd := rest[1:]
	if len(cmd) > 0 && cmd[0].Value == "--" {
		cmd = cmd[1:]
	}
	if (ctx.stdin != nil || hasStdinString(ctx.stmt)) && remoteReadsScript(cmd) {
		// ssh HOST <<EOF, ssh HOST bash -s <<EOF, … | ssh HOST sh: the remote shell runs what is fed
		a.scoped(func() {
			a.cwd = ""
			a.stdinScript(args, "ssh", f.with("ssh "+host.Display()+" <stdin>"), ctx, "shell")
		})
		return true
	}
	if len(cmd) == 0 {
		return false // an interactive session
	}
	a.record(args, "ssh", f, ctx)
	a.scoped(func() {
		a.cwd = "" // the remote working directory is not this one
		a.nestedArgs(cmd, f.with("ssh "+host.Display()), ctx)
	})
	return true
}

// remoteReadsScript reports whether the command ssh runs on the remote side is a shell reading its
// script from stdin: none (the login shell), or a shell with -s or with no script.
func remoteReadsScript(cmd []Word) bool {
	if len(cmd) == 0 {
		return true
	}
	if !shells.has(path.Base(cmd[0].Value)) {
		return false
	}
	for _, w := range cmd[1:] {
		v := w.Value
		if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "c") {
			return false // a script file or -c STRING
		}
	}
	return true
}

// container runs: docker run IMAGE CMD..., docker exec CONTAINER CMD..., docker compose exec
// SERVICE CMD.... Folders bound into the container (-v SRC:DST) are read as the host's: rm -rf
// /h in a container that mounts the home folder on /h deletes the home folder.
func (a *analyzer) container(args []Word, f *frame, ctx *callCtx) bool {
	rest := args[1:]
	if len(rest) > 0 && rest[0].Value == "compose" {
		rest = skipOpts(rest[1:], words{"--env-file", "--file", "--profile", "--project-name", "-f", "-p"})
		if len(rest) == 0 || rest[0].Value != "exec" && rest[0].Value != "run" {
			return false
		}
	} else if len(rest) > 0 && rest[0].Value == "container" {
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0].Value != "run" && rest[0].Value != "exec" {
		return false
	}
	sub := rest[0].Value
	body := rest[1:]
	var binds [][2]string
	for len(body) > 0 && strings.HasPrefix(body[0].Value, "-") {
		v := body[0].Value
		name, val, hasVal := strings.Cut(v, "=")
		if dockerRunOpts.has(name) && !hasVal && len(body) > 1 {
			val = body[1].Value
			body = body[1:]
			hasVal = true
		}
		if hasVal && (name == "-v" || name == "--volume") {
			if src, dst, ok := strings.Cut(val, ":"); ok && strings.HasPrefix(dst, "/") {
				dst, _, _ = strings.Cut(dst, ":")
				binds = append(binds, [2]string{a.hostPath(src), path.Clean(dst)})
			}
		}
		if hasVal && name == "--mount" {
			var src, dst string
			for _, kv := range strings.Split(val, ",") {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "source", "src":
					src = v
				case "target", "dst", "destination":
					dst = v
				}
			}
			if src != "" && dst != "" {
				binds = append(binds, [2]string{a.hostPath(src), path.Clean(dst)})
			}
		}
		body = body[1:]
	}
	if len(body) < 2 {
		return false // the image's or the container's own command
	}
	a.record(args, path.Base(args[0].Value), f, ctx)
	cmd := make([]Word, 0, len(body))
	if sub == "run" {
		// an image whose entrypoint is a tool runs that tool with the arguments
		image := strings.ToLower(body[0].Value)
		image = image[strings.LastIndex(image, "/")+1:]
		image, _, _ = strings.Cut(image, ":")
		if tool := imageTools()[image]; tool != "" && body[1].Value != tool {
			cmd = append(cmd, Word{Value: tool, Static: true, Raw: body[0].Value})
		}
	}
	for _, w := range body[1:] {
		if w.Static {
			w.Value = mapBinds(w.Value, binds)
		}
		cmd = append(cmd, w)
	}
	a.scoped(func() {
		a.cwd = ""
		a.invoke(cmd, f.with(path.Base(args[0].Value)+" "+sub), ctx)
	})
	return true
}

// imageTools are images whose entrypoint is a command-line tool.
var imageTools = sync.OnceValue(func() map[string]string {
	return map[string]string{"terraform": "terraform", "kubectl": "kubectl", "helm": "helm", "aws-cli": "aws",
		"awscli": "aws", "azure-cli": "az", "pulumi": "pulumi", "tofu": "tofu", "opentofu": "tofu", "gh": "gh"}
})

// hostPath resolves a bind mount's source on the host: ~, $HOME and $PWD are already
// expanded; a relative one is from the working directory.
func (a *analyzer) hostPath(src string) string {
	if src == "." {
		src = a.cwd
	} else if strings.HasPrefix(src, "./") && a.cwd != "" {
		src = path.Join(a.cwd, src)
	}
	return path.Clean(src)
}

// mapBinds rewrites the container paths in s (an argument, or a command string) to the host
// folders bound on them.
func mapBinds(s string, binds [][2]string) string {
	for _, b := range binds {
		src, dst := b[0], b[1]
		if dst == "/" || !path.IsAbs(src) {
			continue
		}
		var out strings.Builder
		for i := 0; i < len(s); {
			j := strings.Index(s[i:], dst)
			if j < 0 {
				out.WriteString(s[i:])
				break
			}
			j += i
			end := j + len(dst)
			startOK := j == 0 || strings.ContainsRune(" '\"=:;(", rune(s[j-1]))
			endOK := end == len(s) || strings.ContainsRune("/ '\";)", rune(s[end]))
			out.WriteString(s[i:j])
			if startOK && endOK {
				out.WriteString(src)
			} else {
				out.WriteString(dst)
			}
			i = end
		}
		s = out.String()
	}
	return s
}

// sedExec follows GNU sed's e command (e CMD runs CMD) in a sed script given on the command
// line.
func (a *analyzer) sedExec(args []Word, f *frame, ctx *callCtx) bool {
	var scripts []Word
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" || v == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
		case strings.HasPrefix(v, "--expression="):
			w := args[i]
			w.Value = strings.TrimPrefix(v, "--expression=")
			scripts = append(scripts, w)
		case strings.HasPrefix(v, "-"):
		default:
			if len(scripts) == 0 {
				scripts = append(scripts, args[i])
			}
			i = len(args)
		}
	}
	found := false
	for _, s := range scripts {
		if !s.Static {
			continue
		}
		for _, cmd := range strings.FieldsFunc(s.Value, func(r rune) bool { return r == ';' || r == '\n' || r == '{' || r == '}' }) {
			cmd = strings.TrimLeft(strings.TrimSpace(cmd), "0123456789$,/^!")
			if body, ok := strings.CutPrefix(cmd, "e "); ok {
				if !found {
					a.record(args, "sed", f, ctx)
					found = true
				}
				a.nested(body, f.with("sed e"), ctx)
			}
		}
	}
	return found
}

// fdExec follows fd's -x/--exec and -X/--exec-batch: the command runs on what fd finds under
// its search paths, every file when the pattern matches all names.
func (a *analyzer) fdExec(args []Word, f *frame, ctx *callCtx) bool {
	var pos, cmd []Word
	valueOpts := words{"--base-directory", "--changed-before", "--changed-within", "--color", "--exclude", "--extension", "--max-depth", "--max-results", "--min-depth", "--owner", "--size", "--threads", "--type", "-E", "-S", "-c", "-d", "-e", "-j", "-o", "-t"}
	rest := args[1:]
	narrowed := false // -e pyc, --size, --changed-within: some files only
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		if v == "-e" || v == "--extension" || v == "-S" || v == "--size" || v == "--changed-within" || v == "--changed-before" || v == "-g" || v == "--glob" {
			narrowed = true
		}
		switch {
		case v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch":
			cmd = rest[i+1:]
			i = len(rest)
		case valueOpts.has(v):
			i++
		case strings.HasPrefix(v, "-"):
		default:
			pos = append(pos, rest[i])
		}
	}
	if len(cmd) == 0 {
		return false
	}
	for i, w := range cmd {
		if w.Value == ";" {
			cmd = cmd[:i]
			break
		}
	}
	pattern := ""
	if len(pos) > 0 {
		pattern, pos = pos[0].Value, pos[1:]
	}
	if len(pos) == 0 {
		pos = []Word{{Value: ".", Static: true, Raw: "."}}
	}
	a.record(args, "fd", f, ctx)
	every := (pattern == "" || pattern == "." || pattern == "^" || pattern == ".*") && !narrowed
	sub := &callCtx{stmt: ctx.stmt, pos: ctx.pos, filtered: !every}
	for _, root := range pos {
		target := root
		if !every && (pattern == `^\.git$` || pattern == `\.git$` || pattern == `^\.git` || pattern == ".git") {
			target.Value = path.Join(root.Value, ".git") // a pattern that names .git
			sub.filtered = false
		}
		line := append(append([]Word{}, cmd...), target)
		a.invoke(line, f.with("fd -x"), sub)
	}
	return true
}

// everyPid reports whether a word as written is the pid of every process: $(ps -e ...) or
// $(ps ax ...) with nothing that picks some of them.
func everyPid(raw string) bool {
	inner, ok := strings.CutPrefix(strings.Trim(raw, `"`), "$(")
	if !ok {
		return false
	}
	fields := strings.Fields(strings.TrimSuffix(inner, ")"))
	if len(fields) >= 2 && (fields[0] == "pgrep" || fields[0] == "pidof") && !strings.ContainsAny(inner, "|;&") {
		// pgrep with no pattern but a user, group or session (-u dev), or a pattern that matches
		// every name (., '', .*): every process it may signal
		var pattern []string
		for i := 1; i < len(fields); i++ {
			f := fields[i]
			switch {
			case f == "-u" || f == "-U" || f == "-G" || f == "-g" || f == "-s" || f == "-P" || f == "-t" || f == "--euid" || f == "--uid":
				i++
			case strings.HasPrefix(f, "-"):
			default:
				pattern = append(pattern, strings.Trim(f, `'"`))
			}
		}
		return fields[0] == "pgrep" && (len(pattern) == 0 || len(pattern) == 1 && (pattern[0] == "" || pattern[0] == "." || pattern[0] == ".*"))
	}
	if len(fields) < 2 || fields[0] != "ps" || strings.ContainsAny(inner, "|;&") {
		return false
	}
	for _, f := range fields[1:] {
		if f == "-e" || f == "-A" || f == "ax" || f == "aux" || f == "-ef" || f == "-eo" || f == "axo" || strings.HasPrefix(f, "-e") && !strings.HasPrefix(f, "--") {
			return true
		}
	}
	return false
}

// terraformPlan remembers a plan file terraform plan -destroy writes, and finds an apply of one:
// terraform plan -destroy -out=d.plan && terraform apply d.plan destroys as terraform destroy does.
func (a *analyzer) terraformPlan(args []Word, ctx *callCtx) {
	var sub string
	destroy := false
	var out string
	var pos []string
	for _, w := range args[1:] {
		v := w.Value
		switch {
		case strings.HasPrefix(v, "-chdir="):
		case v == "-destroy" || v == "--destroy":
			destroy = true
		case strings.HasPrefix(v, "-out="):
			out = strings.TrimPrefix(v, "-out=")
		case strings.HasPrefix(v, "-"):
		case sub == "":
			sub = v
		default:
			pos = append(pos, v)
		}
	}
	switch {
	case sub == "plan" && destroy && out != "":
		if a.destroyPlans == nil {
			a.destroyPlans = map[string]bool{}
		}
		a.destroyPlans[out] = true
	case sub == "apply":
		for _, p := range pos {
			if a.destroyPlans[p] {
				a.find(FindingTerraformDestroy, ctx.pos, -1, "terraform apply of "+p+", a plan made with -destroy")
			}
		}
	}
}
