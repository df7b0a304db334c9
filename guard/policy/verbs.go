package policy

import (
	"slices"
	"strings"
	"sync"
)

// The verbs of multi-level command lines (kubectl delete, gh repo delete, gcloud ... delete,
// aws ec2 terminate-instances, heroku apps:destroy): a tool is read as program + subcommand path
// + flags, and a subcommand from the destructive vocabulary is judged by what the tool's
// catalogue entry says it hits, or, for a tool the catalogue does not name, by whether the
// person is asked to confirm: with a force/yes/auto-approve flag (or from a tool that never
// asks) it is a deny, without one an ask. --help, --version and --dry-run forms only describe.

// The pseudo-rule ids of the verb judgement.
const (
	// RuleVerbForced denies a destructive subcommand that will not ask for confirmation.
	RuleVerbForced = "destructive-verb-forced"
	// RuleVerb asks about a destructive subcommand.
	RuleVerb = "destructive-verb"
)

// toolEntry is what the catalogue knows of a tool's destructive verbs: the decision for each
// (allow: what it hits can be had again; ask; deny), a default for the others, and whether the
// tool ever asks for confirmation itself.
type toolEntry struct {
	verbs    map[string]Decision // "volume rm" or "rm": the longest matching path wins
	fallback Decision            // for a destructive verb not in verbs ("" = by the force flags)
	noPrompt bool                // the tool never confirms: a destructive verb is as if forced
	forceF   bool                // -f means force for this tool
	// forcedDeny are the verbs asked about that are denied when confirmation is off.
	forcedDeny map[string]bool
	// onlyWith are verbs that destroy only with a flag (docker system prune --volumes).
	onlyWith map[string]string
	// forceAlso are the tool's own short spellings of "do not ask" (gcloud -q).
	forceAlso map[string]bool
	// wholesale are verbs allowed on named things that are denied, forced, on everything a
	// listing by the same tool names (docker rm -f $(docker ps -aq): running ones too).
	wholesale map[string]bool
}

// destructiveVerbs are the destructive vocabulary of subcommands.
var destructiveVerbs = words{"annihilate", "clean-all", "del", "delete", "deletion", "deregister",
	"destroy", "drop", "expunge", "flush", "flushall", "flushdb", "nuke", "obliterate", "prune",
	"purge", "remove", "reset", "rm", "rmi", "rmr", "teardown", "terminate", "truncate", "uninstall",
	"unlink", "unpublish", "wipe", "yank", "zap"}

// forceFlags turn a tool's confirmation off.
var forceFlags = words{"--accept-data-loss", "--assume-yes", "--auto-approve", "--confirm",
	"--force", "--force-delete", "--force-reset", "--no-confirm", "--no-interactive", "--no-prompt",
	"--noconfirm", "--non-interactive", "--quiet", "--silent", "--skip-confirmation", "--yes",
	"--yes-i-really-mean-it", "-auto-approve", "-force", "-y", "-yes"}

// describeFlags make a command only describe what it would do.
var describeFlags = words{"--check", "--dry-run", "--dryrun", "--help", "--plan", "--version",
	"--what-if", "-V", "-WhatIf", "-dry-run", "-h", "-help"}

