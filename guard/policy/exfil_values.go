package policy

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// A secret value is a secret the command line handles as text rather than as a file: an
// environment variable that holds one ($GITHUB_TOKEN, $AWS_SECRET_ACCESS_KEY) or the output of
// a command that prints one (gh auth token, aws configure export-credentials, kubectl get secret
// -o yaml). Sending it to the service it belongs to is what it is for (a GitHub token in a
// request to api.github.com); sending it anywhere else, or inside a name looked up in DNS, takes
// it off the machine.
type secretValue struct {
	what    string // as a message names it
	service string // the service it belongs to ("github", "aws", ...), "" when not known
}

// secretVariable is the secret an environment variable holds, by its name, or ok false.
func secretVariable(name string) (secretValue, bool) {
	if name == "" || strings.ToUpper(name) != name {
		return secretValue{}, false // secrets are named in capitals; $token is a script's own
	}
	v := secretValue{what: "$" + name}
	// the tokens tied to one service wherever they are used; the others (NPM_TOKEN for a private
	// registry, OPENAI_API_KEY for a compatible endpoint, CI_JOB_TOKEN on a company's GitLab) go
	// to hosts the guard cannot know
	switch name {
	case "GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT":
		v.service = "github"
	case "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN":
		v.service = "aws"
	}
	if v.service != "" {
		return v, true
	}
	for _, suffix := range [...]string{"_TOKEN", "_SECRET", "_SECRET_KEY", "_API_KEY", "_APIKEY", "_PASSWORD", "_PASSWD",
		"_PRIVATE_KEY", "_ACCESS_KEY", "_CLIENT_SECRET"} {
		if strings.HasSuffix(name, suffix) {
			return v, true
		}
	}
	switch name {
	case "TOKEN", "SECRET", "PASSWORD", "API_KEY", "APIKEY", "PRIVATE_KEY":
		return v, true
	}
	return secretValue{}, false
}

