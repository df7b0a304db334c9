package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/dialect"
)

// Codex loads a project's .codex folder (its config.toml, hooks.json and the hooks in them) only
// when the project is trusted: [projects."<folder>"] trust_level = "trusted" in the user's
// config.toml (openai/codex#9533, "Only load config from trusted folders"). It looks the level up
// for the working folder, then for its project root (the nearest folder with .git), then for the
// repository's main checkout when that is a linked worktree; the first entry found decides, and
// "untrusted" is a decision too. The TUI asks once per project, and `codex exec --trust` (0.169)
// writes the entry for the repository root: checked with codex 0.169.0, whose exec --trust, run in
// a subfolder of a git repository, wrote [projects."<repository root>"] trust_level = "trusted".

// projectDistrust says why Codex does not load file, a hooks file in a workspace's .codex folder,
// because it does not trust the project; "" when it trusts it, or file is not a project's.
func projectDistrust(env dialect.DoctorEnv, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(abs)
	home, _ := filepath.Abs(filepath.Dir(userConfig(env)))
	if filepath.Base(dir) != ".codex" || samePath(dir, home) {
		return "" // the user's own files: no project trust
	}
	ws := filepath.Dir(dir)
	levels := trustLevels(userConfig(env))
	root, main := gitRoots(ws)
	for _, p := range []string{ws, root, main} {
		if p == "" {
			continue
		}
		for key, level := range levels {
			if !samePath(key, p) {
				continue
			}
			if level == "trusted" {
				return ""
			}
			return fmt.Sprintf("Codex does not load this project's .codex folder, and so runs its commands without these agenthooks hooks: [projects.%q] trust_level = %q in %s; set it to \"trusted\" to run them",
				key, level, userConfig(env))
		}
	}
	target := ws
	if root != "" {
		target = root
	}
	return fmt.Sprintf("Codex loads a project's .codex folder only in a trusted project, and %s is not trusted, so Codex runs its commands without these agenthooks hooks: trust it when codex asks, run codex exec --trust once in it, or add [projects.%q] trust_level = \"trusted\" to %s",
		target, target, userConfig(env))
}

// trustLevels reads the [projects."<folder>"] trust_level entries of Codex's user config.toml.
func trustLevels(userConfig string) map[string]string {
	data, err := os.ReadFile(userConfig)
	if err != nil {
		return nil
	}
	var doc struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range doc.Projects {
		if v.TrustLevel != "" {
			out[k] = v.TrustLevel
		}
	}
	return out
}

// gitRoots returns the project root Codex finds for ws (the nearest folder, ws or above, with a
// .git), and, when that .git is a linked worktree's file, the repository's main checkout.
func gitRoots(ws string) (root, main string) {
	for d := ws; ; d = filepath.Dir(d) {
		fi, err := os.Lstat(filepath.Join(d, ".git"))
		if err == nil {
			root = d
			if fi.Mode().IsRegular() {
				main = worktreeMain(filepath.Join(d, ".git"))
			}
			return root, main
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// worktreeMain reads a linked worktree's .git file ("gitdir: <main>/.git/worktrees/<name>") for
// its main checkout; "" for anything else (a submodule's).
func worktreeMain(gitFile string) string {
	data, err := os.ReadFile(gitFile)
	if err != nil {
		return ""
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = filepath.Clean(strings.TrimSpace(gitdir))
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(filepath.Dir(gitFile), gitdir)
	}
	if filepath.Base(filepath.Dir(gitdir)) != "worktrees" || filepath.Base(filepath.Dir(filepath.Dir(gitdir))) != ".git" {
		return ""
	}
	// As Codex does, the link is checked from both ends, so that a repository's own .git file
	// cannot borrow another checkout's trust: the main checkout registers this worktree (its
	// gitdir file names this .git file), and its .git is a folder.
	back, err := os.ReadFile(filepath.Join(gitdir, "gitdir"))
	if err != nil || !samePath(strings.TrimSpace(string(back)), gitFile) {
		return ""
	}
	main := filepath.Dir(filepath.Dir(filepath.Dir(gitdir)))
	if fi, err := os.Lstat(filepath.Join(main, ".git")); err != nil || !fi.IsDir() {
		return ""
	}
	return main
}

// samePath reports whether a and b name the same folder: equal when cleaned, or the same file.
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
