package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Network is what a confined command may do on the network.
type Network string

// The network modes.
const (
	// NetworkAll leaves the network alone.
	NetworkAll Network = "all"
	// NetworkNone denies TCP (ABI 4+) and UDP (ABI 10+) connects and binds.
	NetworkNone Network = "none"
	// NetworkPorts allows connects (TCP, and UDP sends on ABI 10+) to the listed ports only.
	NetworkPorts Network = "ports"
)

// Target is a place a sandbox never grants: a file or folder, and what it is.
type Target struct {
	Path string
	What string
}

// Options are what a sandbox is built from.
type Options struct {
	// Project is the project folder: writable, with everything in it. Required.
	Project string
	// Home is the home folder: never writable, nor anything holding it. Required.
	Home string
	// Writable are more folders or files to make writable (the policy's confine.writable);
	// a leading ~/ is the home folder. A missing one is skipped.
	Writable []string
	// Network and Ports say what the network allows.
	Network Network
	Ports   []uint16
	// Protected are more targets to refuse beside the built-in classes (the agenthooks
	// binaries, the policy and audit trail in use, every agent's hook configuration). One
	// inside the project cannot be kept read-only (Landlock only grants): it is listed in
	// Plan.Exposed instead of refused.
	Protected []Target
	// TempRoot is where the private scratch folder is made: $TMPDIR, else the system's.
	TempRoot string
	// Getenv reads the environment for the toolchains' cache variables (GOCACHE, ...); nil
	// reads none.
	Getenv func(string) string `json:"-"`
}

// Grant is one path a confined command may write, and why.
type Grant struct {
	Path string `json:"path"`
	Why  string `json:"why"`
	Dir  bool   `json:"dir"`
	// Device: a device node or folder of them (/dev/null, /dev/pts): write and ioctl, no
	// creating or removing.
	Device bool `json:"device,omitempty"`
	// Tools, for a cache that does not exist yet, are the programs that make it.
	Tools []string `json:"tools,omitempty"`
}

// Plan is a checked sandbox: what is writable, what was skipped, and what stays exposed.
type Plan struct {
	Writable []Grant `json:"writable"`
	Skipped  []Grant `json:"skipped,omitempty"` // the policy's writable places that do not exist here
	// Created are the toolchains' default caches that do not exist yet: Run makes each whose
	// toolchain is installed (as the toolchain would on its first run, which a confined
	// command cannot) and grants it.
	Created []Grant  `json:"created,omitempty"`
	Exposed []Target `json:"exposed,omitempty"` // protected places inside the project
	Network Network  `json:"network"`
	Ports   []uint16 `json:"ports,omitempty"`
	// TempDir is the private scratch folder Run makes (under TempRoot) and removes.
	TempRoot string `json:"temp_root"`
}

// ErrRefused is wrapped by every error of a sandbox that would grant what it must not.
var ErrRefused = errors.New("refused")

