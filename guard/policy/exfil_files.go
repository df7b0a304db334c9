package policy

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// A secret value written to a file is sent from it as surely as from the variable: echo
// "$GH_TOKEN" > t; curl -d @t URL sends the token. The line is followed in the order it runs:
// each file a redirection (or tee) writes holds what the command that writes it prints, a
// secret when that command prints one (echo or printf of a secret variable or of a copy of
// one, printenv NAME, cat or tee of a here-string, gh auth token and the other credentialOutput
// commands); a later write of something else forgets it. A sender that then names the file
// (curl -d @t, -F f=@t, -F f=<t, -T t, --data-binary @t, wget --post-file=t), reads it on
// stdin (curl -d @- URL < t), or is piped what cat prints of it is judged as for the value
// itself (secretValueSent).

// secretFileSent finds a sender on the line that sends a file written, earlier on the same
// line, from a secret value to a place the value does not belong: the sender's index and the
// value.
func secretFileSent(s *shell.Script, piped func(secretValue) (int, bool)) (int, secretValue, bool) {
	var written map[string]secretValue // absolute path -> what it holds; made on the first secret written
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		if len(inv.Args) == 0 {
			continue
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
			if v, ok := printsSecret(inv); ok {
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
// redirections, and tee's operands.
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
	if inv.Name == "tee" {
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
	}
	return out
}

// printsSecret is the secret value an invocation prints, or ok false: a secret variable (or a
// copy of one) that echo or printf prints, the variable printenv NAME prints, a here-string of
// one that cat or tee copies, or a command that prints a credential.
func printsSecret(inv *shell.Invocation) (secretValue, bool) {
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
	case "cat", "tee":
		for _, r := range inv.Redirects {
			if r.Op == "<<<" && !r.Target.Static {
				raws = append(append(raws, r.Target.Raw), r.Target.From...)
			}
		}
	}
	for _, raw := range raws {
		for _, name := range shell.VariablesIn(raw) {
			if v, ok := secretVariable(name); ok {
				return v, true
			}
		}
	}
	return secretValue{}, false
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
			if v, held := written[abs]; ok && held && sentAway(inv, k, v) {
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
