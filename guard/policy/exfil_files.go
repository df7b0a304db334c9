package policy

import (
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// A secret value written to a file is sent from it as surely as from the variable: echo
// "$GH_TOKEN" > t; curl -d @t URL sends the token. The line is followed in the order it runs:
// each file a redirection, tee, sponge or dd of= writes holds what the command that writes it
// prints, a secret when that command prints one (echo or printf of a secret variable, of a
// copy of one or of a credential command's substitution, printenv NAME, gh auth token and the
// other credentialOutput commands) or copies one from its stdin (cat, tee, dd, an encoder fed
// a here-string, an unquoted heredoc or a pipe from such a command: Invocation.PipedFrom); a
// later write of something else forgets it. A sender that then names the file (curl -d @t,
// -F f=@t, -F f=<t, -T t, --data-binary @t, wget --post-file=t), reads it on stdin (curl -d
// @- URL < t), or is piped what cat prints of it is judged as for the value itself
// (secretValueSent); one that publishes the file (gh gist create t, gh release upload v1 t)
// sends it away whatever its service, and git add, commit and push carry it too
// (exfil_git.go).

// secretFileSent finds a sender on the line that sends a file written, earlier on the same
// line, from a secret value to a place the value does not belong: the sender's index and the
// value.
func secretFileSent(s *shell.Script, project string, piped func(secretValue) (int, bool)) (int, secretValue, bool) {
	var written map[string]secretValue // absolute path -> what it holds; made on the first secret written
	git := gitCarry{project: project}  // written files staged, committed, pushed (exfil_git.go)
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		if len(inv.Args) == 0 {
			continue
		}
		if v, ok := git.step(s, inv, written); ok {
			return i, v, true
		}
		if len(written) > 0 {
			if isSender(inv) {
				if v, ok := sentFromFile(inv, written); ok {
					return i, v, true
				}
			} else if v, ok := catOfFile(inv, written); ok {
				if j, ok := piped(v); ok {
					return j, v, true // cat t | curl -d @- URL
				}
			}
		}
		for _, f := range writtenFiles(inv) {
			if v, ok := printsSecret(s, inv); ok {
				if written == nil {
					written = map[string]secretValue{}
				}
				written[f.path] = v
			} else if !f.appends && written != nil {
				delete(written, f.path) // overwritten with something else
			}
		}
	}
	return 0, secretValue{}, false
}

// fileWrite is a file an invocation writes, absolute, and whether it appends to it.
type fileWrite struct {
	path    string
	appends bool
}

// writtenFiles lists the files an invocation writes what it prints to: its output
// redirections, tee's and sponge's operands, and dd's of=.
func writtenFiles(inv *shell.Invocation) []fileWrite {
	var out []fileWrite
	add := func(p string, appends bool) {
		if p == "" || strings.HasPrefix(p, "/dev/") || strings.Contains(p, shell.Dyn) {
			return
		}
		if abs, ok := absolute(p, inv.Cwd); ok {
			out = append(out, fileWrite{abs, appends})
		}
	}
	for _, r := range inv.Redirects {
		switch r.Op {
		case ">", ">|", "&>":
			add(r.Target.Value, false)
		case ">>", "&>>":
			add(r.Target.Value, true)
		}
	}
	switch inv.Name {
	case "tee", "sponge":
		appends := false
		for _, w := range inv.Args[1:] {
			switch v := w.Value; {
			case v == "-a" || v == "--append":
				appends = true
			case strings.HasPrefix(v, "-"):
			default:
				add(v, appends)
			}
		}
	case "dd":
		appends := false
		for _, w := range inv.Args[1:] {
			appends = appends || strings.HasPrefix(w.Value, "oflag=") && strings.Contains(w.Value, "append")
		}
		for _, w := range inv.Args[1:] {
			if p, ok := strings.CutPrefix(w.Value, "of="); ok {
				add(p, appends)
			}
		}
	}
	return out
}

// printsSecret is the secret value an invocation prints, or ok false: a secret variable (or a
// copy of one, or a command that prints a credential as a substitution) that echo or printf
// prints, the variable printenv NAME prints, a command that prints a credential, or what a
// command that copies its stdin (cat, tee, dd, base64, ...) reads from a here-string, an
// unquoted heredoc or a pipe that carries one.
func printsSecret(s *shell.Script, inv *shell.Invocation) (secretValue, bool) {
	return printedSecret(s, inv, 0)
}

// maxPipeStages bounds how far back along a pipeline printedSecret looks.
const maxPipeStages = 8