// credentialOutput is the secret a command prints, or ok false: tokens and credentials printed
// by the tools that keep them, secrets read out of a secret store or a cluster.
func credentialOutput(inv *shell.Invocation) (secretValue, bool) {
	a := make([]string, 0, 8)
	for i, w := range inv.Args[1:] {
		if !strings.HasPrefix(w.Value, "-") && (i == 0 || !valueFlag(inv.Args[i].Value)) {
			a = append(a, w.Value)
		}
		if len(a) == 4 {
			break
		}
	}
	sub := func(words ...string) bool {
		if len(a) < len(words) {
			return false
		}
		for i, w := range words {
			if a[i] != w {
				return false
			}
		}
		return true
	}
	flag := func(names ...string) bool {
		for _, w := range inv.Args[1:] {
			for _, n := range names {
				if w.Value == n || strings.HasPrefix(w.Value, n+"=") || len(n) == 2 && strings.HasPrefix(w.Value, n) && !strings.HasPrefix(w.Value, "--") {
					return true
				}
			}
		}
		return false
	}
	switch inv.Name {
	case "gh":
		if sub("auth", "token") {
			return secretValue{"a GitHub token (gh auth token)", "github"}, true
		}
	case "glab":
		if sub("auth", "token") || sub("config", "get", "token") {
			return secretValue{"a GitLab token (glab)", "gitlab"}, true
		}
	case "aws":
		switch {
		case sub("configure", "export-credentials"), sub("sts", "get-session-token"), sub("sts", "assume-role"),
			sub("configure", "get") && len(a) > 2 && (strings.Contains(a[2], "secret") || strings.Contains(a[2], "token")):
			return secretValue{"AWS credentials (aws " + a[0] + " " + a[1] + ")", "aws"}, true
		case sub("secretsmanager", "get-secret-value"), sub("ssm", "get-parameter") && flag("--with-decryption"),
			sub("ssm", "get-parameters") && flag("--with-decryption"), sub("ssm", "get-parameters-by-path") && flag("--with-decryption"):
			return secretValue{"a secret from AWS (aws " + a[0] + " " + a[1] + ")", "aws"}, true
		}
	case "gcloud":
		if sub("auth", "print-access-token") || sub("auth", "print-identity-token") || sub("secrets", "versions", "access") {
			return secretValue{"a Google Cloud token or secret (gcloud " + a[0] + " " + a[1] + ")", "gcp"}, true
		}
	case "az":
		if sub("account", "get-access-token") || sub("keyvault", "secret", "show") {
			return secretValue{"an Azure token or secret (az " + a[0] + " " + a[1] + ")", "azure"}, true
		}
	case "kubectl", "oc":
		// the secrets' data, not a listing of their names (kubectl get secrets)
		if (sub("get", "secret") || sub("get", "secrets") || len(a) > 1 && a[0] == "get" && strings.HasPrefix(a[1], "secret/")) &&
			flag("-o", "--output") {
			for _, w := range inv.Args[1:] {
				if v := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(w.Value, "--output="), "-o="), "-o"); v != "name" && v != "wide" &&
					(w.Value != "-o" && w.Value != "--output") && (strings.HasPrefix(w.Value, "-o") || strings.HasPrefix(w.Value, "--output=")) {
					return secretValue{"a Kubernetes secret's data (" + inv.Name + " get secret -o)", "kubernetes"}, true
				}
			}
			for i, w := range inv.Args[1 : len(inv.Args)-1] {
				if next := inv.Args[i+2].Value; (w.Value == "-o" || w.Value == "--output") && next != "name" && next != "wide" {
					return secretValue{"a Kubernetes secret's data (" + inv.Name + " get secret -o)", "kubernetes"}, true
				}
			}
		}
	case "vault":
		if sub("kv", "get") || sub("read") || sub("print", "token") {
			return secretValue{"a secret from Vault (vault " + strings.Join(a, " ") + ")", ""}, true
		}
	case "op":
		if sub("read") || sub("item", "get") {
			return secretValue{"a secret from 1Password (op " + a[0] + ")", ""}, true
		}
	case "security":
		if (sub("find-generic-password") || sub("find-internet-password")) && flag("-w", "-g") {
			return secretValue{"a password from the macOS keychain", ""}, true
		}
	case "secret-tool":
		if sub("lookup") {
			return secretValue{"a password from the keyring (secret-tool lookup)", ""}, true
		}
	}
	return secretValue{}, false
}

// nameSenders look up or reach a host by a name an argument gives: a secret anywhere in their
// arguments goes out in the name itself, to every resolver on the way.
func nameSender(name string) bool {
	switch name {
	case "nslookup", "dig", "host", "drill", "ping", "ping6", "nping", "hping3", "traceroute", "nc", "ncat", "netcat", "telnet", "socat":
		return true
	}
	return false
}

// stdinSender reports whether a sender sends what it reads on stdin: curl -d @- or -T -, a raw
// socket, mail, an upload of "-".
func stdinSender(inv *shell.Invocation) bool {
	switch inv.Name {
	case "nc", "ncat", "netcat", "socat", "telnet", "openssl", "mail", "mailx", "sendmail", "swaks", "mutt":
		return true
	}
	if variableStore(inv) || forgeCommand(inv, "secret", "set") {
		// the value from stdin unless given as --body or from a file
		body := false
		for _, w := range inv.Args[3:] {
			v := w.Value
			body = body || v == "-b" || v == "--body" || strings.HasPrefix(v, "--body=") || strings.HasPrefix(v, "-b") && len(v) > 2 && v[1] == 'b' ||
				v == "-f" || v == "--env-file" || strings.HasPrefix(v, "--env-file=")
		}
		if !body {
			return true
		}
	}
	for i, w := range inv.Args[1:] {
		v := w.Value
		if strings.HasSuffix(v, "@-") || v == "-" || strings.HasSuffix(v, "=@-") || strings.HasSuffix(v, "=/dev/stdin") ||
			strings.HasSuffix(v, "@/dev/stdin") || v == "/dev/stdin" {
			return true
		}
		if (v == "-T" || v == "--upload-file") && i+2 < len(inv.Args) && inv.Args[i+2].Value == "-" {
			return true
		}
	}
	return false
}

