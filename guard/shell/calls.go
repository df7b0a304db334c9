package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// callCtx is what a simple command carries while its wrappers are peeled off.
type callCtx struct {
	stmt     *syntax.Stmt
	stdin    *stdinSource
	redirs   []Redirect
	pos      Pos
	filtered bool
}

func (a *analyzer) call(s *syntax.Stmt, c *syntax.CallExpr, f *frame, stdin *stdinSource) {
	if !a.spend(costWord * (len(c.Args) + len(c.Assigns) + len(s.Redirs))) {
		return
	}
	for _, as := range c.Assigns {
		if as.Value != nil {
			a.nestedInWord(as.Value, f)
		}
	}
	for _, w := range c.Args {
		a.nestedInWord(w, f)
	}
	if len(c.Args) == 0 {
		for _, as := range c.Assigns {
			a.assign(as, f)
		}
		return
	}
	for _, as := range c.Assigns {
		if as.Name != nil {
			a.guardVariable(as.Name.Value, f.pos(as.Pos()))
			if as.Value != nil {
				a.terraformVariable(as.Name.Value, a.literal(as.Value).Value, f.pos(as.Pos()))
			}
			if as.Value != nil && (gitCommandEnv.has(as.Name.Value) || as.Name.Value == "BASH_ENV" || as.Name.Value == "ENV") {
				a.commandVariable(as.Name.Value, a.literal(as.Value), f, &callCtx{stmt: s, pos: f.pos(as.Pos())})
			}
		}
	}
	ctx := &callCtx{stmt: s, stdin: stdin, pos: f.pos(c.Pos())}
	for _, r := range s.Redirs {
		switch {
		case r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc:
			ctx.redirs = append(ctx.redirs, Redirect{Op: r.Op.String(), Target: a.heredoc(r)})
		case r.Word != nil:
			ctx.redirs = append(ctx.redirs, Redirect{Op: r.Op.String(), Target: a.literal(r.Word)})
		}
	}
	args := a.fields(c.Args)
	var homes []string // HOME=/tmp/x CMD: for CMD and all it runs (exec, timeout, bash -c)
	for _, as := range c.Assigns {
		if as.Name != nil && homeVariable(as.Name.Value) {
			homes = append(homes, as.Name.Value)
		}
	}
	a.invoke(args, f.withEnv(homes), ctx)
}

// Option tables: the options of a wrapper that take a separate value.
var (
	sudoValueOpts    = words{"--chdir", "--close-from", "--group", "--host", "--other-user", "--prompt", "--role", "--type", "--user", "-C", "-D", "-R", "-T", "-U", "-g", "-h", "-p", "-r", "-t", "-u"}
	niceValueOpts    = words{"--adjustment", "-n"}
	ioniceValueOpts  = words{"--class", "--classdata", "-P", "-c", "-n", "-p", "-u"}
	stdbufValueOpts  = words{"-e", "-i", "-o"}
	timeoutValueOpts = words{"--kill-after", "--signal", "-k", "-s"}
	execValueOpts    = words{"-a"}
	watchValueOpts   = words{"--differences", "--equexit", "--interval", "-d", "-n", "-q"}
	flockValueOpts   = words{"--conflict-exit-code", "--timeout", "-E", "-w"}
	chrootValueOpts  = words{"--groups", "--userspec"}
	xargsValueOpts   = words{"--arg-file", "--delimiter", "--eof", "--max-args", "--max-chars", "--max-lines", "--max-procs", "--replace", "-E", "-I", "-L", "-P", "-a", "-d", "-n", "-s"}
	timeValueOpts    = words{"--format", "--output", "-f", "-o"}
	plainWrappers    = words{"builtin", "caffeinate", "chrt", "exec", "firejail", "ionice", "nice", "nohup", "proxychains", "proxychains4", "setsid", "stdbuf", "systemd-run", "taskset", "time", "torsocks", "unbuffer"}
	shells           = words{"ash", "bash", "busybox", "csh", "dash", "elvish", "fish", "ksh", "ksh93", "loksh", "mksh", "nu", "oksh", "osh", "rbash", "sh", "tcsh", "xonsh", "yash", "ysh", "zsh"}
	findActions      = words{"-exec", "-execdir", "-ok", "-okdir"}
	// findFilters are the tests that narrow what find selects to some names, ages or sizes;
	// -type alone does not (find ~ -type f -delete empties the home folder).
	findFilters = words{"-amin", "-anewer", "-atime", "-cmin", "-cnewer", "-ctime", "-empty", "-gid", "-group", "-ilname", "-iname", "-inum", "-ipath", "-iregex", "-iwholename", "-links", "-lname", "-mmin", "-mtime", "-name", "-newer", "-nogroup", "-nouser", "-path", "-perm", "-regex", "-samefile", "-size", "-uid", "-user", "-wholename"}
)

// words is a set of words as a sorted list, searched by halves: a package variable of this
// type is laid out by the linker, so it costs a guard process nothing at start, where a map
// is built at every start (TestWordsSorted checks the order).
type words []string

func (w words) has(s string) bool {
	_, ok := slices.BinarySearch(w, s)
	return ok
}

