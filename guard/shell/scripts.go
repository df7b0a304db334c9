package shell

import (
	"encoding/json"
	"path"
	"strings"
)

// Scripts the command runs are read and judged like inline code: a shell script given to a
// shell, sourced or run by its path, an interpreter's script file, a package script (npm run X)
// and a make target. An agent can write a file with its edit tool and run it next, or write it
// and run it in the same command line; the guard reads both, within MaxScript bytes.

// MaxScript bounds what the analysis reads of one script file.
const MaxScript = 128 << 10

// FindingUnseenScript is a script the command runs that the guard could not read.
const FindingUnseenScript = "unseen-script"

// scriptText returns the text of the file w names, run in the current directory: what the same
// command line wrote into it (cat > x.sh <<EOF), else what Options.ReadFile reads.
func (a *analyzer) scriptText(w Word) (string, bool) {
	if !w.Static || w.Value == "" {
		return "", false
	}
	p := w.Value
	if !path.IsAbs(p) {
		if a.cwd == "" {
			return "", false
		}
		p = path.Join(a.cwd, p)
	}
	if text, ok := a.written[p]; ok {
		return text, true
	}
	if a.opts.ReadFile == nil {
		return "", false
	}
	if !a.spend(costInvocation) {
		return "", false
	}
	data, ok := a.opts.ReadFile(p)
	if !ok || len(data) > MaxScript {
		return "", false
	}
	return data, true
}

// remember keeps what a command writes into a file when it is known: cat or tee fed a heredoc
// or here-string, echo or printf of static words, redirected with > into a static path.
func (a *analyzer) remember(name string, args []Word, ctx *callCtx) {
	if downloaders.has(name) {
		a.rememberDownload(args)
		return
	}
	if name == "npm" || name == "pnpm" {
		a.rememberPkgScript(args)
		return
	}
	if name == "jq" || name == "gojq" || name == "jaq" {
		a.rememberJqScripts(args) // and what jq prints into a file is not known
	}
	var target string
	for _, r := range ctx.redirs {
		if (r.Op == ">" || r.Op == ">|") && r.Target.Static {
			target = r.Target.Value
		}
	}
	if target == "" {
		return
	}
	if !path.IsAbs(target) {
		if a.cwd == "" {
			return
		}
		target = path.Join(a.cwd, target)
	}
	text, ok := a.producedText(name, args, ctx)
	if !ok {
		delete(a.written, target)
		return
	}
	if a.written == nil {
		a.written = map[string]string{}
	}
	a.written[target] = text
}

// wrote reports whether the command line itself wrote the file p.
func (a *analyzer) wrote(p string) bool {
	if !path.IsAbs(p) && a.cwd != "" {
		p = path.Join(a.cwd, p)
	}
	_, ok := a.written[path.Clean(p)]
	return ok
}

// producedText is what a command prints when it is known: cat or tee fed known text, echo or
// printf of static words, a pure text filter (base64 -d, rev, tr, xxd -r -p) of known input.
func (a *analyzer) producedText(name string, args []Word, ctx *callCtx) (string, bool) {
	switch name {
	case "cat", "tee":
		t, known, _ := a.stdinText(ctx)
		return t, known
	case "echo", "printf":
		words := make([]string, 0, len(args))
		for _, w := range args[1:] {
			if !w.Static {
				return "", false
			}
			words = append(words, w.Value)
		}
		text := strings.Join(words, " ")
		if name == "printf" {
			text = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(text)
		}
		return text, true
	}
	in, inKnown, _ := a.stdinText(ctx)
	return a.stageText(args, in, inKnown)
}

// shebang returns the program a script's #! line names ("bash", "python3"), or "".
func shebang(text string) string {
	if !strings.HasPrefix(text, "#!") {
		return ""
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				return path.Base(f)
			}
		}
		return ""
	}
	return prog
}

// runScript follows a script the command runs: as shell code when shell says so or its #! line
// names a shell, as interpreter code when it names an interpreter. It reports whether it knew
// the text; an unread script is a finding.
// An unread script is a finding when required (bash x.sh, source x.sh), not when a program is
// run by its path (./build/app may be a binary the same command builds).
func (a *analyzer) runScript(file Word, shellKind string, f *frame, ctx *callCtx, inv int, required bool) bool {
	text, ok := a.scriptText(file)
	if ok && text == downloaded {
		a.find(FindingPipeToShell, ctx.pos, inv, "runs "+file.Display()+", which this command line downloads")
		return true
	}
	if !ok {
		if required {
			a.find(FindingUnseenScript, ctx.pos, inv, "runs "+file.Display()+", a script the guard cannot read")
		}
		return false
	}
	prog := shebang(text)
	switch {
	case shellKind != "" || shells.has(prog) || (prog == "" && (strings.HasSuffix(file.Value, ".sh") || a.wrote(file.Value))):
		// a file with no #! line that the command line wrote is run by the shell as a script
		a.nested(text, f.with("script "+file.Display()), ctx)
	case interpreter(prog) != "":
		a.scanCode(prog, text, f.with("script "+file.Display()), ctx)
	default:
		return false // a binary, or a language the guard does not read
	}
	if inv >= 0 && inv < len(a.script.Invocations) {
		a.script.Invocations[inv].Followed = true
	}
	return true
}

