package policy

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// Protected is a file or folder that an agent must never change, because changing it switches
// the guard off or weakens it: an agent's hook configuration, agenthooks' policy files, trust
// store, team folders and audit trail, and the agenthooks binaries. Reading it stays allowed; a
// person changes it outside the agent. The caller derives the list (config.ProtectedPaths);
// the policy only judges commands against it.
type Protected struct {
	Path   string `json:"path"`             // absolute and clean
	Dir    bool   `json:"dir,omitempty"`    // everything inside it is protected too
	What   string `json:"what"`             // what it is, for the message: "Claude Code settings (user)"
	Binary bool   `json:"binary,omitempty"` // an agenthooks executable: copying or linking it is refused too
	// Prefix protects too every file beside it whose name starts with its name and a dot or a
	// dash: a database's journals, spools and the spools an ingest has claimed.
	Prefix bool `json:"prefix,omitempty"`
	// Kind is what is protected: "" an agent's or agenthooks' own configuration (any change
	// switches a guard off), KindCredentials keys and tokens (deleting, overwriting or sending
	// them off the machine is denied; using them is not), KindAutorun what runs later on its
	// own (shell startup files, authorized_keys, autostart entries: writing is denied).
	Kind string `json:"kind,omitempty"`
	// Keys, when set, are settings keys (or their prefixes) that switch hooks off in this file
	// (VS Code's chat.useHooks): an agent's file tool may change the file when neither its
	// text before nor after the change names one; a shell command is judged as for any other.
	Keys []string `json:"keys,omitempty"`
}

// The kinds of protected paths besides the guard's own configuration.
const (
	KindCredentials = "credentials"
	KindAutorun     = "autorun"
)

// The pseudo-rule ids of the protections no policy can switch off.
const (
	// RuleProtected denies a change to a protected file or folder.
	RuleProtected = "protected-config"
	// RuleSelf denies the agenthooks commands that change what the guard trusts or where it
	// is installed (trust, untrust, install, uninstall, sync with another server).
	RuleSelf = "agenthooks-self"
	// RuleGuardEnv denies setting a variable that changes what agenthooks does.
	RuleGuardEnv = "agenthooks-env"
	// RuleAgentEnv denies setting a variable that moves an agent's configuration, and so its
	// hooks, away (CLAUDE_CONFIG_DIR, OPENCODE_CONFIG_DIR, HOME for an agent's program).
	RuleAgentEnv = "agent-env"
	// RuleAgentFlags denies starting an agent with a flag of its own that drops the hooks the
	// user installed or loads settings that can switch them off (claude --bare, opencode --pure).
	RuleAgentFlags = "agent-flags"
)

// personMust ends every protection message: the agent cannot do this, a person can.
const personMust = "a person must make this change outside the agent"

// How an invocation touches a path.
const (
	opDelete = "delete" // removes or moves away the path and everything under it
	opWrite  = "write"  // writes, truncates or changes the attributes of the path itself
	opPlace  = "place"  // puts something at the path (a copy's or move's destination)
	opLink   = "link"   // makes a link to the path, through which it can be written later
	opCopy   = "copy"   // copies the path (matters only for binaries)
	opUse    = "use"    // hands the path to a program whose effect is not known
	// opMkdir makes a folder at the path: an empty folder changes nothing above it, but one
	// where a protected file belongs (or inside a protected folder) stands in its way.
	opMkdir = "mkdir"
	opCode  = "code"    // interpreter code names the path and writes or removes files
	opScope = "git-rev" // a git command that rewrites the work tree at the path
	// opTree changes the attributes of the path and everything under it (chmod -R, chown -R):
	// it reaches the credentials in a folder (chmod -R 777 ~/.ssh makes the keys readable to all).
	opTree = "tree"
)

// readers only read the files they are given: naming a protected file is fine.
var readers = words{
	".", ":", "[", "[[", "ack", "ag", "b2sum", "base64", "basename", "bat", "batcat", "cat", "cd", "cksum", "cmp",
	"code", "colordiff", "column", "comm", "command", "cut", "delta", "diff", "diff3", "dirname", "du", "echo", "egrep",
	"exa", "expand", "eza", "false", "fd", "fgrep", "file", "find", "fmt", "fold", "getfacl", "grep", "gzcat", "hash",
	"head", "hexdump", "icdiff", "join", "jq", "less", "locate", "ls", "lsattr", "lsd", "md5sum", "more", "nl", "od",
	"paste", "popd", "pr", "printf", "pushd", "pwd", "readlink", "realpath", "rg", "sdiff", "sha1sum", "sha256sum",
	"sha512sum", "sort", "source", "stat", "strings", "sum", "tac", "tail", "test", "tr", "tree", "true", "type",
	"unexpand", "uniq", "view", "vimdiff", "wc", "whereis", "which", "xxd", "zcat",
}

// deleters remove every path they are given.
var deleters = words{
	"gio", "rm", "rmdir", "shred", "srm", "trash", "trash-put", "unlink", "wipe",
}

// writers change every path they are given.
var writers = words{
	"chattr", "chflags", "chgrp", "chmod", "chown", "ed", "emacs", "ex", "joe", "mcedit", "micro", "nano", "nvim",
	"patch", "pico", "setfacl", "sponge", "tee", "touch", "truncate", "vi", "vim", "xattr",
}

// copiers put their sources at their last argument (or at -t DIR).
var copiers = words{
	"cp", "ditto", "gcp", "install", "link", "ln", "rcp", "rsync", "scp",
}

// gitWorkTree are the git verbs that rewrite or remove files of the work tree they name.
var gitWorkTree = words{
	"am", "apply", "checkout", "checkout-index", "cherry-pick", "clean", "filter-branch", "filter-repo", "merge", "mv",
	"pull", "read-tree", "rebase", "reset", "restore", "revert", "rm", "stash", "switch", "update-index", "worktree",
}

// selfCommands are the agenthooks commands an agent must never run: they change what the guard
// trusts or where it is installed.
var selfCommands = words{
	"install", "trust", "uninstall", "untrust",
}

// agentConfigVerbs are the words after config, hooks or settings that change them.
var agentConfigVerbs = words{
	"add", "delete", "disable", "edit", "enable", "import", "install", "remove", "reset", "rm", "set", "trust",
	"uninstall", "unset",
}

// agentConfigNouns are the subcommands of an agent's CLI that hold its settings and hooks.
var agentConfigNouns = words{
	"config", "extension", "extensions", "hook", "hooks", "plugin", "plugins", "settings",
}

// syncEnrolFlags are the flags with which agenthooks sync joins another server.
var syncEnrolFlags = []string{"--server", "--team", "--token-file", "--key", "--claude", "--claude-dir"}

// codeWrites are the words that make interpreter code able to change a file it names.
// (Opening a file is a write only with a write mode: see writeMode.)
var codeWrites = []string{"write", "Write", "dump", "remove", "Remove", "unlink", "rename", "Rename", "replace", "rmtree",
	"rmSync", "rm(", "truncate", "Truncate", "move", "copy", "Copy", "chmod", "Chmod", "chown", "symlink", "Symlink", "link(",
	"system", "exec", "spawn", "popen", "subprocess", "`", "mkdir", "touch", "print >", "printf >", ">>", "O_WRONLY", "O_RDWR",
	"O_TRUNC", "O_CREAT", "syswrite", "sysopen", "tofile", "save"}

