package wiring

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
)

// Resolved is what Resolve finds of the program an agent's config names.
type Resolved struct {
	Path    string // the program resolved as the agent's shell would: "" when not found
	Version string // what its --version says ("" without the probe)
	Problem string // why it cannot work, "" when it can
}

// Resolve resolves prog as a shell does (a path as it is, relative to dir; a name through the
// folders of path) and checks that it is an executable file; with probe, also that it answers
// --version as agenthooks (which starts it).
func Resolve(ctx context.Context, prog, dir, path string, probe bool) Resolved {
	r := resolve(ctx, prog, dir, path, probe)
	return Resolved{Path: r.path, Version: r.version, Problem: r.problem}
}

type reach struct {
	path, version, problem string
}

func resolve(ctx context.Context, prog, dir, path string, probe bool) reach {
	var r reach
	if isPath(prog) {
		r.path = prog
		if !filepath.IsAbs(prog) {
			r.path = filepath.Join(dir, prog)
		}
	} else {
		p, err := lookPathIn(prog, path)
		if err != nil {
			r.problem = prog + " is not on PATH: the agent gets exit 127 and runs the command anyway (agenthooks install writes an absolute path)"
			return r
		}
		r.path, _ = filepath.Abs(p)
	}
	st, err := os.Stat(r.path)
	switch {
	case err != nil:
		r.problem = r.path + " does not exist: the agent gets exit 127 and runs the command anyway (run agenthooks install again)"
		return r
	case st.IsDir() || !executable(st):
		r.problem = r.path + " is not an executable file"
		return r
	case !probe:
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, r.path, "--version").Output()
	v := strings.TrimSpace(string(out))
	name := ownName(r.path)
	if err != nil || !strings.HasPrefix(v, name+" version ") {
		r.problem = fmt.Sprintf("%s does not answer --version as %s (%q)", r.path, name, clip(v, 40))
		if err != nil {
			r.problem = fmt.Sprintf("%s --version failed: %v", r.path, err)
		}
		return r
	}
	first, _, _ := strings.Cut(v, "\n") // the version; commit, date and toolchain follow
	r.version = strings.TrimSpace(strings.TrimPrefix(first, name+" version "))
	return r
}

// ownName is the name the agenthooks program at path answers --version with: agenthooks-guard
// for the shell guard's own binary (dialect.GuardProgram), else agenthooks.
func ownName(path string) string { return cmp.Or(dialect.OwnName(path), "agenthooks") }
