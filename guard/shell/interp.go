package shell

import (
	"path"
	"strings"

	"github.com/agenthooks/agenthooks/guard/code"
	"github.com/agenthooks/agenthooks/guard/sqlc"
)

// interpreter returns the language of an interpreter's program name (guard/code's), or "".
func interpreter(name string) string {
	if name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" {
		return "" // awk's program is its first argument: see awkCode
	}
	return code.Language(name)
}

// versioned reports whether name is base followed only by digits and dots (python3.12).
func versioned(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// codeOpt reports whether v is an option of lang's interpreter that takes inline code.
func codeOpt(lang, v string) bool {
	switch lang {
	case "python":
		return v == "-c"
	case "javascript":
		return v == "-e" || v == "--eval" || v == "-p" || v == "--print" || v == "eval"
	case "ruby", "lua":
		return v == "-e"
	case "php":
		return v == "-r"
	case "r":
		return v == "-e" || v == "--expr"
	}
	return false
}

// interpreter records an interpreter run and checks its inline or stdin code.
func (a *analyzer) interpreter(args []Word, lang string, f *frame, ctx *callCtx) {
	name := path.Base(args[0].Value)
	var code []Word
	var scriptFile *Word
	positional, module := 0, false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		isCode := codeOpt(lang, v)
		if lang == "julia" && (v == "-e" || v == "-E" || v == "--eval" || v == "--print") {
			isCode = true
		}
		if lang == "perl" && perlCodeOpt(v) {
			isCode = true
		}
		switch {
		case isCode && i+1 < len(args):
			code = append(code, args[i+1])
			i++
		case v == "-m" && lang == "python":
			module = true
			i = len(args)
		case v == "-" || !strings.HasPrefix(v, "-"):
			positional++
			if v != "-" {
				w := args[i]
				scriptFile = &w
				i = len(args) // the script file; what follows are its arguments
			}
		}
	}
	f = f.with(name + " code")
	if len(code) == 0 && positional == 0 && hasAnyFlag(args[1:], "--version", "-V", "--help", "-h", "-VV", "-v") {
		a.record(args, name, f.parentOf(), ctx) // python3 --version: nothing is run
		return
	}
	if len(code) == 0 && !module && positional == 0 && ctx.stdin == nil && !hasStdinString(ctx.stmt) && !hasStdinFile(ctx.stmt) {
		a.record(args, name, f.parentOf(), ctx) // php -m, node --test, a REPL: nothing is fed to run
		return
	}
	if len(code) == 0 && !module && (positional == 0 || hasAnyFlag(args[1:], "-")) {
		if text, ok := a.stdinScript(args, name, f, ctx, "interpreter"); ok {
			code = append(code, Word{Value: text, Static: true})
		} else {
			return // recorded with its finding by stdinScript
		}
	}
	i := a.record(args, name, f.parentOf(), ctx)
	a.database(name, args, f.parentOf(), ctx, i) // php artisan migrate:fresh, python manage.py flush
	if scriptFile != nil && len(code) == 0 && !scriptFile.Static && isProcSubst(*scriptFile) {
		a.substScript(scriptFile.Raw, name, ctx, i) // python3 <(curl ...)
		return
	}
	if scriptFile != nil && len(code) == 0 {
		if text, ok := a.scriptText(*scriptFile); ok {
			code = append(code, Word{Value: text, Static: true})
		}
	}
	for _, c := range code {
		if c.Static {
			a.script.Invocations[i].Code = append(a.script.Invocations[i].Code, c.Value)
		}
	}
	for _, c := range code {
		if !c.Static {
			a.find(FindingDynamicScript, ctx.pos, -1, name+" runs code that is not known until it runs")
			continue
		}
		a.scanCode(name, c.Value, f, ctx)
	}
}

// parentOf drops the last wrapper: the interpreter itself is recorded outside its own code.
func (f *frame) parentOf() *frame {
	g := *f
	g.wrappers = f.wrappers[:len(f.wrappers)-1]
	return &g
}