// skipOpts drops leading options (and the values of those in withValue) up to the first
// argument that is not an option, or past a "--".
func skipOpts(args []Word, withValue words) []Word {
	for len(args) > 0 {
		v := args[0].Value
		if v == "--" {
			return args[1:]
		}
		if len(v) < 2 || v[0] != '-' || !args[0].Static {
			return args
		}
		name, _, hasValue := strings.Cut(v, "=")
		args = args[1:]
		if withValue.has(name) && !hasValue && len(args) > 0 {
			args = args[1:]
		}
	}
	return args
}

// findEveryName reports a find test that selects every name: -name '*' and its kin.
func findEveryName(test string, pattern Word) bool {
	return (test == "-name" || test == "-iname" || test == "-path" || test == "-ipath" || test == "-wholename") &&
		pattern.Static && strings.Trim(pattern.Value, "*") == ""
}

// hasRunnerCommand reports whether runuser is given a command line (runuser -u USER -- CMD) rather
// than su's form (runuser -l USER -c CMD, or a login shell).
func hasRunnerCommand(args []Word) bool {
	for _, w := range args {
		if w.Value == "-c" || w.Value == "--command" || w.Value == "-l" || w.Value == "--login" || w.Value == "-" {
			return false
		}
		if w.Value == "-u" || w.Value == "--user" {
			return true
		}
	}
	return false
}

