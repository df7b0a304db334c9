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
	for _, w := range v.positional {
		if !w.Static && listsEverything(v.name, w.Raw) {
			return deny("a destructive subcommand aimed at everything a listing names")
		}
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
			if !w.Static {
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
// lists what it holds (docker volume ls -q, kubectl get ns -o name, helm list -q), unfiltered.
func listsEverything(tool, raw string) bool {
	inner, ok := strings.CutPrefix(raw, "$(")
	if !ok {
		inner, ok = strings.CutPrefix(raw, "\"$(")
	}
	if !ok {
		return false
	}
	inner = strings.TrimRight(inner, ")\"")
	if strings.ContainsAny(inner, "|;&") {
		return false // filtered: grep Evicted, head -1
	}
	f := strings.Fields(inner)
	if len(f) < 2 || f[0] != tool {
		return false
	}
	for _, w := range f[1:] {
		switch w {
		case "ls", "list", "get", "ps":
			return true
		}
	}
	return false
}

// prefixedForce reports whether a flag is a force flag with the tool's name in front of it
// (--terragrunt-non-interactive, --pulumi-yes): the part after the first dash-separated word
// is from the force vocabulary; --no-force and --skip-yes say the opposite.
func prefixedForce(t *verbTables, f string) bool {
	name, ok := strings.CutPrefix(f, "--")
	if !ok {
		return false
	}
	prefix, rest, ok := strings.Cut(name, "-")
	return ok && rest != "" && prefix != "no" && prefix != "skip" && prefix != "without" && t.force["--"+rest]
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