// senderHosts are the hosts a sender's arguments name, and whether some destination could not be
// read (a URL in a variable).
func senderHosts(inv *shell.Invocation) (hosts []string, unknown bool) {
	switch inv.Name {
	case "gh":
		return []string{"github.com"}, false
	case "glab":
		return []string{"gitlab.com"}, false
	case "aws":
		return []string{"amazonaws.com"}, false
	case "gcloud", "gsutil":
		return []string{"googleapis.com"}, false
	case "az", "azcopy":
		return []string{"azure.com"}, false
	}
	for i, w := range inv.Args[1:] {
		v := w.Value
		if strings.HasPrefix(v, "-") || i > 0 && isValueOption(inv.Args[i].Value) {
			continue
		}
		if !w.Static && (strings.HasPrefix(w.Raw, "$") || strings.HasPrefix(w.Raw, `"$`)) && !strings.Contains(w.Raw, "://") {
			unknown = true
			continue
		}
		if h := sendHost(v); h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts, unknown
}

// isValueOption is an option of curl and its kin whose next word is its value, not the URL.
func isValueOption(v string) bool {
	switch v {
	case "-H", "--header", "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-u", "--user", "-o", "--output",
		"-X", "--request", "-F", "--form", "-T", "--upload-file", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie",
		"-x", "--proxy", "--oauth2-bearer", "-m", "--max-time", "--connect-timeout", "-w", "--write-out", "--retry", "-c", "--cookie-jar":
		return true
	}
	return false
}

// sendHost is the host a URL or a bare host name names, lower case, or "".
func sendHost(v string) string {
	v = strings.Trim(v, `"'`)
	if _, rest, ok := strings.Cut(v, "://"); ok {
		v = rest
	} else if !strings.Contains(v, ".") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "@") {
		return ""
	}
	if i := strings.IndexAny(v, "/?#"); i >= 0 {
		v = v[:i]
	}
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	if strings.HasPrefix(v, "[") {
		v, _, _ = strings.Cut(v[1:], "]") // [::1]:8080
	} else if strings.Count(v, ":") == 1 {
		v, _, _ = strings.Cut(v, ":")
	}
	return strings.ToLower(v)
}

// belongsTo reports whether host is a host of service: its domains, a machine of this one, or
// a company's own instance named after it (github.corp.example).
func belongsTo(host, service string) bool {
	switch host {
	case "localhost", "127.0.0.1", "::1", "0.0.0.0":
		return true
	}
	if service == "" {
		return false
	}
	var domains []string
	switch service {
	case "github":
		domains = []string{"github.com", "githubusercontent.com", "ghcr.io"}
	case "gitlab":
		domains = []string{"gitlab.com"}
	case "aws":
		domains = []string{"amazonaws.com", "aws.amazon.com"}
	case "gcp":
		domains = []string{"googleapis.com", "google.com", "gcr.io", "pkg.dev", "run.app", "cloudfunctions.net", "appspot.com"}
	case "azure":
		domains = []string{"azure.com", "windows.net", "microsoft.com", "azurecr.io", "microsoftonline.com", "azurewebsites.net", "azure-api.net"}
	}
	for _, d := range domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	first, _, _ := strings.Cut(host, ".")
	return !isAddress(host) && first == service
}

