package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// What destroys resources on other machines, judged by what it hits rather than by the verb
// alone: an HTTP DELETE (curl -X DELETE, gh api -X DELETE, wget --method=DELETE, httpie), a
// sync that mirrors an empty or unknown folder onto a bucket or remote (aws s3 sync --delete,
// gsutil rsync -d, rclone sync, azcopy sync --delete-destination), cloud storage removals of
// one object or of everything, and the cluster verbs aimed at a production or system
// namespace, at kinds not known until it runs, or at names computed from a listing of
// everything. Nothing here comes back from the machine the command runs on.

// The pseudo-rule ids of the remote judgement.
const (
	// RuleHTTPDelete denies an HTTP DELETE of a resource on another machine, or of every
	// resource of a local service.
	RuleHTTPDelete = "http-delete"
	// RuleSyncEmpty denies a sync that deletes at its destination what an empty or unknown
	// source lacks.
	RuleSyncEmpty = "sync-delete-from-empty"
	// RuleBucketWipe denies a recursive removal of a bucket's contents.
	RuleBucketWipe = "bucket-recursive-delete"
	// RuleClusterTarget denies a destructive cluster verb aimed at a production or system
	// namespace or context, at kinds not known until it runs, or at everything a listing names.
	RuleClusterTarget = "cluster-destructive-target"
)

// remoteJudgement judges an invocation no rule decided by what it destroys elsewhere. ok is
// false when it has nothing to say; a Match with Decision Allow means the verb vocabulary must
// not ask about it either (an HTTP DELETE of one item of a local development server, the
// removal of one object from a bucket).
func remoteJudgement(v *view, s *shell.Script, idx int) (Match, bool) {
	if v.name == "" || v.inv.Function {
		return Match{}, false
	}
	for _, w := range v.inv.Args[1:] {
		if w.Static && (w.Value == "--help" || w.Value == "-h" || w.Value == "--dry-run" || w.Value == "--dryrun" || w.Value == "-n" && v.name == "rclone") {
			return Match{}, false
		}
	}
	if v.inv.Under("systemd-run") && timerInText(s) {
		return Match{Rule: RuleRunsLater, Decision: Deny, Pos: v.inv.Pos, Subject: "systemd-run",
			Message: "schedules a command with a transient timer, which runs later on its own"}, true
	}
	if m, ok := publishJudgement(v); ok {
		return m, true
	}
	if m, ok := registryOverHTTP(v); ok {
		return m, true
	}
	switch v.name {
	case "curl", "wget", "http", "https", "xh", "xhs", "gh":
		return httpDelete(v)
	case "aws", "gsutil", "gcloud", "rclone", "azcopy", "s3cmd", "mc":
		if m, ok := syncFromEmpty(v, s, idx); ok {
			return m, true
		}
		if m, ok := everyBucketRemoved(v); ok {
			return m, true
		}
		return bucketRemoval(v)
	}
	return Match{}, false
}

// httpMethod returns the request method an HTTP client is told to use, upper-cased, or "".
func httpMethod(v *view) string {
	args := v.inv.Args[1:]
	for i, w := range args {
		val := w.Value
		switch {
		case v.name == "curl" && (val == "-X" || val == "--request") && i+1 < len(args):
			return strings.ToUpper(args[i+1].Value)
		case v.name == "curl" && strings.HasPrefix(val, "-X") && len(val) > 2:
			return strings.ToUpper(val[2:])
		case v.name == "curl" && strings.HasPrefix(val, "--request="):
			return strings.ToUpper(strings.TrimPrefix(val, "--request="))
		case v.name == "wget" && strings.HasPrefix(val, "--method="):
			return strings.ToUpper(strings.TrimPrefix(val, "--method="))
		case v.name == "wget" && val == "--method" && i+1 < len(args):
			return strings.ToUpper(args[i+1].Value)
		case v.name == "gh" && (val == "-X" || val == "--method") && i+1 < len(args):
			return strings.ToUpper(args[i+1].Value)
		case v.name == "gh" && (strings.HasPrefix(val, "--method=") || strings.HasPrefix(val, "-X") && len(val) > 2):
			return strings.ToUpper(strings.TrimPrefix(strings.TrimPrefix(val, "--method="), "-X"))
		case (v.name == "http" || v.name == "https" || v.name == "xh" || v.name == "xhs") && !strings.HasPrefix(val, "-"):
			return strings.ToUpper(val) // httpie: METHOD URL, or URL alone
		}
	}
	return ""
}