// packageScript follows npm/pnpm/yarn/bun run NAME (and npm test, start): the script of that
// name in the package.json of the working directory, with its pre and post scripts.
func (a *analyzer) packageScript(name string, args []Word, f *frame, ctx *callCtx) {
	var script string
	rest := skipOpts(args[1:], nil)
	switch {
	case len(rest) == 0:
		return
	case rest[0].Value == "run" || rest[0].Value == "run-script" || rest[0].Value == "rum" || rest[0].Value == "urn":
		if len(rest) < 2 {
			return
		}
		script = rest[1].Value
		if !rest[1].Static {
			a.find(FindingUnseenScript, ctx.pos, -1, name+" runs a package script whose name is not known until it runs")
			return
		}
	case rest[0].Value == "install" || rest[0].Value == "i" || rest[0].Value == "ci":
		if len(rest) > 1 {
			return // installing a package runs its own scripts, not the project's
		}
		script = "install"
	case rest[0].Value == "test" || rest[0].Value == "start" || rest[0].Value == "t":
		script = map[string]string{"t": "test"}[rest[0].Value]
		if script == "" {
			script = rest[0].Value
		}
	case name == "yarn" || name == "pnpm" || name == "bun":
		script = rest[0].Value // yarn NAME runs the script NAME when there is one
	default:
		return
	}
	var scripts map[string]string
	if text, ok := a.scriptText(Word{Value: "package.json", Static: true}); ok {
		scripts = a.packageScripts(text)
	}
	names := []string{"pre" + script, script, "post" + script}
	if script == "install" || script == "ci" || script == "i" {
		names = []string{"preinstall", "install", "postinstall", "prepare"} // the lifecycle scripts install runs
	}
	for _, s := range names {
		body, ok := a.pkgScripts[s] // npm pkg set earlier in the command line
		if !ok {
			body, ok = scripts[s]
		}
		if ok {
			a.nested(body, f.with(name+" run "+s), ctx)
		}
	}
}

// packageScripts returns the scripts of a package.json text (what json.Unmarshal takes of them
// when the file is not all valid), decoding a text once however many commands run its scripts.
// The map is shared: not to be changed.
func (a *analyzer) packageScripts(text string) map[string]string {
	if a.pkgJSON.scripts != nil && a.pkgJSON.text == text {
		return a.pkgJSON.scripts
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	_ = json.Unmarshal([]byte(text), &pkg)
	if pkg.Scripts == nil {
		pkg.Scripts = map[string]string{}
	}
	a.pkgJSON.text, a.pkgJSON.scripts = text, pkg.Scripts
	return pkg.Scripts
}

// makeTargets follows make: the recipes of the targets named (or the first target) in the
// Makefile of the working directory, with make's variables left unknown.
func (a *analyzer) makeTargets(args []Word, f *frame, ctx *callCtx) {
	file := "Makefile"
	var targets []string
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-f" || v == "--file" || v == "--makefile":
			if i+1 < len(args) {
				file = args[i+1].Value
				i++
			}
		case v == "-C" || v == "--directory":
			return // another folder: not read
		case strings.HasPrefix(v, "-") || strings.Contains(v, "="):
		default:
			targets = append(targets, v)
		}
	}
	var text string
	var ok bool
	switch file {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		// the makefile comes on stdin (a heredoc, a here-string, a pipe): its recipes run
		var download string
		text, ok, download = a.stdinText(ctx)
		switch {
		case download != "":
			a.find(FindingPipeToShell, ctx.pos, -1, "a download ("+download+") is piped into make as its makefile")
			return
		case !ok && (ctx.stdin != nil || hasStdinString(ctx.stmt)):
			a.find(FindingShellStdin, ctx.pos, -1, "make reads a makefile from stdin that cannot be seen")
			return
		case !ok && hasStdinFile(ctx.stmt):
			a.find(FindingUnseenScript, ctx.pos, -1, "make reads a makefile the guard cannot read")
			return
		case !ok:
			return
		}
	default:
		if text, ok = a.scriptText(Word{Value: file, Static: true}); !ok {
			if text, ok = a.scriptText(Word{Value: "makefile", Static: true}); !ok {
				return
			}
		}
	}
	recipes, first := makeRecipes(text)
	if len(targets) == 0 && first != "" {
		targets = []string{first}
	}
	seen := map[string]bool{}
	var follow func(t string, depth int)
	follow = func(t string, depth int) {
		if seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		r, ok := recipes[t]
		if !ok {
			return
		}
		for _, dep := range r.deps {
			follow(dep, depth+1)
		}
		if len(r.lines) > 0 {
			a.nested(makeToShell(strings.Join(r.lines, "\n")), f.with("make "+t), ctx)
		}
	}
	for _, t := range targets {
		follow(t, 0)
	}
}