// secretValueSent finds a secret value sent to where it does not belong: a secret variable or a
// command's output in a sender's request to another service, in a name looked up, printed
// into a sender that sends its stdin, or written to a file that a sender then sends.
func (pr *protector) secretValueSent(s *shell.Script) (Match, bool) {
	var senders []int
	for i := range s.Invocations {
		if isSender(&s.Invocations[i]) {
			senders = append(senders, i)
		}
	}
	if len(senders) == 0 {
		return Match{}, false
	}
	deny := func(i int, v secretValue) (Match, bool) {
		inv := &s.Invocations[i]
		return Match{Rule: RuleExfiltration, Decision: Deny, Pos: inv.Pos, Subject: strings.Join(argv(inv, pr.ctx.Home), " "),
			Message: "sends " + v.what + " off the machine"}, true
	}
	// piped reports a sender on the line that sends its stdin to a host outside v's service.
	piped := func(v secretValue) (int, bool) {
		for _, i := range senders {
			if inv := &s.Invocations[i]; stdinSender(inv) && !toService(inv, v) {
				return i, true
			}
		}
		return 0, false
	}
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		if len(inv.Args) == 0 {
			continue
		}
		if v, ok := credentialOutput(inv); ok {
			// as $(…) in a sender's words: judged where it stands; else (a pipe) sent by a
			// sender that sends its stdin
			if j, k, ok := substitutedInto(s, senders, inv); ok {
				if sentAway(&s.Invocations[j], k, v) {
					return deny(j, v)
				}
			} else if j, ok := piped(v); ok {
				return deny(j, v)
			}
		}
		sender := isSender(inv)
		if sender && stdinSender(inv) {
			// a here-string or an unquoted heredoc of a secret into a sender that sends its
			// stdin (curl -d @- <<<"$T"), judged as the same text piped into it
			for _, r := range inv.Redirects {
				if r.Op != "<<<" && r.Op != "<<" && r.Op != "<<-" || r.Target.Static {
					continue
				}
				for _, raw := range append([]string{r.Target.Raw}, r.Target.From...) {
					for _, name := range shell.VariablesIn(raw) {
						if v, ok := secretVariable(name); ok && !toService(inv, v) { // as echo "$T" | SENDER
							return deny(i, v)
						}
					}
				}
			}
		}
		if inv.Name == "printenv" {
			// printenv NAME prints the variable: as echo "$NAME" into a sender that sends its stdin
			if v, ok := printsSecret(s, inv); ok {
				if j, ok := piped(v); ok {
					return deny(j, v)
				}
			}
		}
		printer := inv.Name == "echo" || inv.Name == "printf"
		if !sender && !printer {
			continue
		}
		for k, w := range inv.Args {
			if k == 0 || w.Static {
				continue
			}
			// the variables it expands, and those a variable it expands was copied from
			// (T=$GH_TOKEN; curl -d "$T")
			var names []string
			for _, raw := range append([]string{w.Raw}, w.From...) {
				names = append(names, shell.VariablesIn(raw)...)
			}
			for _, name := range names {
				v, ok := secretVariable(name)
				switch {
				case !ok:
				case printer:
					// its value printed into a sender that sends what it reads
					if j, ok := piped(v); ok {
						return deny(j, v)
					}
				case sentAway(inv, k, v):
					return deny(i, v)
				}
			}
		}
	}
	// a secret written to a file, then sent from it (exfil_files.go)
	if j, v, ok := secretFileSent(s, pr.ctx.Project, piped); ok {
		return deny(j, v)
	}
	return Match{}, false
}

// sentAway reports whether secret v, in the word at k of sender inv, leaves for a place it does
// not belong: in a name looked up or reached (nslookup "$TOKEN.host", a host name built from
// it), or in a request to a host outside its service. A token of a service the guard does not
// know is sent to whatever host the request names, in the header that authenticates to it or
// in the request itself: ordinary API use.
func sentAway(inv *shell.Invocation, k int, v secretValue) bool {
	if nameSender(inv.Name) {
		return true
	}
	if raw := inv.Args[k].Raw; strings.Contains(raw, "://") && strings.Contains(sendHost(raw), "$") {
		return true // in the host name: out through DNS before any request
	}
	if secretStore(inv) || inv.Name == "curl" && signsOnly(inv, k) {
		return false
	}
	if publishes(inv) {
		return true // a gist's or a release's text, read by whoever finds it
	}
	return v.service != "" && !toService(inv, v)
}

