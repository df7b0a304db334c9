//go:build linux

package confine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/agenthooks/agenthooks/guard"
)

// corpusEnv, set to a scratch folder, makes the test binary the corpus child: inside its own
// user, mount, PID and network namespaces, with everything but the scratch folder read-only and
// the machine's sockets (/run, /tmp) hidden, it runs each command twice, bare and confined.
const corpusEnv = "AGENTHOOKS_CONFINE_CORPUS_CHILD"

// corpusProbes are everyday toolchain commands beside the corpus's: what the defaults must let
// a confined command do (caches, package managers, compilers, git).
var corpusProbes = []string{
	`go build -o app . && ./app`,
	`go vet ./... && go test ./...`,
	`go env GOCACHE GOMODCACHE`,
	`python3 -c 'import sys, json; print(sys.version_info[:2])'`,
	`python3 -m venv .venv && .venv/bin/python -c 'print("venv ok")'`,
	`python3 -m pip --version`,
	`python3 -m compileall -q . && echo compiled`,
	`node -e 'console.log(process.version)'`,
	`npm --version && npm config get cache`,
	`npm init -y >/dev/null && npm pkg set scripts.test='node -e 1' && npm test`,
	`npx --version`,
	`cargo --version && rustc --version`,
	`cargo new --vcs none hello && cd hello && cargo build --offline -q && ./target/debug/hello`,
	`java -version && javac -version`,
	`mvn -v -q -o`,
	`make -n && make`,
	`echo "# change" >> app.py && git status --short && git add -A && git -c user.name=a -c user.email=a@example.com commit -qm probe && git log --oneline | head -3`,
	`git stash list && git branch probe && git switch -q probe && git switch -q - && git branch -D probe`,
	`sqlite3 app.db 'create table t(a); insert into t values (1); select count(*) from t;'`,
	`tar czf /dev/null . && echo tar ok`,
	`cp -r src src2 && rm -r src2 && mkdir -p out && echo x > out/y`,
	`TMPFILE=$(mktemp) && echo x > "$TMPFILE" && rm "$TMPFILE" && echo mktemp ok`,
	`ls -la ~ && cat ~/.gitconfig`,
	`less --version >/dev/null && vi --version >/dev/null 2>&1; echo editors`,
}

// corpusAsks returns the commands of the guard's benign corpora (everyday.tsv, agents.tsv) that
// the guard asks about today, judged as guard test judges them.
func corpusAsks(t *testing.T) []string {
	g := guard.Default()
	ctx := guard.Context{Home: "/home/dev", Cwd: "/home/dev/project", Project: "/home/dev/project"}
	var out []string
	for _, name := range []string{"everyday.tsv", "agents.tsv"} {
		f, err := os.Open(filepath.Join("..", "guard", "testdata", name))
		if err != nil {
			t.Fatalf("the guard's corpus: %v", err)
		}
		cases, err := guard.ReadCorpus(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Want == guard.Allow && g.Check(c.Command, ctx).Decision == guard.Ask {
				out = append(out, c.Command)
			}
		}
	}
	return out
}

type corpusResult struct {
	Command  string `json:"command"`
	Probe    bool   `json:"probe,omitempty"`
	Fresh    bool   `json:"fresh,omitempty"`
	Bare     int    `json:"bare"`
	Confined int    `json:"confined"`
	Output   string `json:"output"` // the confined run's, capped
	BareOut  string `json:"bare_output"`
}