type makeRecipe struct {
	deps  []string
	lines []string
}

// makeRecipes reads a Makefile's rules: each target's prerequisites and recipe lines.
func makeRecipes(text string) (map[string]*makeRecipe, string) {
	out := map[string]*makeRecipe{}
	first := ""
	var cur []*makeRecipe
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "\t") {
			cmd := strings.TrimLeft(strings.TrimSpace(line), "@-+")
			for _, r := range cur {
				r.lines = append(r.lines, cmd)
			}
			continue
		}
		cur = nil
		if strings.HasPrefix(strings.TrimSpace(line), "#") || strings.Contains(line, ":=") || strings.Contains(line, "?=") {
			continue
		}
		head, deps, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(head, "=$") || strings.HasPrefix(deps, "=") {
			continue
		}
		deps, recipe, hasRecipe := strings.Cut(deps, ";")
		for _, t := range strings.Fields(head) {
			if strings.HasPrefix(t, ".") {
				continue
			}
			r := out[t]
			if r == nil {
				r = &makeRecipe{}
				out[t] = r
			}
			r.deps = append(r.deps, strings.Fields(deps)...)
			if hasRecipe {
				r.lines = append(r.lines, strings.TrimSpace(recipe))
			}
			cur = append(cur, r)
			if first == "" && !strings.Contains(t, "%") {
				first = t
			}
		}
	}
	return out, first
}

// makeToShell turns make's syntax in a recipe into shell the analysis reads: $$ is $, and make's
// own variables and functions, $(X) and ${X}, become unknown values.
func makeToShell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			closing := map[byte]byte{'(': ')', '{': '}'}[c]
			depth, j := 0, i+1
			for ; j < len(s); j++ {
				if s[j] == c {
					depth++
				} else if s[j] == closing {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			b.WriteString("${MAKEVAR_}")
			i = j
		default:
			b.WriteString("${MAKEVAR_}") // $@, $<, $X
			i++
		}
	}
	return b.String()
}

// sourced follows source FILE and . FILE: the file is shell code run in this shell.
func (a *analyzer) sourced(args []Word, f *frame, ctx *callCtx, inv int) {
	rest := skipOpts(args[1:], nil)
	if len(rest) == 0 {
		return
	}
	switch file := rest[0]; {
	case file.Value == "/dev/stdin" || file.Value == "-":
		a.stdinScript(args, path.Base(args[0].Value), f.with("source <stdin>"), ctx, "shell")
		return
	case strings.HasPrefix(file.Value, "/dev/fd/") && !file.Static:
		// source <(CMD): what CMD prints, run in this shell
		if !envGenerator("$" + strings.TrimPrefix(file.Raw, "<")) {
			a.find(FindingShellStdin, ctx.pos, inv, "sources what "+file.Display()+" prints, which cannot be seen")
		}
		return
	}
	a.runScript(rest[0], "sh", f, ctx, inv, false) // an unread one (.venv/bin/activate) as before
}

// rememberLink keeps a symbolic link the command line makes (ln -s TARGET LINK), so that a
// later path through it (rm -rf LINK/) is read as the target's; and the tree of links cp -s or
// cp -l makes (cp -rs TARGET LINK), which a path through LINK writes the same way.
func (a *analyzer) rememberLink(args []Word) {
	symbolic := false
	cp := path.Base(args[0].Value) != "ln"
	var pos []Word
	for _, w := range args[1:] {
		switch {
		case strings.HasPrefix(w.Value, "--symbolic"), cp && w.Value == "--link":
			symbolic = true
		case cp && (w.Value == "-t" || w.Value == "-S" || strings.HasPrefix(w.Value, "-S")):
			return // a destination folder or a suffix: not TARGET LINK
		case len(w.Value) > 1 && w.Value[0] == '-' && w.Value[1] != '-':
			symbolic = symbolic || strings.Contains(w.Value, "s") || cp && strings.Contains(w.Value, "l")
		case !strings.HasPrefix(w.Value, "-"):
			pos = append(pos, w)
		}
	}
	if !symbolic || len(pos) != 2 || !pos[0].Static || !pos[1].Static {
		return
	}
	target, link := pos[0].Value, pos[1].Value
	if !path.IsAbs(link) {
		if a.cwd == "" {
			return
		}
		link = path.Join(a.cwd, link)
	}
	if !path.IsAbs(target) {
		target = path.Join(path.Dir(link), target)
	}
	if a.links == nil {
		a.links = map[string]string{}
	}
	a.links[path.Clean(link)] = path.Clean(target)
}

