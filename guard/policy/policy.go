package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// Decision is a verdict on a command.
type Decision string

// The decisions, from weakest to strongest.
const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// Rank orders decisions: deny beats ask beats allow.
func (d Decision) Rank() int {
	switch d {
	case Allow:
		return 1
	case Ask:
		return 2
	case Deny:
		return 3
	}
	return 0
}

func validDecision(s string) bool { return s == "allow" || s == "ask" || s == "deny" }

// Target classes: what a path argument is, judged against the home folder, the working
// directory and the project root.
const (
	TargetRoot        = "root"         // the file system root, or everything in it
	TargetHome        = "home"         // the home folder, or everything in it
	TargetSystem      = "system"       // a top-level system folder: /usr, /etc, /var, ...
	TargetParent      = "parent"       // a folder that contains the working directory or the project
	TargetProjectRoot = "project-root" // the project folder itself, or everything in it
	TargetGit         = "git"          // a .git folder
	TargetProject     = "project"      // something inside the project
	TargetHomeData    = "home-data"    // a folder of the user's own files in home: ~/Documents, ~/Desktop, ~/.config, ...
	TargetHomeSub     = "home-sub"     // inside home, outside the project, not a cache
	TargetCache       = "cache"        // a cache folder in home (~/.cache, ~/.npm, ...)
	TargetTmp         = "tmp"          // /tmp, /var/tmp and below
	TargetDevice      = "device"       // a disk device node
	TargetDynamic     = "dynamic"      // not known until it runs
	TargetOther       = "other"        // anything else
)

// TargetClasses lists every target class.
var TargetClasses = []string{TargetRoot, TargetHome, TargetSystem, TargetParent, TargetProjectRoot, TargetGit,
	TargetProject, TargetHomeData, TargetHomeSub, TargetCache, TargetTmp, TargetDevice, TargetDynamic, TargetOther}

// FindingKinds lists the structural findings a rule can name.
var FindingKinds = []string{shell.FindingParse, shell.FindingTooDeep, shell.FindingPipeToShell, shell.FindingShellStdin,
	shell.FindingDynamicScript, shell.FindingDynamicName, shell.FindingForkBomb, shell.FindingDeviceWrite, shell.FindingCodeDelete, shell.FindingWindows, shell.FindingSQLDestroy, shell.FindingSQLUnknown, shell.FindingCodeDynamic, shell.FindingKillAll, shell.FindingTerraformDestroy}

// Rule is one compiled blocklist rule.
type Rule struct {
	ID       string
	Pack     string // the rule pack it belongs to: a team can switch packs on and off
	Decision Decision
	Message  string

	Commands    []string   // program names (globs allowed); empty with Finding or Pattern
	Subcommands [][]string // alternatives, each a sequence of words
	Flags       [][]string // every group must be present; a group's spellings are alternatives
	Args        []string   // every glob must match some argument
	ArgsAny     []string   // some glob must match some argument
	// Targets: some positional argument must be of one of these classes; for a program that
	// copies or moves (mv, cp, ln, install, rsync, scp), some source.
	Targets []string
	// Destination: a copying or moving program's destination must be of one of these classes.
	Destination []string
	// Unless: none of these flags may be present (git rm --cached touches only the index).
	Unless []string
	Under  []string // the invocation must be inside one of these wrappers
	// Except are forms the rule does not apply to, each a program, its subcommand words and
	// flags that must all be present (systemctl status, fdisk -l).
	Except     [][]string
	ArgPattern *regexp.Regexp
	// MaxArgs, when set, is one more than the most positional arguments that may follow the
	// subcommand (git push --force-with-lease with no branch named: max_args 1, the remote).
	MaxArgs int
	// ArgsUnknown: some argument must be one not known until the command runs.
	ArgsUnknown bool
	// StdinFed: its standard input must be fed by the command line: a pipe, a heredoc, a
	// here-string or a file (answers fed to a tool that would otherwise ask: fdisk /dev/sda <<<
	// $'o\nw', printf 'o\nw\n' | fdisk /dev/sdb, echo y | parted /dev/sdb mklabel gpt).
	StdinFed bool
	Findings []string
	Pattern  *regexp.Regexp

	// argLazy stands for ArgPattern in the generated default policy: compiled on first use, so
	// that a guard process whose command no such rule reaches never compiles it.
	argLazy *lazyRegexp
}

type lazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

// argPattern is the rule's argument pattern, or nil.
func (r *Rule) argPattern() *regexp.Regexp {
	if r.ArgPattern != nil || r.argLazy == nil {
		return r.ArgPattern
	}
	r.argLazy.once.Do(func() { r.argLazy.re = regexp.MustCompile(r.argLazy.expr) })
	return r.argLazy.re
}

// kind says what the rule is matched against.
func (r *Rule) kind() string {
	switch {
	case len(r.Findings) > 0:
		return "finding"
	case r.Pattern != nil:
		return "pattern"
	}
	return "invocation"
}

// Policy is a compiled, validated policy. It is not changed after it is built.
type Policy struct {
	Name    string
	Unknown Decision
	Allow   [][]string // command prefixes: name, then subcommand words
	Rules   []*Rule
	// Packs are the rule packs switched on; nil switches on every pack. A rule with no pack
	// always applies.
	Packs map[string]bool
	// Read, Prompt and MCP are the other guards' sections; nil when the file has none.
	Read   *Read
	Prompt *Prompt
	MCP    *MCP
	// Confine is the confine section; nil when the file has none (see ConfineSettings).
	Confine *Confine
}

// builtins never need an allowlist entry: shell builtins with no effect beyond the shell.
var builtins = words{":", "[", "[[", "break", "cd", "command", "continue", "declare", "echo", "exit", "export", "false", "hash", "let", "local", "popd", "printf", "pushd", "pwd", "read", "readonly", "return", "set", "shift", "shopt", "test", "true", "type", "typeset", "unset", "wait"}

// globalValueOpts are, per command, the options before the subcommand that take a value.
func globalValueOpts(cmd string) words {
	for _, g := range globalOpts {
		if g.cmd == cmd {
			return g.opts
		}
	}
	return nil
}

// globalOpts are globalValueOpts' table: laid out by the linker, as a map literal is not.
var globalOpts = [...]struct {
	cmd  string
	opts words
}{
	{"git", words{"--config-env", "--git-dir", "--namespace", "--super-prefix", "--work-tree", "-C", "-c"}},
	{"kubectl", words{"--cluster", "--context", "--kubeconfig", "--namespace", "--server", "--user", "-n", "-s"}},
	{"aws", words{"--endpoint-url", "--output", "--profile", "--query", "--region"}},
	{"docker", words{"--config", "--context", "--host", "--log-level", "-H", "-c", "-l"}},
	{"npm", words{"--prefix", "--workspace", "-w"}},
	{"helm", words{"--kube-context", "--namespace", "-n"}},
	{"gcloud", words{"--account", "--configuration", "--project"}},
	{"docker-compose", composeValueOpts},
	{"podman-compose", composeValueOpts},
}

// redisValueOpts are redis-cli's options that take a value, before the command it sends.
var redisValueOpts = words{"--askpass", "--cacert", "--cacertdir", "--cert", "--count", "--eval", "--functions-rdb", "--key", "--pass", "--pattern", "--pipe-timeout", "--quoted-pattern", "--rdb", "--sni", "--tls-ca-cert", "--user", "-a", "-d", "-h", "-i", "-n", "-p", "-r", "-s", "-u"}

// composeValueOpts are Compose's options before its subcommand that take a value (docker
// compose -f FILE -p NAME down -v), for docker-compose and after docker's compose.
var composeValueOpts = words{"--ansi", "--env-file", "--file", "--parallel", "--profile", "--progress", "--project-directory", "--project-name", "-f", "-p"}

// movers copy or move their sources to a destination: a rule's targets are their sources, its
// destination their destination.
var movers = words{"cp", "ditto", "gcp", "gmv", "install", "ln", "mv", "rsync", "scp"}

// view is an invocation prepared for matching.
type view struct {
	inv        *shell.Invocation
	name       string // the program's basename
	path       string // the program as written, cleaned
	flags      map[string]bool
	positional []shell.Word // after the name
	sub        []string     // the positional words, static values, after global options
}