// httpDelete judges an HTTP DELETE. On another machine (an API, GitHub) it destroys what the
// guard cannot bring back; on this machine (a development server) one item is ordinary
// testing, and every item (Elasticsearch's _all, a wildcard) is not.
func httpDelete(v *view) (Match, bool) {
	if v.name == "gh" && (len(v.sub) == 0 || v.sub[0] != "api") {
		return Match{}, false
	}
	if httpMethod(v) != "DELETE" {
		return Match{}, false
	}
	subject := v.name + " DELETE"
	if v.name == "gh" {
		return Match{Rule: RuleHTTPDelete, Decision: Deny, Pos: v.inv.Pos, Subject: subject,
			Message: "deletes a resource of the GitHub API, which nothing on this machine brings back"}, true
	}
	local, every, unknown := true, false, true
	for _, w := range httpOperands(v) {
		u := w.Value
		if !strings.Contains(u, "://") && !looksLikeHost(u) {
			continue
		}
		unknown = false
		if !w.Static {
			local = false
			continue
		}
		host, rest := urlHost(u)
		if !isLocalHost(host) {
			local = false
		}
		if strings.Contains(rest, "_all") || strings.Contains(rest, "*") {
			every = true
		}
	}
	switch {
	case unknown:
		return Match{}, false // no URL the guard can see: the verb vocabulary decides
	case !local:
		return Match{Rule: RuleHTTPDelete, Decision: Deny, Pos: v.inv.Pos, Subject: subject,
			Message: "deletes a resource on another machine, which nothing on this one brings back"}, true
	case every:
		return Match{Rule: RuleHTTPDelete, Decision: Deny, Pos: v.inv.Pos, Subject: subject,
			Message: "deletes every resource of a local service"}, true
	}
	return Match{Rule: RuleHTTPDelete, Decision: Allow, Pos: v.inv.Pos, Subject: subject,
		Message: "deletes one item of a local development server"}, true
}