// invoke peels wrappers off an argument list and records the command that finally runs.
func (a *analyzer) invoke(args []Word, f *frame, ctx *callCtx) {
	orig := args
	defer func() {
		// a wrapper with nothing to run (env, exec 3<>/dev/tcp/...) is itself what runs
		if len(args) == 0 && len(orig) > 0 && orig[0].Static {
			a.record(orig[:1], path.Base(orig[0].Value), f, ctx)
		}
	}()
	for len(args) > 0 {
		if !a.spend(costWrap) {
			orig = nil // nothing recorded: the budget's finding says why
			return
		}
		if len(f.wrappers) > MaxWrappers {
			a.find(FindingTooDeep, ctx.pos, -1, fmt.Sprintf("commands wrapped in more than %d others (sudo, env, timeout, ...)", MaxWrappers))
			orig = nil
			return
		}
		if args[0].Static && a.aliases[args[0].Value] != "" && !strings.Contains(strings.Join(f.wrappers, " "), "alias "+args[0].Value) {
			words := []string{a.aliases[args[0].Value]}
			for _, w := range args[1:] {
				words = append(words, Quote(w.Value))
			}
			a.nested(strings.Join(words, " "), f.with("alias "+args[0].Value), ctx)
			return
		}
		if !args[0].Static {
			i := a.record(args, "", f, ctx)
			a.find(FindingDynamicName, ctx.pos, i, "the command name "+args[0].Display()+" is not known until it runs")
			return
		}
		if prog, dir, ok := a.shadowed(args[0].Value); ok {
			if prog == "" {
				i := a.record(args, "", f, ctx)
				a.find(FindingDynamicName, ctx.pos, i, "the command name "+args[0].Value+" runs a program the command line put in "+dir+", which PATH searches first")
				return
			}
			w := args[0]
			w.Value, w.Raw = prog, args[0].Value
			args, f = append([]Word{w}, args[1:]...), f.with("PATH "+dir+": "+args[0].Value)
			if path.Dir(prog) == dir {
				// a file the command line wrote there: what it holds is what runs
				i := a.record(args, path.Base(prog), f, ctx)
				a.runScript(w, "", f, ctx, i, true)
				return
			}
			continue
		}
		name := path.Base(args[0].Value)
		rest := args[1:]
		switch {
		case name == "sudo" || name == "doas":
			if cmd := skipOpts(rest, sudoValueOpts); len(cmd) > 0 {
				f = f.with(name)
				if strings.Contains(cmd[0].Value, "=") {
					// sudo NAME=VALUE CMD sets NAME for CMD, as env does
					var changed []string
					cmd, changed = a.envArgs(cmd, f, ctx)
					f = f.withEnv(changed)
				}
				args = cmd
				continue
			}
			// sudo -i, sudo -s: a root shell, reading what it is fed
			if ctx.stdin != nil || hasStdinString(ctx.stmt) {
				a.stdinScript(args, name, f.with(name+" <stdin>"), ctx, "shell")
				return
			}
			a.record(args, name, f, ctx)
			return
		case name == "env":
			var changed []string
			args, changed = a.envArgs(rest, f, ctx)
			f = f.with("env").withEnv(changed)
		case name == "timeout":
			rest = skipOpts(rest, timeoutValueOpts)
			if len(rest) > 0 {
				rest = rest[1:] // the duration
			}
			args, f = rest, f.with("timeout")
		case name == "command":
			if hasAnyFlag(rest, "-v", "-V") {
				a.record(args, name, f, ctx) // a lookup: nothing runs
				return
			}
			args, f = skipOpts(rest, nil), f.with("command")
		case name == "xargs":
			args, f = a.xargsListing(a.xargsCommand(rest, ctx), ctx), f.with("xargs")
		case name == "watch":
			a.nestedArgs(skipOpts(rest, watchValueOpts), f.with("watch"), ctx)
			return
		case name == "flock":
			rest = skipOpts(rest, flockValueOpts)
			if len(rest) > 0 {
				rest = rest[1:] // the lock file or descriptor
			}
			if len(rest) > 1 && (rest[0].Value == "-c" || rest[0].Value == "--command") {
				a.nestedArgs(rest[1:2], f.with("flock -c"), ctx)
				return
			}
			args, f = rest, f.with("flock")
		case name == "chroot":
			rest = skipOpts(rest, chrootValueOpts)
			if len(rest) > 0 {
				rest = rest[1:] // the new root
			}
			args, f = rest, f.with("chroot")
		case name == "su" || name == "runuser" && !hasRunnerCommand(rest):
			if code, ok := optionValue(rest, "-c", "--command"); ok {
				a.nestedArgs([]Word{code}, f.with(name+" -c"), ctx)
				return
			}
			a.record(args, name, f, ctx)
			return
		case name == "script":
			if code, ok := optionValue(rest, "-c", "--command"); ok {
				a.nestedArgs([]Word{code}, f.with("script -c"), ctx)
				return
			}
			if code, ok := clusterValue(rest, 'c'); ok { // script -qc CMD
				a.nestedArgs([]Word{code}, f.with("script -c"), ctx)
				return
			}
			a.record(args, name, f, ctx)
			return
		case name == "eval":
			a.nestedArgs(rest, f.with("eval"), ctx)
			return
		case shells.has(name):
			a.shell(args, f, ctx)
			return
		case name == "find":
			a.findCmd(args, f, ctx)
			return
		case interpreter(name) != "":
			a.interpreter(args, interpreter(name), f, ctx)
			return
		case isTcl(name):
			a.tclArgs(args, f, ctx)
			return
		case name == "cd" || name == "pushd":
			a.record(args, name, f, ctx)
			a.cd(rest)
			return
		case plainWrappers.has(name):
			var opts words
			switch name {
			case "nice":
				opts = niceValueOpts
			case "ionice":
				opts = ioniceValueOpts
			case "stdbuf":
				opts = stdbufValueOpts
			case "exec":
				opts = execValueOpts
			case "time":
				opts = timeValueOpts
			}
			args, f = skipOpts(rest, opts), f.with(name)
			if name == "chrt" || name == "taskset" {
				if len(args) > 0 {
					args = args[1:] // the priority or the CPU mask
				}
			}
		case windowsShells.has(strings.ToLower(name)):
			a.windows(args, f, ctx)
			return
		case strings.EqualFold(name, "reg") || strings.EqualFold(name, "reg.exe"):
			a.winProgram(args, f, ctx)
			return
		case a.runner(name, args, f, ctx):
			return
		default:
			a.remember(name, args, ctx)
			idx := a.record(args, name, f, ctx)
			switch {
			case name == "alias":
				a.defineAliases(args[1:])
			case name == "set" && len(args) > 1:
				a.setBuiltin(args[1:])
			case name == "read" || name == "readarray" || name == "mapfile":
				a.readBuiltin(args[1:], ctx, name != "read")
			case name == "printf" && len(args) > 3 && args[1].Value == "-v":
				a.printfVar(args[2:])
			case name == "truncate":
				a.truncation(args, f, ctx)
			case len(ctx.redirs) > 0 && (name == "echo" || name == "printf" || name == "cat" || name == "tee"):
				a.vimStartup(name, args, f, ctx)
			default:
				a.database(name, args, f, ctx, idx)
			}
			switch {
			case a.funcBodies[args[0].Value] != nil && a.callDepth < 4:
				a.callFunction(args, f, ctx)
			case name == "source" || name == ".":
				a.sourced(args, f, ctx, idx)
			case strings.Contains(args[0].Value, "/"):
				a.runScript(args[0], "", f, ctx, idx, false) // ./x.sh, scripts/release.sh
			case name == "npm" || name == "pnpm" || name == "yarn" || name == "bun":
				a.packageScript(name, args, f, ctx)
			case name == "make" || name == "gmake":
				a.makeTargets(args, f, ctx)
			case name == "just":
				a.justTargets(args, f, ctx)
			}
			return
		}
	}
}

func hasAnyFlag(args []Word, flags ...string) bool {
	for _, w := range args {
		for _, f := range flags {
			if w.Value == f {
				return true
			}
		}
	}
	return false
}

