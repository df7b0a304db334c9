package shell

import (
	"path"
	"strings"
)

// Programs that delete or run a shell command without looking like it: the Node packages that
// delete like rm -rf (rimraf, del-cli, ...), the remote fan-out tools that run a shell command
// on many machines (pdsh, clush, pssh, ansible -m shell, salt cmd.run), and programs with a
// command escape in their scripting option (gdb -ex 'shell CMD', osascript's do shell script,
// emacs --batch --eval with delete-directory or shell-command). Each is recorded as the
// command it amounts to, so that its targets decide.

// effects reads a program of this kind, and reports whether it did.
func (a *analyzer) effects(name string, args []Word, f *frame, ctx *callCtx) bool {
	switch {
	case packageDeleters.has(name):
		return a.packageDelete(name, args, f, ctx)
	case name == "pdsh" || name == "clush" || name == "pssh" || name == "parallel-ssh":
		return a.fanout(name, args, f, ctx)
	case name == "ansible":
		return a.ansible(args, f, ctx)
	case name == "salt" || name == "salt-ssh" || name == "salt-call":
		return a.salt(name, args, f, ctx)
	case name == "gdb" || name == "lldb":
		return a.debuggerShell(name, args, f, ctx)
	case name == "osascript":
		return a.osascript(args, f, ctx)
	case name == "emacs" || name == "emacsclient":
		return a.emacsEval(name, args, f, ctx)
	case name == "direnv":
		return a.direnvAllow(args, f, ctx)
	}
	return false
}

// packageDelete: rimraf PATH..., del-cli PATH..., trash PATH...: a recursive delete of each
// path, which these tools may also read as a glob.
func (a *analyzer) packageDelete(name string, args []Word, f *frame, ctx *callCtx) bool {
	del := []Word{{Value: "rm", Static: true, Raw: name, Source: name}, {Value: "-r", Static: true, Source: name}}
	n := 0
	for _, w := range args[1:] {
		if w.Static && strings.HasPrefix(w.Value, "-") {
			continue // --glob, --preserve-root, --max-retries=N
		}
		if name == "del" && w.Static && len(w.Value) == 2 && w.Value[0] == '/' {
			return false // Windows' del /s /q: read where Windows commands are
		}
		w.Glob = w.Glob || strings.ContainsAny(w.Value, "*?[{")
		del = append(del, w)
		n++
	}
	if n == 0 {
		return false
	}
	a.record(del, "rm", f.with(name), ctx)
	return true
}

// fanoutOpts are the options with a value of pdsh, clush and pssh.
var fanoutOpts = words{"--errdir", "--exclude", "--extra-arg", "--extra-args", "--fanout", "--group", "--groupsource", "--host", "--hostfile", "--hosts", "--nodes", "--option", "--options", "--outdir", "--par", "--timeout", "--user", "--worker", "-E", "-F", "-H", "-M", "-O", "-R", "-X", "-e", "-f", "-g", "-h", "-l", "-o", "-p", "-t", "-u", "-w", "-x"}

// fanout: pdsh -w HOSTS CMD..., clush -w HOSTS CMD..., pssh -h FILE CMD...: the command runs
// through a shell on every host named.
func (a *analyzer) fanout(name string, args []Word, f *frame, ctx *callCtx) bool {
	if name == "clush" && hasAnyFlag(args[1:], "-c", "--copy", "--rcopy") {
		return false // a copy, not a command
	}
	cmd := skipOpts(args[1:], fanoutOpts)
	if len(cmd) == 0 {
		return false // an interactive session
	}
	a.remote(args, name, "", cmd, f, ctx)
	return true
}

// remote records the fan-out tool and reads cmd as shell on the other machines, as root when
// root names how.
func (a *analyzer) remote(args []Word, name, root string, cmd []Word, f *frame, ctx *callCtx) {
	a.record(args, name, f, ctx)
	if root != "" {
		f = f.with(root)
	}
	a.scoped(func() {
		a.cwd = "" // the remote working directory is not this one
		a.nestedArgs(cmd, f.with(name), ctx)
	})
}