// writeModes are the mode strings with which open() and its kin write: Python, Ruby, PHP, C,
// Node's flags, Perl's two-argument and three-argument forms.
var writeModes = words{
	"+<", "+>", "+>>", ">", ">>", "a", "a+", "a+b", "ab", "ab+", "at", "ax", "r+", "r+b", "rb+", "w", "w+", "w+b", "wb",
	"wb+", "wt", "wx", "x", "x+", "xb",
}

// writesFiles reports whether interpreter code has a call that can change a file: a writing or
// removing call, or a string literal that is a write mode (open(p, "w")) or a Perl >FILE.
func writesFiles(code string) bool {
	if containsWord(code, codeWrites) {
		return true
	}
	for _, q := range []byte{'"', '\''} {
		for rest := code; ; {
			i := strings.IndexByte(rest, q)
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i+1:], q)
			if j < 0 {
				break
			}
			lit := rest[i+1 : i+1+j]
			if writeModes.has(lit) || strings.HasPrefix(lit, ">") || strings.HasPrefix(lit, "+<") {
				return true
			}
			rest = rest[i+1+j+1:]
		}
	}
	return false
}

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}

// hit is one protected path an invocation touches.
type hit struct {
	op     string
	target string // as the person wrote it, or resolved
	prot   *Protected
}

// protector judges invocations against the protected paths of a context.
type protector struct {
	ctx    Context
	real   map[string]string // protected path -> its symlinks resolved
	prot   []Protected       // ctx.Protected, or what ctx.ProtectedFunc gave on first need
	listed bool              // prot is known
}

func newProtector(ctx Context) *protector {
	return &protector{ctx: ctx}
}

// protecting reports whether the context protects paths: a list given, or one to compute.
func (pr *protector) protecting() bool {
	return len(pr.ctx.Protected) > 0 || pr.ctx.ProtectedFunc != nil
}

// list is the protected paths, computed on the first call when the context gives a function:
// a command that changes, sends or names no path never needs them.
func (pr *protector) list() []Protected {
	if !pr.listed {
		pr.listed = true
		pr.prot = pr.ctx.Protected
		if len(pr.prot) == 0 && pr.ctx.ProtectedFunc != nil {
			pr.prot = BashPaths(Context{Protected: pr.ctx.ProtectedFunc()}).Protected
		}
	}
	return pr.prot
}

// cannotBeProtected reports whether ctx.MayProtect rules out that the path abs (a glob when
// pattern) relates to any protected path, before the list is computed. Only a plain path whose
// symlinks resolve to itself is tested: through a symlink, what it reaches is compared too.
func (pr *protector) cannotBeProtected(abs string, pattern bool) bool {
	may := pr.ctx.MayProtect
	if may == nil || pr.listed || len(pr.ctx.Protected) > 0 || pattern || may(abs) {
		return false
	}
	return realPath(abs) == abs
}

// invocation lists the protections an invocation breaks: a change to a protected path, or one
// of agenthooks' own commands.
// When denied is set, the invocation is denied already and nothing is reported.
func (pr *protector) invocation(inv *shell.Invocation, denied bool) []Match {
	if denied {
		return nil
	}
	var out []Match
	subject := func() string { return strings.Join(argv(inv, pr.ctx.Home), " ") } // for a match only
	if cmd := pr.selfCommand(inv); cmd != "" {
		out = append(out, Match{Rule: RuleSelf, Decision: Deny, Pos: inv.Pos, Subject: subject(),
			Message: "agenthooks " + cmd + " changes what the guard trusts or where it runs; " + personMust})
	}
	if cmd := selfRemoval(inv); cmd != "" {
		out = append(out, Match{Rule: RuleSelf, Decision: Deny, Pos: inv.Pos, Subject: subject(),
			Message: cmd + " removes agenthooks, and with it the guard; " + personMust})
	}
	if cmd := agentConfigCommand(inv); cmd != "" {
		out = append(out, Match{Rule: RuleProtected, Decision: Deny, Pos: inv.Pos, Subject: subject(),
			Message: "protected: " + cmd + " changes the agent's own settings, where its hooks live; " + personMust})
	}
	if !pr.protecting() {
		return out
	}
	if hits := pr.hits(inv); len(hits) > 0 && len(out) == 0 {
		// One is reason enough: the first names what is protected.
		m := Match{Rule: RuleProtected, Decision: Deny, Pos: inv.Pos, Subject: subject(), Message: describeHit(hits[0], pr.ctx.Home)}
		if plainStartupLine(inv, hits[0]) {
			m.Decision = Ask
			m.Message = "adds a line to " + hits[0].prot.What + " (" + tildeHome(hits[0].prot.Path, pr.ctx.Home) + "), which runs in every new shell"
		}
		out = append(out, m)
	}
	return out
}

// plainStartupLine reports whether an invocation appends a known, plain line to a shell startup
// file (echo 'export PATH=$PATH:~/go/bin' >> ~/.bashrc): a person is asked, as agents set up
// tools this way. A line that downloads, decodes, aliases, traps, evals or points PATH or a
// library path at a temporary folder is not plain, nor is anything but an append of echo or
// printf with words known before it runs.
func plainStartupLine(inv *shell.Invocation, h hit) bool {
	if h.prot.Kind != KindAutorun || !strings.Contains(h.prot.What, "startup") || (inv.Name != "echo" && inv.Name != "printf") {
		return false
	}
	appends := false
	for _, r := range inv.Redirects {
		if r.Op == ">>" {
			appends = true
		} else if strings.Contains(r.Op, ">") && !strings.HasPrefix(r.Op, ">&") {
			return false // overwriting the file loses what a person put there
		}
	}
	if !appends {
		return false
	}
	var text strings.Builder
	for _, w := range inv.Args[1:] {
		if !w.Static && w.Raw == "" {
			return false
		}
		text.WriteString(w.Raw + " " + w.Value + " ")
	}
	t := strings.ToLower(text.String())
	for _, bad := range []string{"agenthooks", "curl", "wget", "|", "base64", "/tmp", "/dev/", "alias ", "trap ", "eval", "source ", ". /",
		"ld_preload", "ld_library_path", "prompt_command", "exec ", "nc ", "python", "perl", "ruby", "node", "$(", "`", "&&", ";", "rm "} {
		if strings.Contains(t, bad) {
			return false
		}
	}
	return true
}

// finding is the protection a structural finding breaks, if any: setting a variable that
// changes agenthooks, one that moves an agent's configuration away from its hooks, or starting
// an agent with a flag that drops them.
func (pr *protector) finding(f shell.Finding) (Match, bool) {
	switch f.Kind {
	case shell.FindingGuardEnv:
		return Match{Rule: RuleGuardEnv, Decision: Deny, Pos: f.Pos, Subject: f.Message,
			Message: "agenthooks' variables are set by a person, not by the agent"}, true
	case shell.FindingAgentEnv:
		return Match{Rule: RuleAgentEnv, Decision: Deny, Pos: f.Pos, Subject: f.Message,
			Message: "a person, not the agent, starts an agent without its hooks"}, true
	case shell.FindingAgentFlags:
		return Match{Rule: RuleAgentFlags, Decision: Deny, Pos: f.Pos, Subject: f.Message,
			Message: "a person, not the agent, starts an agent without its hooks"}, true
	}
	return Match{}, false
}

func describeHit(h hit, home string) string {
	verb := map[string]string{opDelete: "deletes or moves", opWrite: "changes", opTree: "changes the permissions or owner of", opPlace: "overwrites or plants a file in",
		opLink: "links to", opCopy: "copies", opUse: "hands to a program that may change", opMkdir: "makes a folder in the place of", opCode: "has code that may change",
		opScope: "rewrites with git"}[h.op]
	tail := personMust
	switch h.prot.Kind {
	case KindCredentials:
		tail = "keys and tokens cannot be fetched again"
	case KindAutorun:
		tail = "it would run commands later, on its own"
	}
	return "protected: " + verb + " " + h.prot.What + " (" + tildeHome(h.prot.Path, home) + "); " + tail
}