func newView(inv *shell.Invocation) *view {
	v := &view{inv: inv, name: inv.Name, flags: map[string]bool{}}
	if len(inv.Args) > 0 && inv.Args[0].Static {
		v.path = path.Clean(inv.Args[0].Value)
	}
	opts := globalValueOpts(inv.Name)
	if inv.Name == "redis-cli" {
		opts = redisValueOpts // redis-cli -n 2 DEL KEY: the command after the connection's options
	}
	endOfOpts, beforeSub := false, true
	args := inv.Args
	if len(args) > 0 {
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		val := w.Value
		if !endOfOpts && w.Static && val == "--" {
			endOfOpts = true
			continue
		}
		if !endOfOpts && w.Static && len(val) > 1 && val[0] == '-' {
			name, _, hasValue := strings.Cut(val, "=")
			v.flags[name] = true
			if !strings.HasPrefix(val, "--") {
				for _, c := range val[1:] {
					v.flags["-"+string(c)] = true
				}
			}
			if beforeSub && opts.has(name) && !hasValue {
				i++ // the option's value is not the subcommand
			}
			continue
		}
		v.positional = append(v.positional, w)
		if beforeSub && w.Static {
			v.sub = append(v.sub, val)
			if len(v.sub) == 1 && val == "compose" && (inv.Name == "docker" || inv.Name == "podman" || inv.Name == "nerdctl") {
				opts = composeValueOpts
			}
		} else {
			beforeSub = false
		}
	}
	return v
}

// isProgram matches a rule's or allow entry's program: a name matches the basename (so
// /usr/bin/rm is rm), an entry with a slash matches the path as written.
func (v *view) isProgram(pattern string) bool {
	if v.name == "" {
		return false
	}
	if strings.Contains(pattern, "/") {
		return globMatch(path.Clean(pattern), v.path)
	}
	return globMatch(pattern, v.name)
}

// isForm reports whether the invocation is of a rule's except form: the program, then
// subcommand words in order and flags that must be present (fdisk -l, apt-get install).
func (v *view) isForm(form []string) bool {
	if len(form) == 0 || !v.isProgram(form[0]) {
		return false
	}
	var sub []string
	for _, w := range form[1:] {
		if strings.HasPrefix(w, "-") {
			if !v.flags[w] {
				return false
			}
			continue
		}
		sub = append(sub, w)
	}
	return v.hasSub(sub)
}

// hasArg reports whether one of the arguments is exactly one of words (-h, not a letter of
// -chdir=x).
func (v *view) hasArg(words ...string) bool {
	for _, w := range v.inv.Args[1:] {
		if w.Static && slices.Contains(words, w.Value) {
			return true
		}
	}
	return false
}

func (v *view) hasFlag(group []string) bool {
	return slices.ContainsFunc(group, func(f string) bool { return v.flags[f] })
}

func (v *view) hasSub(seq []string) bool {
	if len(seq) > len(v.sub) {
		return false
	}
	for i, s := range seq {
		if v.sub[i] != s {
			return false
		}
	}
	return true
}