func printedSecret(s *shell.Script, inv *shell.Invocation, depth int) (secretValue, bool) {
	if len(inv.Args) == 0 {
		return secretValue{}, false
	}
	if v, ok := credentialOutput(inv); ok {
		return v, true
	}
	var raws []string
	switch inv.Name {
	case "echo", "printf":
		for _, w := range inv.Args[1:] {
			if !w.Static {
				raws = append(append(raws, w.Raw), w.From...)
			}
		}
	case "printenv":
		for _, w := range inv.Args[1:] {
			if v, ok := secretVariable(w.Value); ok && w.Static {
				return v, true
			}
		}
	}
	if copiesStdin(inv) {
		for _, r := range inv.Redirects {
			if (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && !r.Target.Static {
				raws = append(append(raws, r.Target.Raw), r.Target.From...)
			}
		}
		for _, j := range inv.PipedFrom {
			if depth < maxPipeStages && j >= 0 && j < len(s.Invocations) {
				if v, ok := printedSecret(s, &s.Invocations[j], depth+1); ok {
					return v, true
				}
			}
		}
	}
	return secretIn(s, raws)
}

// secretIn is the secret that text as written expands, or ok false: a secret variable, or a
// command substitution of a command that prints a credential ("$(gh auth token)").
func secretIn(s *shell.Script, raws []string) (secretValue, bool) {
	for _, raw := range raws {
		for _, name := range shell.VariablesIn(raw) {
			if v, ok := secretVariable(name); ok {
				return v, true
			}
		}
		if !strings.Contains(raw, "$(") && !strings.Contains(raw, "`") {
			continue
		}
		for i := range s.Invocations {
			inv := &s.Invocations[i]
			if len(inv.Args) == 0 || !inv.Under("$(…)") ||
				!strings.Contains(raw, "$("+inv.Name+" ") && !strings.Contains(raw, "`"+inv.Name+" ") {
				continue
			}
			if v, ok := credentialOutput(inv); ok {
				return v, true
			}
		}
	}
	return secretValue{}, false
}

// copiesStdin reports whether a command prints (or writes to its files) what it reads on
// stdin, as it is or encoded so that it can be decoded: tee and sponge; cat, dd and the
// encoders and filters when no operand names another file to read. A digest or a count of it
// (sha256sum, wc) is not the secret.
func copiesStdin(inv *shell.Invocation) bool {
	var valueOpts []string
	switch inv.Name {
	case "tee", "sponge", "tr":
		return true
	case "dd":
		for _, w := range inv.Args[1:] {
			if v, ok := strings.CutPrefix(w.Value, "if="); ok && v != "-" && v != "/dev/stdin" {
				return false
			}
		}
		return true
	case "cat", "base64", "base32", "basenc", "rev", "gzip", "bzip2", "xz", "zstd", "lz4", "od", "hexdump", "xxd":
	case "head", "tail":
		valueOpts = []string{"-n", "-c", "--lines", "--bytes"}
	case "fold":
		valueOpts = []string{"-w", "--width"}
	default:
		return false
	}
	for k := 1; k < len(inv.Args); k++ {
		v := inv.Args[k].Value
		switch {
		case slices.Contains(valueOpts, v):
			k++
		case v == "-" || v == "/dev/stdin" || strings.HasPrefix(v, "-") && v != "--":
		default:
			return false // reads the file it names
		}
	}
	return true
}

// sentFromFile is the secret a sender sends from a file written earlier on the line, when it
// sends it where the secret does not belong: a file it names (as an operand, after "@" or "<",
// or as an option's value) or reads on stdin.
func sentFromFile(inv *shell.Invocation, written map[string]secretValue) (secretValue, bool) {
	for k, w := range inv.Args {
		if k == 0 || !w.Static {
			continue
		}
		for _, p := range namedFiles(w.Value) {
			abs, ok := absolute(p, inv.Cwd)
			if v, held := written[abs]; ok && held && (sentAway(inv, k, v) || publishes(inv)) {
				return v, true
			}
		}
	}
	if stdinSender(inv) {
		for _, r := range inv.Redirects {
			if r.Op != "<" {
				continue
			}
			abs, ok := absolute(r.Target.Value, inv.Cwd)
			if v, held := written[abs]; ok && held && !toService(inv, v) {
				return v, true
			}
		}
	}
	return secretValue{}, false
}

// catOfFile is the secret cat prints of a file written earlier on the line.
func catOfFile(inv *shell.Invocation, written map[string]secretValue) (secretValue, bool) {
	if inv.Name != "cat" {
		return secretValue{}, false
	}
	for _, w := range inv.Args[1:] {
		if abs, ok := absolute(w.Value, inv.Cwd); ok && w.Static {
			if v, held := written[abs]; held {
				return v, true
			}
		}
	}
	return secretValue{}, false
}

// namedFiles are the files a sender's word may name: the word itself (-T FILE, scp FILE
// host:), what follows its "@" (curl -d @FILE, -F f=@FILE) or "<" (-F f=<FILE), and an option's
// value after "=" (--post-file=FILE, --upload-file=FILE).
func namedFiles(v string) []string {
	out := []string{v}
	if strings.Contains(v, "://") {
		return out
	}
	for _, sep := range []string{"@", "<"} {
		if _, after, ok := strings.Cut(v, sep); ok {
			after, _, _ = strings.Cut(after, ";") // -F f=@FILE;type=text/plain
			out = append(out, after)
		}
	}
	if _, after, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
		out = append(out, after)
	}
	return out
}