// homeClasses are the places in the home folder a sandbox never grants, by class.
var homeClasses = []struct {
	what  string
	paths []string
}{
	{"credentials", []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", ".netrc", ".git-credentials", ".pgpass",
		".config/gcloud", ".azure", ".config/gh", ".npmrc", ".pypirc", ".cargo/credentials", ".cargo/credentials.toml",
		".password-store", ".local/share/keyrings", ".vault-token", ".terraform.d", ".config/hub"}},
	{"agent configuration", []string{".claude", ".claude.json", ".codex", ".gemini", ".cursor", ".copilot",
		".config/github-copilot", ".qwen", ".config/claude", ".continue", ".aider.conf.yml"}},
	{"agenthooks configuration", []string{".agenthooks", ".config/agenthooks"}},
	{"shell startup file", []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
		".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".config/fish", ".inputrc", ".pam_environment",
		".xprofile", ".config/environment.d", ".config/autostart", ".config/systemd"}},
	{"configuration that runs commands", []string{".gitconfig", ".config/git", ".vimrc", ".config/nvim", ".emacs", ".emacs.d"}},
	{"programs in PATH", []string{".local/bin", "bin", "go/bin", ".cargo/bin", ".npm-global/bin"}},
	{"shell history", []string{".bash_history", ".zsh_history", ".histfile", ".local/share/fish",
		".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".lesshst", ".sqlite_history"}},
}

// cacheDefaults are the toolchains' cache folders, relative to the home folder, each with the
// variable that moves it and the programs that make it (one missing is made before a confined
// command only where one of them is installed).
var cacheDefaults = []struct {
	env, path, why string
	tools          []string
}{
	{"GOCACHE", ".cache/go-build", "go build cache", []string{"go"}},
	{"GOMODCACHE", "go/pkg/mod", "go module cache", []string{"go"}},
	{"npm_config_cache", ".npm", "npm cache", []string{"npm", "npx"}},
	{"YARN_CACHE_FOLDER", ".cache/yarn", "yarn cache", []string{"yarn"}},
	{"", ".yarn/berry/cache", "yarn cache", []string{"yarn"}},
	{"", ".cache/pnpm", "pnpm cache", []string{"pnpm"}},
	{"", ".local/share/pnpm/store", "pnpm store", []string{"pnpm"}},
	{"PIP_CACHE_DIR", ".cache/pip", "pip cache", []string{"pip", "pip3"}},
	{"UV_CACHE_DIR", ".cache/uv", "uv cache", []string{"uv"}},
	{"", ".cache/pypoetry", "poetry cache", []string{"poetry"}},
	{"", ".cargo/registry", "cargo registry", []string{"cargo"}},
	{"", ".cargo/git", "cargo git checkouts", []string{"cargo"}},
	{"", ".m2/repository", "maven repository", []string{"mvn"}},
	{"", ".gradle/caches", "gradle cache", []string{"gradle"}},
	{"", ".cache/node-gyp", "node-gyp headers", []string{"node-gyp"}},
	{"", ".bun/install/cache", "bun cache", []string{"bun"}},
	{"", ".cache/deno", "deno cache", []string{"deno"}},
}

// Devices are the device nodes a confined command may write: the ones toolchains and
// terminals open for writing.
var Devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm"}

// NewPlan checks o and returns the sandbox it describes, or an error wrapping ErrRefused when
// a writable place is, holds or lies in the home folder or a protected place.
func NewPlan(o Options) (*Plan, error) {
	if o.Project == "" || !filepath.IsAbs(o.Project) {
		return nil, fmt.Errorf("the project folder must be an absolute path, not %q", o.Project)
	}
	if o.Home == "" || !filepath.IsAbs(o.Home) {
		return nil, fmt.Errorf("the home folder must be an absolute path, not %q", o.Home)
	}
	switch o.Network {
	case "":
		o.Network = NetworkAll
	case NetworkAll, NetworkNone, NetworkPorts:
	default:
		return nil, fmt.Errorf("network must be none, ports or all, not %q", o.Network)
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	res := resolver{}
	home := res.resolve(o.Home)
	p := &Plan{Network: o.Network, Ports: slices.Clone(o.Ports), TempRoot: o.TempRoot}
	if p.TempRoot == "" {
		p.TempRoot = os.TempDir()
	}
	st, err := os.Stat(o.Project)
	if err != nil {
		return nil, fmt.Errorf("project folder: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("project folder %s is not a folder", o.Project)
	}
	project := res.resolve(o.Project)
	p.Writable = append(p.Writable, Grant{Path: project, Why: "the project", Dir: true})
	if _, err := os.Stat(p.TempRoot); err != nil {
		return nil, fmt.Errorf("temporary folder: %w", err)
	}
	add := func(path, why string, tools []string) error {
		if strings.HasPrefix(path, "~/") {
			path = filepath.Join(o.Home, path[2:])
		}
		if !filepath.IsAbs(path) {
			return fmt.Errorf("writable %q must be an absolute path or start with ~/", path)
		}
		st, err := os.Stat(path)
		if err != nil {
			if !os.IsNotExist(err) {
				return fmt.Errorf("writable %s: %w", path, err)
			}
			g := Grant{Path: filepath.Clean(path), Why: why, Dir: true}
			if tools != nil {
				p.Created = append(p.Created, Grant{Path: res.resolve(path), Why: why, Dir: true, Tools: tools})
			} else {
				p.Skipped = append(p.Skipped, g)
			}
			return nil
		}
		g := Grant{Path: res.resolve(path), Why: why, Dir: st.IsDir()}
		if slices.ContainsFunc(p.Writable, func(w Grant) bool { return w.Path == g.Path }) {
			return nil
		}
		p.Writable = append(p.Writable, g)
		return nil
	}
	for _, c := range cacheDefaults {
		path := filepath.Join(o.Home, c.path)
		if c.env != "" && getenv(c.env) != "" && filepath.IsAbs(getenv(c.env)) {
			path = getenv(c.env)
		}
		if err := add(path, c.why, c.tools); err != nil {
			return nil, err
		}
	}
	for _, w := range o.Writable {
		if err := add(w, "the policy's confine.writable", nil); err != nil {
			return nil, err
		}
	}
	var targets []Target
	for _, c := range homeClasses {
		for _, rel := range c.paths {
			targets = append(targets, Target{Path: filepath.Join(home, rel), What: c.what})
		}
	}
	for _, t := range o.Protected {
		if t.Path != "" && filepath.IsAbs(t.Path) {
			targets = append(targets, Target{Path: res.resolve(t.Path), What: t.What})
		}
	}
	var problems []string
	for _, g := range slices.Concat(p.Writable, p.Created) {
		if within(home, g.Path) {
			problems = append(problems, fmt.Sprintf("%s (%s) holds the home folder %s", g.Path, g.Why, home))
			continue
		}
		for _, t := range targets {
			switch {
			case within(g.Path, t.Path):
				problems = append(problems, fmt.Sprintf("%s (%s) lies in %s, %s", g.Path, g.Why, t.Path, t.What))
			case within(t.Path, g.Path) && g.Path == project:
				if !slices.Contains(p.Exposed, t) {
					p.Exposed = append(p.Exposed, t)
				}
			case within(t.Path, g.Path):
				problems = append(problems, fmt.Sprintf("%s (%s) holds %s, %s", g.Path, g.Why, t.Path, t.What))
			}
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: a confined command could write where it must never: %s", ErrRefused, strings.Join(problems, "; "))
	}
	for _, d := range Devices {
		if st, err := os.Stat(d); err == nil {
			p.Writable = append(p.Writable, Grant{Path: d, Why: "device", Dir: st.IsDir(), Device: d != "/dev/shm"})
		}
	}
	return p, nil
}

// resolve makes p absolute and clean and resolves its links, as far as it exists: Landlock
// grants the inode a path leads to, so checks must see the same place.
func resolve(p string) string { return resolver{}.resolve(p) }

// resolver resolves paths as resolve does, remembering each folder it resolved: a plan resolves
// dozens of paths under the same few folders, and each component is looked at once.
type resolver map[string]string

func (r resolver) resolve(p string) string {
	p = filepath.Clean(p)
	if out, ok := r[p]; ok {
		return out
	}
	dir, base := filepath.Split(p)
	out := p
	if dir != "" && filepath.Clean(dir) != p {
		out = filepath.Join(r.resolve(filepath.Clean(dir)), base)
		if st, err := os.Lstat(out); err == nil && st.Mode()&os.ModeSymlink != 0 {
			if target, err := filepath.EvalSymlinks(out); err == nil {
				out = target
			}
		}
	}
	r[p] = out
	return out
}

// within reports whether p is dir or lies in it.
func within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