// TestConfineCorpus measures what confinement costs in failures: each command of the guard's
// benign corpora that the guard asks about today (what confine.mode ask runs confined instead),
// and the toolchain probes, run for real, once bare and once confined with the default
// allowances, in a fresh project and home each time. A command that works bare and fails
// confined names an allowance the defaults lack. It runs only inside a child process with its
// own user, mount, PID and network namespaces where everything but the scratch folder is
// read-only and the machine's sockets are hidden, and the child refuses to run anything
// otherwise. It takes minutes: set AGENTHOOKS_CONFINE_CORPUS=1 to run it.
func TestConfineCorpus(t *testing.T) {
	if os.Getenv("AGENTHOOKS_CONFINE_CORPUS") == "" {
		t.Skip("a measurement that takes minutes: AGENTHOOKS_CONFINE_CORPUS=1 runs it")
	}
	abi := requireLandlock(t)
	for _, tool := range []string{"bash", "git", "timeout"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the corpus run needs %s: %v", tool, err)
		}
	}
	asks := corpusAsks(t)
	type job struct {
		Command string
		Probe   bool
		Fresh   bool // a home with none of the toolchains' caches yet
	}
	var jobs []job
	for _, c := range asks {
		jobs = append(jobs, job{Command: c})
	}
	for _, c := range corpusProbes {
		jobs = append(jobs, job{Command: c, Probe: true})
	}
	for _, c := range corpusProbes {
		jobs = append(jobs, job{Command: c, Probe: true, Fresh: true})
	}
	spec, _ := json.Marshal(jobs)
	scratch := resolve(t.TempDir())
	userNS, err := os.Readlink("/proc/self/ns/user")
	if err != nil {
		t.Skipf("cannot read this process's user namespace: %v", err)
	}
	// The test binary runs from the scratch folder: where it was built (under /tmp) is hidden
	// in the namespace.
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(scratch, "bin", "confine.test")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), corpusEnv+"="+scratch, "AGENTHOOKS_CONFINE_OUTER_USERNS="+userNS,
		"AGENTHOOKS_CONFINE_COMMANDS="+string(spec), fmt.Sprintf("AGENTHOOKS_CONFINE_ABI=%d", abi))
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES) {
			t.Skipf("unprivileged user namespaces are not available here (%v): the corpus runs only inside one", err)
		}
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		if strings.Contains(stderr.String(), "namespace setup:") {
			t.Skipf("cannot make the read-only namespace here: %s", stderr.String())
		}
		t.Fatalf("corpus child: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	var results []corpusResult
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil {
		t.Fatalf("corpus child's report: %v\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if len(results) != len(jobs) {
		t.Fatalf("the child ran %d commands, want %d", len(results), len(jobs))
	}
	denied := regexp.MustCompile(`(/[^\s:'"]+)[^\n]*(Permission denied|Operation not permitted|EACCES|EPERM)|(Permission denied|EACCES)[^\n]*?(/[^\s:'"]+)`)
	report := func(probe, fresh bool) {
		var n, works, bothFail, broke int
		lacking := map[string]int{}
		for _, r := range results {
			if r.Probe != probe || r.Fresh != fresh {
				continue
			}
			n++
			t.Logf("bare %3d  confined %3d  %s", r.Bare, r.Confined, clip(strings.ReplaceAll(r.Command, "\n", "\\n"), 110))
			switch {
			case r.Confined == 0:
				works++
			case r.Bare != 0:
				bothFail++
			default:
				broke++
				paths := map[string]bool{}
				for _, m := range denied.FindAllStringSubmatch(r.Output, -1) {
					p := m[1]
					if p == "" {
						p = m[4]
					}
					paths[p] = true
				}
				var ps []string
				for p := range paths {
					ps = append(ps, p)
					lacking[p]++
				}
				sort.Strings(ps)
				t.Logf("works bare, fails confined (status %d): %s\n    denied: %s\n    output: %s", r.Confined, r.Command, strings.Join(ps, " "), clip(r.Output, 600))
			}
		}
		what := "benign corpus commands the guard asks about"
		if probe {
			what = "toolchain probes, in a home whose toolchains' caches exist"
		}
		if fresh {
			what = "toolchain probes, in a fresh home (no caches yet)"
		}
		t.Logf("%s: %d; confined, %d ran without failing, %d failed as they fail bare too (missing files, tools, network, root), %d worked bare and failed confined",
			what, n, works, bothFail, broke)
		var keys []string
		for k := range lacking {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.Logf("    denied confined: %s (%d)", k, lacking[k])
		}
	}
	report(false, false)
	report(true, false)
	report(true, true)
	for _, r := range results {
		if r.Probe && r.Bare == 0 && r.Confined != 0 {
			t.Errorf("a toolchain probe works bare and fails confined with the default allowances: %s\n%s", r.Command, clip(r.Output, 800))
		}
	}
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// sealScratch makes the mount namespace safe to fire in: everything but scratch read-only,
// /run, /tmp, /var/tmp and /dev/shm hidden under empty file systems (the machine's sockets:
// docker, dbus, databases), a /proc of the new PID namespace; then it proves it.
func sealScratch(scratch string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("namespace setup: make / private: %w", err)
	}
	fd, err := unix.Open(scratch, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("namespace setup: open %s: %w", scratch, err)
	}
	defer unix.Close(fd)
	for _, dir := range []string{"/run", "/tmp", "/var/tmp", "/dev/shm"} {
		st, err := os.Lstat(dir)
		if err != nil || !st.IsDir() {
			continue // absent, or a link to one of the others
		}
		if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64m"); err != nil {
			return fmt.Errorf("namespace setup: hide %s: %w", dir, err)
		}
	}
	// The scratch folder may have been under one of them: put it back where it was.
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return fmt.Errorf("namespace setup: %w", err)
	}
	if err := unix.Mount(fmt.Sprintf("/proc/self/fd/%d", fd), scratch, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("namespace setup: bind %s: %w", scratch, err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		fmt.Fprintf(os.Stderr, "corpus: a /proc of the PID namespace could not be mounted (%v); the machine's stays visible\n", err)
	}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("namespace setup: make / read-only: %w", err)
	}
	if err := unix.MountSetattr(-1, scratch, unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("namespace setup: make %s writable: %w", scratch, err)
	}
	for _, dir := range []string{filepath.Dir(scratch), "/tmp", "/run", "/root", "/"} {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		probe := filepath.Join(dir, ".agenthooks-corpus-probe")
		if err := os.WriteFile(probe, nil, 0o600); err == nil {
			os.Remove(probe)
			return fmt.Errorf("refusing to run: %s is writable in the namespace", dir)
		} else if !errors.Is(err, syscall.EROFS) {
			return fmt.Errorf("refusing to run: writing in %s failed with %v, not read-only file system", dir, err)
		}
	}
	for _, sock := range []string{"/run/docker.sock", "/var/run/docker.sock", "/run/dbus", "/run/postgresql", "/run/user"} {
		if _, err := os.Lstat(sock); err == nil {
			return fmt.Errorf("refusing to run: %s is still visible", sock)
		}
	}
	probe := filepath.Join(scratch, ".probe")
	if err := os.WriteFile(probe, nil, 0o600); err != nil {
		return fmt.Errorf("namespace setup: the scratch folder is not writable: %w", err)
	}
	return os.Remove(probe)
}

