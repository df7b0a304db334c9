package config

import (
	"cmp"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/guard/policy"
)

// ProtectedPaths lists what no agent may change, because changing it switches a guard off: every
// file this package reads hooks from, for every agent and scope (taken from the candidate lists,
// so a place is protected from the day it is read), the folders team bundles and managed
// drop-ins are synced into, agenthooks' state folder (trust store, audit trail, user policy),
// each workspace's .agenthooks folder, the policy and audit files in use (files), and the
// agenthooks binaries given; then each of those again where its symlinks lead, where that
// differs (policy.Resolved).
func ProtectedPaths(env Env, files, binaries []string) []policy.Protected {
	out := make([]policy.Protected, 0, 96)
	seen := make(map[string]bool, 96)
	add := func(p, what string, dir, binary bool) {
		if p == "" {
			return
		}
		p = filepath.ToSlash(absPath(p)) // cleaned
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, policy.Protected{Path: p, What: what, Dir: dir, Binary: binary})
	}
	// The places the agents' variables move their folders to (CODEX_HOME, OPENCODE_CONFIG_DIR)
	// are protected, and so are the places they are when the variables are not set: an agent
	// started without them (by a person later, or by the agent with its environment cleaned)
	// reads those.
	unset := env
	unset.CodexHome, unset.Getenv = "", nil
	envsOf := func(a *dialect.Agent) []Env {
		if movedBy(env, a) {
			return []Env{env, unset}
		}
		return []Env{env} // the places without the variables are these, less RootEnv's
	}
	for _, c := range CandidatesOf(env) {
		add(c.Path, string(c.Family)+" hooks configuration ("+string(c.Layer)+")", false, false)
	}
	for _, a := range agents.ByFilePriority() {
		if movedBy(env, a) {
			for _, c := range AgentCandidates(unset, a) {
				add(c.Path, string(c.Family)+" hooks configuration ("+string(c.Layer)+")", false, false)
			}
		}
	}
	// The places themselves, for the files that do not exist yet: a location with a "*"
	// protects its pattern (a "*" alone, its whole folder), the folders an agent loads hooks,
	// plugins or tools from are protected whole, and its settings files that load code or
	// switch hooks off are protected as files.
	for _, a := range agents.ByFilePriority() {
		for _, env := range envsOf(a) {
			for _, p := range LocationPaths(env, a, a.Files) {
				if dir, base := filepath.Split(p); base == "*" && !strings.Contains(dir, "*") {
					add(dir, a.Title+" hooks folder (a new file there runs as a hook)", true, false)
				} else if strings.Contains(p, "*") {
					add(p, a.Title+" hooks files (a new one is read as hooks)", false, false)
				}
			}
			for _, p := range LocationPaths(env, a, a.Loads) {
				add(p, "what "+a.Title+" loads as hooks, plugins or tools (a file put there runs unguarded)", true, false)
			}
			for _, p := range LocationPaths(env, a, a.Configs) {
				add(p, a.Title+" settings (they can load code that runs unguarded or switch its hooks off)", false, false)
			}
		}
		if a.Switches != nil {
			// A settings file VS Code reads only once a person opens or picks it (a
			// .code-workspace, a profile's) is protected where it exists.
			for _, p := range LocationPaths(env, a, a.Switches(cmp.Or(env.GOOS, runtime.GOOS))) {
				matches := []string{p}
				if strings.Contains(p, "*") {
					matches = glob(p)
				}
				for _, m := range matches {
					out = appendSwitch(out, seen, m, a)
				}
			}
		}
	}
	if env.Home != "" {
		add(teamRoot(env.Home), "the team hooks agenthooks sync installs", true, false)
		add(StateDir(env.Home), "agenthooks' trust store, audit trail and policy", true, false)
	}
	add(claudeManaged(env), "Claude Code's managed settings", true, false)
	if env.Home != "" {
		home := inHome(env.Home)
		for _, c := range credentialPaths {
			out = appendKind(out, seen, home(c.path), c.what, c.dir, policy.KindCredentials)
		}
		for _, a := range autorunPaths {
			out = appendKind(out, seen, home(a.path), a.what, a.dir, policy.KindAutorun)
		}
	}
	for _, ws := range env.Workspaces {
		add(join(ws, ".agenthooks"), "the project's agenthooks policy", true, false)
	}
	for _, p := range files {
		add(p, "agenthooks' policy or audit trail in use", false, false)
	}
	for _, b := range binaries {
		add(b, "the agenthooks binary", false, true)
	}
	return policy.Resolved(out) // and where each is through its symlinks
}