// clusterValue finds the value of a short option given last in a cluster: -qc VALUE.
func clusterValue(args []Word, opt byte) (Word, bool) {
	for i, w := range args {
		v := w.Value
		if len(v) > 2 && v[0] == '-' && v[1] != '-' && v[len(v)-1] == opt && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return Word{}, false
}

// optionValue finds the value of an option given as "-c VALUE", "--command VALUE" or "--command=VALUE".
func optionValue(args []Word, short, long string) (Word, bool) {
	for i, w := range args {
		switch {
		case (w.Value == short || w.Value == long) && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(w.Value, long+"="):
			w.Value = strings.TrimPrefix(w.Value, long+"=")
			return w, true
		}
	}
	return Word{}, false
}

// envArgs handles env's assignments and options: -u NAME, -C DIR (a cd), -S STRING (split).
// changed lists, for frame.env, the variables set that move every home (HOME=/tmp/x) and "env
// -i" when the environment is cleared (the agents' variables with it).
func (a *analyzer) envArgs(args []Word, f *frame, ctx *callCtx) (rest []Word, changed []string) {
	for len(args) > 0 {
		v := args[0].Value
		switch {
		case v == "--":
			return args[1:], changed
		case v == "-" || v == "-i" || v == "--ignore-environment":
			changed = append(changed, "env -i")
			args = args[1:]
		case v == "-u" || v == "--unset" || v == "-C" || v == "--chdir":
			if len(args) < 2 {
				return nil, changed
			}
			if v == "-C" || v == "--chdir" {
				a.cd(args[1:2])
			} else {
				a.agentVariableUnset(args[1].Value, ctx.pos)
			}
			args = args[2:]
		case strings.HasPrefix(v, "--unset=") || strings.HasPrefix(v, "-u") && !strings.HasPrefix(v, "--"):
			a.agentVariableUnset(strings.TrimPrefix(strings.TrimPrefix(v, "--unset="), "-u"), ctx.pos)
			args = args[1:]
		case v == "-S" || v == "--split-string" || strings.HasPrefix(v, "-S"):
			str := strings.TrimPrefix(strings.TrimPrefix(v, "--split-string"), "-S")
			more := args[1:]
			if str == "" && len(more) > 0 {
				str, more = more[0].Value, more[1:]
			}
			split, ok := envSplitString(str)
			if !ok {
				return nil, changed // env refuses a string with an open quote and runs nothing
			}
			words := make([]Word, 0, len(split)+len(more))
			for _, s := range split {
				words = append(words, Word{Value: s, Static: !strings.Contains(s, Dyn), Raw: s})
			}
			// env reads the split words as its own: assignments and options before the program
			rest, split := a.envArgs(append(words, more...), f, ctx)
			return rest, append(changed, split...)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			args = args[1:]
		case strings.Contains(v, "=") && !strings.HasPrefix(v, "="):
			name, val, _ := strings.Cut(v, "=")
			a.guardVariable(name, ctx.pos)
			if homeVariable(name) {
				changed = append(changed, name)
			}
			if gitCommandEnv.has(name) || name == "BASH_ENV" || name == "ENV" {
				w := args[0]
				w.Value = val
				a.commandVariable(name, w, f, ctx)
			}
			args = args[1:]
		default:
			return args, changed
		}
	}
	return args, changed
}

// envSplitString splits env -S's string as GNU env does: whitespace separates, single quotes keep
// everything, double quotes keep everything but backslash escapes, \_ is a space inside double
// quotes and a separator outside, a # starting a word begins a comment, and ${NAME} is a value not
// known until it runs. There is no tilde, glob or $(...) expansion. ok is false for an open quote,
// which env rejects without running anything.
func envSplitString(s string) (words []string, ok bool) {
	var cur strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	escape := func(c byte, quoted bool) {
		switch c {
		case 'n':
			cur.WriteByte('\n')
		case 't':
			cur.WriteByte('\t')
		case '_':
			if quoted {
				cur.WriteByte(' ')
			} else {
				end()
				return
			}
		default:
			cur.WriteByte(c)
		}
		inWord = true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			end()
		case c == '#' && !inWord:
			return words, true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s):
					i++
					escape(s[i], true)
				case s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
					if k := strings.IndexByte(s[i:], '}'); k > 0 {
						cur.WriteString(Dyn)
						i += k
					} else {
						cur.WriteByte('$')
					}
				default:
					cur.WriteByte(s[i])
				}
			}
			if i >= len(s) {
				return nil, false
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			escape(s[i], false)
		case c == '$' && i+1 < len(s) && s[i+1] == '{':
			if k := strings.IndexByte(s[i:], '}'); k > 0 {
				cur.WriteString(Dyn)
				inWord = true
				i += k
			} else {
				cur.WriteByte(c)
				inWord = true
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, true
}

// xargsArgs returns the command xargs runs with its fixed arguments, and a dynamic argument for
// what stdin supplies.
func xargsArgs(args []Word) []Word {
	replace := ""
	for len(args) > 0 && strings.HasPrefix(args[0].Value, "-") && args[0].Static {
		v := args[0].Value
		if v == "--" {
			args = args[1:]
			break
		}
		name, val, hasVal := strings.Cut(v, "=")
		args = args[1:]
		switch {
		case name == "-I" || name == "--replace":
			if hasVal {
				replace = val
			} else if len(args) > 0 {
				replace, args = args[0].Value, args[1:]
			}
		case strings.HasPrefix(v, "-I") && len(v) > 2:
			replace = v[2:]
		case v == "-i":
			replace = "{}"
		case xargsValueOpts.has(name) && !hasVal && len(args) > 0:
			args = args[1:]
		}
	}
	if len(args) == 0 {
		args = []Word{{Value: "echo", Static: true}}
	}
	stdin := Word{Value: Dyn, Source: "stdin", Raw: "<stdin>"}
	out := make([]Word, 0, len(args)+1)
	replaced := false
	for _, w := range args {
		if replace != "" && strings.Contains(w.Value, replace) {
			w = Word{Value: strings.ReplaceAll(w.Value, replace, Dyn), Source: "stdin", Raw: w.Raw}
			replaced = true
		}
		out = append(out, w)
	}
	if !replaced {
		out = append(out, stdin)
	}
	return out
}

// nestedArgs joins words into a script, as eval, watch and su -c do, and analyses it.
func (a *analyzer) nestedArgs(words []Word, f *frame, ctx *callCtx) {
	if len(words) == 0 {
		return
	}
	parts := make([]string, len(words))
	for i, w := range words {
		if !w.Static {
			if len(words) == 1 && envGenerator(w.Raw) {
				return // eval "$(ssh-agent -s)": the tool prints variable settings for the shell
			}
			a.find(FindingDynamicScript, ctx.pos, -1, f.wrappers[len(f.wrappers)-1]+" runs a script that is not known until it runs: "+w.Display())
			return
		}
		parts[i] = w.Value
	}
	a.nested(strings.Join(parts, " "), f, ctx)
}

// envGenerators print shell code that sets up the environment, made to be eval'ed: their
// output is theirs, and the command substitution itself is analysed as any other.
var envGenerators = sync.OnceValue(func() map[string]string {
	return map[string]string{"ssh-agent": "", "opam": "env", "direnv": "", "pyenv": "init", "rbenv": "init",
		"nodenv": "init", "goenv": "init", "jenv": "init", "plenv": "init", "brew": "shellenv", "conda": "", "mamba": "",
		"micromamba": "", "fnm": "env", "starship": "init", "zoxide": "init", "mise": "activate", "rtx": "activate",
		"luarocks": "path", "dircolors": "", "gpg-agent": "", "keychain": "", "thefuck": "", "register-python-argcomplete": "",
		"kubectl": "completion", "helm": "completion", "gh": "completion", "minikube": "docker-env", "docker-machine": "env",
		"pdm": "", "poetry": "env", "uv": "generate-shell-completion", "nvm": "", "sdk": "", "atuin": "init", "navi": "widget"}
})

// envGenerator reports whether raw is "$(TOOL ...)" for a tool of envGenerators (with the
// subcommand it is known for, when it has one), and nothing else.
func envGenerator(raw string) bool {
	raw = strings.Trim(raw, `"`)
	inner, ok := strings.CutPrefix(raw, "$(")
	if !ok {
		inner, ok = strings.CutPrefix(raw, "`")
		inner = strings.TrimSuffix(inner, "`")
	} else {
		inner, ok = strings.CutSuffix(inner, ")")
	}
	if !ok || strings.ContainsAny(inner, ";|&$`()<>\n") {
		return false
	}
	fields := strings.Fields(inner)
	if len(fields) == 0 {
		return false
	}
	sub, known := envGenerators()[path.Base(fields[0])]
	return known && (sub == "" || slices.Contains(fields[1:], sub))
}

func (a *analyzer) nested(src string, f *frame, ctx *callCtx) {
	outer := a.src
	a.scoped(func() { a.script_(src, f, f.depth+1, ctx.pos) })
	a.src = outer
}

// shell handles bash, sh and the like: -c STRING, a script read from stdin, or a script file.
func (a *analyzer) shell(args []Word, f *frame, ctx *callCtx) {
	name := path.Base(args[0].Value)
	rest := args[1:]
	if name == "busybox" {
		if len(rest) == 0 || !shells.has(rest[0].Value) {
			a.invoke(rest, f.with("busybox"), ctx)
			return
		}
		name, rest = rest[0].Value, rest[1:]
	}
	cflag, sflag := false, false
	i := 0
	for i < len(rest) {
		v := rest[i].Value
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		switch {
		case v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file":
			i += 2
			continue
		case strings.HasPrefix(v, "--"):
		case v[0] == '-' && strings.Contains(v, "c"):
			cflag = true
		case v[0] == '-' && strings.Contains(v, "s"):
			sflag = true
		}
		if last := v[len(v)-1]; !strings.HasPrefix(v, "--") && (last == 'o' || last == 'O') {
			i++ // a cluster ending in -o or -O takes the option's name: bash -euo pipefail -c ...
		}
		i++
	}
	if cflag {
		if i >= len(rest) {
			a.record(args, name, f, ctx)
			return
		}
		a.scoped(func() {
			a.setParams(rest[i+1:]) // bash -c SCRIPT $0 $1 ...
			a.nestedArgs(rest[i:i+1], f.with(name+" -c"), ctx)
		})
		return
	}
	if i < len(rest) && !sflag {
		idx := a.record(args, name, f, ctx) // a script file: read and judged as shell code
		if v := rest[i].Value; v == "/dev/stdin" || v == "/proc/self/fd/0" || v == "/dev/fd/0" {
			a.stdinScript(args, name, f.with(name+" <stdin>"), ctx, "shell")
			return
		}
		if raw := rest[i].Raw; strings.HasPrefix(raw, "<(") && !rest[i].Static {
			a.substScript(raw, name, ctx, idx) // bash <(curl ...)
			return
		}
		a.runScript(rest[i], "sh", f, ctx, idx, true)
		return
	}
	a.stdinScript(args, name, f.with(name+" <stdin>"), ctx, "shell")
}

// stdinScript analyses the script a shell or interpreter reads on stdin: a here-string, a
// heredoc, or what the previous pipeline stage prints.
func (a *analyzer) stdinScript(args []Word, name string, f *frame, ctx *callCtx, kind string) (string, bool) {
	text, known, download := a.stdinText(ctx)
	switch {
	case download != "":
		i := a.record(args, name, f, ctx)
		a.find(FindingPipeToShell, ctx.pos, i, "a download ("+download+") is piped into "+name)
		return "", false
	case !known && (ctx.stdin != nil || hasStdinString(ctx.stmt)):
		// fed by a pipe or a here-string whose text is computed: base64 -d | sh
		i := a.record(args, name, f, ctx)
		a.find(FindingShellStdin, ctx.pos, i, name+" runs a script from stdin that cannot be seen")
		return "", false
	case !known && !hasStdinFile(ctx.stmt):
		// nothing fed at all: an interactive shell (docker exec -it c bash), which reads what a
		// person types
		a.record(args, name, f, ctx)
		return "", false
	case !known:
		// a file it cannot read (sh < x.sh): a person can look
		i := a.record(args, name, f, ctx)
		a.find(FindingUnseenScript, ctx.pos, i, name+" runs a script the guard cannot read")
		return "", false
	}
	if kind == "shell" {
		a.nested(text, f, ctx)
	}
	return text, true
}

// hasStdinString reports whether a statement feeds stdin a here-string or a heredoc.
func hasStdinString(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		if r.Op == syntax.WordHdoc || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
			return true
		}
	}
	return false
}