// selfCommand returns the agenthooks subcommand an invocation runs when it is one the agent
// must not run, or "".
func (pr *protector) selfCommand(inv *shell.Invocation) string {
	args := inv.Args
	if len(args) == 0 {
		return ""
	}
	if !args[0].Static {
		// $(which agenthooks) trust .: the binary, whichever PATH finds it
		if raw := args[0].Raw; !strings.Contains(raw, "agenthooks") || !(strings.Contains(raw, "which") || strings.Contains(raw, "command -v") || strings.Contains(raw, "type -")) {
			return ""
		}
	}
	name := inv.Name
	rest := args[1:]
	switch {
	case name == "npx" || name == "bunx" || name == "pnpx":
		rest = skipFlags(rest)
		if len(rest) == 0 || !rest[0].Static || !isAgenthooksName(path.Base(rest[0].Value)) {
			return ""
		}
		rest = rest[1:]
	case name == "go" && len(rest) > 0 && rest[0].Value == "run":
		rest = skipFlags(rest[1:])
		if len(rest) == 0 || !strings.Contains(rest[0].Value, "agenthooks") {
			return ""
		}
		rest = rest[1:]
	case isAgenthooksName(name) || !args[0].Static || pr.isBinary(args[0].Value, inv.Cwd):
	default:
		return ""
	}
	rest = skipFlags(rest)
	if len(rest) == 0 || !rest[0].Static {
		return ""
	}
	sub := rest[0].Value
	if (sub == "install" || sub == "uninstall") && slices.ContainsFunc(rest[1:], func(w shell.Word) bool {
		return w.Static && (w.Value == "--dry-run" || w.Value == "--dry-run=true")
	}) {
		return "" // prints the diff it would write, and writes nothing
	}
	if selfCommands.has(sub) {
		return sub
	}
	if sub == "sync" {
		for _, w := range rest[1:] {
			flag, _, _ := strings.Cut(w.Value, "=")
			if slices.Contains(syncEnrolFlags, flag) {
				return "sync " + flag
			}
		}
	}
	return ""
}

// The subcommands with which package managers remove an installed package: npm uninstall -g
// agenthooks takes the guard away as surely as deleting its binary.
var (
	nodeRemoves   = words{"r", "remove", "rm", "un", "uninstall", "unlink"}
	yarnRemoves   = words{"remove"}
	systemRemoves = words{"-R", "-e", "erase", "purge", "remove", "rm", "uninstall", "zap"}
	otherRemoves  = words{"remove", "uninstall"}
)

// packageRemoval returns the subcommands with which a package manager removes a package.
func packageRemoval(name string) words {
	switch strings.TrimSuffix(name, ".exe") {
	case "npm", "pnpm", "bun":
		return nodeRemoves
	case "yarn":
		return yarnRemoves
	case "brew", "port", "apk", "apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "nix-env", "snap", "flatpak":
		return systemRemoves
	case "scoop", "winget", "choco", "pip", "pip3", "pipx", "uv", "cargo", "gem", "go":
		return otherRemoves
	}
	return nil
}

// selfRemoval returns "PROGRAM VERB PACKAGE" when an invocation uninstalls agenthooks through
// a package manager (npm uninstall -g agenthooks, brew uninstall agenthooks, scoop uninstall
// agenthooks, pipx uninstall agenthooks, uv tool uninstall agenthooks), or "".
func selfRemoval(inv *shell.Invocation) string {
	verbs := packageRemoval(inv.Name)
	if verbs == nil || len(inv.Args) < 3 {
		return ""
	}
	verb := ""
	if inv.Name == "pacman" {
		if !hasRemoveFlag(inv.Args[1:]) {
			return ""
		}
		verb = "-R" // pacman -R agenthooks: the verb is an option
	}
	for _, w := range inv.Args[1:] {
		switch {
		case w.Static && strings.HasPrefix(w.Value, "-"):
		case verb == "" && (w.Value == "tool" || w.Value == "global"):
			// uv tool uninstall, yarn global remove
		case verb == "":
			if !verbs.has(w.Value) {
				return ""
			}
			verb = w.Value
		case agenthooksPackage(w.Value):
			return inv.Name + " " + verb + " " + w.Value
		}
	}
	return ""
}

func hasRemoveFlag(args []shell.Word) bool {
	for _, w := range args {
		if strings.HasPrefix(w.Value, "-R") || w.Value == "--remove" {
			return true
		}
	}
	return false
}

// agenthooksPackage reports whether a package name names agenthooks: agenthooks,
// agenthooks@1.2.0, @agenthooks/cli, agenthooks/tap/agenthooks, github.com/agenthooks/agenthooks.
func agenthooksPackage(v string) bool {
	v = strings.ToLower(v)
	if at := strings.LastIndex(v, "@"); at > 0 {
		v = v[:at] // a version
	}
	if strings.HasPrefix(v, "@agenthooks/") {
		return true
	}
	v, _, _ = strings.Cut(v, "==")
	return isAgenthooksName(path.Base(v))
}

// agentConfigCommand returns "NAME NOUN VERB" when an invocation runs an agent's CLI command that
// changes its settings or hooks, or "".
func agentConfigCommand(inv *shell.Invocation) string {
	if !shell.IsAgentCLI(inv.Name) { // their config commands rewrite the settings that hold their hooks
		return ""
	}
	pos := positional(inv.Args[1:])
	for i := 0; i+1 < len(pos) && i < 2; i++ {
		if agentConfigNouns.has(pos[i].Value) && agentConfigVerbs.has(pos[i+1].Value) {
			return inv.Name + " " + pos[i].Value + " " + pos[i+1].Value
		}
	}
	return ""
}

func isAgenthooksName(name string) bool {
	return strings.HasPrefix(strings.TrimSuffix(name, ".exe"), "agenthooks")
}

// skipFlags drops leading words that start with a dash.
func skipFlags(args []shell.Word) []shell.Word {
	for len(args) > 0 && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		args = args[1:]
	}
	return args
}

// isBinary reports whether the program p (as written, run in cwd) is a protected binary.
func (pr *protector) isBinary(p, cwd string) bool {
	if !strings.Contains(p, "/") {
		return false
	}
	abs, ok := absolute(p, cwd)
	if !ok {
		return false
	}
	prot := pr.list()
	for i := range prot {
		b := &prot[i]
		if b.Binary && (abs == b.Path || realPath(abs) == pr.realOf(b)) {
			return true
		}
	}
	return false
}