// verbCatalogue is built on first use too, apart from the vocabulary: only a command line with
// a destructive verb in it looks a tool up.
var verbCatalogue = sync.OnceValue(func() map[string]toolEntry {
	t := struct{ catalogue map[string]toolEntry }{make(map[string]toolEntry, 128)}
	allow := func(vs ...string) map[string]Decision {
		m := map[string]Decision{}
		for _, v := range vs {
			m[v] = Allow
		}
		return m
	}
	// Package managers: a project's dependencies and caches come back with one install.
	// (Tools that share an entry share its maps: one table to build, none changed after this.)
	pm := toolEntry{verbs: allow("uninstall", "remove", "rm", "prune", "purge", "clean", "clear", "reset", "delete", "drop", "wipe"), fallback: Allow}
	pm.verbs["unpublish"] = Deny // irreversible for everyone who depends on it
	pm.verbs["yank"] = Ask
	pm.verbs["owner rm"] = Ask
	pm.verbs["dist-tag rm"] = Ask
	for _, name := range []string{"npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "pipenv", "pdm", "hatch",
		"cargo", "go", "gem", "bundle", "composer", "conda", "mamba", "micromamba", "brew", "dotnet", "mix", "deno",
		"rustup", "pipx", "nvm", "pyenv", "rbenv", "asdf", "mise", "volta", "fnm", "sdk", "gradle", "mvn", "flutter",
		"dart", "swift", "pod", "carthage", "nix-env", "opam", "cabal", "stack", "luarocks", "cpanm", "R", "julia", "vcpkg", "conan"} {
		t.catalogue[name] = pm
	}
	// System package managers change the machine, not the project.
	for _, pm := range []string{"apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "apk", "snap", "flatpak", "port", "pkg", "emerge", "xbps-remove"} {
		t.catalogue[pm] = toolEntry{fallback: Ask}
	}
	// Containers are rebuilt from their images; volumes hold data.
	containers := toolEntry{verbs: allow("rm", "rmi", "container rm", "container prune", "image rm", "image prune", "network rm",
		"network prune", "builder prune", "buildx prune", "kill", "compose rm", "compose down", "context rm", "manifest rm"),
		fallback: Ask, forceF: true}
	containers.verbs["volume rm"] = Ask
	containers.verbs["volume prune"] = Ask
	containers.verbs["system prune"] = Ask
	containers.verbs["system reset"] = Ask                                                   // every container, image and volume
	containers.forcedDeny = set("volume rm", "volume prune", "system prune", "system reset") // data, with its confirmation off
	containers.onlyWith = map[string]string{"system prune": "--volumes"}
	containers.verbs["secret rm"] = Ask
	containers.wholesale = set("rm", "container rm")
	for _, c := range []string{"docker", "podman", "nerdctl", "finch"} {
		t.catalogue[c] = containers
	}
	// Cluster and cloud tools that delete at once, without asking.
	// A pod is recreated by its controller; everything else a cluster holds is asked about.
	t.catalogue["kubectl"] = toolEntry{fallback: Ask, noPrompt: true, verbs: map[string]Decision{"delete pod": Allow, "delete pods": Allow, "delete po": Allow}}
	t.catalogue["oc"] = toolEntry{fallback: Ask, noPrompt: true, verbs: map[string]Decision{"delete pod": Allow, "delete pods": Allow, "delete po": Allow}}
	t.catalogue["helm"] = toolEntry{fallback: Ask, noPrompt: true}
	t.catalogue["gsutil"] = toolEntry{noPrompt: true}
	t.catalogue["rclone"] = toolEntry{noPrompt: true}
	t.catalogue["etcdctl"] = toolEntry{noPrompt: true}
	t.catalogue["eksctl"] = toolEntry{verbs: map[string]Decision{"delete cluster": Deny, "delete nodegroup": Ask}}
	t.catalogue["kubeadm"] = toolEntry{forceF: true}
	t.catalogue["vagrant"] = toolEntry{forceF: true}
	t.catalogue["doctl"] = toolEntry{forceF: true}
	// Local clusters and tools whose verbs name something else.
	t.catalogue["minikube"] = toolEntry{verbs: allow("delete"), fallback: Ask}
	t.catalogue["kind"] = toolEntry{verbs: allow("delete cluster", "delete"), fallback: Ask}
	t.catalogue["tmux"] = toolEntry{fallback: Allow}
	t.catalogue["screen"] = toolEntry{fallback: Allow}
	// One key comes back from wherever it was computed; every key a --scan or KEYS * lists is
	// the whole database, as FLUSHDB (sqlc's) is. redis-cli never asks.
	t.catalogue["redis-cli"] = toolEntry{fallback: Ask, noPrompt: true, verbs: allow("del", "unlink"), wholesale: set("del", "unlink")}
	t.catalogue["pm2"] = toolEntry{fallback: Allow} // a process list entry
	t.catalogue["aws"] = toolEntry{noPrompt: true, verbs: map[string]Decision{"s3 rm": Ask, "s3 rb": Ask}}
	// gcloud asks before it deletes, unless --quiet or -q turns every prompt off.
	t.catalogue["gcloud"] = toolEntry{forceAlso: set("-q")}
	// az's storage commands never ask; a batch delete removes every blob or file of a
	// container or share that its --pattern (if any) selects.
	t.catalogue["az"] = toolEntry{verbs: map[string]Decision{"storage blob delete-batch": Deny, "storage file delete-batch": Deny,
		"storage container delete": Deny, "storage share delete": Deny}}
	// The Serverless Framework removes a whole deployed stack (its tables and buckets with it)
	// without asking.
	sls := toolEntry{noPrompt: true, verbs: allow("plugin uninstall", "plugin remove")} // a plugin: package.json
	t.catalogue["serverless"] = sls
	t.catalogue["sls"] = sls
	return t.catalogue
})

// describers print about a command without running it.
var describers = words{"apropos", "cheat", "command", "hash", "help", "info", "man", "tldr", "type", "whatis", "whereis", "which"}