// downloaders print what they fetch.
var downloaders = words{"GET", "aria2c", "curl", "fetch", "http", "https", "lwp-request", "wget", "xh"}

// stdinText finds what a command reads on stdin. known is false when it cannot be seen;
// download names the program when it is fetched from the network.
func (a *analyzer) stdinText(ctx *callCtx) (text string, known bool, download string) {
	for _, r := range ctx.stmt.Redirs {
		switch r.Op {
		case syntax.WordHdoc:
			w := a.literal(r.Word)
			return w.Value, w.Static, ""
		case syntax.Hdoc, syntax.DashHdoc:
			w := a.document(r)
			return w.Value, w.Static, ""
		case syntax.RdrIn:
			// sh < script.sh: the file, when it can be read
			if t, ok := a.scriptText(a.literal(r.Word)); ok {
				return t, true, ""
			}
			return "", false, ""
		}
	}
	if ctx.stdin == nil {
		return "", false, ""
	}
	for src := ctx.stdin; src != nil; src = src.prev {
		if p := unwrapSimple(src.inv); len(p) > 0 && p[0].Static && downloaders.has(path.Base(p[0].Value)) {
			return "", false, path.Base(p[0].Value) // a download, however it is decoded on the way
		}
	}
	if text, ok := a.pipelineText(ctx.stdin, 0); ok && !strings.Contains(text, Dyn) {
		return text, true, ""
	}
	prev := ctx.stdin.inv
	if len(prev) == 0 {
		return "", false, ""
	}
	prev = unwrapSimple(prev)
	if len(prev) == 0 || !prev[0].Static {
		return "", false, ""
	}
	switch name := path.Base(prev[0].Value); {
	case downloaders.has(name):
		return "", false, name
	case name == "echo" || name == "printf":
		var parts []string
		for _, w := range prev[1:] {
			if !w.Static {
				return "", false, ""
			}
			if name == "echo" && len(parts) == 0 && strings.HasPrefix(w.Value, "-") {
				continue
			}
			parts = append(parts, w.Value)
		}
		return strings.Join(parts, " "), true, ""
	case name == "cat" && len(prev) == 2:
		// cat script.sh | sh: the file, when it can be read
		if t, ok := a.scriptText(prev[1]); ok {
			return t, true, ""
		}
	case name == "cat" && len(prev) == 1:
		// cat <<EOF | sh: the heredoc of the previous stage.
		for _, r := range ctx.stdin.stmt.Redirs {
			if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
				w := a.document(r)
				return w.Value, w.Static, ""
			}
			if r.Op == syntax.WordHdoc {
				w := a.literal(r.Word)
				return w.Value, w.Static, ""
			}
		}
	}
	return "", false, ""
}