// hits lists the protected paths an invocation changes.
func (pr *protector) hits(inv *shell.Invocation) []hit {
	var out []hit
	add := func(op string, w shell.Word) {
		if h, ok := pr.touch(op, w, inv); ok {
			out = append(out, h)
		}
	}
	for _, r := range inv.Redirects {
		if strings.Contains(r.Op, ">") && !strings.HasPrefix(r.Op, ">&") && r.Op != "<&" {
			add(opWrite, r.Target)
		}
	}
	if len(inv.Args) == 0 {
		return out
	}
	name := inv.Name
	if name == "" {
		return out
	}
	pos := positional(inv.Args[1:])
	switch {
	case name == "mkdir" || makesFolders(name, inv.Args[1:]):
		// An empty folder runs nothing: making a protected folder itself, or one that holds
		// protected files (mkdir -p .claude, .opencode/plugins), is fine; a folder where a
		// protected file or pattern belongs, or inside a protected folder, is not.
		for _, w := range pos {
			if h, ok := pr.touch(opMkdir, w, inv); ok && !(h.prot.Dir && h.target == h.prot.Path) {
				out = append(out, h)
			}
		}
	case deleters.has(name):
		for _, w := range pos {
			add(opDelete, w)
		}
	case name == "mv" || name == "gmv":
		dest, srcs := splitDest(inv.Args[1:], pos)
		for _, w := range srcs {
			add(opDelete, w)
		}
		pr.place(dest, srcs, inv, &out)
	case copiers.has(name):
		dest, srcs := splitDest(inv.Args[1:], pos)
		for _, w := range srcs {
			if name == "ln" || name == "link" || copyLinks(name, inv.Args[1:]) {
				add(opLink, w)
			} else {
				add(opCopy, w)
			}
		}
		pr.place(dest, srcs, inv, &out)
	case writers.has(name):
		tighten := name == "chmod" && chmodPrivate(inv.Args[1:])
		for _, w := range pos {
			if h, ok := pr.touch(opWrite, w, inv); ok && !(tighten && h.prot.Kind == KindCredentials) {
				out = append(out, h) // chmod 600 KEY only takes permissions away: what ssh asks for
				continue
			}
			if recursiveAttrs(name, inv.Args[1:]) && !tighten {
				if h, ok := pr.touch(opTree, w, inv); ok && h.prot.Kind == KindCredentials {
					out = append(out, h)
				}
			}
		}
	case name == "sed" || name == "perl" || name == "ruby":
		if hasInPlace(inv.Args[1:]) {
			for _, w := range pos {
				add(opWrite, w)
			}
		}
	case name == "dd":
		for _, w := range inv.Args[1:] {
			if t, ok := strings.CutPrefix(w.Value, "of="); ok {
				w.Value = t
				add(opWrite, w)
			}
		}
	case name == "git":
		if verb := gitVerb(inv.Args[1:]); gitWorkTree.has(verb) {
			for _, w := range pos {
				if w.Value != verb {
					add(opScope, w)
				}
			}
		}
	case name == "sort" || name == "uniq":
		// sort -o FILE and uniq IN OUT write their output to a file they name
		if w, ok := textOutput(name, inv.Args[1:]); ok {
			add(opWrite, w)
		}
	case readers.has(name) || inv.Function || inv.ReadsOnly:
	default:
		for _, w := range inv.Args[1:] {
			if !w.Static {
				continue
			}
			if _, v, ok := strings.Cut(w.Value, "="); ok && strings.HasPrefix(w.Value, "-") {
				w.Value = v
			}
			if strings.HasPrefix(w.Value, "-") || !strings.ContainsAny(w.Value, "/.~") {
				continue
			}
			add(opUse, w)
		}
	}
	for _, code := range inv.Code {
		// writesFiles first: it needs no protected path, and most code writes none
		if writesFiles(code) {
			if p := pr.namedIn(code); p != nil {
				out = append(out, hit{op: opCode, prot: p})
			}
		}
	}
	return out
}

// textOutput returns the file sort (-o FILE, --output=FILE) or uniq (its second operand)
// writes its output to.
func textOutput(name string, args []shell.Word) (shell.Word, bool) {
	var ops []shell.Word
	end := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case end || !w.Static || v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, w)
		case v == "--":
			end = true
		case name == "sort" && (v == "-o" || v == "--output") && i+1 < len(args):
			return args[i+1], true
		case name == "sort" && strings.HasPrefix(v, "--output="):
			w.Value = strings.TrimPrefix(v, "--output=")
			return w, true
		case name == "sort" && !strings.HasPrefix(v, "--") && strings.IndexAny(v, "ktST") < 0 && strings.Contains(v, "o"):
			// a cluster ending in o takes the next word (-uo FILE); -oFILE holds it
			j := strings.IndexByte(v, 'o')
			if j == len(v)-1 && i+1 < len(args) {
				return args[i+1], true
			}
			w.Value = v[j+1:]
			return w, true
		case name == "sort" && (v == "-k" || v == "-t" || v == "-S" || v == "-T" || v == "--key" || v == "--field-separator" ||
			v == "--buffer-size" || v == "--temporary-directory" || v == "--parallel" || v == "--batch-size" || v == "--files0-from"):
			i++
		case name == "uniq" && (v == "-f" || v == "-s" || v == "-w" || v == "--skip-fields" || v == "--skip-chars" || v == "--check-chars"):
			i++
		}
	}
	if name == "uniq" && len(ops) >= 2 {
		return ops[1], true
	}
	return shell.Word{}, false
}

// positional returns the arguments that are not options (a "--" ends the options).
func positional(args []shell.Word) []shell.Word {
	var pos []shell.Word
	end := false
	for _, w := range args {
		switch {
		case !end && w.Static && w.Value == "--":
			end = true
		case !end && w.Static && len(w.Value) > 1 && w.Value[0] == '-':
		default:
			pos = append(pos, w)
		}
	}
	return pos
}

// splitDest finds a copy's or move's destination: the value of -t DIR, -tDIR or
// --target-directory[=]DIR, else the last positional argument; the rest are sources.
func splitDest(args, pos []shell.Word) (dest *shell.Word, srcs []shell.Word) {
	for i, w := range args {
		v := w.Value
		var dir shell.Word
		switch {
		case (v == "-t" || v == "--target-directory") && i+1 < len(args):
			dir = args[i+1]
		case strings.HasPrefix(v, "--target-directory="):
			dir = w
			dir.Value = strings.TrimPrefix(v, "--target-directory=")
		case strings.HasPrefix(v, "-t") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			dir = w
			dir.Value = v[2:]
		default:
			continue
		}
		srcs = slices.DeleteFunc(slices.Clone(pos), func(p shell.Word) bool { return p.Value == dir.Value })
		return &dir, srcs
	}
	if len(pos) < 2 {
		return nil, pos
	}
	return &pos[len(pos)-1], pos[:len(pos)-1]
}

func isDir(p string) bool {
	st, err := os.Stat(fromBash(p))
	return err == nil && st.IsDir()
}

// place judges a copy's or move's destination. A destination that is an existing folder (or
// ends with a slash) receives each source under its own name, or, for a source written as
// DIR/ or DIR/. or a glob, its contents; any other destination is replaced by the source.
func (pr *protector) place(dest *shell.Word, srcs []shell.Word, inv *shell.Invocation, out *[]hit) {
	if dest == nil {
		return
	}
	abs, ok := absolute(dest.Value, inv.Cwd)
	// The home folder, the project and the like are folders even where this machine lacks
	// them (a policy test's home): nothing replaces them whole.
	if !ok || !dest.Static || !(strings.HasSuffix(dest.Value, "/") || isDir(abs) || pr.broad(abs)) {
		if h, ok := pr.touch(opPlace, *dest, inv); ok {
			*out = append(*out, h)
		}
		return
	}
	for _, s := range srcs {
		w := *dest
		switch {
		case !s.Static:
			w.Value, w.Glob = abs+"/*", true // a name not known until it runs
		case strings.HasSuffix(s.Value, "/") || strings.HasSuffix(s.Value, "/."):
			w.Value, w.Glob = abs+"/*", true // the folder's contents
		case s.Glob:
			w.Value, w.Glob = abs+"/"+path.Base(s.Value), true
		default:
			w.Value = abs + "/" + path.Base(path.Clean(s.Value))
		}
		if h, ok := pr.touch(opPlace, w, inv); ok {
			*out = append(*out, h)
			return
		}
	}
}