// verbJudgement judges an invocation that no rule decided by its subcommand verbs. ok is false
// when nothing in it is destructive, or the catalogue says what it hits comes back.
func verbJudgement(v *view) (Match, bool) {
	if v.name == "" || builtins.has(v.name) || v.inv.Function || v.name == "git" || readers.has(v.name) || describers.has(v.name) ||
		strings.Contains(v.path, "/") && !strings.HasPrefix(v.path, "/") {
		// ./tests/runtests.py delete_regress: a project's own script's arguments are its business
		return Match{}, false // git has rules of its own; readers and manuals only name verbs
	}
	for _, w := range v.inv.Args[1:] {
		if name, _, _ := strings.Cut(w.Value, "="); w.Static && describeFlags.has(name) {
			return Match{}, false
		}
	}
	if slices.Contains(v.sub, "help") {
		return Match{}, false // aws s3 rm help, gh help repo delete
	}
	// The subcommand path: the first words, up to three, that read as verbs or nouns.
	var path []string
	verbAt := -1
	for i, w := range v.sub {
		if i >= 3 || !isWordlike(w) {
			break
		}
		w = strings.ToLower(w) // redis-cli DEL is del
		if verbAt < 0 && asksAbout.has(w) {
			return Match{}, false // kubectl auth can-i delete pods: a question about the verb
		}
		path = append(path, w)
		if verbAt < 0 && isDestructiveVerb(w) {
			verbAt = i
		}
	}
	if verbAt < 0 {
		return Match{}, false
	}
	entry, known := verbCatalogue()[v.name]
	decision := Decision("")
	for n := len(path); n > 0; n-- {
		if flag, ok := entry.onlyWith[strings.Join(path[:n], " ")]; ok && !v.flags[flag] {
			return Match{}, false
		}
	}
	if known {
		// the longest subcommand path the entry names
		for n := len(path); n > 0 && decision == ""; n-- {
			decision = entry.verbs[strings.Join(path[:n], " ")]
		}
		if decision == "" {
			decision = entry.fallback
		}
	}
	forced := entry.noPrompt
	for f := range v.flags {
		if forceFlags.has(f) || (f == "-f" && entry.forceF) || entry.forceAlso[f] || prefixedForce(f) {
			forced = true
		}
	}
	if decision == Ask && forced {
		for n := len(path); n > 0; n-- {
			if entry.forcedDeny[strings.Join(path[:n], " ")] {
				decision = Deny
			}
		}
	}
	if decision == "" {
		decision = Ask
		if forced {
			decision = Deny
		}
	}
	if decision == Allow && forced && entry.wholesale[strings.Join(path, " ")] {
		for _, w := range v.positional {
			if _, all := fedByListing(v.name, w); all {
				msg := "removes everything a listing by the same tool names"
				if entry.forceF {
					msg = "forcibly removes everything a listing names, running ones too"
				}
				return Match{Rule: RuleClusterTarget, Decision: Deny, Pos: v.inv.Pos, Subject: v.name + " " + strings.Join(path, " "),
					Message: msg}, true
			}
		}
	}
	if decision == Allow {
		return Match{}, false
	}
	subject := v.name + " " + strings.Join(path[:verbAt+1], " ")
	if decision == Deny {
		why := "does not ask for confirmation"
		if !entry.noPrompt {
			why = "with its confirmation turned off"
		}
		return Match{Rule: RuleVerbForced, Decision: Deny, Pos: v.inv.Pos, Subject: subject,
			Message: "a destructive subcommand " + why}, true
	}
	return Match{Rule: RuleVerb, Decision: decision, Pos: v.inv.Pos, Subject: subject,
		Message: "a destructive subcommand"}, true
}

// asksAbout are subcommand words that ask about or describe the verbs after them.
var asksAbout = words{"can-i", "describe", "explain", "help"}

// isDestructiveVerb reports whether a subcommand word is from the destructive vocabulary, alone
// or as the first or last part of a compound (delete-bucket, db:drop, apps:destroy,
// drop_database), or after a word that makes it wholesale (batch-delete-image,
// force-delete-mfa-device, bulk-delete); not a compound that starts with a verb that only reads
// or undoes (get-deletion-status, cancel-key-deletion), nor a word in the middle of a name
// (verify_child_delete.py, test_password_reset_link).
func isDestructiveVerb(w string) bool {
	w = strings.ToLower(w)
	if destructiveVerbs.has(w) {
		return true
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == ':' || r == '_' || r == '.' })
	if len(parts) < 2 {
		return false
	}
	switch parts[0] {
	case "get", "list", "describe", "show", "view", "cancel", "undo", "restore", "undelete", "recover", "check", "validate", "test", "preview", "estimate":
		return false
	}
	switch parts[0] {
	case "batch", "bulk", "force", "mass", "hard", "permanently":
		return destructiveVerbs.has(parts[1])
	}
	return destructiveVerbs.has(parts[0]) || destructiveVerbs.has(parts[len(parts)-1])
}

// isWordlike reports whether an argument reads as a subcommand: letters, digits and - : _ .,
// starting with a letter, no path or value in it.
func isWordlike(w string) bool {
	if w == "" || len(w) > 48 {
		return false
	}
	c := w[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == ':' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