// scanCode reads interpreter code with guard/code's tokenizer for its language: the shell
// commands it runs are read as shell, and what it deletes, writes, kills and forks is judged as
// the same effect written in shell would be (a delete is an rm of its target, a write a
// redirection onto it), so every rule and protection applies to code too.
func (a *analyzer) scanCode(name, text string, f *frame, ctx *callCtx) {
	if !a.afford(len(text)) {
		return
	}
	r := code.Scan(name, text)
	pf := f.parentOf()
	for _, s := range r.ShellOuts {
		if a.spent {
			break
		}
		if s.Dynamic {
			a.find(FindingCodeDynamic, ctx.pos, -1, name+" code runs a command built at run time ("+s.Call+")")
		}
		if cmd := s.Command; strings.TrimSpace(cmd) != "" {
			if s.Argv {
				// the home folder by expression, quoted as a word: it is ~ to the shell
				cmd = strings.ReplaceAll(strings.ReplaceAll(cmd, " '~'", " ~"), " '~/", " ~/'")
			}
			a.nested(cmd, f.with(name+" "+s.Call), ctx)
		}
	}
	for _, e := range r.Evals {
		if !e.Dynamic {
			continue
		}
		if len(r.Net) > 0 {
			// exec(urlopen(...).read()), fetch(...).then(eval): a download run as code
			a.find(FindingPipeToShell, ctx.pos, -1, name+" code runs what it downloads ("+e.Call+")")
			continue
		}
		a.find(FindingCodeDynamic, ctx.pos, -1, name+" code evaluates code built at run time ("+e.Call+")")
	}
	for _, d := range r.Deletes {
		if a.spent {
			break
		}
		target := a.codeTarget(d.Target)
		switch d.Target.Kind {
		case code.KindRoot, code.KindHome:
			a.find(FindingCodeDelete, ctx.pos, -1, name+" code deletes "+target.Display()+" with "+d.Call)
		}
		args := []Word{{Value: "rm", Static: true, Raw: d.Call, Source: "code"}}
		if d.Recursive {
			args = append(args, Word{Value: "-r", Static: true, Source: "code"})
		}
		a.record(append(args, target), "rm", pf.with(name+" "+d.Call), ctx)
	}
	for _, w := range r.Writes {
		if a.spent {
			break
		}
		target := a.codeTarget(w.Target)
		a.record([]Word{{Value: w.Call, Static: true, Source: "code"}}, "", pf.with(name+" "+w.Call),
			&callCtx{stmt: ctx.stmt, pos: ctx.pos, redirs: []Redirect{{Op: map[bool]string{true: ">>", false: ">"}[w.Append], Target: target}}})
	}
	for _, w := range r.RawDisk {
		a.find(FindingDeviceWrite, ctx.pos, -1, name+" code writes to disk device "+w.Target.Path)
	}
	for _, k := range r.Kills {
		if a.spent {
			break
		}
		a.record([]Word{{Value: "kill", Static: true, Source: "code"}, {Value: "-9", Static: true}, {Value: k.PID, Static: k.PID != code.Placeholder}},
			"kill", pf.with(name+" "+k.Call), ctx)
	}
	// SQL the code hands a database driver (cursor.execute("DROP TABLE users")): judged as the
	// statements it is
	if strings.Contains(text, "execute") || strings.Contains(text, ".exec(") || strings.Contains(text, ".query(") {
		for _, lit := range quotedStrings(text) {
			for _, st := range sqlc.Classify("postgres", lit) {
				if st.Destructive {
					a.find(FindingSQLDestroy, ctx.pos, -1, name+" code runs "+clipText(st.Text)+" ("+st.Kind+")")
				}
			}
		}
	}
	for _, fl := range r.ForkLoops {
		a.find(FindingForkBomb, ctx.pos, -1, name+" code forks in an endless loop ("+fl.Call+")")
	}
	for _, u := range r.Unsure {
		if strings.Contains(u, "bound") || strings.Contains(u, "limit") {
			a.find(FindingTooDeep, ctx.pos, -1, name+" code: "+u)
		}
	}
}

// quotedStrings lists the single- and double-quoted string literals of code that hold an SQL
// keyword, at most 64 of them.
func quotedStrings(code string) []string {
	var out []string
	for i := 0; i < len(code) && len(out) < 64; i++ {
		q := code[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q && code[j] != '\n' {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(code) || code[j] != q {
			continue
		}
		lit := code[i+1 : j]
		if u := strings.ToUpper(lit); strings.Contains(u, "DROP") || strings.Contains(u, "TRUNCATE") || strings.Contains(u, "DELETE") ||
			strings.Contains(u, "UPDATE") || strings.Contains(u, "ALTER") {
			out = append(out, lit)
		}
		i = j
	}
	return out
}

// codeTarget is a path interpreter code names, as a word the rules read: ~ is the home folder,
// and what is known only at run time is dynamic.
func (a *analyzer) codeTarget(t code.Target) Word {
	p := t.Path
	switch t.Kind {
	case code.KindRoot:
		p = "/"
	case code.KindHome:
		if a.opts.Home == "" {
			return Word{Value: Dyn, Raw: "~"}
		}
		p = a.opts.Home + strings.TrimPrefix(p, "~")
	case code.KindDynamic:
		if p == "" {
			return Word{Value: Dyn, Raw: "(computed)"}
		}
		v := strings.ReplaceAll(p, code.Placeholder, Dyn)
		return Word{Value: v, Static: !strings.Contains(v, Dyn), Raw: p}
	}
	return Word{Value: p, Static: true, Raw: t.Path}
}

// Quote makes s one word for a POSIX shell: as is when it holds only characters no shell treats
// specially (letters, digits and /._+:,@%-; not =, which could make a first word an
// assignment), else in single quotes.
func Quote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._+:,@%-", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