func hasInPlace(args []shell.Word) bool {
	for _, w := range args {
		v := w.Value
		if v == "--in-place" || strings.HasPrefix(v, "--in-place=") {
			return true
		}
		if len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "i") {
			return true
		}
	}
	return false
}

// gitVerb is git's subcommand: the first word that is not a global option or its value.
func gitVerb(args []shell.Word) string {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if globalValueOpts("git").has(v) {
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			return v
		}
	}
	return ""
}

// touch reports whether op on the word w hits a protected path.
func (pr *protector) touch(op string, w shell.Word, inv *shell.Invocation) (hit, bool) {
	if w.Value == "" {
		return hit{}, false
	}
	if !w.Static {
		// A variable the shell inherits from the agent, as the hook does: "$AGENTHOOKS_AUDIT"*
		// names the audit trail. Used only to find protected paths, never to allow.
		if v, glob, ok := pr.withEnv(w.Raw); ok {
			if h, ok := pr.touch(op, shell.Word{Value: v, Static: true, Glob: glob || w.Glob, Raw: w.Raw}, inv); ok {
				return h, true
			}
		}
		// $(which agenthooks): the binary, whichever PATH finds it
		if raw := w.Raw; op != opUse && op != opMkdir && op != opCopy && (strings.Contains(raw, "which agenthooks") ||
			strings.Contains(raw, "command -v agenthooks") || strings.Contains(raw, "type -p agenthooks") || strings.Contains(raw, "type -P agenthooks")) {
			return hit{op: op, target: w.Display(), prot: &Protected{Path: "agenthooks", What: "the agenthooks binary", Binary: true}}, true
		}
		// A path computed at run time from one that names a protected place:
		// $(ls ~/.claude/*.json), "$(dirname ~/.cursor/hooks.json)".
		if p := pr.namedInRaw(w.Raw); p != nil && op != opCopy && op != opUse && op != opMkdir {
			return hit{op: op, target: w.Display(), prot: p}, true
		}
		// Only the static end is known: $(…)/.claude/settings.json still names the file.
		i := strings.LastIndex(w.Value, shell.Dyn)
		tail := w.Value[i+len(shell.Dyn):]
		if p := pr.byTail(tail, 2); p != nil {
			return hit{op: op, target: w.Display(), prot: p}, true
		}
		return hit{}, false
	}
	v := w.Value
	if isAgenthooksName(path.Base(v)) && op != opUse && op != opMkdir && op != opCopy && op != opScope {
		// any file named agenthooks is taken for the binary: a copy elsewhere, or the one a
		// PATH the guard does not know finds
		return hit{op: op, target: v, prot: &Protected{Path: v, What: "an agenthooks binary", Binary: true}}, true
	}
	if p := pr.special(op, v, inv.Cwd); p != nil {
		return hit{op: op, target: v, prot: p}, true
	}
	abs, ok := absolute(v, inv.Cwd)
	if !ok {
		if p := pr.byTail(v, 2); p != nil {
			return hit{op: op, target: v, prot: p}, true
		}
		return hit{}, false
	}
	if phys, ok := physical(v, inv.Cwd); ok && phys != abs {
		// link/../settings.json, where link leads into ~/.claude: the kernel goes up from
		// where the link leads, not from the folder as written
		if h, ok := pr.touch(op, shell.Word{Value: phys, Static: true, Glob: w.Glob, Raw: w.Raw}, inv); ok {
			return h, true
		}
	}
	if pr.cannotBeProtected(abs, w.Glob || inv.Filtered) {
		return hit{}, false
	}
	real := ""
	prot := pr.list()
	for i := range prot {
		p := &prot[i]
		if pr.relates(op, abs, w.Glob || inv.Filtered, p) {
			return hit{op: op, target: abs, prot: p}, true
		}
		if !w.Glob {
			if real == "" {
				real = realPath(abs)
			}
			if real != abs && pr.relates(op, real, false, &Protected{Path: pr.realOf(p), Dir: p.Dir, Binary: p.Binary}) {
				return hit{op: op, target: abs, prot: p}, true
			}
		} else if pr.realOf(p) != p.Path && pr.relates(op, abs, true, &Protected{Path: pr.realOf(p), Dir: p.Dir, Binary: p.Binary}) {
			return hit{op: op, target: abs, prot: p}, true
		}
	}
	return hit{}, false
}

// withEnv expands a word as written with the variables of the environment the command inherits
// (ctx.Getenv); false when the word has anything else that is not known before it runs.
//
// A variable with a default (${CODEX_HOME:-$HOME/.codex}) is its value when the environment
// sets it, else its default: the path the agent itself reads.
func (pr *protector) withEnv(raw string) (string, bool, bool) {
	if raw == "" || !strings.Contains(raw, "$") || len(raw) > 4096 {
		return "", false, false
	}
	getenv := pr.ctx.Getenv
	if getenv == nil {
		// no environment given: only the home folder is known, and defaults stand for the rest
		getenv = func(k string) string {
			if k == "HOME" {
				return pr.ctx.Home
			}
			return ""
		}
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(": "+raw), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return "", false, false
	}
	word := call.Args[1]
	known := true
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			known = false
		case *syntax.ParamExp:
			withDefault := n.Exp != nil && (n.Exp.Op == syntax.DefaultUnsetOrNull || n.Exp.Op == syntax.DefaultUnset ||
				n.Exp.Op == syntax.AssignUnsetOrNull || n.Exp.Op == syntax.AssignUnset)
			if n.Param == nil || n.Exp != nil && !withDefault || n.Repl != nil || n.Slice != nil || n.Index != nil || n.Excl || n.Length {
				known = false
			} else if getenv(n.Param.Value) == "" && !withDefault {
				known = false // ${CODEX_HOME:-$HOME/.codex}: unset, its default is the path
			}
		}
		return known
	})
	if !known {
		return "", false, false
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(getenv)}
	v, err := expand.Literal(cfg, word)
	if err != nil {
		return "", false, false
	}
	if h := pr.ctx.Home; h != "" && (v == "~" || strings.HasPrefix(v, "~/")) {
		v = h + v[1:]
	}
	return v, strings.ContainsAny(v, "*?["), true
}

// shadowed are the commands whose names a file in a folder early on PATH would take over.
var shadowed = words{
	"agenthooks", "aws", "bash", "cat", "cd", "claude", "code", "codex", "cp", "curl", "cursor", "docker", "env",
	"find", "gemini", "gh", "git", "go", "gpg", "grep", "kubectl", "ls", "make", "mv", "node", "npm", "npx", "passwd",
	"pip", "pip3", "python", "python3", "rm", "scp", "sh", "ssh", "su", "sudo", "tar", "wget", "which", "zsh",
}