// ansible PATTERN -m MODULE -a ARGS: the command, shell and raw modules (command is the
// default) run ARGS as a command line on every host; the file module with state=absent
// deletes its path.
func (a *analyzer) ansible(args []Word, f *frame, ctx *callCtx) bool {
	module := Word{Value: "command", Static: true}
	var modArgs *Word
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-m" || v == "--module-name") && i+1 < len(args):
			module = args[i+1]
			i++
		case strings.HasPrefix(v, "--module-name="):
			module = args[i]
			module.Value = strings.TrimPrefix(v, "--module-name=")
		case (v == "-a" || v == "--args") && i+1 < len(args):
			w := args[i+1]
			modArgs = &w
			i++
		case strings.HasPrefix(v, "--args="):
			w := args[i]
			w.Value = strings.TrimPrefix(v, "--args=")
			modArgs = &w
		}
	}
	if modArgs == nil {
		return false // ansible all -m ping, ansible-inventory style queries
	}
	root := ""
	if hasAnyFlag(args[1:], "-b", "--become") {
		root = "sudo (ansible --become)" // the module runs as root on every host
	}
	switch strings.TrimPrefix(strings.TrimPrefix(module.Value, "ansible.builtin."), "ansible.legacy.") {
	case "command", "shell", "raw":
		a.remote(args, "ansible -m "+module.Value, root, []Word{*modArgs}, f, ctx)
		return true
	case "file":
		if !modArgs.Static {
			return false
		}
		fields := strings.Fields(modArgs.Value)
		absent, target := false, ""
		for _, kv := range fields {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "state":
				absent = v == "absent"
			case "path", "dest", "name":
				target = strings.Trim(v, `"'`)
			}
		}
		if absent && target != "" {
			a.record(args, "ansible", f, ctx)
			a.scoped(func() {
				a.cwd = ""
				if root != "" {
					f = f.with(root)
				}
				a.nested("rm -r "+tildeQuote(target), f.with("ansible -m file state=absent"), ctx)
			})
			return true
		}
	}
	return false
}

// saltShell are Salt's execution functions that run their first argument through a shell.
var saltShell = words{"cmd.powershell", "cmd.run", "cmd.run_all", "cmd.run_bg", "cmd.run_stderr", "cmd.run_stdout", "cmd.shell"}

// salt TARGET cmd.run 'CMD': the command runs on every minion the target matches; file.remove
// PATH deletes the path.
func (a *analyzer) salt(name string, args []Word, f *frame, ctx *callCtx) bool {
	root := ""
	if name == "salt" {
		root = "sudo (salt minion)" // minions run their commands as root
	}
	for i := 1; i+1 < len(args); i++ {
		fn := args[i].Value
		if !saltShell.has(fn) && fn != "file.remove" {
			continue
		}
		for _, w := range args[i+1:] {
			if strings.HasPrefix(w.Value, "-") && w.Static {
				continue
			}
			if fn == "file.remove" {
				if !w.Static {
					return false
				}
				a.record(args, name, f, ctx)
				a.scoped(func() {
					a.cwd = ""
					a.nested("rm -r "+tildeQuote(w.Value), f.with(name+" file.remove"), ctx)
				})
				return true
			}
			a.remote(args, name+" "+fn, root, []Word{w}, f, ctx)
			return true
		}
		return false
	}
	return false
}

// debuggerShell: gdb -ex 'shell CMD' (or '!CMD'), lldb -o 'platform shell CMD': the debugger
// runs CMD through a shell.
func (a *analyzer) debuggerShell(name string, args []Word, f *frame, ctx *callCtx) bool {
	found := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		var w Word
		switch {
		case (v == "-ex" || v == "--ex" || v == "-iex" || v == "--iex" || v == "-eval-command" || v == "--eval-command" ||
			v == "-init-eval-command" || v == "--init-eval-command" || name == "lldb" && (v == "-o" || v == "-O" ||
			v == "--one-line" || v == "--one-line-before-file" || v == "-k" || v == "--one-line-on-crash")) && i+1 < len(args):
			w = args[i+1]
			i++
		case strings.HasPrefix(v, "--eval-command=") || strings.HasPrefix(v, "-eval-command=") || strings.HasPrefix(v, "--one-line="):
			w = args[i]
			_, w.Value, _ = strings.Cut(v, "=")
		default:
			continue
		}
		cmd := strings.TrimSpace(w.Value)
		var body string
		ok := false
		for _, p := range []string{"shell ", "platform shell ", "!"} {
			if body, ok = strings.CutPrefix(cmd, p); ok {
				break
			}
		}
		if !ok {
			continue
		}
		if !found {
			a.record(args, name, f, ctx)
			found = true
		}
		w.Value = body
		a.nestedArgs([]Word{w}, f.with(name+" shell"), ctx)
	}
	return found
}

