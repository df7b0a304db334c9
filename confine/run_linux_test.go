//go:build linux

package confine

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary run itself as agenthooks confine would: with
// AGENTHOOKS_CONFINE_HELPER set to a JSON Options, it confines itself at AGENTHOOKS_CONFINE_ABI
// and runs its arguments.
func TestMain(m *testing.M) {
	if spec := os.Getenv("AGENTHOOKS_CONFINE_HELPER"); spec != "" {
		os.Exit(helperMain(spec))
	}
	if os.Getenv(liveFireEnv) != "" {
		os.Exit(liveFireMain())
	}
	if os.Getenv(corpusEnv) != "" {
		os.Exit(corpusMain())
	}
	os.Exit(m.Run())
}

func helperMain(spec string) int {
	var o Options
	if err := json.Unmarshal([]byte(spec), &o); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 99
	}
	abi, _ := strconv.Atoi(os.Getenv("AGENTHOOKS_CONFINE_ABI"))
	p, err := NewPlan(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 98
	}
	args := os.Args[1:]
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	code, err := p.Run(abi, Command{Args: args, Env: os.Environ(), Dir: o.Project, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
	}
	return code
}

// confined runs script with sh, confined by o at abi, in a new process, and returns its exit
// status and output.
func confined(t *testing.T, o Options, abi int, env []string, script string) (int, string) {
	t.Helper()
	spec, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "sh", "-c", script)
	cmd.Env = append(append(os.Environ(), "AGENTHOOKS_CONFINE_HELPER="+string(spec), "AGENTHOOKS_CONFINE_ABI="+strconv.Itoa(abi), "HOME="+o.Home), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

func requireLandlock(t *testing.T) int {
	t.Helper()
	abi := ABI()
	if abi < 1 {
		t.Skip("this kernel has no Landlock (or it is disabled at boot): nothing to confine with")
	}
	return abi
}

// TestRunEveryABI confines a command at every ABI from 1 to the kernel's and checks that the
// ruleset holds at each: on ABI 1, asking for the "refer" right it lacks would have made
// go-landlock's best-effort mode drop the whole ruleset, and the writes outside would pass.
func TestRunEveryABI(t *testing.T) {
	top := requireLandlock(t)
	for abi := 1; abi <= top; abi++ {
		t.Run(fmt.Sprintf("ABI%d", abi), func(t *testing.T) {
			home, project := scratchHome(t)
			canary := filepath.Join(home, ".ssh", "id_ed25519")
			outside := filepath.Join(home, "notes.txt")
			for _, f := range []string{canary, outside} {
				if err := os.WriteFile(f, []byte("keep"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			tempRoot := t.TempDir()
			o := Options{Project: project, Home: home, TempRoot: tempRoot}
			script := `set -u
echo made > made && mkdir -p a b && echo x > a/f && mv a/f b/f && rm -rf b || echo "PROJECT WORK FAILED"
echo scratch > "$TMPDIR/s" && echo "tmp=$TMPDIR" || echo "SCRATCH FAILED"
echo leak > "` + tempRoot + `/leak" 2>/dev/null && echo "TEMPROOT WRITABLE"
echo pwned > "$HOME/.ssh/id_ed25519" 2>/dev/null && echo "CANARY WRITTEN"
echo pwned >> "$HOME/notes.txt" 2>/dev/null && echo "OUTSIDE WRITTEN"
rm -rf "$HOME/.ssh" 2>/dev/null
echo hi > /dev/null || echo "DEVNULL FAILED"
exit 7`
			code, out := confined(t, o, abi, nil, script)
			if code != 7 {
				t.Fatalf("exit status %d, want 7 passed through; output:\n%s", code, out)
			}
			for _, bad := range []string{"FAILED", "WRITABLE", "WRITTEN"} {
				if strings.Contains(out, bad) {
					t.Errorf("output says %s:\n%s", bad, out)
				}
			}
			for _, f := range []string{canary, outside} {
				if b, err := os.ReadFile(f); err != nil || string(b) != "keep" {
					t.Errorf("%s changed: %q, %v", f, b, err)
				}
			}
			if _, err := os.Stat(filepath.Join(project, "made")); err != nil {
				t.Errorf("the project's own work was not done: %v", err)
			}
			tmp := strings.TrimSpace(out[strings.Index(out, "tmp=")+4:])
			if i := strings.IndexByte(tmp, '\n'); i >= 0 {
				tmp = tmp[:i]
			}
			if filepath.Dir(tmp) != tempRoot {
				t.Errorf("TMPDIR %q is not a private folder under %s", tmp, tempRoot)
			}
			if _, err := os.Stat(tmp); !os.IsNotExist(err) {
				t.Errorf("the scratch folder %s was not removed: %v", tmp, err)
			}
		})
	}
}

// TestRunStatus: the command's exit status passes through, a signal's as 128+N, a missing
// command is 127.
func TestRunStatus(t *testing.T) {
	abi := requireLandlock(t)
	home, project := scratchHome(t)
	o := Options{Project: project, Home: home, TempRoot: t.TempDir()}
	for script, want := range map[string]int{"exit 0": 0, "exit 42": 42, "kill -TERM $$": 128 + 15, "no-such-command-xyz": 127} {
		if code, out := confined(t, o, abi, nil, script); code != want {
			t.Errorf("%s: exit status %d, want %d\n%s", script, code, want, out)
		}
	}
}

// TestRunNetwork: network none refuses a TCP connect (ABI 4+), ports allows the listed port
// only, all allows it.
func TestRunNetwork(t *testing.T) {
	abi := requireLandlock(t)
	if abi < 4 {
		t.Skipf("Landlock ABI %d cannot restrict TCP (ABI 4 can)", abi)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash for /dev/tcp")
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	home, project := scratchHome(t)
	script := fmt.Sprintf(`bash -c 'echo hi > /dev/tcp/127.0.0.1/%d' 2>/dev/null && echo CONNECTED`, port)
	for _, c := range []struct {
		network Network
		ports   []uint16
		want    bool
	}{{NetworkAll, nil, true}, {NetworkNone, nil, false}, {NetworkPorts, []uint16{port}, true}, {NetworkPorts, []uint16{port + 1}, false}} {
		o := Options{Project: project, Home: home, TempRoot: t.TempDir(), Network: c.network, Ports: c.ports}
		_, out := confined(t, o, abi, nil, script)
		if got := strings.Contains(out, "CONNECTED"); got != c.want {
			t.Errorf("network %s %v: connected = %v, want %v\n%s", c.network, c.ports, got, c.want, out)
		}
	}
}

// TestRunRestoresExposed: the protected places inside the project, which Landlock cannot keep
// read-only, are put back when the command ends: a settings file rewritten, a policy added to
// a protected folder, a missing settings file created as a link to a file outside.
func TestRunRestoresExposed(t *testing.T) {
	abi := requireLandlock(t)
	home, project := scratchHome(t)
	settings := filepath.Join(project, ".claude", "settings.json")
	local := filepath.Join(project, ".claude", "settings.local.json")
	policyDir := filepath.Join(project, ".agenthooks")
	for f, content := range map[string]string{settings: `{"hooks":{"PreToolUse":[]}}`, filepath.Join(policyDir, "policy.yaml"): "version: 1\n"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(home, "notes.txt")
	if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Project: project, Home: home, TempRoot: t.TempDir(), Protected: []Target{
		{Path: settings, What: "claude hooks configuration"}, {Path: local, What: "claude hooks configuration"},
		{Path: policyDir, What: "the project's agenthooks policy"}}}
	code, out := confined(t, o, abi, nil, `echo '{}' > .claude/settings.json && echo x > .agenthooks/other.yaml &&
rm .agenthooks/policy.yaml && ln -s "$HOME/notes.txt" .claude/settings.local.json && exit 5`)
	if code != 5 {
		t.Fatalf("exit status %d, want 5\n%s", code, out)
	}
	if b, err := os.ReadFile(settings); err != nil || string(b) != `{"hooks":{"PreToolUse":[]}}` {
		t.Errorf("settings.json = %q, %v: not put back", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(policyDir, "policy.yaml")); err != nil || string(b) != "version: 1\n" {
		t.Errorf("policy.yaml = %q, %v: not put back", b, err)
	}
	for _, gone := range []string{filepath.Join(policyDir, "other.yaml"), local} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", gone, err)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("the file outside changed: %q", b)
	}
	for _, p := range []string{settings, local, "other.yaml", "policy.yaml"} {
		if !strings.Contains(out, p) {
			t.Errorf("no warning names %s:\n%s", p, out)
		}
	}
}

// TestRunCreatesMissingCaches: on a home where an installed toolchain has not run yet, its
// default cache (~/.cache/go-build, ~/.npm, ...) is made before the command and granted, so
// that the first confined go build can write its cache as it would unconfined; the folders
// around it stay read-only, the cache of a toolchain that is not installed is not made, nor is
// a missing folder the policy names.
func TestRunCreatesMissingCaches(t *testing.T) {
	abi := requireLandlock(t)
	root := resolve(t.TempDir())
	home, project, bin := filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "bin")
	for _, d := range []string{home, project, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range []string{"go", "npm"} { // installed; bun is not
		if err := os.WriteFile(filepath.Join(bin, tool), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Project: project, Home: home, TempRoot: t.TempDir(), Writable: []string{"~/not-made"}}
	p, err := NewPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range p.Created {
		found = found || g.Path == filepath.Join(home, ".cache", "go-build")
	}
	if !found || len(p.Skipped) != 1 || p.Skipped[0].Path != filepath.Join(home, "not-made") {
		t.Fatalf("created %v, skipped %v", p.Created, p.Skipped)
	}
	if _, err := os.Stat(filepath.Join(home, ".cache")); !os.IsNotExist(err) {
		t.Fatalf("the plan made a folder before any command ran: %v", err)
	}
	status, out := confined(t, o, abi, []string{"PATH=" + bin + ":/usr/bin:/bin"}, `set -e
echo x > "$HOME/.cache/go-build/entry"
mkdir -p "$HOME/.npm/_logs" && echo log > "$HOME/.npm/_logs/1.log"
if echo y > "$HOME/.cache/other" 2>/dev/null; then echo "wrote beside the caches"; exit 1; fi
if mkdir "$HOME/not-made" 2>/dev/null; then echo "made the policy's missing folder"; exit 1; fi
echo CACHES-OK`)
	if status != 0 || !strings.Contains(out, "CACHES-OK") {
		t.Fatalf("status %d:\n%s", status, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".bun")); !os.IsNotExist(err) {
		t.Errorf("the cache of a toolchain that is not installed was made: %v", err)
	}
}