// throughLinks rewrites arguments that go through a link made earlier in the command line
// (LINK/, LINK/*, LINK/x) to the target's path; LINK alone names the link itself. The path is
// followed as the kernel opens it: LINK/../x is x in the folder above the target, and in a
// working directory a cd into a link made (cd LINK && echo > x), a relative x is in the target.
func (a *analyzer) throughLinks(args []Word) []Word {
	if len(a.links) == 0 {
		return args
	}
	out := args
	inLink := a.cwdInLink()
	for i, w := range args {
		if i == 0 || !w.Static || !strings.Contains(w.Value, "/") && (!inLink || strings.HasPrefix(w.Value, "-") || w.Value == "") {
			continue
		}
		if v, ok := a.viaLinks(w.Value); ok {
			if &out[0] == &args[0] {
				out = append([]Word{}, args...)
			}
			out[i].Value = v
		}
	}
	return out
}

// cwdInLink reports whether the working directory is a link made earlier in the command line,
// or inside one.
func (a *analyzer) cwdInLink() bool {
	_, ok := a.linkOf(a.cwd)
	return ok
}

// linkOf is p (absolute) with the link made earlier in the command line that it is, or is
// inside, replaced by the link's target.
func (a *analyzer) linkOf(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	for link, target := range a.links {
		if rest, ok := strings.CutPrefix(p, link); ok && (rest == "" || rest[0] == '/') {
			return path.Join(target, rest), true
		}
	}
	return "", false
}

// viaLinks is p (absolute, or relative to the working directory) followed element by element
// through the links made earlier in the command line, as the kernel follows it; false when it
// goes through none. A link that is p's last element, with no slash after it, is not followed.
func (a *analyzer) viaLinks(p string) (string, bool) {
	cur, through := "/", false
	if !path.IsAbs(p) {
		if a.cwd == "" {
			return "", false
		}
		cur = a.cwd
		if t, ok := a.linkOf(cur); ok {
			cur, through = t, true
		}
	}
	elems := strings.Split(p, "/")
	for i, e := range elems {
		switch e {
		case "", ".":
		case "..":
			cur = path.Dir(cur)
		default:
			cur = path.Join(cur, e)
			if t, ok := a.links[cur]; ok && i < len(elems)-1 {
				cur, through = t, true
			}
		}
	}
	return cur, through
}

// downloaded marks a file the command line fetched from the network: its text is not known,
// and running it is running a download.
const downloaded = "\x00downloaded"

// rememberDownload keeps the file curl -o FILE or wget -O FILE writes.
func (a *analyzer) rememberDownload(args []Word) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		var file string
		switch {
		case (v == "-o" || v == "--output" || v == "-O" && path.Base(args[0].Value) == "wget" || v == "--output-document") && i+1 < len(args):
			file = args[i+1].Value
		case strings.HasPrefix(v, "--output=") || strings.HasPrefix(v, "--output-document="):
			_, file, _ = strings.Cut(v, "=")
		case len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.HasSuffix(v, "o") && i+1 < len(args),
			len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.HasSuffix(v, "O") && path.Base(args[0].Value) == "wget" && i+1 < len(args):
			file = args[i+1].Value // curl -so FILE, wget -qO FILE
		default:
			continue
		}
		if file == "" || file == "-" {
			continue
		}
		if !path.IsAbs(file) {
			if a.cwd == "" {
				continue
			}
			file = path.Join(a.cwd, file)
		}
		if a.written == nil {
			a.written = map[string]string{}
		}
		a.written[path.Clean(file)] = downloaded
	}
}

// rememberPkgScript keeps the scripts npm pkg set writes into package.json, for npm run and
// npm install later in the same command line.
func (a *analyzer) rememberPkgScript(args []Word) {
	if len(args) < 4 || args[1].Value != "pkg" || args[2].Value != "set" {
		return
	}
	for _, w := range args[3:] {
		key, val, ok := strings.Cut(w.Value, "=")
		name, isScript := strings.CutPrefix(key, "scripts.")
		if !ok || !isScript || !w.Static {
			continue
		}
		if a.pkgScripts == nil {
			a.pkgScripts = map[string]string{}
		}
		a.pkgScripts[name] = val
	}
}