// unwrapSimple drops sudo/env/command prefixes to see the program of a pipeline stage.
func unwrapSimple(args []Word) []Word {
	for len(args) > 0 && args[0].Static {
		switch path.Base(args[0].Value) {
		case "sudo", "doas":
			args = skipOpts(args[1:], sudoValueOpts)
		case "command", "nohup", "exec":
			args = skipOpts(args[1:], nil)
		case "env":
			args = args[1:]
			for len(args) > 0 && (strings.Contains(args[0].Value, "=") || strings.HasPrefix(args[0].Value, "-")) {
				args = args[1:]
			}
		default:
			return args
		}
	}
	return args
}

// findCmd records find itself and what it deletes or executes.
func (a *analyzer) findCmd(args []Word, f *frame, ctx *callCtx) {
	a.record(args, "find", f, ctx)
	rest := args[1:]
	for len(rest) > 0 && (rest[0].Value == "-H" || rest[0].Value == "-L" || rest[0].Value == "-P" || strings.HasPrefix(rest[0].Value, "-O") || rest[0].Value == "-D") {
		if rest[0].Value == "-D" && len(rest) > 1 {
			rest = rest[1:]
		}
		rest = rest[1:]
	}
	var starts []Word
	for len(rest) > 0 && !(strings.HasPrefix(rest[0].Value, "-") || rest[0].Value == "(" || rest[0].Value == "!") {
		starts, rest = append(starts, rest[0]), rest[1:]
	}
	if len(starts) == 0 {
		starts = []Word{{Value: ".", Static: true, Raw: "."}}
	}
	if hasAnyFlag(args, "-L", "-follow") {
		// find -L follows a link given as a start: it searches the link's target
		for i, w := range starts {
			p := w.Value
			if !path.IsAbs(p) && a.cwd != "" {
				p = path.Join(a.cwd, p)
			}
			if target, ok := a.links[path.Clean(p)]; ok && w.Static {
				starts[i].Value = target
			}
		}
	}
	filtered := false
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		if findActions.has(v) {
			for i++; i < len(rest) && rest[i].Value != ";" && rest[i].Value != "+"; i++ {
			}
			continue
		}
		if pruned(rest, i) {
			i += 3 // -path ./node_modules -prune -o: a folder left out, the rest all selected
			continue
		}
		if findFilters.has(v) {
			if i+1 < len(rest) && findEveryName(v, rest[i+1]) {
				i++
				continue
			}
			filtered = true
		}
	}
	sub := &callCtx{stmt: ctx.stmt, pos: ctx.pos, filtered: filtered}
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		switch {
		case v == "-delete":
			del := append([]Word{{Value: "rm", Static: true, Source: "find"}, {Value: "-r", Static: true, Source: "find"}}, starts...)
			a.record(del, "rm", f.with("find -delete"), sub)
		case findActions.has(v):
			var cmd []Word
			for i++; i < len(rest) && rest[i].Value != ";" && rest[i].Value != "+"; i++ {
				cmd = append(cmd, rest[i])
			}
			for _, start := range starts[:min(len(starts), 4)] {
				expanded := make([]Word, len(cmd))
				for j, w := range cmd {
					if strings.Contains(w.Value, "{}") {
						w = Word{Value: strings.ReplaceAll(w.Value, "{}", start.Value), Static: w.Static && start.Static, Raw: w.Raw, Source: "find"}
					}
					expanded[j] = w
				}
				a.invoke(expanded, f.with("find "+v), sub)
			}
		}
	}
}