// special finds the places protected by what they are rather than by where a list says: a file
// that takes over a command's name in a folder on PATH, Python's startup hooks in
// site-packages, the kernel's control files, sudoers and the system's startup and cron files,
// and the hooks of a project's git repository.
func (pr *protector) special(op, v, cwd string) *Protected {
	if op == opUse || op == opMkdir || op == opCopy || op == opScope {
		return nil
	}
	abs, ok := absolute(v, cwd)
	if !ok {
		return nil
	}
	dir, base := path.Split(abs)
	dir = path.Clean(dir)
	home := pr.ctx.Home
	switch {
	case (dir == "/usr/local/bin" || home != "" && (dir == home+"/.local/bin" || dir == home+"/bin")) && shadowed.has(base):
		return &Protected{Path: abs, What: "a command on PATH (" + base + ")", Kind: KindAutorun}
	case strings.Contains(abs, "/site-packages/") && (strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py"):
		return &Protected{Path: abs, What: "Python's startup hooks", Kind: KindAutorun}
	case abs == "/proc/sysrq-trigger" || strings.HasPrefix(abs, "/proc/sys/") || strings.HasPrefix(abs, "/sys/"):
		if op == opWrite || op == opPlace {
			return &Protected{Path: abs, What: "a kernel control file", Kind: KindAutorun}
		}
	case abs == "/etc/sudoers" || strings.HasPrefix(abs, "/etc/sudoers.d") || abs == "/etc/ld.so.preload" ||
		abs == "/etc/profile" || strings.HasPrefix(abs, "/etc/profile.d/") || abs == "/etc/bash.bashrc" || abs == "/etc/zshrc" ||
		abs == "/etc/crontab" || strings.HasPrefix(abs, "/etc/cron.") || strings.HasPrefix(abs, "/etc/systemd/") ||
		abs == "/etc/rc.local" || abs == "/etc/environment" || strings.HasPrefix(abs, "/etc/ssh/") || abs == "/etc/passwd" || abs == "/etc/shadow":
		return &Protected{Path: abs, What: "the system's " + base, Kind: KindAutorun}
	case (strings.Contains(abs, "/.git/hooks/") || strings.HasSuffix(abs, "/.git/hooks")) && op != opDelete:
		return &Protected{Path: abs, What: "a git hook (runs on git commands)", Kind: KindAutorun}
	case (op == opDelete || op == opWrite) && (base == "terraform.tfstate" || base == "terraform.tfstate.backup"):
		return &Protected{Path: abs, What: "Terraform's local state (" + base + "), the only record of what it manages"}
	case (op == opDelete || op == opWrite || op == opPlace) && gitStore(dir, base):
		return &Protected{Path: abs, What: "the repository's own history and index (.git/" + base + ")"}
	case (op == opDelete || op == opWrite || op == opPlace) && home != "" && dir == home && shellHistories.has(base),
		(op == opDelete || op == opWrite || op == opPlace) && home != "" && abs == home+"/.local/share/fish/fish_history":
		return &Protected{Path: abs, What: "the shell history (" + base + "), the record of what ran"}
	}
	return nil
}

// chmodPrivate reports whether chmod's mode only takes permissions away from the group and others
// or sets the owner's: 600, 0400, 700, go-rwx, og=, u+rw, a-w. A reference file or a mode that
// gives the group or others anything is not.
func chmodPrivate(args []shell.Word) bool {
	for _, w := range args {
		v := w.Value
		if !w.Static || strings.HasPrefix(v, "--reference") {
			return false
		}
		if v == "-R" || v == "-v" || v == "-f" || v == "-c" || strings.HasPrefix(v, "--") {
			continue
		}
		if v != "" && v[0] >= '0' && v[0] <= '7' {
			if len(v) < 3 || len(v) > 4 || strings.Trim(v, "01234567") != "" {
				return false
			}
			return strings.HasSuffix(v, "00")
		}
		for _, clause := range strings.Split(v, ",") {
			i := strings.IndexAny(clause, "+-=")
			if i < 0 {
				return false
			}
			who, op, perms := clause[:i], clause[i], clause[i+1:]
			switch {
			case op == '-':
			case who != "" && strings.Trim(who, "u") == "":
			case op == '=' && who != "" && strings.Trim(who, "go") == "" && perms == "":
			default:
				return false
			}
		}
		return true
	}
	return false
}

// shellHistories are the history files shells keep in the home folder.
// (sorted: a words list is searched by halves)
var shellHistories = words{".bash_history", ".history", ".ksh_history", ".sh_history", ".zhistory", ".zsh_history"}

// gitStore reports whether a file in dir is what a repository's history and index are made of:
// .git/HEAD, .git/index, .git/packed-refs, and what is under .git/objects and .git/refs (not a
// lock file, nor the hooks, logs or config).
func gitStore(dir, base string) bool {
	if strings.HasSuffix(base, ".lock") {
		return false
	}
	if strings.HasSuffix(dir, "/.git") {
		return base == "HEAD" || base == "index" || base == "packed-refs"
	}
	i := strings.LastIndex(dir, "/.git/")
	if i < 0 {
		return false
	}
	sub := dir[i+len("/.git/"):]
	return sub == "objects" || sub == "refs" || strings.HasPrefix(sub, "objects/") || strings.HasPrefix(sub, "refs/")
}

// relates reports whether op on target (a path, or a glob when pattern) concerns p.
func (pr *protector) relates(op, target string, pattern bool, p *Protected) bool {
	if op == opCopy && !p.Binary {
		return false // copying a config file reads it
	}
	if p.Kind != "" && (op == opUse || op == opMkdir || op == opLink && p.Kind == KindCredentials) {
		return false // ssh -i KEY, gpg --import KEY: programs use keys; a link to one reads it
	}
	if hasGlob(path.Base(p.Path), true) || hasGlob(p.Path, false) {
		return pr.relatesPattern(op, target, pattern, p)
	}
	rel := compare(target, p.Path, pattern)
	if rel == relNone && p.Prefix && !pattern && path.Dir(target) == path.Dir(p.Path) {
		if rest, ok := strings.CutPrefix(path.Base(target), path.Base(p.Path)); ok && rest != "" && (rest[0] == '.' || rest[0] == '-') {
			rel = relEqual
		}
	}
	switch rel {
	case relEqual:
		return true
	case relInside:
		return p.Dir
	case relAncestor:
		switch op {
		case opTree:
			return p.Kind == KindCredentials
		case opDelete, opPlace:
			// Removing, moving away or replacing a folder takes what is inside with it.
			// A filtered delete (find -name ... -delete) over a broad folder selects some
			// names only: the folder must be a specific one.
			return !pattern || !pr.broad(target)
		case opScope, opUse:
			return !pr.broad(target)
		}
	}
	return false
}

// relatesPattern relates a target to a protected pattern (~/.ssh/id_*, PROJECT/.kiro/hooks/*.json):
// a target whose folder is the pattern's (matching it, where the folder has a "*" too) and whose
// name matches it, whether or not it exists yet, or the folder itself or above when op removes
// or replaces it. A .pub key is never a secret.
func (pr *protector) relatesPattern(op, target string, pattern bool, p *Protected) bool {
	dir, glob := path.Split(p.Path)
	dir = path.Clean(dir)
	if pattern {
		target = path.Clean(target)
	}
	if rel := comparePattern(path.Dir(target), dir, pattern); rel == relEqual {
		base := path.Base(target)
		if strings.HasSuffix(base, ".pub") && p.Kind == KindCredentials {
			return false
		}
		if foldCase {
			glob, base = strings.ToLower(glob), strings.ToLower(base)
		}
		if ok, _ := path.Match(glob, base); ok {
			return true
		}
		// a glob target that could name a key: rm ~/.ssh/*
		if pattern && strings.ContainsAny(base, "*?[") {
			ok, _ := path.Match(base, strings.TrimRight(glob, "*"))
			return ok || base == "*"
		}
		return false
	}
	// As for a folder (relates): a filtered delete over a broad folder (find . -name '*.pyc'
	// -delete in the project) selects some names only; over keys it may select them all.
	rel := comparePattern(target, dir, pattern)
	return (op == opDelete || op == opPlace || op == opTree) && (rel == relEqual || rel == relAncestor) &&
		(!pattern || !pr.broad(target) || p.Kind == KindCredentials)
}

// copyLinks reports cp making links instead of copies (-s, --symbolic-link, -l, --link): what
// is written through one is written in the original, as through ln's.
func copyLinks(name string, args []shell.Word) bool {
	if name != "cp" && name != "gcp" {
		return false
	}
	for _, a := range args {
		switch v := a.Value; {
		case v == "--":
			return false
		case v == "--symbolic-link" || v == "--link":
			return true
		case len(v) > 2 && v[0] == '-' && v[1] == 'S', v == "-t" || v == "-S":
			// -SSUFFIX, or an option whose value is the next word
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v, "sl"):
			return true
		}
	}
	return false
}