// osascript -e 'do shell script "CMD"': AppleScript runs CMD through a shell.
func (a *analyzer) osascript(args []Word, f *frame, ctx *callCtx) bool {
	found := false
	for i := 1; i+1 < len(args); i++ {
		if args[i].Value != "-e" {
			continue
		}
		src := args[i+1]
		i++
		if !src.Static {
			if strings.Contains(src.Value, "shell script") {
				a.record(args, "osascript", f, ctx)
				a.find(FindingDynamicScript, ctx.pos, -1, "osascript runs a shell script that is not known until it runs: "+src.Display())
				return true
			}
			continue
		}
		for _, cmd := range quotedAfter(src.Value, "do shell script", '\\') {
			if !found {
				a.record(args, "osascript", f, ctx)
				found = true
			}
			if cmd.dynamic {
				a.find(FindingDynamicScript, ctx.pos, -1, "osascript runs a shell script built at run time")
				continue
			}
			a.nested(cmd.text, f.with("osascript do shell script"), ctx)
		}
	}
	return found
}

// emacs --batch --eval '(delete-directory "DIR" t)': Lisp that deletes files or runs a shell
// command. The path or command must be a string literal, as written or in expand-file-name.
func (a *analyzer) emacsEval(name string, args []Word, f *frame, ctx *callCtx) bool {
	found := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		var src Word
		switch {
		case (v == "--eval" || v == "-eval" || v == "--execute") && i+1 < len(args):
			src = args[i+1]
			i++
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--execute="):
			src = args[i]
			_, src.Value, _ = strings.Cut(v, "=")
		default:
			continue
		}
		if !src.Static {
			continue
		}
		record := func() {
			if !found {
				a.record(args, name, f, ctx)
				found = true
			}
		}
		for _, fn := range []string{"delete-directory", "delete-file", "move-file-to-trash", "shell-command",
			"shell-command-to-string", "async-shell-command", "call-process-shell-command"} {
			for _, lit := range quotedAfter(src.Value, "("+fn, '\\') {
				record()
				if lit.dynamic {
					a.find(FindingDynamicScript, ctx.pos, -1, name+" Lisp "+fn+" of a value built at run time")
					continue
				}
				switch fn {
				case "delete-directory", "move-file-to-trash":
					a.nested("rm -r "+tildeQuote(lit.text), f.with(name+" "+fn), ctx)
				case "delete-file":
					a.nested("rm "+tildeQuote(lit.text), f.with(name+" "+fn), ctx)
				default:
					a.nested(lit.text, f.with(name+" "+fn), ctx)
				}
			}
		}
	}
	return found
}

// literal is the string a call is given: its text, or dynamic when it is not one literal.
type literal struct {
	text    string
	dynamic bool
}

// quotedAfter returns, for each place src has key followed by a double-quoted string (possibly
// inside (expand-file-name "…") or after spaces), that string unescaped; where key is followed
// by anything else, a dynamic literal.
func quotedAfter(src, key string, esc byte) []literal {
	var out []literal
	for len(out) < 16 {
		j := strings.Index(src, key)
		if j < 0 {
			return out
		}
		src = src[j+len(key):]
		if src != "" && !strings.ContainsRune(" \t\n(\"", rune(src[0])) {
			continue // a longer name: delete-file-local-copy, shell-command-on-region
		}
		rest := strings.TrimLeft(src, " \t\n")
		rest = strings.TrimPrefix(rest, "(expand-file-name")
		rest = strings.TrimLeft(rest, " \t\n")
		if !strings.HasPrefix(rest, `"`) {
			out = append(out, literal{dynamic: true})
			continue
		}
		var b strings.Builder
		closed := false
		for k := 1; k < len(rest); k++ {
			c := rest[k]
			if c == esc && k+1 < len(rest) {
				k++
				b.WriteByte(rest[k])
				continue
			}
			if c == '"' {
				closed = true
				src = rest[k+1:]
				break
			}
			b.WriteByte(c)
		}
		if !closed {
			out = append(out, literal{dynamic: true})
			return out
		}
		// "A" & x in AppleScript, (concat "A" x) in Lisp: the command is built at run time
		after := strings.TrimLeft(src, " \t")
		out = append(out, literal{text: b.String(), dynamic: strings.HasPrefix(after, "&")})
	}
	return out
}

