package shell

import (
	"strings"
)

// git's indirections: a command line can make git run a command of its choosing (an alias
// starting with !, core.editor, core.pager, core.sshCommand, core.fsmonitor, rebase --exec,
// bisect run, submodule foreach) or make a git command mean another (an alias of push --force,
// clean.requireForce=false). Each command a setting names is read as shell; an alias is read
// as what it stands for.

// gitCommandKeys are git settings whose value is a command git runs.
var gitCommandKeys = words{"core.askpass", "core.editor", "core.fsmonitor", "core.gitproxy", "core.pager", "core.sshcommand", "credential.helper", "diff.external", "diff.tool", "gpg.program", "gpg.ssh.program", "gpg.x509.program", "interactive.difffilter", "merge.tool", "pager.branch", "pager.diff", "pager.log", "pager.show", "sendemail.sendmailcmd", "sequence.editor", "uploadpack.packobjectshook", "web.browser"}

// gitCommandEnv are the variables whose value is a command git (or a shell) runs.
var gitCommandEnv = words{"BROWSER", "EDITOR", "GIT_ASKPASS", "GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "LESSOPEN", "MANPAGER", "PAGER", "PROMPT_COMMAND", "SSH_ASKPASS", "VISUAL"}

// commandSetting reads the value of a setting or variable that names a command as shell code:
// a git setting's value starts with ! for a shell command, otherwise it is a command line
// already. PROMPT_COMMAND and friends likewise.
func (a *analyzer) commandSetting(name string, value Word, f *frame, ctx *callCtx) {
	if !value.Static {
		a.find(FindingDynamicScript, ctx.pos, -1, name+" is set to a command that is not known until it runs: "+value.Display())
		return
	}
	v := strings.TrimPrefix(strings.TrimSpace(value.Value), "!")
	if v == "" {
		return
	}
	a.nested(v, f.with(name), ctx)
}

// gitCmd reads a git command line: its -c settings, its aliases, and the subcommands that run
// other commands. It records the git invocation git will run (an alias expanded) and reports
// true.
func (a *analyzer) gitCmd(args []Word, f *frame, ctx *callCtx) bool {
	i := 1
	settings := map[string]Word{}
	for i < len(args) {
		v := args[i].Value
		switch {
		case v == "-c" && i+1 < len(args):
			key, val, _ := strings.Cut(args[i+1].Value, "=")
			w := args[i+1]
			w.Value = val
			settings[strings.ToLower(key)] = w
			i += 2
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--config-env" || v == "--super-prefix":
			i += 2
		case strings.HasPrefix(v, "-"):
			i++
		default:
			goto verb
		}
	}
verb:
	for key, val := range settings {
		if gitCommandKeys.has(key) || strings.HasPrefix(key, "pager.") || strings.HasSuffix(key, ".textconv") ||
			strings.HasPrefix(key, "filter.") && (strings.HasSuffix(key, ".clean") || strings.HasSuffix(key, ".smudge") || strings.HasSuffix(key, ".process")) {
			a.commandSetting("git -c "+key, val, f, ctx)
		}
	}
	if i >= len(args) {
		a.record(args, "git", f, ctx)
		return true
	}
	verb := args[i].Value
	rest := args[i+1:]
	// an alias, from -c or from a git config earlier in the same command line
	alias, isAlias := settings["alias."+strings.ToLower(verb)]
	if !isAlias {
		alias, isAlias = a.gitAliases[verb]
	}
	if isAlias {
		if !alias.Static {
			a.find(FindingDynamicScript, ctx.pos, -1, "git alias "+verb+" is not known until it runs")
			a.record(args, "git", f, ctx)
			return true
		}
		if body, ok := strings.CutPrefix(strings.TrimSpace(alias.Value), "!"); ok {
			words := []string{body}
			for _, w := range rest {
				words = append(words, Quote(w.Value))
			}
			a.record(args, "git", f, ctx)
			a.nested(strings.Join(words, " "), f.with("git alias "+verb), ctx)
			return true
		}
		expanded := append([]Word{}, args[:i]...)
		for _, part := range strings.Fields(alias.Value) {
			expanded = append(expanded, Word{Value: part, Static: true, Raw: part})
		}
		expanded = append(expanded, rest...)
		delete(a.gitAliases, verb) // an alias does not expand itself
		a.record(expanded, "git", f.with("git alias "+verb), ctx)
		return true
	}
	if rf, ok := settings["clean.requireforce"]; ok && verb == "clean" && rf.Value == "false" {
		args = append(append(append([]Word{}, args[:i+1]...), Word{Value: "--force", Static: true, Raw: "(clean.requireForce=false)"}), rest...)
	}
	a.record(args, "git", f, ctx)
	switch verb {
	case "config":
		a.gitConfig(rest, f, ctx)
	case "rebase":
		for j := 0; j < len(rest); j++ {
			v := rest[j].Value
			if (v == "--exec" || v == "-x") && j+1 < len(rest) {
				a.nestedArgs(rest[j+1:j+2], f.with("git rebase --exec"), ctx)
				j++
			} else if cmd, ok := strings.CutPrefix(v, "--exec="); ok {
				w := rest[j]
				w.Value = cmd
				a.nestedArgs([]Word{w}, f.with("git rebase --exec"), ctx)
			}
		}
	case "bisect":
		if len(rest) > 1 && rest[0].Value == "run" {
			a.invoke(rest[1:], f.with("git bisect run"), ctx)
		}
	case "submodule":
		body := rest
		if len(body) > 0 && body[0].Value == "foreach" {
			body = skipOpts(body[1:], nil)
			if len(body) > 0 {
				a.nestedArgs(body, f.with("git submodule foreach"), ctx)
			}
		}
	}
	return true
}

// gitConfig follows git config KEY VALUE: an alias is remembered for the rest of the command
// line, and a setting that names a command is read as one.
func (a *analyzer) gitConfig(rest []Word, f *frame, ctx *callCtx) {
	var pos []Word
	for _, w := range rest {
		if strings.HasPrefix(w.Value, "-") && w.Static {
			continue
		}
		pos = append(pos, w)
	}
	if len(pos) < 2 || !pos[0].Static {
		return
	}
	key := strings.ToLower(pos[0].Value)
	val := pos[1]
	switch {
	case strings.HasPrefix(key, "alias."):
		if a.gitAliases == nil {
			a.gitAliases = map[string]Word{}
		}
		a.gitAliases[pos[0].Value[len("alias."):]] = val
		if strings.HasPrefix(strings.TrimSpace(val.Value), "!") {
			a.commandSetting("git config "+key, val, f, ctx)
		}
	case gitCommandKeys.has(key) || strings.HasPrefix(key, "pager.") || strings.HasSuffix(key, ".textconv"):
		a.commandSetting("git config "+key, val, f, ctx)
	}
}

// commandVariable reads a variable that names a command (GIT_EDITOR, PAGER) as shell code, and
// one that names a script the shell sources (BASH_ENV, ENV) as that script.
func (a *analyzer) commandVariable(name string, value Word, f *frame, ctx *callCtx) {
	if name == "BASH_ENV" || name == "ENV" {
		if value.Value != "" {
			a.runScript(value, "sh", f.with(name), ctx, -1, true)
		}
		return
	}
	a.commandSetting(name, value, f, ctx)
}