// makesFolders reports install -d (or --directory): it makes the folders it names, as mkdir
// does, and copies nothing.
func makesFolders(name string, args []shell.Word) bool {
	if name != "install" && name != "ginstall" {
		return false
	}
	for _, a := range args {
		switch v := a.Value; {
		case v == "--":
			return false
		case v == "-d" || v == "--directory":
			return true
		case len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.ContainsRune(v, 'd') && strings.Trim(v[1:], "dvpDC") == "":
			return true // -vd, -dv: flags that take no value
		}
	}
	return false
}

// recursiveAttrs reports whether a chmod, chown, chgrp or setfacl changes a whole tree (-R).
func recursiveAttrs(name string, args []shell.Word) bool {
	if name != "chmod" && name != "chown" && name != "chgrp" && name != "setfacl" {
		return false
	}
	for _, a := range args {
		v := a.Value
		if v == "--" {
			break
		}
		if v == "--recursive" || len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsRune(v, 'R') {
			return true
		}
	}
	return false
}

// comparePattern is compare for a protected path that may have a "*" in its folders (a
// protected element with a glob matches as path.Match matches it; a dot name only a dot pattern).
func comparePattern(target, prot string, pattern bool) int {
	if !strings.ContainsAny(prot, "*?[") {
		return compare(target, prot, pattern)
	}
	t, p := strings.Trim(target, "/"), strings.Trim(prot, "/")
	nt, np := strings.Count(t, "/")+1, strings.Count(p, "/")+1
	if target == "/" {
		nt = 0
	}
	for i := 0; i < min(nt, np); i++ {
		var te, pe string
		te, t, _ = strings.Cut(t, "/")
		pe, p, _ = strings.Cut(p, "/")
		if !elemMatch(te, pe, pattern) && !elemMatch(pe, te, true) {
			return relNone
		}
	}
	switch {
	case nt == np:
		return relEqual
	case nt > np:
		return relInside
	}
	return relAncestor
}

// broad folders hold far more than the protected paths: the root, home, the project, the
// working directory.
func (pr *protector) broad(p string) bool {
	p = strings.TrimRight(p, "/*")
	if p == "" {
		return true
	}
	c := pr.ctx
	return p == c.Home || p == c.Project || p == c.Cwd || !strings.Contains(strings.TrimPrefix(p, "/"), "/") ||
		(c.Home != "" && within(c.Home, p)) || (c.Project != "" && within(c.Project, p))
}

// The relations compare finds between a target and a protected path.
const (
	relNone = iota
	relEqual
	relInside   // the target is inside the protected path
	relAncestor // the target contains the protected path
)

// compare relates target to prot element by element. A glob element matches as bash matches
// it: * and ? never match a leading dot.
func compare(target, prot string, pattern bool) int {
	// The elements of each path, as strings.Split would give them, taken one at a time: this
	// runs for every argument against every protected path, and allocates nothing.
	t, p := strings.Trim(target, "/"), strings.Trim(prot, "/")
	nt, np := strings.Count(t, "/")+1, strings.Count(p, "/")+1
	if target == "/" {
		nt = 0
	}
	n := min(nt, np)
	for i := 0; i < n; i++ {
		var te, pe string
		te, t, _ = strings.Cut(t, "/")
		pe, p, _ = strings.Cut(p, "/")
		if !elemMatch(te, pe, pattern) {
			return relNone
		}
	}
	switch {
	case nt == np:
		return relEqual
	case nt > np:
		return relInside
	}
	return relAncestor
}

// foldCase: the file systems of Windows and macOS (by default) take names in any case for the
// same file, so ~/.Claude/settings.json is ~/.claude/settings.json there.
const foldCase = runtime.GOOS == "windows" || runtime.GOOS == "darwin"

func elemMatch(pat, name string, pattern bool) bool {
	if foldCase {
		pat, name = strings.ToLower(pat), strings.ToLower(name)
	}
	if !pattern || !hasGlob(pat, true) {
		return pat == name
	}
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	ok, err := path.Match(pat, name)
	return ok && err == nil
}

// byTail finds a protected file whose path ends with the last n or more elements of s.
func (pr *protector) byTail(s string, n int) *Protected {
	s = path.Clean("/" + s)
	elems := strings.Split(strings.Trim(s, "/"), "/")
	if len(elems) < n || elems[0] == "" {
		return nil
	}
	prot := pr.list()
	for i := range prot {
		p := &prot[i]
		if strings.HasSuffix(p.Path, s) {
			return p
		}
		if p.Dir {
			// inside a protected folder: .agenthooks/trust.json
			for j := range elems {
				if j > 0 && strings.HasSuffix(p.Path, "/"+strings.Join(elems[:j], "/")) && strings.HasPrefix(elems[0], ".") {
					return p
				}
			}
		}
	}
	return nil
}

// namedIn finds a protected path that interpreter code names: by its full path, as ~/..., or
// by its last two elements (.claude/settings.json); a protected folder by its own name when
// that starts with a dot (.agenthooks).
func (pr *protector) namedIn(code string) *Protected {
	if pr.namesNone(code) {
		return nil
	}
	prot := pr.list()
	for i := range prot {
		if p := &prot[i]; strings.Contains(code, p.Path) {
			return p
		}
	}
	for i := range prot {
		p := &prot[i]
		if p.Binary {
			continue
		}
		if h := tildeHome(p.Path, pr.ctx.Home); h != p.Path && strings.Contains(code, h) {
			return p
		}
		dir, base := path.Split(p.Path)
		if tail := path.Base(dir) + "/" + base; strings.HasPrefix(tail, ".") && strings.Contains(code, tail) {
			return p
		}
		if p.Dir && strings.HasPrefix(base, ".") && strings.Contains(code, base+"/") {
			return p
		}
	}
	return nil
}

// namesNone reports, before the list is computed, that text names no protected path: each way
// namedIn and namedInRaw find one has a slash or a tilde in it (the full path, ~/..., the last
// two elements, a dot-folder/), and where ctx.MayProtect is set the listed paths are absolute.
func (pr *protector) namesNone(text string) bool {
	return pr.ctx.MayProtect != nil && !pr.listed && len(pr.ctx.Protected) == 0 && !strings.ContainsAny(text, "/~")
}

// namedInRaw finds a protected path that a word as written names, in full, as ~/..., by its
// last two elements, or by the dot-folder that holds it (~/.claude/*.json).
func (pr *protector) namedInRaw(raw string) *Protected {
	if raw == "" {
		return nil
	}
	if p := pr.namedIn(raw); p != nil || pr.namesNone(raw) {
		return p
	}
	prot := pr.list()
	for i := range prot {
		p := &prot[i]
		if p.Binary {
			continue
		}
		if dir := path.Base(path.Dir(p.Path)); strings.HasPrefix(dir, ".") && len(dir) > 1 && strings.Contains(raw, dir+"/") {
			return p
		}
	}
	return nil
}

func containsWord(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
}