// corpusSeed is the project each command runs in: a git repository with a Go module, a
// Python file, a Makefile and the scripts the corpus's commands run.
var corpusSeed = map[string]string{
	"go.mod":                      "module example.com/app\n\ngo 1.21\n",
	"main.go":                     "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"app ok\") }\n",
	"main_test.go":                "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
	"app.py":                      "print('hello')\n",
	"src/lib.py":                  "X = 1\n",
	"Makefile":                    "all:\n\tmkdir -p build && echo built > build/out\n",
	"tests/run.sh":                "#!/bin/sh\nset -e\nmkdir -p build && echo tests ok\n",
	"tests/a.sh":                  "#!/bin/sh\necho a ok\n",
	"build.sh":                    "#!/bin/sh\nset -e\nmkdir -p dist && cp app.py dist/ && echo build ok\n",
	"scripts/install-hooks.sh":    "#!/bin/sh\nset -e\nmkdir -p .git/hooks && printf '#!/bin/sh\\nexit 0\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit\n",
	"reproduce_issue.sh":          "#!/bin/sh\npython3 app.py\n",
	"reproduction/setup_repro.sh": "#!/bin/sh\nmkdir -p repro && echo ok > repro/x\n",
	"verify_docinfo.sh":           "#!/bin/sh\necho verified\n",
	"verify_docinfo_clean.sh":     "#!/bin/sh\necho clean\n",
	"test_edge_cases.sh":          "#!/bin/sh\necho edge\n",
	"test_edge_cases_v2.sh":       "#!/bin/sh\necho edge2\n",
	".gitignore":                  "build/\ndist/\n",
}

// corpusHome is the home folder each command runs with: the toolchains' caches that exist on
// a machine that has used them (the defaults grant only those that exist), and a git identity.
var corpusHome = []string{".cache/go-build", "go/pkg/mod", ".npm", ".cache/pip", ".cargo/registry", ".m2/repository"}