// pruned reports whether find's expression at i leaves a folder out and goes on with the rest:
// TEST PATTERN -prune -o. What follows selects from everything else, as if alone.
func pruned(args []Word, i int) bool {
	if i+3 >= len(args) {
		return false
	}
	switch args[i].Value {
	case "-path", "-ipath", "-name", "-iname", "-wholename", "-iwholename":
	default:
		return false
	}
	return args[i+2].Value == "-prune" && (args[i+3].Value == "-o" || args[i+3].Value == "-or")
}

// truncation records truncate to size 0 as the delete it amounts to: the files stay, what they
// held is gone. Under find -exec, the path stands for every file find selects below it.
func (a *analyzer) truncation(args []Word, f *frame, ctx *callCtx) {
	zero := false
	var paths []Word
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-s" || v == "--size") && i+1 < len(args):
			zero = args[i+1].Value == "0"
			i++
		case v == "-s0" || v == "--size=0":
			zero = true
		case strings.HasPrefix(v, "-s") || strings.HasPrefix(v, "--size="):
			zero = false
		case v == "-r" || v == "--reference" || strings.HasPrefix(v, "--reference="):
			return // the size of another file
		case strings.HasPrefix(v, "-") && args[i].Static:
		default:
			paths = append(paths, args[i])
		}
	}
	if !zero || len(paths) == 0 {
		return
	}
	del := []Word{{Value: "rm", Static: true, Raw: "truncate -s 0", Source: "truncate"}}
	if n := len(f.wrappers); n > 0 && strings.HasPrefix(f.wrappers[n-1], "find -") || anyFrom(paths, sourceEvery) {
		del = append(del, Word{Value: "-r", Static: true, Source: "truncate"})
	} else if !anyGlob(paths) {
		return // one file emptied: judged as the write it is
	}
	a.record(append(del, paths...), "rm", f.with("truncate -s 0"), ctx)
}

func anyGlob(words []Word) bool {
	for _, w := range words {
		if w.Glob {
			return true
		}
	}
	return false
}

func anyFrom(words []Word, source string) bool {
	for _, w := range words {
		if w.Source == source {
			return true
		}
	}
	return false
}

// cd follows a change of directory when its target is static; otherwise the directory is unknown.
func (a *analyzer) cd(args []Word) {
	args = skipOpts(args, nil)
	switch {
	case len(args) == 0:
		a.cwd = a.opts.Home
	case !args[0].Static || args[0].Value == "-":
		a.cwd = ""
	case path.IsAbs(args[0].Value):
		a.cwd = path.Clean(args[0].Value)
	case a.cwd != "":
		a.cwd = path.Join(a.cwd, args[0].Value)
	}
}