// matchInvocation reports whether an invocation rule applies, and the argument it concerns.
func (r *Rule) matchInvocation(v *view, c *classifier) (ok bool, arg, class string) {
	if !slices.ContainsFunc(r.Commands, v.isProgram) {
		return false, "", ""
	}
	if len(r.Subcommands) > 0 && !slices.ContainsFunc(r.Subcommands, v.hasSub) {
		return false, "", ""
	}
	if len(r.Subcommands) > 0 && (v.hasArg("--help", "-h", "-help") || slices.Contains(v.sub, "help")) {
		return false, "", "" // terraform destroy --help, aws s3 rm help: multi-level CLIs print help
	}
	for _, g := range r.Flags {
		if !v.hasFlag(g) {
			return false, "", ""
		}
	}
	if v.hasFlag(r.Unless) {
		return false, "", ""
	}
	if len(r.Under) > 0 && !slices.ContainsFunc(r.Under, v.inv.Under) {
		return false, "", ""
	}
	if slices.ContainsFunc(r.Except, v.isForm) {
		return false, "", ""
	}
	args := v.inv.Args[1:]
	for _, p := range r.Args {
		if !slices.ContainsFunc(args, func(w shell.Word) bool { return w.Static && globMatch(p, w.Value) }) {
			return false, "", ""
		}
	}
	if len(r.ArgsAny) > 0 && !slices.ContainsFunc(args, func(w shell.Word) bool {
		return slices.ContainsFunc(r.ArgsAny, func(p string) bool { return argMatch(p, w) })
	}) {
		return false, "", ""
	}
	if re := r.argPattern(); re != nil && !slices.ContainsFunc(args, func(w shell.Word) bool { return w.Static && re.MatchString(w.Value) }) {
		return false, "", ""
	}
	if r.ArgsUnknown && !slices.ContainsFunc(args, func(w shell.Word) bool { return !w.Static }) {
		return false, "", ""
	}
	if r.StdinFed && v.inv.Stdin == "" {
		return false, "", ""
	}
	if r.MaxArgs > 0 {
		n := len(v.positional)
		for _, s := range r.Subcommands {
			if v.hasSub(s) {
				n -= len(s)
				break
			}
		}
		if n > r.MaxArgs-1 {
			return false, "", ""
		}
	}
	var dest *shell.Word
	sources := v.positional
	if movers.has(v.name) {
		dest, sources = splitDest(v.inv.Args[1:], v.positional)
	}
	if len(r.Destination) > 0 {
		if dest == nil {
			return false, "", ""
		}
		class := c.classify(*dest, v.inv)
		if !slices.Contains(r.Destination, class) {
			return false, "", ""
		}
		if len(r.Targets) == 0 {
			return true, dest.Display(), class
		}
	}
	if len(r.Targets) == 0 {
		return true, "", ""
	}
	skip := 0
	for _, s := range r.Subcommands {
		if v.hasSub(s) {
			skip = len(s)
			break
		}
	}
	for i, w := range sources {
		if i < skip {
			continue
		}
		class := c.classify(w, v.inv)
		if slices.Contains(r.Targets, class) {
			return true, w.Display(), class
		}
	}
	return false, "", ""
}

// argMatch matches an argument against a rule's glob. A word not known until it runs matches a
// pattern that is a prefix and a * when its known beginning has that prefix: "+$(git branch
// --show-current)" is a +refspec whatever the branch.
func argMatch(pattern string, w shell.Word) bool {
	if w.Static {
		return globMatch(pattern, w.Value)
	}
	prefix, ok := strings.CutSuffix(pattern, "*")
	if !ok || prefix == "" || strings.ContainsAny(prefix, "*?") {
		return false
	}
	known, _, _ := strings.Cut(w.Value, shell.Dyn)
	return strings.HasPrefix(known, prefix)
}

// globMatch matches s against a pattern where * is any text and ? one character.
func globMatch(pattern, s string) bool {
	if !hasGlob(pattern, false) {
		return pattern == s
	}
	px, sx := 0, 0
	nextP, nextS := -1, -1
	for sx < len(s) || px < len(pattern) {
		if px < len(pattern) {
			switch c := pattern[px]; c {
			case '*':
				nextP, nextS = px, sx+1
				px++
				continue
			case '?':
				if sx < len(s) {
					px++
					sx++
					continue
				}
			default:
				if sx < len(s) && s[sx] == c {
					px++
					sx++
					continue
				}
			}
		}
		if nextS > 0 && nextS <= len(s) {
			px, sx = nextP, nextS
			continue
		}
		return false
	}
	return true
}

func (r *Rule) String() string { return fmt.Sprintf("%s (%s)", r.ID, r.Decision) }

// enabled reports whether the rule's pack is switched on.
func (p *Policy) enabled(r *Rule) bool {
	return p.Packs == nil || r.Pack == "" || p.Packs[r.Pack]
}

// PackNames lists the packs rules belong to, in the order they first appear.
func PackNames(rules []*Rule) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rules {
		if r.Pack != "" && !seen[r.Pack] {
			seen[r.Pack] = true
			out = append(out, r.Pack)
		}
	}
	return out
}

// Pack is a rule pack of a policy: its name, its rules, and whether it is switched on.
type Pack struct {
	Name    string   `json:"name"`
	Rules   []string `json:"rules"`
	Enabled bool     `json:"enabled"`
}

// PackList lists the policy's rule packs.
func (p *Policy) PackList() []Pack {
	var out []Pack
	for _, name := range PackNames(p.Rules) {
		pk := Pack{Name: name, Enabled: p.Packs == nil || p.Packs[name]}
		for _, r := range p.Rules {
			if r.Pack == name {
				pk.Rules = append(pk.Rules, r.ID)
			}
		}
		out = append(out, pk)
	}
	return out
}