func corpusMain() int {
	scratch := os.Getenv(corpusEnv)
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "corpus: "+format+"\n", args...)
		return 3
	}
	ns, err := os.Readlink("/proc/self/ns/user")
	if err != nil || ns == os.Getenv("AGENTHOOKS_CONFINE_OUTER_USERNS") || os.Getpid() != 1 {
		return fail("refusing to run: not inside a new user and PID namespace (user ns %s, pid %d)", ns, os.Getpid())
	}
	if err := sealScratch(scratch); err != nil {
		return fail("%v", err)
	}
	var jobs []struct {
		Command string
		Probe   bool
		Fresh   bool
	}
	if err := json.Unmarshal([]byte(os.Getenv("AGENTHOOKS_CONFINE_COMMANDS")), &jobs); err != nil {
		return fail("commands: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		return fail("%v", err)
	}
	fresh := func(name string, noCaches bool) (project, home, tmp string, err error) {
		root := filepath.Join(scratch, name)
		if err := os.RemoveAll(root); err != nil {
			return "", "", "", err
		}
		project, home, tmp = filepath.Join(root, "project"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
		for _, d := range append([]string{project, tmp}, home) {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return "", "", "", err
			}
		}
		for _, d := range corpusHome {
			if noCaches {
				break
			}
			if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
				return "", "", "", err
			}
		}
		if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
			return "", "", "", err
		}
		for f, content := range corpusSeed {
			p := filepath.Join(project, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return "", "", "", err
			}
			if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
				return "", "", "", err
			}
		}
		git := exec.Command("sh", "-c", "git init -q . && git add -A && git commit -qm seed")
		git.Dir, git.Env = project, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		if out, err := git.CombinedOutput(); err != nil {
			return "", "", "", fmt.Errorf("seed: %v: %s", err, out)
		}
		return project, home, tmp, nil
	}
	env := func(home, tmp string) []string {
		out := []string{"HOME=" + home, "TMPDIR=" + tmp, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb",
			"USER=dev", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "AGENTHOOKS_CONFINE_ABI=" + os.Getenv("AGENTHOOKS_CONFINE_ABI")}
		for _, k := range []string{"GOROOT", "RUSTUP_HOME", "JAVA_HOME"} {
			if v := os.Getenv(k); v != "" {
				out = append(out, k+"="+v)
			}
		}
		if os.Getenv("RUSTUP_HOME") == "" {
			if h, err := os.UserHomeDir(); err == nil {
				out = append(out, "RUSTUP_HOME="+filepath.Join(h, ".rustup")) // the installed toolchains, read-only here
			}
		}
		return out
	}
	capped := func(b []byte) string {
		if len(b) > 4096 {
			return string(b[:4096]) + "…"
		}
		return string(b)
	}
	var results []corpusResult
	for _, j := range jobs {
		r := corpusResult{Command: j.Command, Probe: j.Probe, Fresh: j.Fresh}
		project, home, tmp, err := fresh("bare", j.Fresh)
		if err != nil {
			return fail("%v", err)
		}
		bare := exec.Command("timeout", "300", "bash", "-c", j.Command)
		bare.Dir, bare.Env = project, env(home, tmp)
		out, _ := bare.CombinedOutput()
		r.Bare, r.BareOut = bare.ProcessState.ExitCode(), capped(out)
		project, home, tmp, err = fresh("confined", j.Fresh)
		if err != nil {
			return fail("%v", err)
		}
		spec, _ := json.Marshal(Options{Project: project, Home: home, TempRoot: tmp})
		confined := exec.Command(self, "-test.run=^$", "--", "timeout", "300", "bash", "-c", j.Command)
		confined.Dir, confined.Env = project, append(env(home, tmp), "AGENTHOOKS_CONFINE_HELPER="+string(spec))
		out, _ = confined.CombinedOutput()
		r.Confined, r.Output = confined.ProcessState.ExitCode(), capped(out)
		fmt.Fprintf(os.Stderr, "corpus: bare %d confined %d: %s\n", r.Bare, r.Confined, strconv.Quote(clip(j.Command, 100)))
		results = append(results, r)
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		return fail("report: %v", err)
	}
	return 0
}