// httpValueOpts are the options of HTTP clients whose value is not a URL (curl -d data.json,
// -H 'Host: a.b', -o out.txt).
var httpValueOpts = words{"--body-data", "--cacert", "--cert", "--config", "--connect-to", "--cookie", "--cookie-jar", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form", "--header", "--key", "--max-time", "--output", "--output-document", "--post-data", "--proxy", "--referer", "--request", "--resolve", "--upload-file", "--user", "--user-agent", "--write-out", "-A", "-F", "-H", "-K", "-O", "-T", "-X", "-b", "-c", "-d", "-e", "-m", "-o", "-u", "-w", "-x"}

// httpOperands are the arguments of an HTTP client that can be URLs: not options, not their
// values.
func httpOperands(v *view) []shell.Word {
	var out []shell.Word
	args := v.inv.Args[1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Static && strings.HasPrefix(w.Value, "-") {
			if httpValueOpts.has(w.Value) {
				i++
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// looksLikeHost reports whether a curl operand without a scheme names a host (localhost:8000/x,
// api.example.com/v1).
func looksLikeHost(u string) bool {
	host, _ := urlHost(u)
	return host == "localhost" || strings.Contains(host, ".") && !strings.HasPrefix(u, ".") && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "-") && !strings.HasPrefix(u, "@")
}

// urlHost splits a URL (with or without a scheme) into its host, without port or user, and the
// rest.
func urlHost(u string) (string, string) {
	if _, after, ok := strings.Cut(u, "://"); ok {
		u = after
	}
	hostport, rest, _ := strings.Cut(u, "/")
	rest = "/" + rest
	if i := strings.LastIndex(hostport, "@"); i >= 0 {
		hostport = hostport[i+1:]
	}
	if strings.HasPrefix(hostport, "[") {
		if end := strings.Index(hostport, "]"); end > 0 {
			return hostport[1:end], rest
		}
	}
	host, _, _ := strings.Cut(hostport, ":")
	return strings.ToLower(host), rest
}

// isLocalHost reports whether a host is this machine.
func isLocalHost(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") || h == "::1" ||
		h == "0.0.0.0" || h == "host.docker.internal"
}

// isRemoteStore reports whether an operand names a bucket or a remote of a sync tool.
func isRemoteStore(tool, s string) bool {
	for _, scheme := range []string{"s3://", "gs://", "az://", "r2://", "b2://", "https://", "http://"} {
		if strings.HasPrefix(s, scheme) {
			return true
		}
	}
	if tool == "rclone" || tool == "mc" {
		// rclone's REMOTE:PATH, mc's ALIAS/BUCKET
		name, _, ok := strings.Cut(s, ":")
		return ok && name != "" && !strings.Contains(name, "/") || tool == "mc" && !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "/")
	}
	return false
}

// syncFromEmpty judges a sync that deletes at its destination what its source lacks, when the
// source is empty (a folder mktemp or mkdir made in the same command line, /dev/null) or not
// known until it runs: the destination is emptied.
func syncFromEmpty(v *view, s *shell.Script, idx int) (Match, bool) {
	var ops []shell.Word
	deletes := false
	switch {
	case v.name == "aws" && len(v.sub) >= 2 && v.sub[0] == "s3" && v.sub[1] == "sync":
		ops, deletes = v.positional[2:], v.flags["--delete"]
	case v.name == "s3cmd" && len(v.sub) >= 1 && v.sub[0] == "sync":
		ops, deletes = v.positional[1:], v.flags["--delete-removed"]
	case v.name == "gsutil" && len(v.sub) >= 1 && v.sub[0] == "rsync":
		ops, deletes = v.positional[1:], v.flags["-d"] || v.flags["--delete-unmatched-destination-objects"]
	case v.name == "gcloud" && len(v.sub) >= 2 && v.sub[0] == "storage" && v.sub[1] == "rsync":
		ops, deletes = v.positional[2:], v.flags["--delete-unmatched-destination-objects"]
	case v.name == "rclone" && len(v.sub) >= 1 && (v.sub[0] == "sync" || v.sub[0] == "bisync"):
		ops, deletes = v.positional[1:], true
	case v.name == "azcopy" && len(v.sub) >= 1 && v.sub[0] == "sync":
		ops = v.positional[1:]
		for f := range v.flags {
			deletes = deletes || f == "--delete-destination"
		}
		for _, w := range v.inv.Args {
			if strings.HasPrefix(w.Value, "--delete-destination=") && !strings.EqualFold(strings.TrimPrefix(w.Value, "--delete-destination="), "false") {
				deletes = true
			}
		}
	case v.name == "mc" && len(v.sub) >= 1 && v.sub[0] == "mirror":
		ops, deletes = v.positional[1:], v.flags["--remove"]
	default:
		return Match{}, false
	}
	if !deletes || len(ops) < 2 {
		return Match{}, false
	}
	src, dst := ops[0], ops[len(ops)-1]
	if dst.Static && !isRemoteStore(v.name, dst.Value) {
		return Match{}, false // a download into a local folder: judged as a local write elsewhere
	}
	why := ""
	switch {
	case !src.Static:
		why = "a source not known until it runs"
	case src.Value == "/dev/null" || src.Value == "":
		why = "an empty source"
	case path.Base(path.Clean(src.Value)) == "tmp.mktemp":
		why = "a new, empty folder mktemp made"
	case madeEmpty(s, idx, v.inv, src.Value):
		why = "a folder made empty earlier in the same command"
	case inScratch(src.Value):
		why = "a folder in scratch space, which no build of the project fills (often an empty one)"
	default:
		return Match{}, false
	}
	return Match{Rule: RuleSyncEmpty, Decision: Deny, Pos: v.inv.Pos, Subject: v.name + " " + strings.Join(v.sub[:1], " "),
		Message: "mirrors " + why + " onto " + Plain(dst.Display()) + ", deleting everything there"}, true
}

// madeEmpty reports whether an earlier invocation of the same command line made the folder p
// (mkdir) and nothing between put anything in it.
func madeEmpty(s *shell.Script, idx int, inv *shell.Invocation, p string) bool {
	abs := func(dir, p string) string {
		if path.IsAbs(p) || dir == "" {
			return path.Clean(p)
		}
		return path.Join(dir, p)
	}
	target := abs(inv.Cwd, p)
	made := false
	for i := 0; i < idx && i < len(s.Invocations); i++ {
		prev := &s.Invocations[i]
		for _, w := range prev.Args[1:] {
			if !w.Static || strings.HasPrefix(w.Value, "-") {
				continue
			}
			q := abs(prev.Cwd, w.Value)
			switch {
			case prev.Name == "mkdir" && q == target:
				made = true
			case made && (q == target || strings.HasPrefix(q, target+"/")):
				return false // something written into it (cp x empty/, touch empty/a)
			}
		}
	}
	return made
}

// bucketRemoval judges the removal of objects from a bucket: one named object is like rm of
// a file; everything in a bucket (a recursive removal of its root, a ** wildcard) is gone for
// good.
func bucketRemoval(v *view) (Match, bool) {
	var ops []shell.Word
	recursive := v.flags["-r"] || v.flags["-R"] || v.flags["--recursive"]
	switch {
	case v.name == "aws" && len(v.sub) >= 2 && v.sub[0] == "s3" && v.sub[1] == "rm":
		ops = v.positional[2:]
	case v.name == "gsutil" && len(v.sub) >= 1 && v.sub[0] == "rm":
		ops = v.positional[1:]
	case v.name == "gcloud" && len(v.sub) >= 2 && v.sub[0] == "storage" && v.sub[1] == "rm":
		ops = v.positional[2:]
	default:
		return Match{}, false
	}
	if len(ops) == 0 {
		return Match{}, false
	}
	for _, w := range ops {
		if !w.Static {
			return Match{}, false // the verb vocabulary asks
		}
		scheme, rest, ok := strings.Cut(w.Value, "://")
		if !ok || scheme == "" {
			return Match{}, false
		}
		bucket, key, _ := strings.Cut(rest, "/")
		everything := strings.Trim(key, "*/") == "" || strings.HasPrefix(key, "**") || strings.Contains(key, "/**") && strings.Trim(key[:strings.Index(key, "/**")], "/") == ""
		switch {
		case everything && (recursive || strings.Contains(key, "*")):
			return Match{Rule: RuleBucketWipe, Decision: Deny, Pos: v.inv.Pos, Subject: v.name + " rm " + bucket,
				Message: "deletes every object in a bucket"}, true
		case recursive || strings.ContainsAny(key, "*?["):
			if v.name == "aws" {
				return Match{}, false // aws-s3-rm-recursive decides
			}
			return Match{Rule: RuleBucketWipe, Decision: Deny, Pos: v.inv.Pos, Subject: v.name + " rm " + bucket + "/" + key,
				Message: "deletes every object under a bucket prefix"}, true
		}
	}
	return Match{Rule: RuleBucketWipe, Decision: Allow, Pos: v.inv.Pos, Subject: v.name + " rm",
		Message: "deletes named objects, as rm deletes named files"}, true
}

// everyBucketRemoved denies removing buckets named by a listing of every bucket by the same tool
// (aws s3 ls | awk '{print $3}' | xargs -I{} aws s3 rb s3://{}): an empty bucket's name is
// free for anyone to take once it is gone, a full one goes with what it holds (--force). It
// asks when a pattern or a grep narrows the listing (aws s3 ls | grep tmp- | xargs -I{} aws s3
// rb s3://{}): which buckets go is not known until it runs, where one named empty bucket is
// allowed. A narrowed listing's objects removed (rm) are left to the rules and the verbs.
func everyBucketRemoved(v *view) (Match, bool) {
	var ops []shell.Word
	removesBuckets := false
	switch {
	case v.name == "aws" && len(v.sub) >= 2 && v.sub[0] == "s3" && (v.sub[1] == "rb" || v.sub[1] == "rm"):
		ops, removesBuckets = v.positional[2:], v.sub[1] == "rb"
	case v.name == "gsutil" && len(v.sub) >= 1 && (v.sub[0] == "rb" || v.sub[0] == "rm"):
		ops, removesBuckets = v.positional[1:], v.sub[0] == "rb"
	case v.name == "gcloud" && len(v.sub) >= 3 && v.sub[0] == "storage" && (v.sub[1] == "buckets" && v.sub[2] == "delete" || v.sub[1] == "rm"):
		ops, removesBuckets = v.positional[2:], v.sub[1] == "buckets"
	default:
		return Match{}, false
	}
	narrowed := false
	for _, w := range ops {
		listed, all := fedByListing(v.name, w)
		if all {
			return Match{Rule: RuleBucketWipe, Decision: Deny, Pos: v.inv.Pos, Subject: v.name + " " + strings.Join(v.sub, " "),
				Message: "removes every bucket a listing of all of them names"}, true
		}
		narrowed = narrowed || listed
	}
	if narrowed && removesBuckets {
		return Match{Rule: RuleBucketWipe, Decision: Ask, Pos: v.inv.Pos, Subject: v.name + " " + strings.Join(v.sub, " "),
			Message: "removes the buckets a narrowed listing names, not known until it runs"}, true
	}
	return Match{}, false
}

// inScratch reports whether an absolute path is in the machine's temporary folders.
func inScratch(p string) bool {
	p = path.Clean(p)
	for _, dir := range []string{"/tmp", "/var/tmp", "/private/tmp", "/dev/shm"} {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// RulePublish is the pseudo-rule id of the judgement of package publishing.
const RulePublish = "package-publish"

// publishCommand says whether an invocation publishes a package, or withdraws a published
// version from its registry (npm unpublish, cargo yank, gem yank, nuget delete), and which of its
// options name the registry (a URL or a configured name).
func publishCommand(v *view) (registryOpts []string, withdraw, ok bool) {
	words := v.sub
	for len(words) > 0 && !isWordlike(words[0]) {
		words = words[1:] // a global option's value: npm --registry URL publish
	}
	sub := strings.Join(words, " ")
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if sub == p || strings.HasPrefix(sub, p+" ") {
				return true
			}
		}
		return false
	}
	switch v.name {
	case "npm":
		if has("unpublish") {
			return []string{"--registry"}, true, true
		}
		return []string{"--registry"}, false, has("publish")
	case "pnpm", "bun":
		return []string{"--registry"}, false, has("publish")
	case "yarn":
		// yarn workspaces foreach -A npm publish: every workspace
		return []string{"--registry"}, false, has("publish", "npm publish") || strings.Contains(" "+sub+" ", " npm publish ")
	case "lerna", "changeset":
		return []string{"--registry"}, false, has("publish")
	case "cargo":
		if has("yank") {
			return []string{"--registry", "--index"}, true, true
		}
		return []string{"--registry", "--index"}, false, has("publish")
	case "gem":
		if has("yank") {
			return []string{"--host"}, true, true
		}
		return []string{"--host"}, false, has("push")
	case "twine":
		return []string{"--repository-url", "--repository", "-r"}, false, has("upload")
	case "poetry", "pdm", "flit":
		return []string{"--repository", "-r", "--repository-url"}, false, has("publish")
	case "uv":
		return []string{"--publish-url", "--index"}, false, has("publish")
	case "hatch":
		return []string{"--repo", "-r"}, false, has("publish")
	case "dotnet":
		if has("nuget delete") {
			return []string{"--source", "-s"}, true, true
		}
		return []string{"--source", "-s"}, false, has("nuget push")
	case "nuget":
		if has("delete") {
			return []string{"-Source", "-source", "--source"}, true, true
		}
		return []string{"-Source", "-source", "--source"}, false, has("push")
	}
	return nil, false, false
}

// publicRegistries are the hosts and configured names of the public package registries.
var publicRegistries = words{"api.nuget.org", "crates-io", "crates.io", "npm", "npmjs", "nuget.org", "pypi", "pypi.org", "registry.npmjs.org", "registry.npmmirror.com", "registry.yarnpkg.com", "rubygems.org", "upload.pypi.org"}

// publishJudgement judges publishing a package: to the public registry (none named, or the
// public one by name or URL) it reaches everyone who installs the package and a version once
// published cannot be taken back or reused: denied; to a registry on this machine (a verdaccio
// for tests) it is allowed; to any other registry it is asked about. --dry-run forms return
// before this (remoteJudgement).
//
// Withdrawing a published version (unpublish, yank, nuget delete) is judged the same way: from
// the public registry it breaks every project that depends on the version, and the version
// number can never be used again.
func publishJudgement(v *view) (Match, bool) {
	opts, withdraw, ok := publishCommand(v)
	if !ok {
		return Match{}, false
	}
	verb, to, public := "publishes a package", " to ", "publishes a package to the public registry, for everyone who installs it; a published version cannot be taken back or reused"
	subject := v.name + " " + strings.Join(v.sub, " ")
	if withdraw && v.name == "cargo" && slices.ContainsFunc(v.inv.Args, func(w shell.Word) bool { return w.Value == "--undo" }) {
		return Match{Rule: RulePublish, Decision: Allow, Pos: v.inv.Pos, Subject: subject,
			Message: "puts a yanked version back"}, true
	}
	if withdraw {
		verb, to, public = "withdraws a published version", " from ", "withdraws a published version from the public registry: every project that depends on it breaks, and the version can never be published again"
	}
	for _, w := range v.inv.Args[1:] {
		if w.Static && (w.Value == "--dry-run" || w.Value == "-n" && v.name == "cargo" || w.Value == "--help" || w.Value == "-h") {
			return Match{}, false
		}
	}
	registry, named := "", false
	args := v.inv.Args[1:]
	for i, w := range args {
		name, value, inline := strings.Cut(w.Value, "=")
		if !w.Static || !slices.Contains(opts, name) {
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				continue
			}
			if !args[i+1].Static {
				return Match{Rule: RulePublish, Decision: Ask, Pos: v.inv.Pos, Subject: subject,
					Message: verb + to + "a registry not known until it runs"}, true
			}
			value = args[i+1].Value
		}
		registry, named = value, true
	}
	if named {
		host := strings.ToLower(registry)
		if strings.Contains(registry, "://") || looksLikeHost(registry) {
			host, _ = urlHost(registry)
		}
		switch {
		case isLocalHost(host):
			return Match{Rule: RulePublish, Decision: Allow, Pos: v.inv.Pos, Subject: subject,
				Message: verb + to + "a registry on this machine"}, true
		case !publicRegistries.has(host):
			return Match{Rule: RulePublish, Decision: Ask, Pos: v.inv.Pos, Subject: subject,
				Message: verb + to + Plain(registry) + ", for everyone who installs from it"}, true
		}
	}
	return Match{Rule: RulePublish, Decision: Deny, Pos: v.inv.Pos, Subject: subject,
		Message: public}, true
}

// RuleRegistryHTTP is the pseudo-rule id of the judgement of package indexes over plain HTTP.
const RuleRegistryHTTP = "registry-plain-http"

// registryOverHTTP judges pointing a package manager's index or registry at a plain-HTTP URL on
// another machine (pip config set global.index-url http://..., npm config set registry http://...):
// every later install takes its packages, and the code they run, from a host anyone on the path
// can impersonate. A registry on this machine is not judged.
func registryOverHTTP(v *view) (Match, bool) {
	switch v.name {
	case "pip", "pip3", "npm", "pnpm", "yarn", "bun", "uv", "poetry", "pdm", "gem", "conda", "cargo":
	default:
		return Match{}, false
	}
	if len(v.sub) == 0 || v.sub[0] != "config" && !(v.name == "poetry" && v.sub[0] == "source") && !(v.name == "gem" && v.sub[0] == "sources") {
		return Match{}, false
	}
	for _, w := range v.inv.Args[1:] {
		if !w.Static {
			continue
		}
		_, u, inline := strings.Cut(w.Value, "=")
		if !inline || !strings.HasPrefix(strings.ToLower(u), "http://") {
			u = w.Value
		}
		if !strings.HasPrefix(strings.ToLower(u), "http://") {
			continue
		}
		if host, _ := urlHost(u); !isLocalHost(host) {
			return Match{Rule: RuleRegistryHTTP, Decision: Deny, Pos: v.inv.Pos, Subject: v.name + " " + strings.Join(v.sub, " "),
				Message: "points the package index at a plain-HTTP host (" + Plain(u) + "): every later install runs code anyone on the way can swap"}, true
		}
	}
	return Match{}, false
}

// RuleRunsLater is the pseudo-rule id of systemd-run's timers.
const RuleRunsLater = "systemd-run-timer"

// timerInText reports whether a systemd-run in the command's text (quoted text and heredoc
// bodies blanked) has a timer option (--on-calendar, --on-active, ...): the shell guard reads
// systemd-run as a wrapper of the command it runs and keeps none of its options.
func timerInText(s *shell.Script) bool {
	for _, text := range s.Masked {
		for rest := text; ; {
			i := strings.Index(rest, "systemd-run")
			if i < 0 {
				break
			}
			rest = rest[i+len("systemd-run"):]
			segment := rest
			if end := strings.IndexAny(segment, ";&|\n"); end >= 0 {
				segment = segment[:end]
			}
			for _, f := range strings.Fields(segment) {
				if strings.HasPrefix(f, "--on-") {
					return true
				}
			}
		}
	}
	return false
}
