package wiring

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
)

// agentEnv is the environment agent a gives its hooks, as far as doctor can tell: base (this
// process's), with the variables the agent's own settings set for its sessions on top (Claude
// Code's "env" in each of its settings files, the lowest layer first so the highest wins).
// files are the agent's config files, highest priority first.
func agentEnv(base []string, a *dialect.Agent, files []*config.File) []string {
	env := slices.Clone(base)
	set := a.Doctor.SessionEnv
	if set == nil {
		return env
	}
	for _, f := range slices.Backward(files) {
		for k, v := range set(f.Source.File) {
			env = setEnv(env, k, v)
		}
	}
	return env
}

// setEnv sets key in env (KEY=value entries), replacing an earlier value.
func setEnv(env []string, key, value string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		if runtime.GOOS == "windows" {
			return strings.EqualFold(k, key)
		}
		return k == key
	})
	return append(out, key+"="+value)
}

// getEnv reads key from env (KEY=value entries).
func getEnv(env []string, key string) string {
	for _, kv := range slices.Backward(env) {
		k, v, _ := strings.Cut(kv, "=")
		if k == key || runtime.GOOS == "windows" && strings.EqualFold(k, key) {
			return v
		}
	}
	return ""
}

// lookPathIn finds prog in the folders of path as a shell with that PATH would (on Windows,
// also with the extensions of executables).
func lookPathIn(prog, path string) (string, error) {
	exts := []string{""}
	if runtime.GOOS == "windows" && filepath.Ext(prog) == "" {
		exts = []string{".exe", ".cmd", ".bat", ".com"}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		for _, ext := range exts {
			p := filepath.Join(dir, prog+ext)
			if st, err := os.Stat(p); err == nil && !st.IsDir() && executable(st) {
				return p, nil
			}
		}
	}
	return "", errors.New(prog + " is not in any folder of PATH")
}

// isPath reports whether a hook's program is a path (absolute or relative) rather than a name
// looked up in PATH.
func isPath(prog string) bool { return filepath.Base(prog) != prog || strings.Contains(prog, "/") }
