package policy

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// clusterTarget raises a destructive verb the vocabulary only asks about to a deny when what it
// hits is known to be beyond repair: a cluster's production or system namespace or context
// (helm uninstall db -n prod, kubectl -n kube-system delete deploy coredns), kinds not known
// until it runs (kubectl delete $(...): they can be namespaces), or names computed from a
// listing of everything by the same tool (docker volume rm $(docker volume ls -q)).
func clusterTarget(v *view, m Match) (Match, bool) {
	if m.Decision != Ask {
		return m, false
	}
	deny := func(msg string) (Match, bool) {
		m.Rule, m.Decision, m.Message = RuleClusterTarget, Deny, msg
		return m, true
	}
	narrowed := false // operands from a listing the same tool narrowed: names it chose
	for _, w := range v.positional {
		listed, all := fedByListing(v.name, w)
		if all {
			return deny("a destructive subcommand aimed at everything a listing names")
		}
		narrowed = narrowed || listed
	}
	switch v.name {
	case "kubectl", "oc", "helm":
	default:
		return m, false
	}
	args := v.inv.Args[1:]
	for i, w := range args {
		name, value, inline := strings.Cut(w.Value, "=")
		if !inline && strings.HasPrefix(name, "-n") && len(name) > 2 && !strings.HasPrefix(name, "--") {
			name, value, inline = "-n", name[2:], true
		}
		switch name {
		case "-n", "--namespace", "--context", "--kube-context", "--cluster":
		default:
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				continue
			}
			value = args[i+1].Value
			if !args[i+1].Static {
				continue
			}
		}
		if class := environmentClass(value); class != "" {
			what := "namespace"
			if strings.Contains(name, "context") || name == "--cluster" {
				what = "context"
			}
			return deny("a destructive subcommand aimed at a " + class + " " + what + " (" + value + ")")
		}
	}
	if v.name != "helm" && len(v.sub) > 0 && v.sub[0] == "delete" {
		if why := manifestUnknown(args); why != "" {
			return deny(why)
		}
	}
	if v.name != "helm" && len(v.sub) > 0 && v.sub[0] == "delete" && !v.flags["-f"] && !v.flags["--filename"] && !v.flags["-k"] && !v.flags["--kustomize"] {
		// the first operand after delete is the kind: unknown, it can be namespaces
		for _, w := range v.positional {
			if w.Static && w.Value == "delete" {
				continue
			}
			if !w.Static && !narrowed {
				return deny("deletes kinds not known until it runs, which can be namespaces")
			}
			break
		}
	}
	return m, false
}

// environmentClass says whether a namespace or context name is a production one ("production")
// or one the cluster itself runs on ("system"), or "".
func environmentClass(name string) string {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "kube-") || strings.HasPrefix(n, "openshift-") || n == "openshift" || n == "istio-system" {
		return "system"
	}
	for _, part := range strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '@' }) {
		switch part {
		case "prod", "production", "prd", "live":
			return "production"
		}
	}
	return ""
}

// listsEverything reports whether a word is a command substitution in which the same tool
// lists what it holds (docker volume ls -q, kubectl get ns -o name, helm list -q, redis-cli
// --scan), unfiltered: nothing after it but stages that pass on every line (awk '{print $1}').
func listsEverything(tool, raw string) bool {
	listed, all := listing(tool, raw)
	return listed && all
}

// fedByListing reports whether an operand is computed from a listing by the same tool, as a
// command substitution or as the items xargs puts in its place (Word.From), and whether the
// listing names everything the tool holds.
func fedByListing(tool string, w shell.Word) (listed, everything bool) {
	if w.Static {
		return false, false
	}
	for _, raw := range append([]string{w.Raw}, w.From...) {
		if l, all := listing(tool, raw); l {
			listed = true
			everything = everything || all
		}
	}
	return listed, everything
}