// movedBy reports whether env's variables move one of agent a's places away from where it is
// without them: its user folder (Agent.Homes) or a file of its own (Location.Env).
func movedBy(env Env, a *dialect.Agent) bool {
	for _, h := range a.Homes() {
		if env.lookup(h.Env) != "" {
			return true
		}
	}
	for _, locs := range [][]dialect.Location{a.Files, a.Loads, a.Configs} {
		for _, l := range locs {
			if l.Root != dialect.RootEnv && env.lookup(l.Env) != "" {
				return true
			}
		}
	}
	return false
}

// credentialPaths are the keys and tokens in a home folder that cannot be fetched again: the
// agents must not delete, overwrite or send them (reading them to use them is another matter).
var credentialPaths = []struct {
	path, what string
	dir        bool
}{
	{".ssh/id_*", "an SSH private key", false}, {".aws", "AWS credentials", true}, {".gnupg", "GnuPG keys", true},
	{".kube/config", "Kubernetes credentials", false}, {".config/gcloud", "Google Cloud credentials", true},
	{".azure", "Azure credentials", true}, {".docker/config.json", "registry credentials", false},
	{".netrc", "login credentials", false}, {".git-credentials", "git credentials", false},
	{".config/gh/hosts.yml", "GitHub CLI tokens", false}, {".pypirc", "PyPI tokens", false},
	{".password-store", "pass passwords", true}, {".vault-token", "a Vault token", false},
	{".config/hub", "GitHub tokens", false}, {".terraform.d/credentials.tfrc.json", "Terraform tokens", false},
}

// autorunPaths are what runs later on its own when written: shell startup files, SSH's
// authorized keys, autostart entries, user services, npm's config (node-options).
var autorunPaths = []struct {
	path, what string
	dir        bool
}{
	{".bashrc", "a shell startup file", false}, {".bash_profile", "a shell startup file", false},
	{".bash_login", "a shell startup file", false}, {".profile", "a shell startup file", false},
	{".zshrc", "a shell startup file", false}, {".zshenv", "a shell startup file", false},
	{".zprofile", "a shell startup file", false}, {".zlogin", "a shell startup file", false},
	{".config/fish/config.fish", "a shell startup file", false}, {".config/fish/conf.d", "shell startup files", true},
	{".inputrc", "readline's startup file", false}, {".ssh/authorized_keys", "SSH's authorized keys", false},
	{".ssh/rc", "SSH's login script", false}, {".ssh/config", "SSH's config (ProxyCommand runs commands)", false},
	{".config/autostart", "autostart entries", true}, {".config/systemd/user", "user services", true},
	{"Library/LaunchAgents", "launch agents", true}, {".npmrc", "npm's config (node-options runs code)", false},
	{".gitconfig", "git's global config (hooks, aliases and pagers run commands)", false},
	{".config/git/config", "git's global config", false}, {".pam_environment", "the login environment", false},
	{".xprofile", "a session startup file", false}, {".xinitrc", "a session startup file", false},
}

// inHome returns what joins a clean, slash-separated relative path (the tables above) to home,
// as filepath.Join and ToSlash would: home is cleaned once, not once per path.
func inHome(home string) func(rel string) string {
	if !filepath.IsAbs(home) { // not a home a shell gives: joined as it always was
		return func(rel string) string { return filepath.ToSlash(filepath.Join(home, rel)) }
	}
	h := filepath.ToSlash(filepath.Clean(home))
	sep := "/"
	if strings.HasSuffix(h, "/") {
		sep = "" // the root, or a drive's (C:/)
	}
	return func(rel string) string { return h + sep + rel }
}

// appendKind adds p (clean and slash-separated) unless it is there already.
func appendKind(out []policy.Protected, seen map[string]bool, p, what string, dir bool, kind string) []policy.Protected {
	if seen[p] {
		return out
	}
	seen[p] = true
	return append(out, policy.Protected{Path: p, What: what, Dir: dir, Kind: kind})
}

// appendSwitch adds p, a settings file of agent a's host that can switch its hooks off, unless
// it is there already: protected from the agent's file tools only where a change names one of
// the agent's SwitchKeys (policy.Protected.Keys).
func appendSwitch(out []policy.Protected, seen map[string]bool, p string, a *dialect.Agent) []policy.Protected {
	p = filepath.ToSlash(absPath(p))
	if seen[p] {
		return out
	}
	seen[p] = true
	return append(out, policy.Protected{Path: p, What: "settings that switch " + a.Title + " on and off", Keys: a.SwitchKeys})
}

// teamRoot is the folder agenthooks sync writes team bundles into (team_*/hooks/...).
func teamRoot(home string) string { return join(home, ".cursor/managed") }

// claudeManaged is the folder of Claude Code's managed settings in env.
func claudeManaged(env Env) string {
	if env.ClaudeManagedDir != "" {
		return env.ClaudeManagedDir
	}
	goos := env.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	return ClaudeManagedDir(goos)
}