// secretStore reports a sender that stores a secret in the repository's own secret store, which
// is what the secret is handed to it for (gh secret set NAME --body "$AWS_SECRET_ACCESS_KEY").
// A variable (gh variable set) is no such store: whoever reads the repository's settings or
// its workflows' logs reads it, so a secret set there is sent (variableStore).
// A store another repository's or an organisation's (-R, --repo, --org, --repos) is not the
// project's own: whoever runs that repository's workflows reads the secret, so it is sent.
func secretStore(inv *shell.Invocation) bool {
	if !forgeCommand(inv, "secret", "set") {
		return false
	}
	for _, w := range inv.Args[3:] {
		v := w.Value
		if v == "-R" || v == "--repo" || v == "-o" || v == "--org" || v == "-r" || v == "--repos" || v == "-g" || v == "--group" ||
			strings.HasPrefix(v, "--repo=") || strings.HasPrefix(v, "--org=") || strings.HasPrefix(v, "--repos=") || strings.HasPrefix(v, "--group=") ||
			len(v) > 2 && v[0] == '-' && v[1] != '-' && (v[1] == 'R' || v[1] == 'o' || v[1] == 'r' || v[1] == 'g') {
			return false
		}
	}
	return true
}

// variableStore reports gh variable set or glab variable set: content sent to the forge, shown
// in the clear.
func variableStore(inv *shell.Invocation) bool {
	return forgeCommand(inv, "variable", "set") || forgeCommand(inv, "variable", "update")
}

// forgeCommand reports gh or glab running the subcommand group verb (gh secret set).
func forgeCommand(inv *shell.Invocation, group, verb string) bool {
	return (inv.Name == "gh" || inv.Name == "glab") && len(inv.Args) > 2 && inv.Args[1].Value == group && inv.Args[2].Value == verb
}

// signsOnly reports curl's --aws-sigv4 with the word at k as its --user: the secret signs the
// request and is not sent.
func signsOnly(inv *shell.Invocation, k int) bool {
	sigv4 := false
	for _, w := range inv.Args[1:] {
		sigv4 = sigv4 || w.Value == "--aws-sigv4" || strings.HasPrefix(w.Value, "--aws-sigv4=")
	}
	return sigv4 && k > 1 && (inv.Args[k-1].Value == "-u" || inv.Args[k-1].Value == "--user")
}

// toService reports whether every host a sender names belongs to v's service (a sender whose
// host is not known until it runs is given the benefit of the doubt).
func toService(inv *shell.Invocation, v secretValue) bool {
	if secretStore(inv) {
		return true // the project's own secret store is where any secret is meant to go
	}
	if publishes(inv) {
		return false // published there, not handed to the service to authenticate
	}
	hosts, _ := senderHosts(inv)
	for _, h := range hosts {
		if !belongsTo(h, v.service) {
			return false
		}
	}
	return true
}

// substitutedInto finds the sender whose word holds inv as a command substitution
// (curl -H "Authorization: token $(gh auth token)" URL), itself or through a variable assigned
// from it (T=$(gh auth token); curl -d "$T" URL): the sender and the word's index.
func substitutedInto(s *shell.Script, senders []int, inv *shell.Invocation) (int, int, bool) {
	if !inv.Under("$(…)") && !inv.Under("`…`") {
		return 0, 0, false
	}
	for _, j := range senders {
		for k, w := range s.Invocations[j].Args {
			if k == 0 || w.Static {
				continue
			}
			for _, raw := range append([]string{w.Raw}, w.From...) {
				if strings.Contains(raw, "$("+inv.Name+" ") || strings.Contains(raw, "`"+inv.Name+" ") {
					return j, k, true
				}
			}
		}
	}
	return 0, 0, false
}

// isAddress reports whether host is an IP address rather than a name.
func isAddress(host string) bool {
	return strings.Contains(host, ":") || strings.Trim(host, "0123456789.") == ""
}

// valueFlag is an option of the clouds' and clusters' CLIs whose value is the next word, so
// that the subcommand is found after it (kubectl -n prod get secret, aws --profile p sts ...).
func valueFlag(v string) bool {
	switch v {
	case "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-l", "--selector", "-o", "--output",
		"--region", "--profile", "--project", "--format", "--query", "--subscription", "--endpoint-url", "-R", "--repo", "--hostname":
		return true
	}
	return false
}