// listing reads a command substitution as written: whether its first stage is tool listing
// what it holds, and whether nothing narrows that listing (a pattern, a selector, a filter, a
// name, or a stage that picks lines: grep, head).
func listing(tool, raw string) (listed, everything bool) {
	inner, ok := strings.CutPrefix(raw, "$(")
	if !ok {
		inner, ok = strings.CutPrefix(raw, "\"$(")
	}
	if !ok {
		return false, false
	}
	inner = strings.TrimSuffix(strings.TrimSuffix(inner, "\""), ")")
	stages, ok := pipelineWords(inner)
	if !ok || len(stages) == 0 || len(stages[0]) < 2 || stages[0][0] != tool {
		return false, false
	}
	everything = true
	for _, st := range stages[1:] {
		everything = everything && (shell.KeepsEveryLine(st) || dropsSome(st))
	}
	args := stages[0][1:]
	if tool == "redis-cli" {
		// --scan [--pattern P] or KEYS P: every key when P is * or absent
		for i, a := range args {
			switch {
			case a == "--scan":
				listed = true
			case strings.EqualFold(a, "keys") && i+1 < len(args):
				listed = true
				everything = everything && args[i+1] == "*"
			case (a == "--pattern" || a == "--match") && i+1 < len(args):
				everything = everything && args[i+1] == "*"
			}
		}
		return listed, listed && everything
	}
	for _, a := range args {
		switch a {
		case "ls", "list", "get", "ps":
			listed = true
		case "-l", "--selector", "--field-selector", "--filter", "-f", "--prefix", "--query":
			everything = false // a selector or filter: some of them
		}
		if strings.HasPrefix(a, "--selector=") || strings.HasPrefix(a, "-l=") || strings.HasPrefix(a, "--field-selector=") ||
			strings.HasPrefix(a, "--filter=") || strings.HasPrefix(a, "--query=") {
			everything = false
		}
	}
	return listed, listed && everything
}

// dropsSome reports a stage that drops the lines it matches and keeps the rest (grep -v
// kube-): what is left is still all but a few.
func dropsSome(argv []string) bool {
	if len(argv) < 2 || argv[0] != "grep" && argv[0] != "egrep" && argv[0] != "rg" {
		return false
	}
	for _, a := range argv[1:] {
		if a == "--invert-match" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'v') {
			return true
		}
	}
	return false
}

// pipelineWords splits a simple pipeline as written into its stages' words, quotes and
// redirections removed; ok is false for anything else (lists, substitutions, background).
func pipelineWords(src string) (stages [][]string, ok bool) {
	var word strings.Builder
	var stage []string
	inWord := false
	end := func() {
		if inWord {
			stage = append(stage, word.String())
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\'', '"':
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				return nil, false
			}
			word.WriteString(src[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case ' ', '\t', '\n':
			end()
		case '|':
			end()
			if i+1 < len(src) && src[i+1] == '|' || len(stage) == 0 {
				return nil, false
			}
			stages = append(stages, stage)
			stage = nil
		case '<', '>':
			// a redirection (2>/dev/null, 2>&1, < list): neither a word of the stage nor a stage
			if inWord && strings.Trim(word.String(), "0123456789") == "" {
				word.Reset()
				inWord = false
			}
			end()
			for i+1 < len(src) && strings.IndexByte("<>&|", src[i+1]) >= 0 {
				i++
			}
			for i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t') {
				i++
			}
			for i+1 < len(src) && strings.IndexByte(" \t\n|;&'\"`()", src[i+1]) < 0 {
				i++
			}
		case ';', '&', '`', '(', ')':
			return nil, false
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	end()
	if len(stage) == 0 {
		return nil, false
	}
	return append(stages, stage), true
}

// prefixedForce reports whether a flag is a force flag with the tool's name in front of it
// (--terragrunt-non-interactive, --pulumi-yes): the part after the first dash-separated word
// is from the force vocabulary; --no-force and --skip-yes say the opposite.
func prefixedForce(f string) bool {
	name, ok := strings.CutPrefix(f, "--")
	if !ok {
		return false
	}
	prefix, rest, ok := strings.Cut(name, "-")
	return ok && rest != "" && prefix != "no" && prefix != "skip" && prefix != "without" && forceFlags.has("--"+rest)
}

// manifestUnknown says why the manifests a kubectl delete -f/-k reads make it a delete of what
// cannot be seen or of production: read from stdin (kustomize build ... | kubectl delete -f -),
// named at run time, or a production overlay or folder (-k overlays/prod); "" otherwise.
func manifestUnknown(args []shell.Word) string {
	for i, w := range args {
		name, value, inline := strings.Cut(w.Value, "=")
		switch name {
		case "-f", "--filename", "-k", "--kustomize":
		default:
			continue
		}
		static := w.Static
		if !inline {
			if i+1 >= len(args) {
				continue
			}
			value, static = args[i+1].Value, args[i+1].Static
		}
		switch {
		case !static:
			return "deletes what manifests named at run time hold, which can be namespaces"
		case value == "-" || value == "/dev/stdin":
			return "deletes what manifests read from stdin hold, which the guard cannot see (they can be namespaces)"
		case environmentClass(value) == "production":
			return "deletes what a production overlay's manifests hold (" + value + ")"
		}
	}
	return ""
}