// absolute makes p absolute against cwd, as the shell would; false when cwd is not known.
func absolute(p, cwd string) (string, bool) {
	p = toBash(p) // C:/Users/x on Windows: /c/Users/x
	if path.IsAbs(p) {
		return path.Clean(p), true
	}
	if cwd == "" {
		return "", false
	}
	return path.Join(cwd, p), true
}

// physical is the path the kernel opens for p, made absolute against cwd: each ".." goes up
// from where the symlinks before it lead, where absolute goes up from the folder as written
// (sub/.. is not the working directory when sub is a symlink). False when p has no ".." or cwd
// is not known.
func physical(p, cwd string) (string, bool) {
	p = toBash(p)
	if p != ".." && !strings.HasPrefix(p, "../") && !strings.HasSuffix(p, "/..") && !strings.Contains(p, "/../") {
		return "", false
	}
	cur := "/"
	if !path.IsAbs(p) {
		if cwd == "" {
			return "", false
		}
		cur = cwd
	}
	for _, e := range strings.Split(p, "/") {
		switch e {
		case "", ".":
		case "..":
			cur = path.Dir(realPath(cur))
		default:
			cur = path.Join(cur, e)
		}
	}
	return cur, true
}

// realOf is a protected path with its symlinks resolved, looked up once.
func (pr *protector) realOf(p *Protected) string {
	if r, ok := pr.real[p.Path]; ok {
		return r
	}
	r := realPath(p.Path)
	if pr.real == nil {
		pr.real = map[string]string{}
	}
	pr.real[p.Path] = r
	return r
}

// realPath resolves the symlinks of p's longest existing ancestor, as the kernel will when the
// command opens it; a path that does not exist yet keeps its missing tail.
func realPath(p string) string {
	rest := ""
	for cur := p; ; {
		// a name that is not there is passed over with one Lstat: EvalSymlinks would look at each
		// folder above it before it failed, and again for the parent
		if _, err := os.Lstat(fromBash(cur)); !errors.Is(err, fs.ErrNotExist) {
			if r, err := filepath.EvalSymlinks(fromBash(cur)); err == nil {
				return path.Join(toBash(filepath.ToSlash(r)), rest)
			}
		}
		parent := path.Dir(cur)
		if parent == cur {
			return p
		}
		rest = path.Join(path.Base(cur), rest)
		cur = parent
	}
}

// CheckEdit judges an agent's file tool (Claude Code's Write or Edit, Gemini CLI's write_file,
// ...) writing, editing or deleting files: a change to a protected path is denied, whatever the
// policy; anything else is allowed.
func CheckEdit(tool string, files []string, ctx Context) Verdict {
	return CheckEditText(tool, files, nil, ctx)
}

// EditText tells what an agent's file tool call makes of one of its files: the file's text
// before and after the call; false when the call's input does not show it.
type EditText func(file string) (before, after string, ok bool)

// CheckEditText is CheckEdit that also knows what the call writes (text, when not nil): a file
// protected only for some keys (Protected.Keys) may be changed when neither its text before
// nor after the change names one of them.
func CheckEditText(tool string, files []string, text EditText, ctx Context) Verdict {
	ctx = BashPaths(ctx)
	pr := newProtector(ctx)
	v := Verdict{Decision: Allow, Invocations: []InvocationResult{}}
	inv := &shell.Invocation{Cwd: ctx.Cwd}
	for _, f := range files {
		given := f // the path as the agent wrote it, which the file system knows (C:\… on Windows)
		f = toBash(f)
		if h, ok := pr.touch(opPlace, shell.Word{Value: f, Static: true}, inv); ok {
			if len(h.prot.Keys) > 0 && text != nil {
				if before, after, known := text(given); known && !namesKey(before, h.prot.Keys) && !namesKey(after, h.prot.Keys) {
					continue // an ordinary setting
				}
			}
			h.op = opWrite
			v.Matches = append(v.Matches, Match{Rule: RuleProtected, Decision: Deny, Subject: tool + " " + tildeHome(f, ctx.Home),
				Message: describeHit(h, ctx.Home)})
			v.Decision = Deny
		}
	}
	if v.Decision == Allow {
		v.Reason = tool + " changes no protected file"
	} else {
		v.Reason = reason(v)
	}
	return v
}

// namesKey reports whether settings text names one of keys (or a key they start), whatever
// the case, once JSON's \uXXXX escapes are read: "chat.use\u0048ooks" names chat.useHooks.
func namesKey(text string, keys []string) bool {
	if strings.Contains(text, `\u`) {
		text = unescapeJSON(text)
	}
	text = strings.ToLower(text)
	return slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(text, strings.ToLower(k)) })
}

// unescapeJSON replaces each \uXXXX escape in s with the character it stands for.
func unescapeJSON(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, `\u`)
		if i < 0 || i+6 > len(s) {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		if r, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
			b.WriteRune(rune(r))
			s = s[i+6:]
		} else {
			b.WriteString(s[i : i+2])
			s = s[i+2:]
		}
	}
}

// words is a set of words, sorted (TestWordsSorted): looked up by binary search, with nothing
// to build at a guard process's start or on first use.
type words []string

func (w words) has(s string) bool {
	_, ok := slices.BinarySearch(w, s)
	return ok
}

// Resolved returns list with, after it, each protected place as the kernel reaches it where
// that differs: a place whose folder, or which itself, is a symlink (~/.claude a link into a
// dotfiles folder, a home or a project reached through a link) is protected at where the link
// leads too, so a write by that path is compared like one by the path listed. The symlinks of
// the longest existing ancestor are resolved (a dangling link leads where it points) and the
// rest joined; a pattern's elements are not followed. Each folder is looked at once however
// many places share it. The list is returned as given on Windows.
func Resolved(list []Protected) []Protected {
	if runtime.GOOS == "windows" || len(list) == 0 {
		return list
	}
	r := resolver{make(map[string]resolved, 2*len(list))}
	out := list
	for _, p := range list {
		if !path.IsAbs(p.Path) { // and clean, as Protected.Path is
			continue
		}
		// a place reached through a link is rare: the list is searched only for one
		if real := r.resolve(p.Path, 0).real; real != p.Path && !slices.ContainsFunc(out, func(q Protected) bool { return q.Path == real }) {
			p.Path = real
			out = append(out, p)
		}
	}
	return out
}

// resolver resolves clean absolute paths element by element, remembering each path's resolved
// path and whether that exists.
type resolver struct{ seen map[string]resolved }

type resolved struct {
	real string
	gone bool // real does not exist: nothing below it is looked at
}

// resolve is p with its symlinks resolved; depth counts the links followed, as the kernel's
// limit does. A path whose folders are no links is not copied.
func (r resolver) resolve(p string, depth int) resolved {
	if p == "/" {
		return resolved{real: "/"}
	}
	if v, ok := r.seen[p]; ok {
		return v
	}
	i := strings.LastIndexByte(p, '/')
	dir, base := p[:i], p[i+1:]
	if dir == "" {
		dir = "/"
	}
	parent := r.resolve(dir, depth)
	out := resolved{real: p}
	if parent.real != dir {
		out.real = strings.TrimSuffix(parent.real, "/") + "/" + base
	}
	switch {
	case parent.gone || hasGlob(base, true):
		out.gone = true // a pattern is not a name: nothing below it is looked at
	case depth < 40:
		fi, err := os.Lstat(out.real)
		if err != nil {
			out.gone = true
		} else if fi.Mode()&os.ModeSymlink != 0 {
			if to, err := os.Readlink(out.real); err == nil {
				if !path.IsAbs(to) {
					to = path.Join(parent.real, to)
				}
				out = r.resolve(path.Clean(to), depth+1)
			}
		}
	}
	r.seen[p] = out
	return out
}