// record adds an invocation and checks its writes onto disk devices.
func (a *analyzer) record(args []Word, name string, f *frame, ctx *callCtx) int {
	a.spend(costInvocation + costArg*len(args)) // recorded all the same: it was read
	if name != "cd" && name != "pushd" {
		args = a.throughLinks(args) // cd goes through a link as written (cd LINK/.. is here)
	}
	if len(a.moved) > 0 && deleters.has(name) {
		args = a.throughMoves(args)
	}
	if len(a.links) > 0 && len(ctx.redirs) > 0 {
		redirs := make([]Redirect, len(ctx.redirs))
		for i, r := range ctx.redirs {
			r.Target = a.throughLinks([]Word{{}, r.Target})[1]
			redirs[i] = r
		}
		ctx = &callCtx{stmt: ctx.stmt, stdin: ctx.stdin, redirs: redirs, pos: ctx.pos, filtered: ctx.filtered}
	}
	if name == "ln" || name == "cp" || name == "gcp" {
		a.rememberLink(args)
	}
	switch name {
	case "cp", "ln", "install", "mv", "gcp", "gmv":
		a.rememberPlaced(name, args)
	}
	if len(ctx.redirs) > 0 {
		a.rememberWrittenProgram(ctx.redirs)
		for _, r := range ctx.redirs {
			if (r.Op == ">" || r.Op == ">|") && r.Target.Glob && r.Target.Static && name != "rm" {
				// : > "$f" for each f in DIR/*: every file the pattern matches is emptied
				del := []Word{{Value: "rm", Static: true, Raw: r.Op + " " + r.Target.Display(), Source: "truncate"}, r.Target}
				a.record(del, "rm", f.with("> "+r.Target.Display()), &callCtx{stmt: ctx.stmt, pos: ctx.pos, filtered: ctx.filtered})
			}
		}
	}
	args = a.withFrom(args)
	if len(a.copies) > 0 && len(ctx.redirs) > 0 {
		// a here-string of a copied variable feeds its copy's source (curl -d @- <<<"$T")
		redirs := make([]Redirect, len(ctx.redirs))
		copy(redirs, ctx.redirs)
		for i := range redirs {
			redirs[i].Target = a.withFrom([]Word{redirs[i].Target})[0]
		}
		ctx = &callCtx{stmt: ctx.stmt, stdin: ctx.stdin, redirs: redirs, pos: ctx.pos, filtered: ctx.filtered}
	}
	if prog, pargs := agentStarted(name, args); prog != "" {
		a.agentAfterHome(prog, ctx.pos)
		a.agentEnvOf(prog, f, ctx.pos)
		a.agentFlags(prog, pargs, ctx.pos)
	}
	if name == "unset" {
		for _, w := range args[1:] {
			a.agentVariableUnset(w.Value, ctx.pos)
		}
	}
	inv := Invocation{Args: args, Name: name, Wrappers: f.wrappers, Pos: ctx.pos, Depth: f.depth,
		Cwd: a.cwd, Redirects: ctx.redirs, Filtered: ctx.filtered, Function: name != "" && a.funcs[name], Stdin: stdinOf(ctx, f)}
	if inv.Stdin == "pipe" {
		inv.PipedFrom = ctx.stdin.printers
	}
	a.script.Invocations = append(a.script.Invocations, inv)
	i := len(a.script.Invocations) - 1
	for _, r := range ctx.redirs {
		if strings.Contains(r.Op, ">") && IsDiskDevice(r.Target.Value) {
			a.find(FindingDeviceWrite, ctx.pos, i, "redirection writes to disk device "+r.Target.Value)
		}
	}
	if dev := deviceDestination(name, args); dev != "" {
		a.find(FindingDeviceWrite, ctx.pos, i, name+" writes to disk device "+dev)
	}
	return i
}

// stdinOf says what feeds a command's stdin (Invocation.Stdin): the last redirection of fd 0
// wins over the pipe, as in bash. What xargs and parallel run reads their items, not their
// stdin: GNU xargs gives it /dev/null.
func stdinOf(ctx *callCtx, f *frame) string {
	if n := len(f.wrappers); n > 0 && (f.wrappers[n-1] == "xargs" || f.wrappers[n-1] == "parallel") {
		return ""
	}
	kind := ""
	if ctx.stdin != nil {
		kind = "pipe"
	}
	if ctx.stmt == nil {
		return kind
	}
	for _, r := range ctx.stmt.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			kind = "heredoc"
		case syntax.WordHdoc:
			kind = "here-string"
		case syntax.RdrIn, syntax.RdrInOut:
			kind = "file"
		}
	}
	return kind
}

// deviceDestination returns the disk device a copying command writes to, or "".
func deviceDestination(name string, args []Word) string {
	var positional []string
	for _, w := range args[1:] {
		if name == "dd" {
			if t, ok := strings.CutPrefix(w.Value, "of="); ok && IsDiskDevice(t) {
				return t
			}
			continue
		}
		if !strings.HasPrefix(w.Value, "-") {
			positional = append(positional, w.Value)
		}
	}
	switch name {
	case "cp", "mv", "install", "rsync", "pv", "ddrescue", "dcfldd":
		if n := len(positional); n > 1 && IsDiskDevice(positional[n-1]) {
			return positional[n-1]
		}
	case "tee":
		for _, p := range positional {
			if IsDiskDevice(p) {
				return p
			}
		}
	}
	return ""
}