// tildeQuote quotes a path for a shell while keeping a leading ~ (Emacs, Ansible and Salt
// expand it to the home folder as the shell does).
func tildeQuote(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return "~/" + Quote(rest)
	}
	if p == "~" {
		return p
	}
	return Quote(p)
}

// direnv allow [DIR|FILE]: direnv runs the folder's .envrc, now and at every cd into it; the
// .envrc is read as the script it is.
func (a *analyzer) direnvAllow(args []Word, f *frame, ctx *callCtx) bool {
	if len(args) < 2 || args[1].Value != "allow" && args[1].Value != "permit" && args[1].Value != "grant" {
		return false
	}
	i := a.record(args, "direnv", f, ctx)
	file := Word{Value: ".envrc", Static: true}
	if len(args) > 2 {
		file = args[2]
		if file.Static && path.Base(file.Value) != ".envrc" && path.Base(file.Value) != ".env" {
			file.Value = path.Join(file.Value, ".envrc")
		}
	}
	a.runScript(file, "bash", f.with("direnv allow"), ctx, i, false)
	return true
}

// vimStartup reads the ex commands a command line writes into Vim's startup files (~/.vimrc,
// .exrc, init.vim): a :!CMD or system('CMD') there runs CMD every time Vim starts.
func (a *analyzer) vimStartup(name string, args []Word, f *frame, ctx *callCtx) {
	for _, r := range ctx.redirs {
		if !strings.Contains(r.Op, ">") || strings.HasPrefix(r.Op, ">&") || !vimrc(r.Target.Value) {
			continue
		}
		text, ok := a.producedText(name, args, ctx)
		if !ok {
			return
		}
		for _, cmd := range vimShellCommands(text) {
			if cmd.dynamic {
				a.find(FindingDynamicScript, ctx.pos, -1, "a Vim startup file runs a command built at run time")
				continue
			}
			a.nested(cmd.text, f.with("vim startup "+path.Base(r.Target.Value)), ctx)
		}
		return
	}
}

// vimrc reports whether p is a startup file Vim or Neovim reads.
func vimrc(p string) bool {
	switch path.Base(p) {
	case ".vimrc", "_vimrc", ".gvimrc", ".exrc", "init.vim", "vimrc", "gvimrc":
		return true
	}
	return false
}

// vimShellCommands returns the shell commands ex command lines run: !CMD after modifiers
// (silent, autocmd EVENT PATTERN) and the string given to system() or systemlist().
func vimShellCommands(text string) []literal {
	var out []literal
	for _, line := range strings.Split(text, "\n") {
		if len(out) >= 16 {
			break
		}
		line = strings.TrimLeft(strings.TrimSpace(line), ": ")
		for _, fn := range []string{"system(", "systemlist(", "jobstart("} {
			for _, lit := range quotedAfter(strings.ReplaceAll(line, "'", `"`), fn, 0) {
				out = append(out, lit)
			}
		}
		for range 4 {
			word, rest, _ := strings.Cut(line, " ")
			switch word {
			case "silent", "silent!", "sil", "sil!", "noautocmd", "keepalt", "execute", "exe":
				line = strings.TrimLeft(rest, " ")
			case "autocmd", "au", "autocmd!", "au!":
				fields := strings.SplitN(strings.TrimLeft(rest, " "), " ", 3) // EVENT PATTERN CMD
				if len(fields) < 3 {
					line = ""
				} else {
					line = strings.TrimLeft(fields[2], ": ")
				}
			}
		}
		if cmd, ok := strings.CutPrefix(line, "!"); ok && strings.TrimSpace(cmd) != "" {
			out = append(out, literal{text: cmd})
		}
	}
	return out
}
